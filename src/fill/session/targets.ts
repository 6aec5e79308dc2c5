/**
 * What the review offers to correct: pure, read by the pane's review (loaded on demand, so none of
 * this weighs on the pane's first paint).
 */
import type { AnswerSlot, QuestionWithAnswers } from '../../api/schemas';
import { pickAnswer, primarySlot, slotValue } from '../answer';
import { coerceToAllowed } from '../coerce';
import { choiceOf, isMarkSlot, markGroups } from '../marks';
import { parseCellRef } from '../../xlsx/a1';
import type { CorrectionTarget } from './types';

/** A correction the review offers, and what the chosen answer says for it ('' when nothing). */
export interface CorrectionChoice extends CorrectionTarget {
  value: string;
}

/**
 * What the analyst may correct: each writable answer slot with a readable address, and each marked
 * answer as one choice between its columns (docs/questionnaire-families.md). A marked answer's
 * target is its group's first slot, named by its choices (`Yes / No / Not Applicable`) and placed
 * at the columns' range (`F5:H5`); correcting it moves the mark (`correct`).
 */
export function correctionTargets(q: QuestionWithAnswers): CorrectionChoice[] {
  const slots = q.answer_slots ?? [];
  const primary = primarySlot(slots);
  const answer = pickAnswer(q);
  const says = (slot: AnswerSlot) => (answer ? slotValue(answer, slot, slot === primary) : null)?.trim() ?? '';
  const groups = new Map(markGroups(slots).map((g) => [g[0]!, g]));
  const out: CorrectionChoice[] = [];
  for (const slot of slots) {
    const group = groups.get(slot);
    if (group) {
      const cells = group.map((s) => parseCellRef(s.coordinate, q.tab_name));
      const first = cells[0];
      const last = cells[cells.length - 1];
      if (!first || !last || cells.some((c) => c === null)) continue;
      const choices = group.map(choiceOf);
      const address = group.length > 1 && last.tab === first.tab ? `${first.address}:${last.address}` : first.address;
      out.push({
        slot: { ...slot, header: choices.join(' / ') },
        cell: { tab: first.tab, address },
        value: coerceToAllowed(says(slot), choices) ?? says(slot),
      });
      continue;
    }
    if (slot.is_blocked || isMarkSlot(slot)) continue;
    const cell = parseCellRef(slot.coordinate, q.tab_name);
    if (cell) out.push({ slot, cell, value: says(slot) });
  }
  return out;
}
