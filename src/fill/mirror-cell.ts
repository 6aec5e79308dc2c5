/**
 * Where a question repeated by formula is answered: the cell its answer slot's `mirror_of` names. Kept
 * apart from the fold (mirrors.ts) because the pane's first paint needs only this, to go to that cell.
 */
import type { AnswerSlot, QuestionWithAnswers } from '../api/schemas';
import { type CellRef, parseCellRef } from '../xlsx/a1';
import { primarySlot } from './answer';

/** "START HERE!C19", as the analyst reads a cell (the review's other cell names are written the same way). */
export const cellName = (c: CellRef) => `${c.tab}!${c.address}`;

/** The cell the question's answer shows, when its answer cell is a formula showing one other cell. */
export function mirrorSource(q: Pick<QuestionWithAnswers, 'answer_slots' | 'tab_name'>): CellRef | null {
  const primary = primarySlot((q.answer_slots ?? []) as AnswerSlot[]);
  const source = primary?.mirror_of;
  return primary?.is_blocked && typeof source === 'string' ? parseCellRef(source, q.tab_name) : null;
}
