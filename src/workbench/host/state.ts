/**
 * The host's workbook as plain data and back: what the workbench keeps across a reload (cells, notes,
 * comments, protection, selection, the active sheet, document settings). It is applied onto the
 * workbook loaded again from the bytes it was opened with, so the download still patches into the
 * original file. Plain objects and arrays only: it goes into IndexedDB by structured clone.
 */
import type { ExcelHost } from './host';
import type { HostCell, HostSheet } from './model';

export interface SheetState {
  name: string;
  visibility: HostSheet['visibility'];
  protection: HostSheet['protection'];
  /** [cell key, cell] pairs (see model.cellKey). */
  cells: [number, HostCell][];
  merges: HostSheet['merges'];
  validations: HostSheet['validations'];
  notes: [string, { content: string; author: string }][];
  comments: [string, { id: string; content: string; author: string }][];
  selection: string;
}

export interface HostState {
  version: 1;
  sheets: SheetState[];
  activeSheet: string;
  /** Document settings (Office.context.document.settings): what Excel saves inside the workbook. */
  settings: [string, unknown][];
}

const copy = <T>(value: T): T => structuredClone(value);

export function hostState(host: ExcelHost): HostState {
  return {
    version: 1,
    sheets: host.sheets.map((s) => ({
      name: s.name,
      visibility: s.visibility,
      protection: copy(s.protection),
      cells: copy([...s.cells]),
      merges: copy(s.merges),
      validations: copy(s.validations),
      notes: copy([...s.notes]),
      comments: copy([...s.comments]),
      selection: s.selection,
    })),
    activeSheet: host.activeSheet().name,
    settings: copy([...host.settings]),
  };
}

/**
 * Puts a saved state onto a host loaded from the same file. Sheets are matched by name; a saved sheet
 * the file does not have is skipped (the add-in cannot add sheets), and one the state does not name
 * is left as loaded. Returns the names of the sheets restored.
 */
export function restoreHostState(host: ExcelHost, state: HostState): string[] {
  if (state.version !== 1) return [];
  const restored: string[] = [];
  for (const saved of state.sheets) {
    const sheet = host.sheets.find((s) => s.name === saved.name);
    if (!sheet) continue;
    sheet.visibility = saved.visibility;
    sheet.protection = copy(saved.protection);
    sheet.cells = new Map(copy(saved.cells));
    sheet.merges = copy(saved.merges);
    sheet.validations = copy(saved.validations);
    sheet.notes = new Map(copy(saved.notes));
    sheet.comments = new Map(copy(saved.comments));
    sheet.selection = saved.selection;
    restored.push(sheet.name);
  }
  host.settings.clear();
  for (const [k, v] of state.settings) host.settings.set(k, copy(v));
  const active = host.sheets.find((s) => s.name === state.activeSheet && s.visibility === 'Visible');
  if (active) host.activateSheet(active);
  host.afterSync();
  return restored;
}
