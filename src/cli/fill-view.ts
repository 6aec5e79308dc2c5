/**
 * The planner's view of a workbook file: sheet names, protected sheets and the state of exactly
 * the cells the answers point at (only their sheets are read).
 */
import type { QuestionWithAnswers } from '../api/schemas';
import { parseA1, quoteSheetName, resolveTab, targetCells, toA1 } from '../fill';
import type { CellState, WorkbookView } from '../fill/types';
import type { XlsxPackage } from '../xlsx';

/**
 * Slots pointing inside a merged area are moved to its top-left cell, the only cell of a merge
 * that a spreadsheet shows and keeps.
 */
export function anchorSlotsToMerges(questions: readonly QuestionWithAnswers[], pkg: XlsxPackage): QuestionWithAnswers[] {
  const sheetNames = pkg.worksheetNames();
  return questions.map((q) => {
    if (!q.answer_slots?.length) return q;
    let changed = false;
    const slots = q.answer_slots.map((slot) => {
      const c = parseA1(slot.coordinate ?? '');
      const tab = resolveTab(c?.sheet ?? q.tab_name, sheetNames);
      if (!c || !tab) return slot;
      const address = toA1(c.row, c.column);
      const anchor = pkg.anchorOf(tab, address);
      if (anchor === address) return slot;
      changed = true;
      return { ...slot, coordinate: c.sheet ? `${quoteSheetName(c.sheet)}!${anchor}` : anchor };
    });
    return changed ? { ...q, answer_slots: slots } : q;
  });
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
