/** Answer-slot helpers: which slots take a list value, and matching a value to `allowed_values`. */
import type { AnswerSlot } from '../../../api/schemas';

export function writableSlots(slots: AnswerSlot[]): AnswerSlot[] {
  return slots.filter((s) => !s.is_blocked);
}

export function isListSlot(slot: AnswerSlot): boolean {
  return (slot.allowed_values?.length ?? 0) > 0;
}

/** The slot that carries the answer proper: role `answer`, else the first list slot, else the first slot. */
export function primarySlot(slots: AnswerSlot[]): AnswerSlot | undefined {
  return slots.find((s) => s.role === 'answer') ?? slots.find(isListSlot) ?? slots[0];
}

const SYNONYM_VALUES: Record<string, string> = { y: 'yes', true: 'yes', n: 'no', false: 'no', na: 'na', notapplicable: 'na' };

function canonicalValue(value: string): string {
  const key = value.toLowerCase().replace(/[^a-z0-9]/g, '');
  return SYNONYM_VALUES[key] ?? key;
}

/** The allowed value `value` stands for (case, punctuation, Y/N and N/A spellings ignored), or null. */
export function matchAllowed(value: string, allowed: readonly string[]): string | null {
  const trimmed = value.trim();
  if (!trimmed) return null;
  const exact = allowed.find((a) => a === trimmed);
  if (exact !== undefined) return exact;
  const wanted = canonicalValue(trimmed);
  return allowed.find((a) => canonicalValue(a) === wanted) ?? null;
}

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
