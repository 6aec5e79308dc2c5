/**
 * Planning an answer given by a mark (docs/questionnaire-families.md): slots of type `mark` that share
 * a `mark_group` are one answer. The chosen column gets the sheet's mark; every other column of the
 * group that holds something is cleared. Clearing is overwriting, so without `overwrite` a group with
 * another column already marked is left alone as a whole, never half-changed.
 */
import type { AnswerSlot, QuestionWithAnswers } from '../api/schemas';
import { slotValue } from './answer';
import { cellHasValue, cellRefusal, refusalDetail } from './cell-safety';
import { coerceToAllowed } from './coerce';
import type { CellState, CellWrite, PlanOptions, SkipReason, SkippedSlot } from './types';

/** A slot that takes a mark in its column (one choice of its group). */
export function isMarkSlot(slot: AnswerSlot): boolean {
  return slot.type === 'mark';
}

/** Mark slots by group, in slot order; a mark slot without a group forms a group with its role. */
export function markGroups(slots: readonly AnswerSlot[]): AnswerSlot[][] {
  const groups = new Map<string, AnswerSlot[]>();
  for (const s of slots) {
    if (!isMarkSlot(s)) continue;
    const key = typeof s.mark_group === 'string' ? s.mark_group : s.role;
    groups.set(key, [...(groups.get(key) ?? []), s]);
  }
  return [...groups.values()];
}

/** The choice a mark slot stands for: its `choice`, else its header. */
export function choiceOf(slot: AnswerSlot): string {
  return typeof slot.choice === 'string' && slot.choice.trim() !== '' ? slot.choice : slot.header;
}

export interface MarkTarget {
  slot: AnswerSlot;
  /** Resolved tab and address, or why the slot cannot be written. */
  tab: string;
  address: string | null;
  problem: { reason: SkipReason; detail: string } | null;
}

export interface MarkContext {
  question: QuestionWithAnswers;
  answer: { text: string; slot_responses?: readonly { slot_key: string; content: string }[] | null } | null;
  primary: AnswerSlot | null;
  cell(tab: string, address: string): CellState | undefined;
  sheetProtected(tab: string): boolean;
  options: PlanOptions;
  /** Builds the write for a slot (the planner's common fields: trust, sources, question). */
  writeFor(slot: AnswerSlot, tab: string, address: string, value: string): CellWrite;
}

export interface MarkPlan {
  writes: CellWrite[];
  skipped: Omit<SkippedSlot, 'questionId' | 'originalId'>[];
}

/** The writes (one mark, clears) or the skips of one mark group. */
export function planMarkGroup(group: readonly MarkTarget[], ctx: MarkContext): MarkPlan {
  const skipAll = (reason: SkipReason, detail: (t: MarkTarget) => string): MarkPlan => ({
    writes: [],
    skipped: group.map((t) => ({ tab: t.tab, address: t.address, slotRole: t.slot.role, reason, detail: detail(t) })),
  });
  const broken = group.find((t) => t.problem !== null);
  if (broken) return skipAll(broken.problem!.reason, (t) => t.problem?.detail ?? `${where(t)} is one choice of an answer that cannot be written: ${broken.problem!.detail}`);

  const first = group[0]!.slot;
  const raw = ctx.answer ? slotValue(ctx.answer, first, first === ctx.primary) : null;
  const value = raw?.trim() ?? '';
  if (value === '') return skipAll('no_value', () => (ctx.answer ? `The answer has nothing for "${first.header || first.role}".` : 'The question has no answer.'));
  const choices = group.map((t) => choiceOf(t.slot));
  const chosen = coerceToAllowed(value, choices);
  if (chosen === null) return skipAll('not_allowed', () => `"${short(value)}" is not one of ${choices.join(', ')}; left for review.`);

  const states = group.map((t) => ctx.cell(t.tab, t.address!));
  for (let i = 0; i < group.length; i++) {
    const refusal = cellRefusal(states[i], { sheetProtected: ctx.sheetProtected(group[i]!.tab), overwrite: true });
    if (refusal && refusal !== 'occupied') return skipAll(refusal, () => refusalDetail(refusal, where(group[i]!)));
  }
  const chosenIndex = choices.indexOf(chosen);
  const mark = typeof first.mark === 'string' && first.mark.trim() !== '' ? first.mark : 'x';
  const toClear = group.filter((_, i) => i !== chosenIndex && cellHasValue(states[i]));
  const chosenState = states[chosenIndex];
  const chosenHoldsOther = cellHasValue(chosenState) && String(chosenState!.value).trim().toLowerCase() !== mark.toLowerCase();
  if (!ctx.options.overwrite && (toClear.length > 0 || chosenHoldsOther)) {
    const held = toClear[0] ?? group[chosenIndex]!;
    const heldValue = String(ctx.cell(held.tab, held.address!)?.value ?? '');
    return skipAll('occupied', () => `${where(held)} already holds "${short(heldValue)}" under "${choiceOf(held.slot)}"; marking "${chosen}" would change it.`);
  }

  const writes: CellWrite[] = [];
  const skipped: MarkPlan['skipped'] = [];
  group.forEach((t, i) => {
    if (i === chosenIndex) writes.push({ ...ctx.writeFor(t.slot, t.tab, t.address!, mark), mark: 'set' });
    else if (toClear.includes(t)) writes.push({ ...ctx.writeFor(t.slot, t.tab, t.address!, ''), mark: 'clear', trust: null, score: null, sources: [] });
    else skipped.push({ tab: t.tab, address: t.address, slotRole: t.slot.role, reason: 'no_value', detail: `${where(t)} stays unmarked: the answer is "${chosen}".` });
  });
  return { writes, skipped };
}

function where(t: MarkTarget): string {
  return `${t.tab}!${t.address ?? t.slot.coordinate}`;
}

function short(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
