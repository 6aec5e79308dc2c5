/**
 * The planner's view of a workbook file: sheet names, protected sheets and the state of exactly
 * the cells the answers point at (only their sheets are read).
 */
import type { QuestionWithAnswers } from '../api/schemas';
import { anchorSlotsToMerges, targetCells } from '../fill';
import type { CellState, WorkbookView } from '../fill/types';
import type { XlsxPackage } from '../xlsx';

/** Slots pointing inside a merged area move to its top-left cell (read from the sheets they are on). */
export function anchorSlotsInPackage(questions: readonly QuestionWithAnswers[], pkg: XlsxPackage): QuestionWithAnswers[] {
  return anchorSlotsToMerges(questions, pkg.worksheetNames(), (tab, address) => pkg.anchorOf(tab, address));
}

export function workbookView(pkg: XlsxPackage, questions: readonly QuestionWithAnswers[]): WorkbookView {
  const sheetNames = pkg.worksheetNames();
  const states = new Map<string, Map<string, CellState>>();
  const protectedSheets: string[] = [];
  for (const { tab, addresses } of targetCells(questions, sheetNames)) {
    states.set(tab, pkg.readCells(tab, addresses));
    if (pkg.isProtected(tab)) protectedSheets.push(tab);
  }
  return {
    sheetNames,
    protectedSheets,
    cell: (tab, address) => states.get(tab)?.get(address),
  };
}
