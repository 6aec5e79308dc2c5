/**
 * Merged areas: a spreadsheet keeps only the top-left cell of a merge, so a slot pointing anywhere
 * inside one is written there. Both writers (Office.js and the xlsx file) move slots with this.
 */
import type { QuestionWithAnswers } from '../api/schemas';
import { parseA1, quoteSheetName, toA1 } from '../xlsx/a1';
import { resolveTab } from './tabs';

/**
 * The questions with every slot inside a merged area moved to the area's top-left cell.
 * `anchorOf(tab, address)` is the top-left cell of the merge holding the cell, or the cell itself
 * (or undefined when unknown). Questions without such slots are returned as they were.
 */
export function anchorSlotsToMerges(
  questions: readonly QuestionWithAnswers[],
  sheetNames: readonly string[],
  anchorOf: (tab: string, address: string) => string | undefined,
): QuestionWithAnswers[] {
  return questions.map((q) => {
    if (!q.answer_slots?.length) return q;
    let changed = false;
    const slots = q.answer_slots.map((slot) => {
      const c = parseA1(slot.coordinate ?? '');
      const tab = c ? resolveTab(c.sheet ?? q.tab_name, sheetNames) : null;
      if (!c || !tab) return slot;
      const address = toA1(c.row, c.column);
      const anchor = anchorOf(tab, address);
      if (!anchor || anchor === address) return slot;
      changed = true;
      return { ...slot, coordinate: c.sheet ? `${quoteSheetName(c.sheet)}!${anchor}` : anchor };
    });
    return changed ? { ...q, answer_slots: slots } : q;
  });
}
