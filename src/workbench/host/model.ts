/**
 * The in-memory workbook behind the Excel host: sheets, cells, merges, validations, notes and comments,
 * with Excel's rules for what a written value becomes. No Office.js here (see office-api.ts) and no
 * Node imports: it runs in the browser workbench too.
 */
import { type Cell, parseA1, parseA1Range, type Rect, toA1, toA1Range } from '../../xlsx/a1';

export type CellValue = string | number | boolean | null;

export interface HostCell {
  /** A constant, or the cached result of `formula` (null when never calculated). */
  value: CellValue;
  /** `=...` when the cell holds a formula. */
  formula: string | null;
  numberFormat: string;
  /** Solid fill colour `#RRGGBB`, or null for no fill. */
  fill: string | null;
  /** Excel's default is locked; it only matters on a protected sheet. */
  locked: boolean;
  /** The value was entered with a leading apostrophe (xlsx `quotePrefix`): text, never parsed. */
  quotePrefix: boolean;
  /** The value is an error such as `#N/A`. */
  isError?: boolean;
}

export type { Rect } from '../../xlsx/a1';

export interface HostValidation {
  /** A1 range(s) the rule covers, space separated as in xlsx `sqref`. */
  range: string;
  type: string;
  /** The list source as written: `"Yes,No,NA"` or a formula like `=YesNo`. */
  source: string;
}

export interface HostSheetProtection {
  protected: boolean;
  allowFormatCells: boolean;
  allowEditObjects: boolean;
}

export interface HostSheet {
  id: string;
  name: string;
  visibility: 'Visible' | 'Hidden' | 'VeryHidden';
  protection: HostSheetProtection;
  cells: Map<number, HostCell>;
  merges: Rect[];
  validations: HostValidation[];
  notes: Map<string, { content: string; author: string }>;
  /** Workbook comments anchored on this sheet, by cell address. */
  comments: Map<string, { id: string; content: string; author: string }>;
  /** The cell selected when the sheet was last active. */
  selection: string;
}

export const DEFAULT_FORMAT = 'General';

export function emptyCell(): HostCell {
  return { value: null, formula: null, numberFormat: DEFAULT_FORMAT, fill: null, locked: true, quotePrefix: false };
}

export function cellKey(row: number, column: number): number {
  return row * 20000 + column;
}

export function keyToRowColumn(key: number): Cell {
  return { row: Math.floor(key / 20000), column: key % 20000 };
}

function isDefault(cell: HostCell): boolean {
  return cell.value === null && cell.formula === null && cell.numberFormat === DEFAULT_FORMAT && cell.fill === null && cell.locked && !cell.quotePrefix;
}

export function createSheet(name: string, id: string): HostSheet {
  return {
    id,
    name,
    visibility: 'Visible',
    protection: { protected: false, allowFormatCells: false, allowEditObjects: false },
    cells: new Map(),
    merges: [],
    validations: [],
    notes: new Map(),
    comments: new Map(),
    selection: 'A1',
  };
}

export function getCell(sheet: HostSheet, row: number, column: number): HostCell {
  return sheet.cells.get(cellKey(row, column)) ?? emptyCell();
}

export function putCell(sheet: HostSheet, row: number, column: number, cell: HostCell): void {
  const key = cellKey(row, column);
  if (isDefault(cell)) sheet.cells.delete(key);
  else sheet.cells.set(key, cell);
}

export function mergeAt(sheet: HostSheet, row: number, column: number): Rect | null {
  for (const m of sheet.merges) {
    if (row >= m.top && row < m.top + m.rowCount && column >= m.left && column < m.left + m.columnCount) return m;
  }
  return null;
}

export function rectAddress(r: Rect): string {
  return toA1Range(r.top, r.left, r.rowCount, r.columnCount);
}

export function parseRect(address: string): Rect | null {
  const r = parseA1Range(address);
  return r && r.sheet === null ? { top: r.top, left: r.left, rowCount: r.rowCount, columnCount: r.columnCount } : null;
}

export function cellsOf(r: Rect): Cell[] {
  const out: Cell[] = [];
  for (let i = 0; i < r.rowCount; i++) for (let j = 0; j < r.columnCount; j++) out.push({ row: r.top + i, column: r.left + j });
  return out;
}

export function intersects(a: Rect, b: Rect): boolean {
  return a.top < b.top + b.rowCount && b.top < a.top + a.rowCount && a.left < b.left + b.columnCount && b.left < a.left + a.columnCount;
}

// ---- What Excel makes of a typed/written value ----------------------------------------------------

const EXCEL_EPOCH_UTC = Date.UTC(1899, 11, 30);

function dateSerial(year: number, month: number, day: number): number | null {
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  const t = Date.UTC(year, month - 1, day);
  const d = new Date(t);
  if (d.getUTCMonth() !== month - 1) return null;
  return (t - EXCEL_EPOCH_UTC) / 86400000;
}

/** A string Excel converts on entry (General format): numbers, percentages, booleans, simple dates. */
function convertConstant(text: string): { value: number | boolean; numberFormat?: string } | null {
  const t = text.trim();
  if (/^(true|false)$/i.test(t)) return { value: t.toLowerCase() === 'true' };
  if (/^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i.test(t)) return { value: Number(t) };
  if (/^[+-]?\d{1,3}(,\d{3})+(\.\d+)?$/.test(t)) return { value: Number(t.replace(/,/g, '')), numberFormat: '#,##0' };
  const pct = /^([+-]?\d+(\.\d+)?)\s*%$/.exec(t);
  if (pct) return { value: Number(pct[1]) / 100, numberFormat: '0%' };
  let m = /^(\d{1,2})\/(\d{1,2})(?:\/(\d{2,4}))?$/.exec(t);
  if (m) {
    const year = m[3] ? (m[3].length === 2 ? 2000 + Number(m[3]) : Number(m[3])) : new Date().getFullYear();
    const serial = dateSerial(year, Number(m[1]), Number(m[2]));
    if (serial !== null) return { value: serial, numberFormat: 'm/d/yyyy' };
  }
  m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(t);
  if (m) {
    const serial = dateSerial(Number(m[1]), Number(m[2]), Number(m[3]));
    if (serial !== null) return { value: serial, numberFormat: 'yyyy-mm-dd' };
  }
  return null;
}

/**
 * Writes one value the way Excel does for `range.values` / `range.formulas`: a leading apostrophe
 * makes text (and is not stored); with number format `@` everything is text; otherwise `=` starts a
 * formula, `+`/`-` followed by text becomes a formula too, and number-like strings become numbers.
 * `null`/`undefined` leaves the cell unchanged (Office.js semantics).
 */
export function enterValue(previous: HostCell, input: unknown): HostCell {
  if (input === null || input === undefined) return previous;
  const cell: HostCell = { ...previous, formula: null, quotePrefix: false, isError: false };
  delete cell.isError;
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) throw new Error('InvalidArgument: a number must be finite');
    cell.value = input;
    return cell;
  }
  if (typeof input === 'boolean') {
    cell.value = input;
    return cell;
  }
  const text = String(input);
  if (text === '') {
    cell.value = null;
    return cell;
  }
  if (text.startsWith("'")) {
    cell.value = text.slice(1);
    cell.quotePrefix = true;
    return cell;
  }
  if (previous.numberFormat === '@') {
    cell.value = text;
    return cell;
  }
  if (text.startsWith('=') && text.length > 1) {
    cell.formula = text;
    cell.value = null; // the host does not calculate
    return cell;
  }
  const converted = convertConstant(text);
  if (converted) {
    cell.value = converted.value;
    if (converted.numberFormat && previous.numberFormat === DEFAULT_FORMAT) cell.numberFormat = converted.numberFormat;
    return cell;
  }
  if ((text.startsWith('+') || text.startsWith('-')) && text.length > 1) {
    cell.formula = `=${text}`;
    cell.value = '#NAME?';
    cell.isError = true;
    return cell;
  }
  cell.value = text;
  return cell;
}

/** `range.values` of one cell: cached value for formulas, '' for empty. */
export function readValue(cell: HostCell): string | number | boolean {
  return cell.value ?? '';
}

/** `range.formulas` of one cell: the formula, else the constant (a quote prefix is not returned: office-js #6687). */
export function readFormula(cell: HostCell): string | number | boolean {
  return cell.formula ?? cell.value ?? '';
}

export function readValueType(cell: HostCell): 'Empty' | 'String' | 'Double' | 'Boolean' | 'Error' {
  const v = cell.value;
  if (cell.isError) return 'Error';
  if (v === null || v === '') return cell.formula ? 'String' : 'Empty';
  if (typeof v === 'number') return 'Double';
  if (typeof v === 'boolean') return 'Boolean';
  return 'String';
}

export function readText(cell: HostCell): string {
  const v = cell.value;
  if (v === null) return '';
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  return String(v);
}

export function usedRect(sheet: HostSheet, valuesOnly = false): Rect | null {
  let top = Infinity;
  let left = Infinity;
  let bottom = -Infinity;
  let right = -Infinity;
  for (const [key, cell] of sheet.cells) {
    if (valuesOnly && cell.value === null && cell.formula === null) continue;
    const { row, column } = keyToRowColumn(key);
    top = Math.min(top, row);
    left = Math.min(left, column);
    bottom = Math.max(bottom, row);
    right = Math.max(right, column);
  }
  if (top === Infinity) return null;
  return { top, left, rowCount: bottom - top + 1, columnCount: right - left + 1 };
}

// ---- Snapshot for cell-by-cell comparison -----------------------------------------------------

export interface SheetSnapshot {
  name: string;
  visibility: HostSheet['visibility'];
  protection: HostSheetProtection;
  cells: Record<string, HostCell>;
  merges: string[];
  validations: HostValidation[];
  notes: Record<string, string>;
  comments: Record<string, string>;
}

export interface WorkbookSnapshot {
  sheets: SheetSnapshot[];
}

export function snapshotSheet(sheet: HostSheet): SheetSnapshot {
  const cells: Record<string, HostCell> = {};
  const keys = [...sheet.cells.keys()].sort((a, b) => a - b);
  for (const key of keys) {
    const { row, column } = keyToRowColumn(key);
    cells[toA1(row, column)] = { ...sheet.cells.get(key)! };
  }
  return {
    name: sheet.name,
    visibility: sheet.visibility,
    protection: { ...sheet.protection },
    cells,
    merges: sheet.merges.map(rectAddress).sort(),
    validations: sheet.validations.map((v) => ({ ...v })),
    notes: Object.fromEntries([...sheet.notes].map(([a, n]) => [a, n.content]).sort()),
    comments: Object.fromEntries([...sheet.comments].map(([a, c]) => [a, c.content]).sort()),
  };
}

/** Parses `C5` (no sheet) into row/column or throws a message naming the address. */
export function cellAt(address: string): Cell {
  const c = parseA1(address);
  if (!c || address.includes(':')) throw new Error(`"${address}" is not a cell address`);
  return { row: c.row, column: c.column };
}
