/**
 * Structure (2.12) and the quick filters, computed from stored questions and their chosen answers.
 * Pure functions: no storage, no HTTP.
 */
import type { AnswerSlot, Structure, StructureGroup } from '../../api/schemas';
import { pickAnswer, primarySlot, slotValue } from '../../fill/answer';
import type { QuestionRecord } from '../storage/types';

/**
 * A question needs filling when one of its writable slots is still empty in the sheet (e.g. `No` given
 * but its comment left blank): there is still a cell for us to fill.
 */
export function needsFilling(slots: AnswerSlot[]): boolean {
  return slots.some((s) => !s.is_blocked && (s.value == null || s.value.trim() === ''));
}

/** Slots a person (or we) still have to fill: not blocked and empty in the sheet. */
export function fillableSlots(slots: AnswerSlot[]): AnswerSlot[] {
  return slots.filter((s) => !s.is_blocked && (s.value == null || s.value.trim() === ''));
}

/** A question that needs filling and whose chosen answer leaves a fillable slot empty (as a fill would see it). */
export function isLowCoverage(q: QuestionRecord): boolean {
  if (!q.needs_filling) return false;
  const answer = pickAnswer(q);
  const slots = fillableSlots(q.answer_slots);
  if (!answer) return true;
  if (slots.length === 0) return answer.text.trim() === '';
  const primary = primarySlot(q.answer_slots);
  return slots.some((s) => !slotValue(answer, s, s === primary)?.trim());
}

function columnOf(coordinate: string): string {
  return coordinate.replace(/\$/g, '').replace(/\d+$/, '');
}

/** The slot headers of a group, with column-only coordinates and no per-question values. */
function groupSlots(q: QuestionRecord): AnswerSlot[] {
  return q.answer_slots.map((s) => {
    const slot: AnswerSlot = { role: s.role, header: s.header, coordinate: columnOf(s.coordinate) };
    if (s.type !== undefined) slot.type = s.type;
    if (s.allowed_values !== undefined) slot.allowed_values = s.allowed_values;
    return slot;
  });
}

export function computeStructure(questions: QuestionRecord[]): Structure {
  const tabs = new Map<string, { tab_name: string; question_count: number; needs_filling_count: number }>();
  const groups = new Map<string, StructureGroup>();
  const quick = {
    trustLow: 0,
    trustMedium: 0,
    trustHigh: 0,
    approved: 0,
    notApproved: 0,
    scoreLow: 0,
    scoreMedium: 0,
    scoreHigh: 0,
    needsReview: 0,
    lowCoverage: 0,
  };
  let scoreSum = 0;
  let scored = 0;
  let needsFilling = 0;

  for (const q of questions) {
    const answer = pickAnswer(q);
    const evaluation = answer?.evaluation ?? null;
    const approved = answer?.status === 'approved';
    const lowTrust = evaluation?.trust === 'low';

    const tab = tabs.get(q.tab_name) ?? { tab_name: q.tab_name, question_count: 0, needs_filling_count: 0 };
    tab.question_count++;
    if (q.needs_filling) tab.needs_filling_count++;
    tabs.set(q.tab_name, tab);
    if (q.needs_filling) needsFilling++;

    const key = JSON.stringify([q.tab_name, q.block, q.section_path]);
    let group = groups.get(key);
    if (!group) {
      group = {
        tab_name: q.tab_name,
        section_path: q.section_path,
        question_count: 0,
        needs_filling_count: 0,
        answer_slots: groupSlots(q),
        display_order: q.order,
        filter_counts: { approved: 0, not_approved: 0, needs_review: 0, low_trust: 0 },
      };
      groups.set(key, group);
    }
    group.question_count++;
    if (q.needs_filling) group.needs_filling_count++;
    group.display_order = Math.min(group.display_order, q.order);
    const counts = group.filter_counts;
    counts[approved ? 'approved' : 'not_approved']! += 1;
    if (q.flagged_for_review) counts.needs_review! += 1;
    if (lowTrust) counts.low_trust! += 1;

    if (evaluation) {
      if (evaluation.trust === 'low') quick.trustLow++;
      else if (evaluation.trust === 'medium') quick.trustMedium++;
      else if (evaluation.trust === 'high') quick.trustHigh++;
      const score = evaluation.score;
      if (score < 50) quick.scoreLow++;
      else if (score < 80) quick.scoreMedium++;
      else quick.scoreHigh++;
      scoreSum += score;
      scored++;
    }
    if (approved) quick.approved++;
    else quick.notApproved++;
    if (q.flagged_for_review) quick.needsReview++;
    if (isLowCoverage(q)) quick.lowCoverage++;
  }

  return {
    tabs: [...tabs.values()],
    groups: [...groups.values()].sort((a, b) => a.display_order - b.display_order),
    total_question_count: questions.length,
    total_needs_filling_count: needsFilling,
    quick_filter_counts: quick,
    // Over answered questions: an unanswered question has no score to average.
    avg_score: scored === 0 ? 0 : Math.max(0, Math.min(100, Math.round(scoreSum / scored))),
  };
}
