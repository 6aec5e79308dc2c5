/**
 * Reading questions for the review list: which answer is the chosen one, its evaluation and evidence,
 * which cells belong to a question, and filtering. Pure functions; the Fill pane renders them.
 */
import { readEvaluation, type Answer, type Evaluation, type QuestionWithAnswers, type TrustLevel } from '../api/schemas';
import { isListSlot, pickAnswer, primarySlot, slotValue } from '../fill/answer';
import { coerceToAllowed } from '../fill/coerce';
import { mirrorSource } from '../fill/mirror-cell';
import { type CellRef, parseCellRef } from '../fill/cells';

/** The answer a fill writes (`pickAnswer`): the review shows the same one. */
export function chosenAnswer(q: QuestionWithAnswers): Answer | null {
  return pickAnswer(q);
}

export function evaluationOf(q: QuestionWithAnswers): Evaluation | null {
  const answer = chosenAnswer(q);
  return answer ? readEvaluation(answer.evaluation) : null;
}

/** Flagged by the service, low trust, or no answer at all: a person should look. */
export function needsReview(q: QuestionWithAnswers): boolean {
  if (q.flagged_for_review) return true;
  const answer = chosenAnswer(q);
  if (!answer || !answer.text.trim()) return true;
  return readEvaluation(answer.evaluation)?.trust === 'low';
}

const normTab = (s: string) => s.trim().toLowerCase();
const normAddress = (s: string) => s.replace(/\$/g, '').trim().toUpperCase();

/** The cell where the question's question text sits, when the service tells us (our service does). */
export function questionCell(q: QuestionWithAnswers): CellRef | null {
  return typeof q.question_coordinate === 'string' ? parseCellRef(q.question_coordinate, q.tab_name) : null;
}

/** The row number of an A1 address ("C7" → 7, a whole-row selection "7" → 7); null when there is none. */
function rowOf(address: string): number | null {
  const m = /^[A-Z]{0,3}([1-9][0-9]*)$/.exec(address);
  return m ? Number(m[1]) : null;
}

/** The sheet rows a question occupies: its own row (when the service sends it), its question cell's and its slots'. */
export function questionRows(q: QuestionWithAnswers): Set<number> {
  const rows = new Set<number>();
  if (typeof q.row === 'number' && Number.isSafeInteger(q.row) && q.row > 0) rows.add(q.row);
  for (const cell of [questionCell(q), ...slotCells(q)]) {
    const row = cell && normTab(cell.tab) === normTab(q.tab_name) ? rowOf(cell.address) : null;
    if (row !== null) rows.add(row);
  }
  return rows;
}

/** The cells of the question's answer slots, blocked ones included (they still belong to the row). */
export function slotCells(q: QuestionWithAnswers): CellRef[] {
  const cells: CellRef[] = [];
  for (const slot of q.answer_slots ?? []) {
    const ref = parseCellRef(slot.coordinate, q.tab_name);
    if (ref) cells.push(ref);
  }
  return cells;
}

/**
 * Where clicking a question takes the analyst: the first writable answer cell, else the cell its
 * formula shows (where it is answered), else any of its cells.
 */
export function targetCell(q: QuestionWithAnswers): CellRef | null {
  const writable = (q.answer_slots ?? []).find((s) => !s.is_blocked);
  const ref = writable ? parseCellRef(writable.coordinate, q.tab_name) : null;
  return ref ?? mirrorSource(q) ?? slotCells(q)[0] ?? questionCell(q);
}

/**
 * The question of the cell `ref`: the one whose answer cell or question cell it is, else the one on its
 * row (an id or comment column beside the question); null when the cell belongs to none.
 */
export function findQuestionAt(questions: readonly QuestionWithAnswers[], ref: CellRef): QuestionWithAnswers | null {
  const tab = normTab(ref.tab);
  const address = normAddress(ref.address.includes('!') ? ref.address.slice(ref.address.lastIndexOf('!') + 1) : ref.address);
  // A selected range ("C5:D7", or whole rows "7:9") counts by its top-left cell.
  const topLeft = address.split(':')[0]!;
  const same = (c: CellRef | null) => !!c && normTab(c.tab) === tab && c.address === topLeft;
  const exact = questions.find((q) => slotCells(q).some(same)) ?? questions.find((q) => same(questionCell(q)));
  if (exact) return exact;
  const row = rowOf(topLeft);
  return row === null ? null : (questions.find((q) => normTab(q.tab_name) === tab && questionRows(q).has(row)) ?? null);
}

export interface ReviewFilter {
  tab: string; // '' = all
  section: string; // '' = all
  trust: TrustLevel | 'none' | ''; // 'none' = no evaluation
  needsReviewOnly: boolean;
  text: string;
}

export const EMPTY_FILTER: ReviewFilter = { tab: '', section: '', trust: '', needsReviewOnly: false, text: '' };

export function sectionOf(q: QuestionWithAnswers): string {
  return (q.section_path ?? []).join(' › ');
}

export function filterQuestions(questions: readonly QuestionWithAnswers[], f: ReviewFilter): QuestionWithAnswers[] {
  const text = f.text.trim().toLowerCase();
  return questions.filter((q) => {
    if (f.tab && q.tab_name !== f.tab) return false;
    if (f.section && sectionOf(q) !== f.section) return false;
    if (f.trust) {
      const trust = evaluationOf(q)?.trust ?? 'none';
      if (trust !== f.trust) return false;
    }
    if (f.needsReviewOnly && !needsReview(q)) return false;
    if (text && !`${q.original_id ?? ''} ${q.original_question_text}`.toLowerCase().includes(text)) return false;
    return true;
  });
}

/** Distinct values in first-seen order (the questionnaire's reading order). */
export function distinct(values: Iterable<string>): string[] {
  return [...new Set([...values].filter((v) => v !== ''))];
}

export function trustCounts(questions: readonly QuestionWithAnswers[]): Record<TrustLevel | 'none', number> {
  const counts = { high: 0, medium: 0, low: 0, none: 0 };
  for (const q of questions) counts[evaluationOf(q)?.trust ?? 'none']++;
  return counts;
}

export { withCorrection } from '../fill/session/corrections';

/** One side of a disagreement between past answers (the service's `evaluation.alternatives`). */
export interface Alternative {
  value: string;
  slot_key: string;
  slot_responses: { slot_key: string; content: string }[];
  source_file: string;
  questionnaire: string;
  chosen: boolean;
}

/** The sides of a conflict the service surfaced for this question; [] when none (or a service that sends none). */
export function alternativesOf(q: QuestionWithAnswers): Alternative[] {
  const list = (chosenAnswer(q)?.evaluation as { alternatives?: unknown } | null | undefined)?.alternatives;
  return Array.isArray(list)
    ? list
        .filter((a): a is Alternative => typeof a?.value === 'string' && a.value.trim() !== '')
        .map((a) => ({ ...a, slot_responses: Array.isArray(a.slot_responses) ? a.slot_responses : [] }))
    : [];
}

/** "Canvas Catalog: No · Canvas Studio: Yes", when the service summarised the disagreement. */
export function conflictSides(q: QuestionWithAnswers): string | null {
  const sides = (chosenAnswer(q)?.evaluation as { conflict?: { sides?: unknown } } | null | undefined)?.conflict?.sides;
  return typeof sides === 'string' && sides.trim() ? sides : null;
}

/**
 * Where a question stands: answered (its answer is in the workbook, or the analyst corrected it), a
 * draft (an answer the fill did not write: for review), or untouched (no answer at all).
 */
export type ReviewState = 'answered' | 'draft' | 'untouched';

export function reviewState(q: QuestionWithAnswers, written: ReadonlySet<number> | null, corrected: ReadonlySet<number> | undefined): ReviewState {
  if (corrected?.has(q.id)) return 'answered';
  const text = chosenAnswer(q)?.text.trim() ?? '';
  const slotsSay = (chosenAnswer(q)?.slot_responses ?? []).some((r) => r.content.trim());
  // Sides of a conflict to choose from are a draft too: something to decide, not nothing.
  const something = !!text || slotsSay || alternativesOf(q).length > 0;
  if (written) {
    if (written.has(q.id)) return 'answered';
    return something ? 'draft' : 'untouched';
  }
  if (!something) return 'untouched';
  return needsReview(q) || !answersPrimary(q) ? 'draft' : 'answered';
}

/**
 * The chosen answer has a value for the question's primary cell: an allowed value where it is a list,
 * else text. A description beside an unanswered list is not an answer.
 */
function answersPrimary(q: QuestionWithAnswers): boolean {
  const answer = chosenAnswer(q);
  const writable = (q.answer_slots ?? []).filter((s) => !s.is_blocked);
  const primary = primarySlot(writable);
  if (!answer || !primary) return !!answer?.text.trim();
  const value = slotValue(answer, primary, true)?.trim() ?? '';
  if (!value) return false;
  return isListSlot(primary) ? coerceToAllowed(value, primary.allowed_values!) !== null : true;
}

export function reviewCounts(
  questions: readonly QuestionWithAnswers[],
  written: ReadonlySet<number> | null,
  corrected: ReadonlySet<number> | undefined,
): Record<ReviewState, number> & { needsReview: number } {
  const counts = { answered: 0, draft: 0, untouched: 0, needsReview: 0 };
  for (const q of questions) {
    counts[reviewState(q, written, corrected)]++;
    if (stillNeedsReview(q, corrected)) counts.needsReview++;
  }
  return counts;
}

/** Needs a person, and nobody has corrected it yet. */
export function stillNeedsReview(q: QuestionWithAnswers, corrected: ReadonlySet<number> | undefined): boolean {
  return needsReview(q) && !corrected?.has(q.id);
}

/** The next question needing review after `afterId` in questionnaire order, wrapping around; null when none is left. */
export function nextNeedingReview(
  questions: readonly QuestionWithAnswers[],
  afterId: number | null,
  corrected: ReadonlySet<number> | undefined,
): QuestionWithAnswers | null {
  const start = afterId === null ? -1 : questions.findIndex((q) => q.id === afterId);
  for (let i = 1; i <= questions.length; i++) {
    const q = questions[(start + i + questions.length) % questions.length]!;
    if (q.id !== afterId && stillNeedsReview(q, corrected)) return q;
  }
  return null;
}

/**
 * The questions answered in the cells after the last fill: its primary cell (the list where there is
 * one, else the free-text answer) was written with an answer, not a draft, or already held a value the
 * fill left alone (overwrite off: an earlier fill's answer or the analyst's). A comment or a
 * description alone is not an answer.
 */
export function answeredByWrites(
  writes: readonly { questionId: number; slotRole: string; draft?: boolean }[],
  questions: readonly QuestionWithAnswers[],
  skipped: readonly { questionId: number; slotRole: string; reason: string; current?: unknown }[] = [],
): Set<number> {
  const primaryRole = new Map(questions.map((q) => [q.id, primarySlot((q.answer_slots ?? []).filter((s) => !s.is_blocked))?.role]));
  const primary = (x: { questionId: number; slotRole: string }) => primaryRole.get(x.questionId) === x.slotRole;
  const held = skipped.filter((s) => s.reason === 'occupied' && String(s.current ?? '').trim() !== '' && primary(s));
  return new Set([...writes.filter((w) => !w.draft && primary(w)), ...held].map((w) => w.questionId));
}
