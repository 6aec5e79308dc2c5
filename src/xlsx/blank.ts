/**
 * Emptying cells of a workbook, losslessly: the evals and tests blank completed questionnaires with it
 * (the detector must then find the answer cells empty, as in a questionnaire nobody filled yet).
 */
import type { CellRef } from './a1';
import { XlsxPackage } from './package';

/**
 * A copy of the workbook with the given cells emptied: value removed, style kept. A formula cell is left
 * alone (it mirrors another answer, and a fill never writes over one). Only those cells' sheet XML changes.
 */
export function blankCells(bytes: Uint8Array, cells: readonly CellRef[]): Uint8Array {
  const pkg = XlsxPackage.open(bytes);
  const byTab = new Map<string, Set<string>>();
  for (const { tab, address } of cells) {
    if (!pkg.findSheet(tab)) throw new Error(`sheet "${tab}" not found in the workbook`);
    if (!byTab.has(tab)) byTab.set(tab, new Set());
    byTab.get(tab)!.add(address.replace(/\$/g, '').toUpperCase());
  }
  const clears = [...byTab].flatMap(([tab, addresses]) => {
    const read = pkg.readCells(tab, addresses);
    return [...addresses].filter((a) => !read.get(a)?.hasFormula).map((address) => ({ tab, address, value: null }));
  });
  return pkg.applyWrites(clears, { fullCalcOnLoad: false }).bytes;
}
