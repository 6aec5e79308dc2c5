/**
 * One sheet as the layout phases read it: display text per position (merged-over cells read as empty),
 * the visible non-empty cells of a row, list validations and cell styles. Built once per sheet and
 * shared by every phase so that each phase is a plain function of it.
 */
import { getCell, MergeIndex, type GridCell, type Range, type SheetGrid } from './grid';
import type { ValidationLookup } from './validation';

export interface CellStyleLookup {
  locked(style: number): boolean;
  bold(style: number): boolean;
  /** Formatting signature: cells that look alike share it. */
  look(style: number): string;
}

export interface Anchor {
  col: number;
  text: string;
}

export interface SheetView {
  grid: SheetGrid;
  merges: MergeIndex;
  styles: CellStyleLookup;
  validations: ValidationLookup;
  /** Row numbers that have cells, ascending (hidden rows too: a hidden question is still one). */
  rows: number[];
  cell(r: number, c: number): GridCell | undefined;
  /** The merge covering (r, c) when (r, c) is not its top-left cell. */
  coveredBy(r: number, c: number): Range | undefined;
  /** Text a reader sees at this position; null when empty or covered by a merge. */
  text(r: number, c: number): string | null;
  /** Non-empty cells of visible columns in a row, left to right. */
  anchors(r: number): Anchor[];
  /** A list validation applies to the cell. */
  hasList(r: number, c: number): boolean;
}

export function sheetView(grid: SheetGrid, validations: ValidationLookup, styles: CellStyleLookup): SheetView {
  const merges = new MergeIndex(grid.merges);
  const rows = [...grid.rows.keys()].sort((a, b) => a - b);
  const coveredBy = (r: number, c: number): Range | undefined => {
    const m = merges.at(r, c);
    return m && (m.top !== r || m.left !== c) ? m : undefined;
  };
  const text = (r: number, c: number): string | null => {
    if (coveredBy(r, c)) return null;
    const t = getCell(grid, r, c)?.value?.trim();
    return t ? t : null;
  };
  const anchorCache = new Map<number, Anchor[]>();
  const anchors = (r: number): Anchor[] => {
    const cached = anchorCache.get(r);
    if (cached) return cached;
    const out: Anchor[] = [];
    anchorCache.set(r, out);
    const row = grid.rows.get(r);
    if (!row) return out;
    for (const c of [...row.keys()].sort((a, b) => a - b)) {
      if (grid.hiddenCols.has(c)) continue;
      const t = text(r, c);
      if (t) out.push({ col: c, text: t });
    }
    return out;
  };
  return {
    grid,
    merges,
    styles,
    validations,
    rows,
    cell: (r, c) => getCell(grid, r, c),
    coveredBy,
    text,
    anchors,
    hasList: (r, c) => validations.at(r, c) !== undefined,
  };
}
