/**
 * A format-neutral view of one worksheet (from xlsx XML or from CSV): what the layout analysis reads.
 * Rows and columns are 1-based, as in Excel.
 */

export interface Cell {
  /** Display text: the cached value for formulas, shared/inline strings resolved; null when empty. */
  value: string | null;
  formula: boolean;
  /** Index into the workbook's cellXfs (0 when unknown). */
  style: number;
}

export interface Range {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

export interface Validation {
  ranges: Range[];
  /** `list`, `whole`, `decimal`, `date`, ... as written; `any` when absent. */
  type: string;
  /** formula1 as written (inline list in quotes, a reference, a defined name or a formula). */
  formula1: string;
}

export type SheetState = 'visible' | 'hidden' | 'veryHidden';

export interface SheetGrid {
  name: string;
  state: SheetState;
  rows: Map<number, Map<number, Cell>>;
  maxRow: number;
  maxCol: number;
  merges: Range[];
  validations: Validation[];
  isProtected: boolean;
  /** Style index that applies to a cell that has no <c> element: row style, else column style. */
  rowStyles: Map<number, number>;
  colStyles: Map<number, number>;
  hiddenCols: Set<number>;
  hiddenRows: Set<number>;
}

export function emptyGrid(name: string, state: SheetState = 'visible'): SheetGrid {
  return {
    name,
    state,
    rows: new Map(),
    maxRow: 0,
    maxCol: 0,
    merges: [],
    validations: [],
    isProtected: false,
    rowStyles: new Map(),
    colStyles: new Map(),
    hiddenCols: new Set(),
    hiddenRows: new Set(),
  };
}

export function setCell(grid: SheetGrid, row: number, col: number, cell: Cell): void {
  let r = grid.rows.get(row);
  if (!r) {
    r = new Map();
    grid.rows.set(row, r);
  }
  r.set(col, cell);
  if (row > grid.maxRow) grid.maxRow = row;
  if (col > grid.maxCol) grid.maxCol = col;
}

export function getCell(grid: SheetGrid, row: number, col: number): Cell | undefined {
  return grid.rows.get(row)?.get(col);
}

export function colToLetters(col: number): string {
  let s = '';
  let n = col;
  while (n > 0) {
    const m = (n - 1) % 26;
    s = String.fromCharCode(65 + m) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
}

export function lettersToCol(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}

export function address(row: number, col: number): string {
  return `${colToLetters(col)}${row}`;
}

/** `C3`, `$C$3` → {row, col}; null when it is not a cell reference. */
export function parseCellRef(ref: string): { row: number; col: number } | null {
  const m = /^\$?([A-Za-z]{1,3})\$?(\d{1,7})$/.exec(ref.trim());
  if (!m) return null;
  return { col: lettersToCol(m[1]), row: Number(m[2]) };
}

/** `C3:D9`, `$A$1:$A$3`, `C3` → a range; whole columns `A:A` span 1..1048576. */
export function parseRangeRef(ref: string): Range | null {
  const [a, b] = ref.trim().split(':');
  const one = parseCellRef(a);
  if (one) {
    const two = b === undefined ? one : parseCellRef(b);
    if (!two) return null;
    return {
      top: Math.min(one.row, two.row),
      bottom: Math.max(one.row, two.row),
      left: Math.min(one.col, two.col),
      right: Math.max(one.col, two.col),
    };
  }
  const colA = /^\$?([A-Za-z]{1,3})$/.exec(a ?? '');
  const colB = /^\$?([A-Za-z]{1,3})$/.exec(b ?? '');
  if (colA && colB) {
    const l = lettersToCol(colA[1]);
    const r = lettersToCol(colB[1]);
    return { top: 1, bottom: 1_048_576, left: Math.min(l, r), right: Math.max(l, r) };
  }
  return null;
}

/** A space-separated sqref (`C3:C9 C12 D1:D4`). */
export function parseSqref(sqref: string): Range[] {
  return sqref
    .split(/\s+/)
    .filter(Boolean)
    .map(parseRangeRef)
    .filter((r): r is Range => r !== null);
}

export function inRange(r: Range, row: number, col: number): boolean {
  return row >= r.top && row <= r.bottom && col >= r.left && col <= r.right;
}

/** Finds merges quickly: every covered cell of small merges is indexed; huge merges are scanned. */
export class MergeIndex {
  private readonly byCell = new Map<number, Range>();
  private readonly large: Range[] = [];

  constructor(merges: Range[]) {
    for (const m of merges) {
      const size = (m.bottom - m.top + 1) * (m.right - m.left + 1);
      if (size > 5000) {
        this.large.push(m);
        continue;
      }
      for (let r = m.top; r <= m.bottom; r++) {
        for (let c = m.left; c <= m.right; c++) this.byCell.set(r * 16385 + c, m);
      }
    }
  }

  at(row: number, col: number): Range | undefined {
    if (this.byCell.size === 0 && this.large.length === 0) return undefined;
    return this.byCell.get(row * 16385 + col) ?? this.large.find((m) => inRange(m, row, col));
  }
}
