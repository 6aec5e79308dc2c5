/**
 * Answers given by a mark (docs/questionnaire-families.md): slots of type `mark` that share a
 * `mark_group` are one answer, one column per choice, the chosen one holding the sheet's mark. What
 * a group is: small, so the review reads it at once; the planner (plan-marks.ts) and a review
 * correction's move (mark-move.ts) are fetched on demand.
 */
import type { AnswerSlot } from '../api/schemas';

/** A slot that takes a mark in its column (one choice of its group). */
export function isMarkSlot(slot: AnswerSlot): boolean {
  return slot.type === 'mark';
}

const groupKey = (s: AnswerSlot) => (typeof s.mark_group === 'string' ? s.mark_group : s.role);

/** Mark slots by group, in slot order; a mark slot without a group forms a group with its role. */
export function markGroups(slots: readonly AnswerSlot[]): AnswerSlot[][] {
  const groups = new Map<string, AnswerSlot[]>();
  for (const s of slots) {
    if (!isMarkSlot(s)) continue;
    const key = groupKey(s);
    groups.set(key, [...(groups.get(key) ?? []), s]);
  }
  return [...groups.values()];
}

/** The group `slot` belongs to, found by role and cell (so a copy of a slot finds its own group). */
export function markGroupOf(slots: readonly AnswerSlot[], slot: AnswerSlot): AnswerSlot[] | null {
  return markGroups(slots).find((g) => g.some((s) => s.role === slot.role && s.coordinate === slot.coordinate)) ?? null;
}

/** The choice a mark slot stands for: its `choice`, else its header. */
export function choiceOf(slot: AnswerSlot): string {
  return typeof slot.choice === 'string' && slot.choice.trim() !== '' ? slot.choice : slot.header;
}

/** The mark the sheet uses (its group's first slot says), `x` when none is known. */
export function markOf(group: readonly AnswerSlot[]): string {
  const mark = group[0]?.mark;
  return typeof mark === 'string' && mark.trim() !== '' ? mark : 'x';
}
