/**
 * The Undo fill snapshot: capturing the touched cells before a write, and putting them back exactly
 * (values, text that Excel would parse, number formats, fill colours, notes the fill added).
 */
import { excelParsesAsFormula, needsTextProtection, type CellBlock } from '../fill';
import { parseA1Range, toA1 } from '../fill';
import { deleteAnnotationOp } from './annotations';
import { runBatched, type BatchOp, type CellFailure } from './batch';
import { cellTextForValues } from './cell-text';
import { blocksByKey, fillOp, numberFormatOp, textViaFormatOp, valuesOp } from './ops';
import { readCells, type CellRead, type ReadEnv } from './read-cells';
import { pack, unpack, type SnapshotBlock, type UndoSnapshot } from './undo-store';

export function emptySnapshot(documentKey: string): UndoSnapshot {
  return { version: 1, documentKey, createdAt: new Date().toISOString(), cellCount: 0, tabs: [], annotations: [] };
}

/** The snapshot blocks of cells about to be written, from what was read of them (fills only when colouring). */
export function snapshotBlocks<T>(blocks: CellBlock<T>[], before: (cell: T) => CellRead, withFills: boolean): SnapshotBlock[] {
  return blocks.map((b) => {
    const grid = <V>(f: (c: CellRead) => V) => b.cells.map((row) => row.map((c) => f(before(c))));
    return {
      address: b.address,
      formulas: pack(grid((c) => c.formula)),
      valueTypes: pack(grid((c) => c.valueType)),
      numberFormat: pack(grid((c) => c.numberFormat)),
      ...(withFills ? { fills: pack(grid((c) => c.fill ?? null)) } : {}),
    };
  });
}

/** Adds one cell, as it is now, to a snapshot (a correction of a cell the fill did not write). */
export function addCellToSnapshot(snapshot: UndoSnapshot, tab: string, address: string, before: CellRead): void {
  let entry = snapshot.tabs.find((t) => t.tab === tab);
  if (!entry) snapshot.tabs.push((entry = { tab, blocks: [] }));
  entry.blocks.push({ address, formulas: { all: before.formula }, valueTypes: { all: before.valueType }, numberFormat: { all: before.numberFormat } });
  snapshot.cellCount += 1;
}

/** Whether an Undo snapshot already holds the cell (the fill, or an earlier correction, wrote it). */
export function snapshotHolds(snapshot: UndoSnapshot, tab: string, row: number, column: number): boolean {
  return snapshot.tabs.some(
    (t) =>
      t.tab === tab &&
      t.blocks.some((b) => {
        const r = parseA1Range(b.address);
        return !!r && row >= r.top && row < r.top + r.rowCount && column >= r.left && column < r.left + r.columnCount;
      }),
  );
}

/**
 * How a snapshot cell goes back exactly: most through `values`; text that Excel would parse
 * (`5/20/2024`, `42`, `=x` stored as text) needs care. Files written by other tools hold such text
 * without Excel's apostrophe prefix, so where formatting is allowed it is restored through a
 * temporary `@` format (text stays text, no prefix added, format put back). Text Excel's own parser
 * takes for a formula, and any such text on a protected sheet, goes back with the apostrophe
 * (cellTextForValues): safe first. Text led by a tab or carriage return (formula-like only to CSV
 * consumers) goes back through the `@` format, exactly as it was.
 */
function restorePlan(
  formula: string | number | boolean,
  valueType: string,
  numberFormat: string,
  canFormat: boolean,
): { input: string | number | boolean } | { viaTextFormat: string } {
  if (valueType === 'Empty') return { input: '' };
  if (typeof formula !== 'string' || valueType !== 'String') return { input: formula };
  if (numberFormat === '@') return { input: cellTextForValues(formula, false, true) };
  const numeric = formula.trim() !== '' && !Number.isNaN(Number(formula.trim()));
  if (!needsTextProtection(formula) && !numeric) return { input: formula };
  if (canFormat && !excelParsesAsFormula(formula)) return { viaTextFormat: formula };
  return { input: cellTextForValues(formula, true) };
}

function addresses(blockAddress: string): string[] {
  const r = parseA1Range(blockAddress)!;
  const out: string[] = [];
  for (let i = 0; i < r.rowCount; i++) for (let j = 0; j < r.columnCount; j++) out.push(toA1(r.top + i, r.left + j));
  return out;
}

/**
 * Puts every cell of the snapshot back, except the cells in `keep` (`tab!A1`: the analyst's edits since
 * the fill, left exactly as they are, note and colour included); `failed` lists what Excel refused.
 */
export async function restoreSnapshot(
  context: Excel.RequestContext,
  snapshot: UndoSnapshot,
  sheetNames: readonly string[],
  env: ReadEnv,
  keep: ReadonlySet<string> = new Set(),
): Promise<{ restored: number; failed: CellFailure[] }> {
  const tabs = snapshot.tabs.filter((t) => sheetNames.includes(t.tab));
  const missing = snapshot.tabs.filter((t) => !sheetNames.includes(t.tab));

  // Current number formats: restored only where they changed (formatting a protected sheet fails).
  const targets = tabs.map((t) => ({ tab: t.tab, addresses: t.blocks.flatMap((b) => addresses(b.address)) }));
  const read = await readCells(context, targets, { annotations: snapshot.annotations.length > 0 }, env);

  const formatOps: BatchOp[] = [];
  const valueOps: BatchOp[] = [];
  const textOps: BatchOp[] = [];
  const fillOps: BatchOp[] = [];
  let restored = 0;
  let kept = 0;
  for (const t of tabs) {
    const current = read.cells.get(t.tab)!;
    const fills: { address: string; key: string | null }[] = [];
    for (const b of t.blocks) {
      const r = parseA1Range(b.address)!;
      const formulas = unpack(b.formulas, r.rowCount, r.columnCount);
      const types = unpack(b.valueTypes, r.rowCount, r.columnCount);
      const formats = unpack(b.numberFormat, r.rowCount, r.columnCount);
      const savedFills = b.fills ? unpack(b.fills, r.rowCount, r.columnCount) : null;
      const cells: { address: string; input: unknown }[][] = [];
      for (let i = 0; i < r.rowCount; i++) {
        const row: { address: string; input: unknown }[] = [];
        for (let j = 0; j < r.columnCount; j++) {
          const address = toA1(r.top + i, r.left + j);
          if (keep.has(`${t.tab}!${address}`)) {
            row.push({ address, input: null }); // null leaves a cell as it is
            kept++;
            continue;
          }
          const now = current.get(address);
          const how = restorePlan(formulas[i]![j]!, types[i]![j]!, formats[i]![j]!, !read.protectedSheets.has(t.tab));
          if ('viaTextFormat' in how) {
            textOps.push(textViaFormatOp(t.tab, address, how.viaTextFormat, formats[i]![j]!));
            row.push({ address, input: null });
          } else {
            if (now && now.numberFormat !== formats[i]![j]) formatOps.push(numberFormatOp(t.tab, address, formats[i]![j]!));
            row.push({ address, input: how.input });
          }
          if (savedFills) fills.push({ address, key: savedFills[i]![j] ?? null });
        }
        cells.push(row);
      }
      valueOps.push(
        valuesOp(
          { tab: t.tab, block: { address: b.address, top: r.top, left: r.left, rowCount: r.rowCount, columnCount: r.columnCount, cells } },
          (n) => void (restored += n),
        ),
      );
    }
    for (const { key: colour, block } of blocksByKey(fills)) fillOps.push(fillOp(t.tab, block, colour));
  }
  const noteOps = snapshot.annotations
    .filter((a) => read.annotated.has(`${a.tab}!${a.address}`) && !keep.has(`${a.tab}!${a.address}`))
    .map((a) => deleteAnnotationOp(a.tab, a.address, a.kind));
  const result = await runBatched(context, [...formatOps, ...valueOps, ...textOps, ...fillOps, ...noteOps], {
    budgetBytes: env.budgetBytes,
    onSync: env.onSync,
  });
  const failed = [...result.failed, ...missing.map((t) => ({ tab: t.tab, address: '', reason: `The sheet "${t.tab}" no longer exists.` }))];
  return { restored: Math.max(0, restored - kept), failed };
}
