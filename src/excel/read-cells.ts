/**
 * Reading what the fill needs to know about its target cells, in a constant number of syncs:
 * value, formula, value type, number format, and when asked the lock state (protected sheets),
 * fill colour (for Undo of highlighting) and whether the cell already has a note or comment.
 */
import { groupIntoBlocks, halves, parseA1, toA1, type CellBlock, type CellRef } from '../fill';
import { runBatched, type BatchOp } from './batch';
import type { ApiFeature } from './office';

export interface CellRead {
  /** `range.formulas`: the formula, or the constant. */
  formula: string | number | boolean;
  /** `range.values`: the displayed (cached) value. */
  value: string | number | boolean;
  valueType: string;
  numberFormat: string;
  hasFormula: boolean;
  /** Known on protected sheets when the API can tell; undefined otherwise. */
  locked?: boolean;
  /** Fill colour, null for none; only when fills were asked for. */
  fill?: string | null;
}

export interface WorkbookRead {
  protectedSheets: Set<string>;
  cells: Map<string, Map<string, CellRead>>;
  /** `tab!address` of cells that already have a note or comment (when asked). */
  annotated: Set<string>;
}

export interface ReadWants {
  fills?: boolean;
  annotations?: boolean;
}

export interface ReadEnv {
  support: Record<ApiFeature, boolean>;
  budgetBytes: number;
  onSync: () => void;
}

/**
 * A formula cell, told apart from text that merely starts with `=` (stored with a quote prefix):
 * for a formula, `values` holds its result, not the formula text.
 */
export function isFormula(formula: unknown, value: unknown): boolean {
  return typeof formula === 'string' && formula.startsWith('=') && formula !== value;
}

/** A read: `queue` loads proxies and returns what to do with them once the sync succeeded. */
function readOp(bytes: number, cells: CellRef[], queue: () => () => void): BatchOp {
  let collect: (() => void) | null = null;
  return {
    bytes,
    cells,
    split: () => null,
    queue: () => {
      collect = queue();
    },
    after: () => collect?.(),
  };
}

/**
 * Loads a block's values, formulas, types, formats (and lock state, fill where asked) in one read.
 * Excel on the web refuses a response over 5 MB (long texts in many cells): the read then splits
 * in halves, by rows and then by columns, until each part fits.
 */
function blockReadOp(
  sheet: Excel.Worksheet,
  tab: string,
  block: CellBlock<{ address: string }>,
  cells: Map<string, CellRead>,
  wants: ReadWants,
  support: Record<ApiFeature, boolean>,
): BatchOp {
  const op = readOp(300, [{ tab, address: block.address }], () => {
    const range = sheet.getRange(block.address);
    range.load('values, formulas, valueTypes, numberFormat');
    const props = support.cellProperties
      ? range.getCellProperties({ format: { ...(wants.fills ? { fill: { color: true, pattern: true } } : {}), protection: true } })
      : null;
    range.untrack();
    return () => {
      block.cells.forEach((row, i) =>
        row.forEach((cell, j) => {
          const formula = range.formulas[i]![j] as string | number | boolean;
          const value = range.values[i]![j] as string | number | boolean;
          const read: CellRead = {
            formula,
            value,
            valueType: String(range.valueTypes[i]![j]),
            numberFormat: String(range.numberFormat[i]![j]),
            hasFormula: isFormula(formula, value),
          };
          const p = props?.value[i]?.[j];
          if (p?.format?.protection && typeof p.format.protection.locked === 'boolean') read.locked = p.format.protection.locked;
          if (wants.fills && p?.format?.fill) read.fill = p.format.fill.pattern === 'None' ? null : (p.format.fill.color ?? null);
          cells.set(cell.address, read);
        }),
      );
    };
  });
  op.split = () => (halves(block)?.map((half) => blockReadOp(sheet, tab, half, cells, wants, support)) as [BatchOp, BatchOp] | undefined) ?? null;
  return op;
}

/** Reads the given cells of existing sheets (`targets` must name sheets that exist). */
export async function readCells(
  context: Excel.RequestContext,
  targets: readonly { tab: string; addresses: readonly string[] }[],
  wants: ReadWants,
  env: ReadEnv,
): Promise<WorkbookRead> {
  const { support } = env;
  const out: WorkbookRead = { protectedSheets: new Set(), cells: new Map(), annotated: new Set() };
  const ops: BatchOp[] = [];
  const sheets = context.workbook.worksheets;
  const pendingLocations: { tab: string | null; location: Excel.Range }[] = [];

  for (const { tab, addresses } of targets) {
    const cells = new Map<string, CellRead>();
    out.cells.set(tab, cells);
    if (addresses.length === 0) continue;
    const sheet = sheets.getItem(tab);
    if (support.protection) {
      ops.push(
        readOp(200, [], () => {
          sheet.protection.load('protected');
          return () => {
            if (sheet.protection.protected) out.protectedSheets.add(tab);
          };
        }),
      );
    }
    for (const block of groupIntoBlocks(addresses.map((address) => ({ address })))) {
      ops.push(blockReadOp(sheet, tab, block, cells, wants, support));
      // Without getCellProperties (ExcelApi 1.9) a fill colour is one load per cell. Excel reports
      // "no fill" as white, so a white fill is restored as no fill.
      if (wants.fills && !support.cellProperties) {
        for (const cell of block.cells.flat()) {
          ops.push(
            readOp(160, [{ tab, address: cell.address }], () => {
              const fill = sheet.getRange(cell.address).format.fill;
              fill.load('color');
              return () => {
                const read = cells.get(cell.address);
                if (read) read.fill = !fill.color || fill.color.toUpperCase() === '#FFFFFF' ? null : fill.color;
              };
            }),
          );
        }
      }
    }
    if (wants.annotations && support.notes) {
      ops.push(
        readOp(150, [], () => {
          const notes = sheet.notes;
          notes.load('items');
          return () => {
            for (const note of notes.items) pendingLocations.push({ tab, location: note.getLocation() });
          };
        }),
      );
    }
  }
  if (wants.annotations && !support.notes && support.comments && targets.length > 0) {
    ops.push(
      readOp(150, [], () => {
        const comments = context.workbook.comments;
        comments.load('items');
        return () => {
          for (const comment of comments.items) pendingLocations.push({ tab: null, location: comment.getLocation() });
        };
      }),
    );
  }

  await runReads(context, ops, env);

  // Second round, only when needed: lock states cell by cell (no getCellProperties), note locations.
  const second: BatchOp[] = [];
  if (support.protection && !support.cellProperties) {
    for (const { tab, addresses } of targets) {
      if (!out.protectedSheets.has(tab)) continue;
      const sheet = sheets.getItem(tab);
      const cells = out.cells.get(tab)!;
      for (const address of addresses) {
        second.push(
          readOp(160, [{ tab, address }], () => {
            const protection = sheet.getRange(address).format.protection;
            protection.load('locked');
            return () => {
              const read = cells.get(address);
              if (read && typeof protection.locked === 'boolean') read.locked = protection.locked;
            };
          }),
        );
      }
    }
  }
  for (const pending of pendingLocations) {
    second.push(
      readOp(120, [], () => {
        pending.location.load('address');
        return () => {
          const address = pending.location.address;
          const bang = address.lastIndexOf('!');
          const sheetName =
            pending.tab ??
            address
              .slice(0, bang)
              .replace(/^'(.*)'$/, '$1')
              .replace(/''/g, "'");
          const cell = parseA1(address.slice(bang + 1));
          if (cell) out.annotated.add(`${sheetName}!${toA1(cell.row, cell.column)}`);
        };
      }),
    );
  }
  if (second.length > 0) await runReads(context, second, env);
  return out;
}

async function runReads(context: Excel.RequestContext, ops: BatchOp[], env: ReadEnv): Promise<void> {
  const result = await runBatched(context, ops, { budgetBytes: env.budgetBytes, onSync: env.onSync });
  if (result.failed.length > 0) {
    const first = result.failed[0]!;
    throw new Error(`Reading ${first.tab}!${first.address} failed: ${first.reason}`);
  }
}

/** Sheet names of the workbook in order (one sync). */
export async function loadSheetNames(context: Excel.RequestContext, onSync: () => void): Promise<string[]> {
  const sheets = context.workbook.worksheets;
  sheets.load('items/name');
  onSync();
  await context.sync();
  return sheets.items.map((s) => s.name);
}
