/**
 * Cells and rectangles as sheet XML and formulas write them (`C5`, `$A$1:$B$9`, `C:C`, sqref lists),
 * as numbers. A1 spelling itself is ./a1.ts (shared with src/fill and the task pane); this adds the shapes
 * the package readers need on top of it.
 */
import { type Cell, inRange, lettersToColumn, MAX_ROW, parseA1Range, type Range, rangeOfRect, toA1 } from './a1';

export { inRange, type Cell, type Range };

/** `C5` or `$C$5` (no sheet, not a range); null otherwise. */
export function parseCell(address: string): Cell | null {
  const r = parseA1Range(address);
  if (!r || r.sheet !== null || r.rowCount !== 1 || r.columnCount !== 1 || address.includes(':')) return null;
  return { row: r.top, column: r.left };
}

export function formatCell(cell: Cell): string {
  return toA1(cell.row, cell.column);
}

/** `C3:D9`, `$A$1:$A$3`, `C3`, whole columns `A:B`; null when it is none of these. */
export function parseRange(ref: string): Range | null {
  const text = ref.trim();
  const cells = parseA1Range(text);
  if (cells && cells.sheet === null) return rangeOfRect(cells);
  const columns = /^\$?([A-Za-z]{1,3}):\$?([A-Za-z]{1,3})$/.exec(text);
  if (!columns) return null;
  const a = lettersToColumn(columns[1]!);
  const b = lettersToColumn(columns[2]!);
  if (a === null || b === null) return null;
  return { top: 1, bottom: MAX_ROW, left: Math.min(a, b), right: Math.max(a, b) };
}

/** A space-separated sqref (`C3:C9 C12 D1:D4`); parts that are not ranges are dropped. */
export function parseSqref(sqref: string): Range[] {
  return sqref
    .split(/\s+/)
    .filter(Boolean)
    .map(parseRange)
    .filter((r): r is Range => r !== null);
}
