/**
 * What the analyst does in the workbench's grid: typing into a cell, pasting a block, deleting the
 * contents of the selection, and undoing those (Ctrl+Z undoes the analyst's own edits, newest first).
 * Edits go into the host's workbook with Excel's rules for entered text, so the add-in reads them
 * through the Excel API on its next sync, and the fill's own undo sees them as edits made after the
 * fill (it keeps them).
 */
import { type Cell, parseA1Range, toA1 } from '../xlsx/a1';
import type { ExcelHost } from './host/host';
import { enterValue, getCell, mergeAt, putCell, type HostCell, type HostSheet } from './host/model';

interface CellChange {
  row: number;
  column: number;
  before: HostCell;
  after: HostCell;
}

interface Edit {
  sheetId: string;
  changes: CellChange[];
}

const same = (a: HostCell, b: HostCell) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Clipboard text as rows of cells: tab-separated, one row a line, a field in double quotes may hold
 * tabs, line breaks and `""` (as Excel and Sheets copy cells with line breaks).
 */
export function parseClipboard(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let i = 0;
  const body = text.replace(/\r\n?/g, '\n').replace(/\n$/, '');
  while (i <= body.length) {
    if (field === '' && body[i] === '"') {
      const close = body.indexOf('"', i + 1);
      let j = i + 1;
      let quoted = '';
      let end = close;
      while (end >= 0 && body[end + 1] === '"') {
        quoted += `${body.slice(j, end)}"`;
        j = end + 2;
        end = body.indexOf('"', j);
      }
      const after = end >= 0 ? body[end + 1] : undefined;
      if (end >= 0 && (after === undefined || after === '\t' || after === '\n')) {
        field = quoted + body.slice(j, end);
        i = end + 1;
        continue;
      }
    }
    const c = body[i];
    if (c === undefined || c === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else if (c === '\t') {
      row.push(field);
      field = '';
    } else field += c;
    i++;
  }
  return rows;
}

export class UserEdits {
  private readonly undoStack: Edit[] = [];

  constructor(private readonly host: ExcelHost) {}

  get canUndo(): boolean {
    return this.undoStack.length > 0;
  }

  /** Types `text` into one cell, as Enter after typing does in Excel. Throws (changing nothing) on a locked cell. */
  type(sheetName: string, address: string, text: string): void {
    const sheet = this.host.sheet(sheetName);
    const range = this.rect(address);
    this.apply(sheet, [{ row: range.top, column: range.left, text }]);
  }

  /** Pastes clipboard text with its top-left cell at `address`; cells inside a merged area other than its first are skipped. */
  paste(sheetName: string, address: string, clipboard: string): string {
    const sheet = this.host.sheet(sheetName);
    const { top, left } = this.rect(address);
    const rows = parseClipboard(clipboard);
    const cells = rows.flatMap((r, i) => r.map((text, j) => ({ row: top + i, column: left + j, text })));
    this.apply(sheet, cells);
    const width = Math.max(1, ...rows.map((r) => r.length));
    return rows.length * width > 1 ? `${toA1(top, left)}:${toA1(top + rows.length - 1, left + width - 1)}` : toA1(top, left);
  }

  /** Delete: clears the contents of the cells in `address` (a cell or range) and keeps their formats. */
  clear(sheetName: string, address: string): void {
    const sheet = this.host.sheet(sheetName);
    const r = this.rect(address);
    const cells = [];
    for (let i = 0; i < r.rowCount; i++) for (let j = 0; j < r.columnCount; j++) cells.push({ row: r.top + i, column: r.left + j, text: '' });
    this.apply(sheet, cells);
  }

  /**
   * Undoes the newest edit: each of its cells goes back to what it held before, unless something
   * (the add-in, a fill) changed it since; those keep their newer content. Returns the cells undone,
   * null when there is nothing to undo.
   */
  undo(): string[] | null {
    const edit = this.undoStack.pop();
    if (!edit) return null;
    const sheet = this.host.sheets.find((s) => s.id === edit.sheetId);
    if (!sheet) return [];
    const undone: string[] = [];
    for (const c of edit.changes) {
      if (!same(getCell(sheet, c.row, c.column), c.after)) continue;
      putCell(sheet, c.row, c.column, c.before);
      undone.push(toA1(c.row, c.column));
    }
    this.host.afterSync();
    return undone;
  }

  private rect(address: string) {
    const r = parseA1Range(address);
    if (!r) throw new Error(`"${address}" is not a cell or range`);
    return r;
  }

  private apply(sheet: HostSheet, cells: (Cell & { text: string })[]): void {
    const writable = cells.filter(({ row, column }) => {
      const merge = mergeAt(sheet, row, column);
      return !merge || (merge.top === row && merge.left === column);
    });
    this.host.requireEditable(sheet, writable);
    const changes: CellChange[] = [];
    for (const { row, column, text } of writable) {
      const before = getCell(sheet, row, column);
      const after = enterValue(before, text);
      if (same(before, after)) continue;
      putCell(sheet, row, column, after);
      changes.push({ row, column, before, after: getCell(sheet, row, column) });
    }
    if (changes.length) this.undoStack.push({ sheetId: sheet.id, changes });
    this.host.afterSync();
  }
}
