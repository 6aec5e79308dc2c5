/** Answer-slot helpers: which slots take a list value, and matching a value to `allowed_values`. */
import type { AnswerSlot } from '../../../api/schemas';
import { matchAllowed } from '../../../fill/coerce';
import { markGroups } from '../../../fill/marks';

export function writableSlots(slots: AnswerSlot[]): AnswerSlot[] {
  // The columns of a marked answer (Yes | No | N/A) are one answer: only the group's first slot asks for it.
  const followers = new Set(markGroups(slots).flatMap((group) => group.slice(1)));
  // Mark slots are blocked for text writers only: the group's first slot still asks for the choice.
  return slots.filter((s) => (!s.is_blocked || s.type === 'mark') && !followers.has(s));
}

// Which slot is a list, which is primary and which value fits a dropdown are the fill's rules (src/fill), shared.
export { isListSlot, primarySlot } from '../../../fill/answer';
export { matchAllowed };

/** The allowed value meaning Yes, if the list has one. */
export function yesValue(allowed: readonly string[]): string | null {
  return matchAllowed('yes', allowed);
}

/** The allowed value meaning No, if the list has one. */
export function noValue(allowed: readonly string[]): string | null {
  return matchAllowed('no', allowed);
}

/** A question answerable by Yes/No ("Do you…", "Is…", "Has…"). */
export function isYesNoQuestion(text: string): boolean {
  return /^\s*(?:[\w&.-]+\s*[:.)-]\s*)?(do|does|did|is|are|was|were|has|have|had|can|could|will|would|shall|should|may|must)\b/i.test(text);
}
