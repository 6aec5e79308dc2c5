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
import { cellWrite, planFill } from './plan';
import { buildReport, modelUsage } from './report';
import { resolveTab } from './tabs';
import { parseA1, toA1 } from '../xlsx/a1';
import { pickAnswer, primarySlot } from './answer';
import { readEvaluation } from '../api/schemas';
import { choiceOf, isMarkSlot, markGroups, markOf } from './marks';
import type { CellState, CellWrite, PlanOptions, SkipReason, SkippedSlot, WorkbookView, WritePlan } from './types';

export { choiceOf, isMarkSlot, markGroups } from './marks';

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
  if (broken)
    return skipAll(
      broken.problem!.reason,
      (t) => t.problem?.detail ?? `${where(t)} is one choice of an answer that cannot be written: ${broken.problem!.detail}`,
    );

  const first = group[0]!.slot;
  const raw = ctx.answer ? slotValue(ctx.answer, first, first === ctx.primary) : null;
  const value = raw?.trim() ?? '';
  if (value === '')
    return skipAll('no_value', () => (ctx.answer ? `The answer has nothing for "${first.header || first.role}".` : 'The question has no answer.'));
  const choices = group.map((t) => choiceOf(t.slot));
  const chosen = coerceToAllowed(value, choices);
  if (chosen === null) return skipAll('not_allowed', () => `"${short(value)}" is not one of ${choices.join(', ')}; left for review.`);

  const states = group.map((t) => ctx.cell(t.tab, t.address!));
  for (let i = 0; i < group.length; i++) {
    const refusal = cellRefusal(states[i], { sheetProtected: ctx.sheetProtected(group[i]!.tab), overwrite: true });
    if (refusal && refusal !== 'occupied') return skipAll(refusal, () => refusalDetail(refusal, where(group[i]!)));
  }
  const chosenIndex = choices.indexOf(chosen);
  const mark = markOf(group.map((t) => t.slot));
  const toClear = group.filter((_, i) => i !== chosenIndex && cellHasValue(states[i]));
  const chosenState = states[chosenIndex];
  const chosenHoldsOther = cellHasValue(chosenState) && String(chosenState!.value).trim().toLowerCase() !== mark.toLowerCase();
  if (!ctx.options.overwrite && (toClear.length > 0 || chosenHoldsOther)) {
    const held = toClear[0] ?? group[chosenIndex]!;
    const heldValue = String(ctx.cell(held.tab, held.address!)?.value ?? '');
    const detail = `${where(held)} already holds "${short(heldValue)}" under "${choiceOf(held.slot)}"; marking "${chosen}" would change it.`;
    // Each cell's own value, as data: what an overwrite would replace is told from this read, not re-read.
    return {
      writes: [],
      skipped: group.map((t, i) => ({
        tab: t.tab,
        address: t.address,
        slotRole: t.slot.role,
        reason: 'occupied' as const,
        detail,
        ...(cellHasValue(states[i]) ? { current: states[i]!.value! } : {}),
      })),
    };
  }

  const writes: CellWrite[] = [];
  const skipped: MarkPlan['skipped'] = [];
  group.forEach((t, i) => {
    if (i === chosenIndex) writes.push({ ...ctx.writeFor(t.slot, t.tab, t.address!, mark), mark: 'set' });
    else if (toClear.includes(t)) writes.push({ ...ctx.writeFor(t.slot, t.tab, t.address!, ''), mark: 'clear', trust: null, score: null, sources: [] });
    else
      skipped.push({
        tab: t.tab,
        address: t.address,
        slotRole: t.slot.role,
        reason: 'no_value',
        detail: `${where(t)} stays unmarked: the answer is "${chosen}".`,
      });
  });
  return { writes, skipped };
}

function where(t: MarkTarget): string {
  return `${t.tab}!${t.address ?? t.slot.coordinate}`;
}

function short(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** The question's mark groups (plan-marks.ts): their writes join the candidates, their skips the plan. */

/** The questions as a mark-placing writer reads them: mark slots not blocked, so that `targetCells` lists their cells. */
export function withMarksWritable(questions: readonly QuestionWithAnswers[]): QuestionWithAnswers[] {
  return questions.map((q) => ({ ...q, answer_slots: (q.answer_slots ?? []).map((s) => (isMarkSlot(s) ? { ...s, is_blocked: false } : s)) }));
}

/**
 * `planFill` for the writers that place marks (`qfill fill`, the task pane's Excel adapter): mark slots
 * are planned here, every other slot by `planFill`, and a cell still holding its slot's
 * `template_default` (a blank template's pre-filled N/A) reads as empty, so replacing it needs no
 * consent; any other value still does. `view` must hold the mark cells too: read the cells of
 * `targetCells(withMarksWritable(questions))`.
 */
export function planFillWithMarks(questions: readonly QuestionWithAnswers[], view: WorkbookView, options: PlanOptions = {}): WritePlan {
  const defaults = new Map<string, string>();
  for (const q of questions) {
    for (const s of q.answer_slots ?? []) {
      if (typeof s.template_default === 'string') defaults.set(`${q.tab_name}!${s.coordinate}`.toLowerCase(), s.template_default);
    }
  }
  const seen: WorkbookView = {
    ...view,
    cell: (tab, address) => {
      const state = view.cell(tab, address);
      const placeholder = defaults.get(`${tab}!${address}`.toLowerCase());
      return placeholder !== undefined && !state?.hasFormula && String(state?.value ?? '').trim() === placeholder ? undefined : state;
    },
  };
  // The mark slots stay the questions' slots: the answer's text belongs to the mark group (the primary
  // slot), never to the Notes column beside it, and a question of marks alone has slots.
  const plan = planFill(questions, seen, options, isMarkSlot);
  const writes = [...plan.writes];
  const skipped = [...plan.skipped];
  const claimed = new Map(writes.map((w) => [`${w.tab}!${w.address}`, w.questionId]));
  const tabs = plan.report.tabs.map((t) => t.tab);
  for (const question of questions) {
    const slots = question.answer_slots ?? [];
    const answer = pickAnswer(question);
    const evaluation = answer ? readEvaluation(answer.evaluation) : null;
    const defensible = answer?.status === 'approved' || evaluation?.trust === 'medium' || evaluation?.trust === 'high';
    const writeFor = (slot: AnswerSlot, tab: string, address: string, value: string): CellWrite =>
      cellWrite(question, slot, answer, evaluation, tab, address, value);
    for (const group of markGroups(slots)) {
      const targets: MarkTarget[] = group.map((slot) => {
        const coordinate = parseA1(slot.coordinate ?? '');
        const tabName = coordinate?.sheet ?? question.tab_name;
        const tab = resolveTab(tabName, view.sheetNames);
        const address = coordinate ? toA1(coordinate.row, coordinate.column) : null;
        const where = `${tab ?? tabName}!${address ?? slot.coordinate}`;
        const problem = !tab
          ? { reason: 'missing_tab' as const, detail: `The workbook has no sheet named "${tabName}".` }
          : !address
            ? { reason: 'bad_coordinate' as const, detail: `"${slot.coordinate}" is not a cell address.` }
            : claimed.has(`${tab}!${address}`)
              ? { reason: 'duplicate' as const, detail: `${where} is already written by question ${claimed.get(`${tab}!${address}`)}.` }
              : null;
        if (!tabs.includes(tab ?? tabName)) tabs.push(tab ?? tabName);
        return { slot, tab: tab ?? tabName, address, problem };
      });
      const marks = planMarkGroup(targets, {
        question,
        answer,
        primary: primarySlot(slots),
        cell: (tab, address) => view.cell(tab, address),
        sheetProtected: (tab) => (view.protectedSheets ?? []).includes(tab),
        options,
        writeFor,
      });
      for (const s of marks.skipped) skipped.push({ ...s, questionId: question.id, originalId: question.original_id ?? null });
      for (const write of marks.writes) {
        claimed.set(`${write.tab}!${write.address}`, question.id);
        if (defensible) writes.push(write);
        else if (options.writeDrafts) writes.push({ ...write, draft: true });
        else {
          const why = `a ${evaluation ? `${evaluation.trust}-trust` : 'unrated'} answer`;
          skipped.push({
            tab: write.tab,
            address: write.address,
            questionId: question.id,
            originalId: question.original_id ?? null,
            slotRole: write.slotRole,
            reason: 'draft',
            detail: `${write.tab}!${write.address}: ${why} is a draft, left for review.`,
            value: write.value,
          });
        }
      }
    }
  }
  return { writes, skipped, report: { ...buildReport(writes, skipped, tabs), model: modelUsage(questions) } };
}
