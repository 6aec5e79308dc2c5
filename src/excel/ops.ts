/**
 * Write operations for `runBatched`: rectangular `values` writes that split in halves when too big
 * or refused, fill colours, number formats, and text put in through a temporary `@` format.
 */
import { groupIntoBlocks, halves, type CellBlock } from '../fill';
import type { BatchOp } from './batch';

/** Rough request bytes of a 2D payload (what JSON serialisation of the command would weigh). */
export function gridBytes(grid: unknown[][]): number {
  let n = 2;
  for (const row of grid) {
    n += 2;
    for (const v of row) n += typeof v === 'string' ? v.length * 1.1 + 3 : 8;
  }
  return Math.ceil(n);
}

export const OP_OVERHEAD = 160;

export function textViaFormatOp(tab: string, address: string, text: string, format: string): BatchOp {
  return {
    bytes: OP_OVERHEAD * 3 + text.length + format.length,
    cells: [{ tab, address }],
    queue: (context) => {
      const range = context.workbook.worksheets.getItem(tab).getRange(address);
      range.numberFormat = [['@']];
      range.values = [[text]];
      range.numberFormat = [[format]];
      range.untrack();
    },
    split: () => null,
  };
}

export interface ValuesUnit {
  tab: string;
  block: CellBlock<{ address: string; input: unknown }>;
}

/** A `values` write of a block; splits in halves (rows, then columns) when too big or refused. */
export function valuesOp(unit: ValuesUnit, onWritten?: (cells: number) => void): BatchOp {
  const grid = unit.block.cells.map((row) => row.map((c) => c.input));
  return {
    bytes: gridBytes(grid) + OP_OVERHEAD,
    cells: unit.block.cells.flat().map((c) => ({ tab: unit.tab, address: c.address })),
    queue: (context) => {
      const range = context.workbook.worksheets.getItem(unit.tab).getRange(unit.block.address);
      range.values = grid as Excel.Range['values'];
      range.untrack();
    },
    split: () => (halves(unit.block)?.map((block) => valuesOp({ tab: unit.tab, block }, onWritten)) as [BatchOp, BatchOp] | undefined) ?? null,
    after: () => onWritten?.(unit.block.rowCount * unit.block.columnCount),
  };
}

/** One fill colour (or clearing) on a block of cells. */
export function fillOp(tab: string, block: CellBlock<{ address: string }>, colour: string | null): BatchOp {
  return {
    bytes: OP_OVERHEAD,
    cells: block.cells.flat().map((c) => ({ tab, address: c.address })),
    queue: (context) => {
      const range = context.workbook.worksheets.getItem(tab).getRange(block.address);
      if (colour === null) range.format.fill.clear();
      else range.format.fill.color = colour;
      range.untrack();
    },
    split: () => null,
  };
}

export function numberFormatOp(tab: string, address: string, format: string): BatchOp {
  return {
    bytes: OP_OVERHEAD + format.length,
    cells: [{ tab, address }],
    queue: (context) => {
      const range = context.workbook.worksheets.getItem(tab).getRange(address);
      range.numberFormat = [[format]];
      range.untrack();
    },
    split: () => null,
  };
}

/** Groups cells by a key (a colour) into rectangular blocks per key. */
export function blocksByKey<K>(cells: { address: string; key: K }[]): { key: K; block: CellBlock<{ address: string }> }[] {
  const groups = new Map<K, { address: string }[]>();
  for (const c of cells) {
    let list = groups.get(c.key);
    if (!list) groups.set(c.key, (list = []));
    list.push({ address: c.address });
  }
  return [...groups].flatMap(([key, list]) => groupIntoBlocks(list).map((block) => ({ key, block })));
}
