/**
 * The one cell and range vocabulary of the code base, and A1 spelling. Slots arrive as `C5`, `$C$5`,
 * `Sheet!C5`, `'My Sheet'!$C$5` or a range `C5:D5` (a merged area: the top-left cell is the one Excel
 * writes to). Rows and columns are 1-based everywhere (A1 is row 1, column 1), as Excel, Office.js
 * addresses and the xlsx format count them. No Office, no DOM: src/fill, src/xlsx, src/service and the
 * pane all import this.
 */

/** Excel's grid limits: XFD = 16384 columns, 1048576 rows. */
export const MAX_COLUMN = 16384;
export const MAX_ROW = 1048576;

/** A cell on no particular sheet. */
export interface Cell {
  /** 1-based row. */
  row: number;
  /** 1-based column (A = 1). */
  column: number;
}

/** A cell as a reference names it: `'My Sheet'!C5` gives sheet `My Sheet`, row 5, column 3. */
export interface CellCoordinate extends Cell {
  /** Sheet named in the reference (`Sheet!C5`), unquoted; null when there was none. */
  sheet: string | null;
}

/**
 * A cell on a tab as the pane, the fill and Excel pass it around: the tab's name and the cell's A1
 * address (`{ tab: 'Security', address: 'C5' }`). It stays a string pair because that is what the
 * service's slots and Office.js speak; parse the address with parseA1 when numbers are needed.
 */
export interface CellRef {
  tab: string;
  address: string;
}

/**
 * A rectangle sized as Office.js sizes a range: top-left cell and a row and column count. The pane,
 * the fill's blocks and the workbench's Excel host use it.
 */
export interface Rect {
  top: number;
  left: number;
  rowCount: number;
  columnCount: number;
}

/**
 * A rectangle by inclusive bounds, 1-based. The same cells as a Rect, kept as a second shape because
 * the sheet readers and the detector test containment cell by cell and walk to the bottom/right edge,
 * which bounds say without arithmetic; rangeOfRect converts.
 */
export interface Range {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

export function rangeOfRect(r: Rect): Range {
  return { top: r.top, left: r.left, bottom: r.top + r.rowCount - 1, right: r.left + r.columnCount - 1 };
}

export function inRange(r: Range, row: number, column: number): boolean {
  return row >= r.top && row <= r.bottom && column >= r.left && column <= r.right;
}

/** `1` -> `A`, `28` -> `AB`. */
export function columnToLetters(column: number): string {
  if (!Number.isInteger(column) || column < 1 || column > MAX_COLUMN) {
    throw new RangeError(`column number ${column} is outside 1..${MAX_COLUMN}`);
  }
  let n = column;
  let letters = '';
  while (n > 0) {
    const rest = (n - 1) % 26;
    letters = String.fromCharCode(65 + rest) + letters;
    n = Math.floor((n - 1) / 26);
  }
  return letters;
}

/** `A` -> 1, `ab` -> 28; null when not letters or past XFD. */
export function lettersToColumn(letters: string): number | null {
  if (!/^[A-Za-z]{1,3}$/.test(letters)) return null;
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n <= MAX_COLUMN ? n : null;
}

export function toA1(row: number, column: number): string {
  if (!Number.isInteger(row) || row < 1 || row > MAX_ROW) throw new RangeError(`row number ${row} is outside 1..${MAX_ROW}`);
  return `${columnToLetters(column)}${row}`;
}

/** `A1:C3` style range address for a rectangle. A single cell gives `A1`. */
export function toA1Range(top: number, left: number, rowCount: number, columnCount: number): string {
  const first = toA1(top, left);
  if (rowCount === 1 && columnCount === 1) return first;
  return `${first}:${toA1(top + rowCount - 1, left + columnCount - 1)}`;
}

const CELL = /^\$?([A-Za-z]{1,3})\$?(\d{1,7})$/;

function splitSheet(ref: string): { sheet: string | null; local: string } {
  const bang = ref.lastIndexOf('!');
  if (bang < 0) return { sheet: null, local: ref };
  let sheet = ref.slice(0, bang).trim();
  if (sheet.startsWith("'") && sheet.endsWith("'") && sheet.length >= 2) sheet = sheet.slice(1, -1).replace(/''/g, "'");
  return { sheet: sheet || null, local: ref.slice(bang + 1) };
}

/**
 * Parses a cell reference; a range gives its top-left cell. Null when it is not an A1 reference
 * (R1C1, a defined name, an empty string, a row past the grid).
 */
export function parseA1(ref: string): CellCoordinate | null {
  if (typeof ref !== 'string') return null;
  const { sheet, local } = splitSheet(ref.trim());
  const parts = local.trim().split(':');
  if (parts.length > 2) return null;
  const cells = parts.map((p) => CELL.exec(p.trim()));
  if (cells.some((m) => m === null)) return null;
  const coords = cells.map((m) => {
    const column = lettersToColumn(m![1]!);
    const row = Number(m![2]);
    return column !== null && row >= 1 && row <= MAX_ROW ? { row, column } : null;
  });
  if (coords.some((c) => c === null)) return null;
  const row = Math.min(...coords.map((c) => c!.row));
  const column = Math.min(...coords.map((c) => c!.column));
  return { sheet, row, column };
}

/** `Sheet!$C$5:D5` -> `C5`; null when not an A1 reference. */
export function normaliseAddress(ref: string): string | null {
  const c = parseA1(ref);
  return c ? toA1(c.row, c.column) : null;
}

/** A rectangle from an A1 range (`C5:D7`); a single cell is a 1x1 rectangle. */
export function parseA1Range(ref: string): (Rect & { sheet: string | null }) | null {
  const { sheet, local } = splitSheet(ref.trim());
  const parts = local.trim().split(':');
  if (parts.length > 2) return null;
  const coords = parts.map((p) => parseA1(p));
  if (coords.some((c) => c === null)) return null;
  const rows = coords.map((c) => c!.row);
  const cols = coords.map((c) => c!.column);
  const top = Math.min(...rows);
  const left = Math.min(...cols);
  return { sheet, top, left, rowCount: Math.max(...rows) - top + 1, columnCount: Math.max(...cols) - left + 1 };
}

/** Sheet name as it must appear before `!` in a formula or address (`'My Sheet'!A1`). */
export function quoteSheetName(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_.]*$/.test(name) && !/^[A-Za-z]{1,3}\d+$/.test(name) ? name : `'${name.replace(/'/g, "''")}'`;
}

/**
 * A slot's coordinate as a CellRef: `'START HERE'!$C$19` gives { tab: 'START HERE', address: 'C19' }; a
 * coordinate without a sheet is on `tab`. Null when the cell part is not one A1 cell (a range, a name).
 */
export function parseCellRef(coordinate: string, tab: string): CellRef | null {
  const bang = coordinate.lastIndexOf('!');
  const sheet =
    bang >= 0
      ? coordinate
          .slice(0, bang)
          .replace(/^'(.*)'$/, '$1')
          .replace(/''/g, "'")
      : tab;
  const address = coordinate
    .slice(bang + 1)
    .replace(/\$/g, '')
    .trim()
    .toUpperCase();
  return /^[A-Z]{1,3}[1-9][0-9]*$/.test(address) ? { tab: sheet, address } : null;
}
