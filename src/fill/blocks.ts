/**
 * Grouping cells into filled rectangles so a writer sends one `values` write per rectangle instead
 * of one per cell. A rectangle never contains a cell that was not asked for: writing it would
 * overwrite the analyst's cell with an empty string.
 */
import { parseA1, type Rect, toA1Range } from '../xlsx/a1';

export interface CellBlock<T> extends Rect {
  /** `C3:D40` (or `C3` for one cell), no sheet prefix. */
  address: string;
  /** `cells[r][c]` is the item at (top + r, left + c); every position is filled. */
  cells: T[][];
}

/**
 * Rectangular blocks covering exactly the given cells: vertical runs per column, then runs with the
 * same rows in adjacent columns joined side by side. Order: by left column, then top row.
 * Throws on a duplicate or an address that is not a single A1 cell.
 */
export function groupIntoBlocks<T extends { address: string }>(cells: readonly T[]): CellBlock<T>[] {
  const byColumn = new Map<number, { row: number; item: T }[]>();
  const seen = new Set<string>();
  for (const item of cells) {
    const c = parseA1(item.address);
    if (!c || item.address.includes(':')) throw new Error(`groupIntoBlocks: "${item.address}" is not a cell address`);
    const key = `${c.row}:${c.column}`;
    if (seen.has(key)) throw new Error(`groupIntoBlocks: cell ${item.address} is listed twice`);
    seen.add(key);
    let list = byColumn.get(c.column);
    if (!list) byColumn.set(c.column, (list = []));
    list.push({ row: c.row, item });
  }

  // Vertical runs, keyed by their row span so adjacent columns with the same span can be joined.
  interface Run {
    column: number;
    top: number;
    items: T[];
  }
  const columns = [...byColumn.keys()].sort((a, b) => a - b);
  const open = new Map<string, CellBlock<T>>();
  const blocks: CellBlock<T>[] = [];
  for (const column of columns) {
    const list = byColumn.get(column)!.sort((a, b) => a.row - b.row);
    const runs: Run[] = [];
    for (const { row, item } of list) {
      const last = runs[runs.length - 1];
      if (last && last.top + last.items.length === row) last.items.push(item);
      else runs.push({ column, top: row, items: [item] });
    }
    for (const run of runs) {
      const span = `${run.top}:${run.items.length}`;
      const block = open.get(span);
      if (block && block.left + block.columnCount === column) {
        block.columnCount += 1;
        run.items.forEach((item, r) => block.cells[r]!.push(item));
      } else {
        const fresh: CellBlock<T> = {
          address: '',
          top: run.top,
          left: column,
          rowCount: run.items.length,
          columnCount: 1,
          cells: run.items.map((item) => [item]),
        };
        open.set(span, fresh);
        blocks.push(fresh);
      }
    }
  }
  for (const b of blocks) b.address = toA1Range(b.top, b.left, b.rowCount, b.columnCount);
  return blocks;
}

/** The block cut in two: top and bottom halves of its rows, else left and right of its columns; null for one cell. */
export function halves<T>(block: CellBlock<T>): [CellBlock<T>, CellBlock<T>] | null {
  const part = (top: number, left: number, cells: T[][]): CellBlock<T> => {
    const rowCount = cells.length;
    const columnCount = cells[0]!.length;
    return { address: toA1Range(top, left, rowCount, columnCount), top, left, rowCount, columnCount, cells };
  };
  if (block.rowCount > 1) {
    const half = Math.ceil(block.rowCount / 2);
    return [part(block.top, block.left, block.cells.slice(0, half)), part(block.top + half, block.left, block.cells.slice(half))];
  }
  if (block.columnCount > 1) {
    const half = Math.ceil(block.columnCount / 2);
    const row = block.cells[0]!;
    return [part(block.top, block.left, [row.slice(0, half)]), part(block.top, block.left + half, [row.slice(half)])];
  }
  return null;
}
