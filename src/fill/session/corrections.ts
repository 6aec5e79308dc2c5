/** What the review shows after the analyst corrected one cell: pure, shared by the session and the pane. */
import type { Answer, AnswerSlot, QuestionWithAnswers } from '../../api/schemas';
import { pickAnswer, primarySlot, slotResponseFor } from '../answer';
import { fnv1a } from '../fingerprint';

/**
 * The question as the review shows it after the analyst corrected one cell: the chosen answer says
 * the corrected text for that slot (its slot response, else the answer text for the primary slot).
 */
export function withCorrection(q: QuestionWithAnswers, slot: AnswerSlot, text: string): QuestionWithAnswers {
  const answer = pickAnswer(q);
  const isPrimary = primarySlot(q.answer_slots ?? []) === slot;
  const responses = answer?.slot_responses ?? [];
  const response = slotResponseFor(responses, slot);
  let next: Answer;
  if (answer && response) {
    next = { ...answer, slot_responses: responses.map((r) => (r === response ? { ...r, content: text, is_manually_edited: true } : r)) };
  } else if (answer && isPrimary) {
    next = { ...answer, text };
  } else {
    const base: Answer = answer ?? ({ id: -q.id, text: '', source_evidence: [] } as unknown as Answer);
    next = { ...base, slot_responses: [...(base.slot_responses ?? []), { slot_key: slot.role, content: text, is_manually_edited: true }] };
    if (isPrimary) next.text = text;
  }
  const answers = answer ? (q.answers ?? []).map((a) => (a === answer ? next : a)) : [next];
  return { ...q, answers, ...(answer ? {} : { selected_answer_id: next.id }) };
}

/** A short fingerprint of a cell's text: the link remembers what a fill wrote without keeping the answers. */
export function textHash(text: string): string {
  return fnv1a(text).toString(36);
}

export const cellKey = (tab: string, address: string) => `${tab}!${address}`;
