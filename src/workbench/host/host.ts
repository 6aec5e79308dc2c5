/**
 * The in-memory Excel host: a workbook plus the `Excel` and `Office` namespaces over it. Tests, the
 * bench and the browser workbench install it with `installExcelHost(host)` so `src/excel` runs
 * unchanged. It counts syncs and payload bytes per sync, and can serve file bytes to getFileAsync.
 */
import { type Cell, toA1 } from '../../xlsx/a1';
import { HostOfficeError, ERROR_CODES } from './errors';
import { HostRequestContext, type SelectionHandler } from './excel-api';
import {
  cellAt,
  createSheet,
  enterValue,
  getCell,
  mergeAt,
  parseRect,
  putCell,
  snapshotSheet,
  type HostCell,
  type HostSheet,
  type HostSheetProtection,
  type HostValidation,
  type Rect,
  type WorkbookSnapshot,
} from './model';

export interface ExcelHostOptions {
  /** Highest ExcelApi requirement set this "Excel" supports, e.g. '1.1', '1.10', '1.18'. Default '1.18'. */
  excelApiVersion?: string;
  /** Request payload limit; Excel on the web rejects over 5 MB. */
  payloadLimitBytes?: number;
  /** Response payload limit (what loads return); Excel on the web refuses over 5 MB. */
  responseLimitBytes?: number;
  /** `Office.context.document.url`; null for an unsaved workbook. */
  url?: string | null;
  /** `Office.context.partitionKey`; undefined when storage is not partitioned. */
  partitionKey?: string;
  fileName?: string;
  /** Delay of each sync (simulated round trip), ms. Default 0. */
  syncLatencyMs?: number;
  userName?: string;
}

export interface HostStats {
  syncs: number;
  /** Payload bytes of each sync's request (JSON-serialised queued commands). */
  payloadBytes: number[];
  /** Bytes of each sync's response (JSON-serialised loaded values). */
  responseBytes: number[];
  rejectedSyncs: number;
  calculationSuspensions: number;
  tracked: number;
  untracked: number;
  filesOpened: number;
  filesClosed: number;
  settingsWrites: number;
}

export interface FileFaults {
  /** getFileAsync fails with this message. */
  failOpen?: string;
  /** getSliceAsync of this index fails. */
  failSlice?: number;
  /** Delay before the callback of slice `index` (to deliver slices out of order). */
  sliceDelayMs?: (index: number) => number;
}

export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

function freshStats(): HostStats {
  return {
    syncs: 0,
    payloadBytes: [],
    responseBytes: [],
    rejectedSyncs: 0,
    calculationSuspensions: 0,
    tracked: 0,
    untracked: 0,
    filesOpened: 0,
    filesClosed: 0,
    settingsWrites: 0,
  };
}

export class ExcelHost {
  readonly sheets: HostSheet[] = [];
  excelApiVersion: string;
  payloadLimitBytes: number;
  responseLimitBytes: number;
  url: string | null;
  partitionKey: string | undefined;
  fileName: string;
  syncLatencyMs: number;
  userName: string;
  stats: HostStats = freshStats();
  /** The bytes the workbook was opened with; set by the loader or a test. */
  fileBytes: Uint8Array | null = null;
  /**
   * The workbook as it is now, as .xlsx: what `getFileAsync` serves when set (Excel serves a saved
   * document's current state, not the file it was opened from); else `fileBytes`.
   */
  currentFile: (() => Promise<Uint8Array>) | null = null;
  fileFaults: FileFaults = {};
  /** Non-secret document settings (Office.context.document.settings); writes are counted. */
  readonly settings = new Map<string, unknown>();
  readonly selectionHandlers = new Set<{ sheetId: string | null; handler: SelectionHandler }>();
  readonly documentSelectionHandlers = new Set<(args: unknown) => void>();
  openFile: object | null = null;
  private activeSheetId: string | null = null;
  private nextId = 1;
  private pendingSelectionEvent = false;
  private readonly listeners = new Set<() => void>();

  constructor(options: ExcelHostOptions = {}) {
    this.excelApiVersion = options.excelApiVersion ?? '1.18';
    this.payloadLimitBytes = options.payloadLimitBytes ?? 5 * 1024 * 1024;
    this.responseLimitBytes = options.responseLimitBytes ?? 5 * 1024 * 1024;
    this.url = options.url ?? null;
    this.partitionKey = options.partitionKey;
    this.fileName = options.fileName ?? 'Book1.xlsx';
    this.syncLatencyMs = options.syncLatencyMs ?? 0;
    this.userName = options.userName ?? 'Analyst';
  }

  // ---- Requirement sets ----
  supports(version: string): boolean {
    return compareVersions(version, this.excelApiVersion) <= 0;
  }

  isSetSupported(name: string, version?: string): boolean {
    if (name !== 'ExcelApi') return false;
    return this.supports(version ?? '1.1');
  }

  // ---- Building a workbook (tests, loader, workbench UI) ----
  addSheet(name: string, options: { visibility?: HostSheet['visibility'] } = {}): HostSheet {
    if (this.findSheet(name)) throw new Error(`A sheet named "${name}" already exists.`);
    const sheet = createSheet(name, `{${String(this.nextId++).padStart(8, '0')}}`);
    if (options.visibility) sheet.visibility = options.visibility;
    this.sheets.push(sheet);
    if (!this.activeSheetId && sheet.visibility === 'Visible') this.activeSheetId = sheet.id;
    return sheet;
  }

  sheet(name: string): HostSheet {
    const s = this.findSheet(name);
    if (!s) throw new Error(`No sheet named "${name}" in the host workbook.`);
    return s;
  }

  /** By exact name (Excel's getItem is case-insensitive on names) or by id. */
  findSheet(key: string): HostSheet | null {
    return this.sheets.find((s) => s.id === key || s.name === key) ?? this.sheets.find((s) => s.name.toLowerCase() === key.toLowerCase()) ?? null;
  }

  sheetById(id: string): HostSheet {
    const s = this.sheets.find((x) => x.id === id);
    if (!s) throw new HostOfficeError('ItemNotFound', `The worksheet ${id} no longer exists.`);
    return s;
  }

  /** Sets cell content directly (no Excel parsing): `{ value }`, `{ formula, value }`, formats, lock. */
  setCell(sheetName: string, address: string, cell: Partial<HostCell>): void {
    const sheet = this.sheet(sheetName);
    const { row, column } = cellAt(address);
    putCell(sheet, row, column, { ...getCell(sheet, row, column), ...cell });
    this._changed();
  }

  /** Types a value as a user would (Excel's parsing: formulas, numbers, apostrophe); respects protection. */
  typeValue(sheetName: string, address: string, text: string): void {
    const sheet = this.sheet(sheetName);
    const { row, column } = cellAt(address);
    this.requireEditable(sheet, [{ row, column }]);
    putCell(sheet, row, column, enterValue(getCell(sheet, row, column), text));
    this._changed();
  }

  getCell(sheetName: string, address: string): HostCell {
    const { row, column } = cellAt(address);
    return getCell(this.sheet(sheetName), row, column);
  }

  merge(sheetName: string, address: string): void {
    const rect = parseRect(address);
    if (!rect) throw new Error(`"${address}" is not a range`);
    this.sheet(sheetName).merges.push(rect);
  }

  protect(sheetName: string, options: Partial<HostSheetProtection> = {}): void {
    this.sheet(sheetName).protection = { protected: true, allowFormatCells: false, allowEditObjects: false, ...options };
  }

  addValidation(sheetName: string, validation: HostValidation): void {
    this.sheet(sheetName).validations.push(validation);
  }

  activeSheet(): HostSheet {
    const s = this.sheets.find((x) => x.id === this.activeSheetId) ?? this.sheets.find((x) => x.visibility === 'Visible') ?? this.sheets[0];
    if (!s) throw new HostOfficeError('ItemNotFound', 'The workbook has no worksheets.');
    return s;
  }

  /** The current selection, as the workbench shows it. */
  selection(): { sheet: string; address: string } {
    const s = this.activeSheet();
    return { sheet: s.name, address: s.selection };
  }

  /** A click in the workbench grid: selects and raises selection events like Excel. */
  userSelect(sheetName: string, address: string): void {
    this.selectAddress(this.sheet(sheetName), address);
    this.afterSync();
  }

  snapshot(): WorkbookSnapshot {
    return { sheets: this.sheets.map(snapshotSheet) };
  }

  resetStats(): void {
    this.stats = freshStats();
  }

  /** Called after every sync and direct edit; the workbench re-renders from it. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  // ---- The API proxies (excel-api.ts) and the Office namespace (office.ts) use these during a sync:
  // Excel's own rules (protection, hidden sheets, selection events), public so no file reaches into another's privates. ----
  newId(prefix: string): string {
    return `${prefix}-${this.nextId++}`;
  }

  activateSheet(sheet: HostSheet): void {
    if (sheet.visibility !== 'Visible') throw new HostOfficeError('InvalidOperation', `The sheet "${sheet.name}" is hidden and cannot be activated.`);
    if (this.activeSheetId !== sheet.id) {
      this.activeSheetId = sheet.id;
      this.pendingSelectionEvent = true;
    }
  }

  selectAddress(sheet: HostSheet, address: string): void {
    this.activateSheet(sheet);
    if (sheet.selection !== address) this.pendingSelectionEvent = true;
    sheet.selection = address;
  }

  requireEditable(sheet: HostSheet, cells: Cell[]): void {
    if (!sheet.protection.protected) return;
    for (const { row, column } of cells) {
      const anchor = mergeAt(sheet, row, column);
      const cell = getCell(sheet, anchor?.top ?? row, anchor?.left ?? column);
      if (cell.locked) {
        throw new HostOfficeError(
          'AccessDenied',
          `The cell or chart you're trying to change is on a protected sheet: ${sheet.name}!${toA1(row, column)} is locked.`,
        );
      }
    }
  }

  requireFormatting(sheet: HostSheet, rect: Rect): void {
    if (sheet.protection.protected && !sheet.protection.allowFormatCells) {
      throw new HostOfficeError('AccessDenied', `Formatting cells is not allowed on the protected sheet ${sheet.name} (${toA1(rect.top, rect.left)}).`);
    }
  }

  requireObjectEditing(sheet: HostSheet, address: string): void {
    if (sheet.protection.protected && !sheet.protection.allowEditObjects) {
      throw new HostOfficeError('AccessDenied', `Notes and comments cannot be changed on the protected sheet ${sheet.name} (${address}).`);
    }
  }

  afterSync(): void {
    if (this.pendingSelectionEvent) {
      this.pendingSelectionEvent = false;
      const sheet = this.activeSheet();
      const address = sheet.selection;
      // Excel raises selection events after the request completes, never inside it.
      setTimeout(() => this._raiseSelectionChanged(sheet, address), 0);
    }
    this._changed();
  }

  private _raiseSelectionChanged(sheet: HostSheet, address: string): void {
    for (const { sheetId, handler } of [...this.selectionHandlers]) {
      if (sheetId === null) void handler({ type: 'WorkbookSelectionChanged', source: 'Local' });
      else if (sheetId === sheet.id) void handler({ type: 'WorksheetSelectionChanged', address, worksheetId: sheet.id, source: 'Local' });
    }
    for (const handler of [...this.documentSelectionHandlers]) handler({ type: 'documentSelectionChanged' });
  }

  private _changed(): void {
    for (const l of this.listeners) l();
  }

  // ---- Namespaces ----
  /** The `Excel` global. */
  createExcelNamespace(): Record<string, unknown> {
    const host = this;
    const run = async (...args: unknown[]) => {
      const batch = args[args.length - 1] as (ctx: HostRequestContext) => Promise<unknown>;
      if (typeof batch !== 'function') throw new HostOfficeError('InvalidArgument', 'Excel.run needs a batch function.');
      const first = args.length > 1 ? args[0] : undefined;
      let context: HostRequestContext;
      if (first instanceof HostRequestContext) context = first;
      else if (first && typeof first === 'object' && 'context' in first && (first as { context: unknown }).context instanceof HostRequestContext) {
        context = (first as { context: HostRequestContext }).context;
      } else {
        context = new HostRequestContext(host);
        if (first && typeof first === 'object' && (first as { mergeUndoGroup?: boolean }).mergeUndoGroup) {
          if (!host.supports('1.20')) {
            // Older Excel ignores unknown run options; nothing to do.
          } else context.mergeUndoGroup = true;
        }
      }
      const result = await batch(context);
      // Excel.run sends whatever the batch left queued.
      if (context.pendingCommands > 0) await context.sync();
      return result;
    };
    return {
      run,
      RequestContext: function RequestContext() {
        return new HostRequestContext(host);
      },
      ErrorCodes: { ...ERROR_CODES },
    };
  }

  /** The `OfficeExtension` global (error class). */
  createOfficeExtensionNamespace(): Record<string, unknown> {
    return { Error: HostOfficeError, ErrorCodes: { ...ERROR_CODES } };
  }
}
