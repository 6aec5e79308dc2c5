/**
 * A format-neutral view of one worksheet (from xlsx XML or from CSV): what the layout analysis reads.
 * Rows and columns are 1-based, as in Excel.
 */
import { type Cell, inRange, type Range } from '../../xlsx/ranges';
import type { DataValidation } from '../../xlsx/validations';

/** What one grid position holds (a position itself is the vocabulary's Cell in src/xlsx/a1.ts). */
export interface GridCell {
  /** Display text: the cached value for formulas, shared/inline strings resolved; null when empty. */
  value: string | null;
  formula: boolean;
  /**
   * The one cell a formula shows (`='START HERE'!C19`): a mirror of that cell, its sheet named as the
   * workbook names it. Absent for values and for formulas that compute from more than one cell.
   */
  mirrors?: Cell & { sheet: string };
  /** Index into the workbook's cellXfs (0 when unknown). */
  style: number;
}

export type { Range };

/** A data validation as src/xlsx reads it. */
export type Validation = DataValidation;

export type SheetState = 'visible' | 'hidden' | 'veryHidden';

export interface SheetGrid {
  name: string;
  state: SheetState;
  rows: Map<number, Map<number, GridCell>>;
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

export function setCell(grid: SheetGrid, row: number, col: number, cell: GridCell): void {
  let r = grid.rows.get(row);
  if (!r) {
    r = new Map();
    grid.rows.set(row, r);
  }
  r.set(col, cell);
  if (row > grid.maxRow) grid.maxRow = row;
  if (col > grid.maxCol) grid.maxCol = col;
}

export function getCell(grid: SheetGrid, row: number, col: number): GridCell | undefined {
  return grid.rows.get(row)?.get(col);
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
