/**
 * Where a question repeated by formula is answered: the cell its answer slot's `mirror_of` names. Kept
 * apart from the fold (mirrors.ts) because the pane's first paint needs only this, to go to that cell.
 */
import type { AnswerSlot, QuestionWithAnswers } from '../api/schemas';
import { primarySlot } from './answer';

export interface CellAt {
  tab: string;
  address: string;
}

/** `'START HERE'!C19` → {tab: START HERE, address: C19}; a coordinate without a sheet is on `tab`. */
export function cellAt(coordinate: string, tab: string): CellAt | null {
  const bang = coordinate.lastIndexOf('!');
  const sheet = bang >= 0 ? coordinate.slice(0, bang).replace(/^'(.*)'$/, '$1').replace(/''/g, "'") : tab;
  const address = coordinate.slice(bang + 1).replace(/\$/g, '').trim().toUpperCase();
  return /^[A-Z]{1,3}[1-9][0-9]*$/.test(address) ? { tab: sheet, address } : null;
}

/** "START HERE!C19", as the analyst reads a cell (the review's other cell names are written the same way). */
export const cellName = (c: CellAt) => `${c.tab}!${c.address}`;

/** The cell the question's answer shows, when its answer cell is a formula showing one other cell. */
export function mirrorSource(q: Pick<QuestionWithAnswers, 'answer_slots' | 'tab_name'>): CellAt | null {
  const primary = primarySlot((q.answer_slots ?? []) as AnswerSlot[]);
  const source = primary?.mirror_of;
  return primary?.is_blocked && typeof source === 'string' ? cellAt(source, q.tab_name) : null;
}
