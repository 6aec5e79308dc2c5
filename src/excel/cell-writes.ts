/**
 * Writing single cells outside a fill, with the same safety rules (never a formula, never a locked
 * cell, a value the fill did not write only with consent): Chat's insert into the selected cell, and
 * the review's corrections, whose cells join the Undo fill snapshot. And reading cells' text back.
 */
import { cellRefusal, parseA1, refusalDetail, resolveTab, toA1, type CellState } from '../fill';
import { cellState, syncOneWrite, type AdapterEnv, type Written } from './adapter-env';
import { cellTextForValues } from './cell-text';
import { splitAddress } from './navigation';
import { officeErrorCode } from './office';
import { isFormula, loadSheetNames, readCells, type CellRead } from './read-cells';
import { addCellToSnapshot, emptySnapshot, snapshotHolds } from './snapshot';
import type { CellRef } from './types';

export async function insertIntoSelection(env: AdapterEnv, text: string, insertOptions: { overwrite?: boolean }): Promise<Written> {
  if (text.trim() === '') return { written: false, reason: 'There is nothing to insert.' };
  const f = env.features();
  return Excel.run(async (context) => {
    const selected = context.workbook.getSelectedRange();
    const cell = selected.getCell(0, 0);
    cell.load('address, values, formulas, valueTypes');
    const sheet = cell.worksheet;
    sheet.load('name');
    if (f.protection) {
      sheet.protection.load('protected');
      cell.format.protection.load('locked');
    }
    try {
      await context.sync();
    } catch (e) {
      if (officeErrorCode(e) === 'InvalidSelection') return { written: false, reason: 'Select a cell first.' };
      throw e;
    }
    const where = `${sheet.name}!${splitAddress(cell.address).cell}`;
    const formula = cell.formulas[0]![0];
    const value = cell.values[0]![0];
    const state: CellState = {
      value: cell.valueTypes[0]![0] === 'Empty' ? null : value,
      hasFormula: isFormula(formula, value),
      ...(f.protection ? { locked: sheet.protection.protected && cell.format.protection.locked !== false } : {}),
    };
    const refusal = cellRefusal(state, { sheetProtected: f.protection && sheet.protection.protected, overwrite: insertOptions.overwrite });
    if (refusal === 'occupied') return { written: false, reason: `${where} already holds a value; choose overwrite to replace it.` };
    if (refusal) return { written: false, reason: refusalDetail(refusal, where) };
    cell.values = [[cellTextForValues(text.trim())]];
    return syncOneWrite(context, where);
  });
}

/** Corrections: every cell checked first, then all written in one sync, or none. */
export async function writeCells(env: AdapterEnv, cells: readonly { ref: CellRef; text: string }[], writeOptions: { overwrite?: boolean }): Promise<Written> {
  if (cells.length === 0) return { written: true };
  const key = await env.documentKey();
  const f = env.features();
  return env.run(async (context) => {
    const onSync = () => undefined;
    const sheetNames = await loadSheetNames(context, onSync);
    const resolved: { tab: string; address: string; row: number; column: number; text: string }[] = [];
    for (const { ref, text } of cells) {
      const tab = resolveTab(ref.tab, sheetNames);
      if (!tab) return { written: false, reason: `The workbook has no sheet named "${ref.tab}".` };
      const c = parseA1(ref.address);
      if (!c) return { written: false, reason: `"${ref.address}" is not a cell address.` };
      resolved.push({ tab, address: toA1(c.row, c.column), row: c.row, column: c.column, text });
    }
    const byTab = new Map<string, string[]>();
    for (const r of resolved) byTab.set(r.tab, [...(byTab.get(r.tab) ?? []), r.address]);
    const read = await readCells(
      context,
      [...byTab].map(([tab, addresses]) => ({ tab, addresses })),
      {},
      { support: f, budgetBytes: env.budget, onSync },
    );
    const { store } = env;
    const snapshot = store.load(key);
    const fresh: { tab: string; address: string; before: CellRead }[] = [];
    for (const r of resolved) {
      const where = `${r.tab}!${r.address}`;
      const before = read.cells.get(r.tab)?.get(r.address);
      if (!before) return { written: false, reason: `${where} could not be read.` };
      // A cell the fill (or an earlier correction) wrote is ours to replace.
      const inSnapshot = snapshot !== null && snapshotHolds(snapshot, r.tab, r.row, r.column);
      const refusal = cellRefusal(cellState(read, r.tab, r.address), {
        sheetProtected: read.protectedSheets.has(r.tab),
        overwrite: writeOptions.overwrite || inSnapshot,
      });
      if (refusal === 'occupied')
        return { written: false, reason: `${where} already holds a value that the fill did not write; choose to replace it if you mean to.` };
      if (refusal) return { written: false, reason: refusalDetail(refusal, where) };
      if (!inSnapshot) fresh.push({ tab: r.tab, address: r.address, before });
    }
    if (fresh.length > 0) {
      // Saved before the write, like a fill's snapshot: Undo fill then restores these cells too.
      const next = snapshot ?? emptySnapshot(key);
      for (const c of fresh) addCellToSnapshot(next, c.tab, c.address, c.before);
      store.save(next);
    }
    for (const r of resolved) {
      const range = context.workbook.worksheets.getItem(r.tab).getRange(r.address);
      range.values = [[r.text.trim() === '' ? '' : cellTextForValues(r.text.trim())]];
      range.untrack();
    }
    return syncOneWrite(context, resolved.map((r) => `${r.tab}!${r.address}`).join(', '));
  });
}

/** The displayed text of cells, in one batched read; '' for an empty cell or one that does not exist. */
export async function readValues(env: AdapterEnv, refs: CellRef[]): Promise<string[]> {
  if (refs.length === 0) return [];
  const f = env.features();
  return Excel.run(async (context) => {
    const onSync = () => undefined;
    const sheetNames = await loadSheetNames(context, onSync);
    const byTab = new Map<string, Set<string>>();
    const resolved = refs.map((ref) => {
      const tab = resolveTab(ref.tab, sheetNames);
      const c = parseA1(ref.address);
      if (!tab || !c) return null;
      const address = toA1(c.row, c.column);
      let set = byTab.get(tab);
      if (!set) byTab.set(tab, (set = new Set()));
      set.add(address);
      return { tab, address };
    });
    const targets = [...byTab].map(([tab, set]) => ({ tab, addresses: [...set] }));
    const read = await readCells(context, targets, {}, { support: f, budgetBytes: env.budget, onSync });
    return resolved.map((r) => {
      const cell = r ? read.cells.get(r.tab)?.get(r.address) : undefined;
      return cell && cell.valueType !== 'Empty' ? String(cell.value ?? '') : '';
    });
  });
}
