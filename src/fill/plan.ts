/**
 * Planning a fill: which value goes into which cell, and why every other slot was left alone.
 * Pure: the workbook is seen only through `WorkbookView`.
 */
import { readEvaluation, type Answer, type AnswerSlot, type Evaluation, type QuestionWithAnswers } from '../api/schemas';
import { parseA1, toA1 } from '../xlsx/a1';
import { bySourceRank, isListSlot, pickAnswer, primarySlot, slotValue } from './answer';
import { cellRefusal, refusalDetail } from './cell-safety';
import { coerceToAllowed } from './coerce';
import { buildReport, modelUsage } from './report';
import { resolveTab } from './tabs';
import { needsTextProtection } from './text-safety';
import type { CellState, CellWrite, PlanOptions, SkipReason, SkippedSlot, SourceRef, WorkbookView, WritePlan } from './types';

/** How many sources a note lists. */
export const MAX_SOURCES = 3;

/** Top sources of an answer for the note beside the cell: by rank, one per file page. */
export function topSources(answer: Answer, max = MAX_SOURCES): SourceRef[] {
  const evidence = bySourceRank(answer.source_evidence ?? []);
  const out: SourceRef[] = [];
  const seen = new Set<string>();
  for (const e of evidence) {
    const key = `${e.filename}\u0000${e.page_number}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ filename: e.filename, page_number: e.page_number });
    if (out.length >= max) break;
  }
  return out;
}

/** One planned write of `value` into a question's slot, with what the fill report and the notes need. */
export function cellWrite(
  question: QuestionWithAnswers,
  slot: AnswerSlot,
  answer: Answer | null,
  evaluation: Evaluation | null,
  tab: string,
  address: string,
  value: string,
): CellWrite {
  return {
    tab,
    address,
    value,
    questionId: question.id,
    originalId: question.original_id ?? null,
    slotRole: slot.role,
    slotHeader: slot.header,
    score: evaluation?.score ?? null,
    trust: evaluation?.trust ?? null,
    sources: answer ? topSources(answer) : [],
    forceText: needsTextProtection(value),
  };
}

function describeValue(v: CellState['value']): string {
  const text = String(v);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** resolveTab with memory: thousands of slots share a handful of tab names. */
function tabResolver(sheetNames: readonly string[]): (name: string) => string | null {
  const cache = new Map<string, string | null>();
  return (name) => {
    let tab = cache.get(name);
    if (tab === undefined) cache.set(name, (tab = resolveTab(name, sheetNames)));
    return tab;
  };
}

/** Where a slot points: the sheet named in its coordinate (if any) or the question's tab. */
function slotTarget(question: QuestionWithAnswers, slot: AnswerSlot, resolve: (name: string) => string | null) {
  const coordinate = parseA1(slot.coordinate ?? '');
  const tabName = coordinate?.sheet ?? question.tab_name;
  const tab = resolve(tabName);
  return { tabName, tab, address: coordinate ? toA1(coordinate.row, coordinate.column) : null };
}

/**
 * Cells a writer must read (value, formula, locked) before planning, per resolved tab, in order of
 * first appearance. Blocked slots, unknown tabs and bad coordinates are left out: they are never written.
 */
export function targetCells(questions: readonly QuestionWithAnswers[], sheetNames: readonly string[]): { tab: string; addresses: string[] }[] {
  const byTab = new Map<string, Set<string>>();
  const resolve = tabResolver(sheetNames);
  for (const q of questions) {
    for (const slot of q.answer_slots ?? []) {
      if (slot.is_blocked) continue;
      const { tab, address } = slotTarget(q, slot, resolve);
      if (!tab || !address) continue;
      let set = byTab.get(tab);
      if (!set) byTab.set(tab, (set = new Set()));
      set.add(address);
    }
  }
  return [...byTab].map(([tab, set]) => ({ tab, addresses: [...set] }));
}

/**
 * The write plan for a set of answered questions. Every slot ends up either in `writes` or in
 * `skipped` with a reason (`draft` for a value the fill holds back for review), and the report's
 * counts add up to the number of slots (plus one per question without slots). Slots for which
 * `plannedElsewhere` is true are left to another planner (plan-marks.ts): they are neither written
 * nor skipped here, but still count as the question's slots (which one is primary, whether it has any).
 */
export function planFill(
  questions: readonly QuestionWithAnswers[],
  view: WorkbookView,
  options: PlanOptions = {},
  plannedElsewhere: (slot: AnswerSlot) => boolean = () => false,
): WritePlan {
  const writes: CellWrite[] = [];
  const skipped: SkippedSlot[] = [];
  const claimed = new Map<string, number>();
  const protectedSheets = new Set(view.protectedSheets ?? []);
  const tabOrder: string[] = [];
  const resolve = tabResolver(view.sheetNames);
  const noteTab = (tab: string) => {
    if (!tabOrder.includes(tab)) tabOrder.push(tab);
  };

  for (const question of questions) {
    const slots = question.answer_slots ?? [];
    const questionTab = resolve(question.tab_name) ?? question.tab_name;
    if (slots.length === 0) {
      noteTab(questionTab);
      skipped.push({
        tab: questionTab,
        address: null,
        questionId: question.id,
        originalId: question.original_id ?? null,
        slotRole: '',
        reason: 'no_slot',
        detail: `Question ${label(question)} has no answer cell.`,
      });
      continue;
    }
    const answer = pickAnswer(question);
    const primary = primarySlot(slots);
    const evaluation = answer ? readEvaluation(answer.evaluation) : null;
    const candidates: { write: CellWrite; list: boolean; where: string }[] = [];

    for (const slot of slots) {
      if (plannedElsewhere(slot)) continue;
      const target = slotTarget(question, slot, resolve);
      const tab = target.tab ?? target.tabName;
      noteTab(tab);
      const skip = (reason: SkipReason, detail: string, extra: Partial<Pick<SkippedSlot, 'address' | 'current'>> = {}) => {
        skipped.push({
          tab,
          address: target.address,
          questionId: question.id,
          originalId: question.original_id ?? null,
          slotRole: slot.role,
          reason,
          detail,
          ...extra,
        });
      };
      const where = `${tab}!${target.address ?? slot.coordinate}`;

      if (slot.is_blocked) {
        skip('blocked', `${where} is marked as not to be filled.`);
        continue;
      }
      if (!target.tab) {
        skip('missing_tab', `The workbook has no sheet named "${target.tabName}".`);
        continue;
      }
      if (!target.address) {
        skip('bad_coordinate', `"${slot.coordinate}" is not a cell address.`, { address: null });
        continue;
      }
      const raw = answer ? slotValue(answer, slot, slot === primary) : null;
      let value = raw?.trim() ?? '';
      if (value === '') {
        skip('no_value', answer ? `The answer has nothing for "${slot.header || slot.role}".` : `Question ${label(question)} has no answer.`);
        continue;
      }
      if (isListSlot(slot)) {
        const allowed = slot.allowed_values!;
        const fitted = coerceToAllowed(value, allowed);
        if (fitted === null) {
          skip('not_allowed', `"${describeValue(value)}" is not one of ${allowed.join(', ')}; left for review.`);
          continue;
        }
        value = fitted;
      }
      const key = `${target.tab}!${target.address}`;
      const firstQuestion = claimed.get(key);
      if (firstQuestion !== undefined) {
        skip('duplicate', `${where} is already written by question ${firstQuestion}.`);
        continue;
      }
      claimed.set(key, question.id);

      const state = view.cell(target.tab, target.address);
      const refusal = cellRefusal(state, { sheetProtected: protectedSheets.has(target.tab), overwrite: options.overwrite });
      if (refusal) {
        if (refusal === 'occupied') skip(refusal, `${where} already holds "${describeValue(state!.value)}".`, { current: state!.value! });
        else skip(refusal, refusalDetail(refusal, where));
        continue;
      }
      const write = cellWrite(question, slot, answer, evaluation, target.tab, target.address, value);
      candidates.push({ write, list: isListSlot(slot), where });
    }
    placeCandidates(question, slots, answer, evaluation, candidates, options, writes, skipped);
  }
  return { writes, skipped, report: { ...buildReport(writes, skipped, tabOrder), model: modelUsage(questions) } };
}

/**
 * What a fill writes by default is what an analyst could defend: a list answer of medium or high trust
 * (or approved), and free text beside a list answer it writes, or for a question without a list slot
 * at medium or high trust. The rest are drafts: left for review, written only with `writeDrafts`.
 */
function placeCandidates(
  question: QuestionWithAnswers,
  slots: readonly AnswerSlot[],
  answer: Answer | null,
  evaluation: Evaluation | null,
  candidates: readonly { write: CellWrite; list: boolean; where: string }[],
  options: PlanOptions,
  writes: CellWrite[],
  skipped: SkippedSlot[],
): void {
  const defensible = answer?.status === 'approved' || evaluation?.trust === 'medium' || evaluation?.trust === 'high';
  const trustWords = evaluation ? `${evaluation.trust}-trust` : 'unrated';
  const writesList = defensible && candidates.some((c) => c.list);
  const hasListSlot = slots.some((s) => !s.is_blocked && isListSlot(s));
  for (const { write, list, where } of candidates) {
    const why = list || !hasListSlot ? (defensible ? null : `a ${trustWords} answer`) : writesList ? null : 'free text without a list answer written beside it';
    if (why === null) writes.push(write);
    else if (options.writeDrafts) writes.push({ ...write, draft: true });
    else {
      skipped.push({
        tab: write.tab,
        address: write.address,
        questionId: question.id,
        originalId: question.original_id ?? null,
        slotRole: write.slotRole,
        reason: 'draft',
        detail: `${where}: ${why} is a draft, left for review ("${describeValue(write.value)}").`,
        value: write.value,
      });
    }
  }
}

function label(question: QuestionWithAnswers): string {
  return question.original_id ? `${question.original_id} (#${question.id})` : `#${question.id}`;
}
