/**
 * The answer rules every reader of a question shares: which answer counts, which slot is primary,
 * which slot response belongs to which slot. Used by the planner, the pane's review, the CLI report
 * and the local service (structure, answer generation), so they never disagree.
 *
 * Written from the v2 interface alone (2.10, 2.11): a service need not set `selected_answer_id`, may
 * list answers in any order, and may name slot roles and slot keys its own way.
 */
import type { AnswerSlot } from '../api/schemas';

/** The fields of an answer these rules read (the API's answer and the service's stored record both fit). */
export interface ChoosableAnswer {
  id?: number | null;
  status?: string | null;
  created_at?: string | null;
  updated_at?: string | null;
}

/**
 * The answer a question's readers use: the selected one; otherwise an approved one before a draft,
 * then the most recently updated, then the highest id. The array's order counts for nothing: the
 * interface does not define it.
 */
export function pickAnswer<A extends ChoosableAnswer>(question: { selected_answer_id?: number | null; answers?: readonly A[] | null }): A | null {
  const answers = question.answers ?? [];
  if (answers.length === 0) return null;
  if (question.selected_answer_id != null) {
    const selected = answers.find((a) => a.id === question.selected_answer_id);
    if (selected) return selected;
  }
  let best = answers[0]!;
  for (const a of answers.slice(1)) if (compareAnswers(a, best) > 0) best = a;
  return best;
}

function time(text: string | null | undefined): number {
  const t = text ? Date.parse(text) : NaN;
  return Number.isNaN(t) ? -Infinity : t;
}

/** Positive when `a` should be used before `b`. */
function compareAnswers(a: ChoosableAnswer, b: ChoosableAnswer): number {
  const approved = Number(a.status === 'approved') - Number(b.status === 'approved');
  if (approved !== 0) return approved;
  const updated = time(a.updated_at ?? a.created_at) - time(b.updated_at ?? b.created_at);
  if (updated !== 0 && !Number.isNaN(updated)) return updated;
  return (a.id ?? -Infinity) - (b.id ?? -Infinity) || 0;
}

/** Slot keys, roles and headers compared without case, spaces, `_` or `-`. */
export function slotKey(text: string): string {
  return text.toLowerCase().replace(/[\s_-]+/g, '');
}

/** A slot that takes one of a list of values (a dropdown). */
export function isListSlot(slot: AnswerSlot): boolean {
  return (slot.allowed_values?.filter((v) => v.trim() !== '').length ?? 0) > 0;
}

/**
 * The slot that carries the answer proper (and receives the answer's text when no slot response
 * names it): role `answer`, else the first list slot (a service may call its Yes/No column anything),
 * else the first slot.
 */
export function primarySlot<S extends AnswerSlot>(slots: readonly S[]): S | null {
  return slots.find((s) => slotKey(s.role) === 'answer') ?? slots.find(isListSlot) ?? slots[0] ?? null;
}

/**
 * Sources best first: by `rank` where the service gives one, else by `relevance_score`, highest first
 * (chat sources carry no rank; a hosted service may send evidence in any order).
 */
export function bySourceRank<S extends { rank?: number | null; relevance_score?: number | null }>(sources: readonly S[]): S[] {
  return [...sources].sort((a, b) => (a.rank ?? Infinity) - (b.rank ?? Infinity) || (b.relevance_score ?? 0) - (a.relevance_score ?? 0));
}

function coordinateKey(text: string): string {
  return text.replace(/\$/g, '').toUpperCase().trim();
}

/** The slot response meant for a slot: its `slot_key` names the slot's role, else its header, else its coordinate. */
export function slotResponseFor<R extends { slot_key: string; content: string }>(responses: readonly R[] | null | undefined, slot: AnswerSlot): R | null {
  const list = responses ?? [];
  const role = slotKey(slot.role);
  const byRole = list.find((r) => slotKey(r.slot_key) === role);
  if (byRole) return byRole;
  const header = slotKey(slot.header ?? '');
  const byHeader = header ? list.find((r) => slotKey(r.slot_key) === header) : undefined;
  if (byHeader) return byHeader;
  const coordinate = coordinateKey(slot.coordinate ?? '');
  return (coordinate && list.find((r) => coordinateKey(r.slot_key) === coordinate)) || null;
}

/** The text an answer has for a slot: its slot response, else the answer's text for the primary slot. */
export function slotValue(
  answer: { text: string; slot_responses?: readonly { slot_key: string; content: string }[] | null },
  slot: AnswerSlot,
  isPrimary: boolean,
): string | null {
  const response = slotResponseFor(answer.slot_responses, slot);
  if (response) return response.content;
  return isPrimary ? answer.text : null;
}
