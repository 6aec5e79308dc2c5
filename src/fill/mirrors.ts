/**
 * Questions a questionnaire repeats by formula. HECVAT 4 asks its identity and scoping questions on a
 * START HERE tab and shows them again on other tabs, the answer cell a formula (`='START HERE'!C19`).
 * The service keeps every such row as a question (its formula cell blocked, `mirror_of` naming the
 * cell it shows), but for the analyst it is one question: answered where its answer cell is, reviewed
 * once, counted once. Pure functions; the review and its counts read them.
 */
import type { AnswerSlot, QuestionWithAnswers } from '../api/schemas';
import { primarySlot } from './answer';
import { type CellRef, parseCellRef } from '../xlsx/a1';
import { mirrorSource } from './mirror-cell';

export { cellName, mirrorSource } from './mirror-cell';

export interface FoldedQuestions {
  /** One item per question: every question but the mirrors of another question's answer cell, in order. */
  items: QuestionWithAnswers[];
  /** A folded mirror's id → the id of the question answered where it reads. */
  originalOf: ReadonlyMap<number, number>;
  /** A question's id → the cells on other tabs that show its answer. */
  mirroredAt: ReadonlyMap<number, CellRef[]>;
  /** A question whose answer cell is a formula → the cell where it is answered (`START HERE!C19`). */
  answeredAt: ReadonlyMap<number, CellRef>;
}

const key = (tab: string, address: string) => `${tab.trim().toLowerCase()}!${address.replace(/\$/g, '').trim().toUpperCase()}`;

/** A mirror has nothing of its own to fill: every answer cell is blocked (formulas, locked cells). */
const nothingToFill = (q: QuestionWithAnswers) => (q.answer_slots ?? []).every((s) => s.is_blocked);

/**
 * Folds each mirror into the question whose writable answer cell it shows (through a chain of mirrors
 * too). A mirror of a cell that is no question's answer cell, or one with a cell of its own to fill,
 * stays an item; either way `answeredAt` says where its answer is.
 */
export function foldMirrors(questions: readonly QuestionWithAnswers[]): FoldedQuestions {
  const answerCellOwner = new Map<string, QuestionWithAnswers>();
  for (const q of questions) {
    for (const s of q.answer_slots ?? []) {
      const c = parseCellRef(s.coordinate, q.tab_name);
      if (c && !s.is_blocked && !answerCellOwner.has(key(c.tab, c.address))) answerCellOwner.set(key(c.tab, c.address), q);
    }
  }
  const sources = new Map<number, CellRef>();
  for (const q of questions) {
    const source = mirrorSource(q);
    if (source) sources.set(q.id, source);
  }
  const byCell = new Map<string, QuestionWithAnswers>();
  for (const q of questions) {
    const primary = primarySlot((q.answer_slots ?? []) as AnswerSlot[]);
    const c = primary ? parseCellRef(primary.coordinate, q.tab_name) : null;
    if (c && !byCell.has(key(c.tab, c.address))) byCell.set(key(c.tab, c.address), q);
  }
  const answeredAt = new Map<number, CellRef>();
  const originalOf = new Map<number, number>();
  const mirroredAt = new Map<number, CellRef[]>();
  for (const q of questions) {
    let source = sources.get(q.id);
    if (!source) continue;
    // A mirror of a mirror is answered where the last one reads; a loop of formulas ends nowhere.
    const seen = new Set<number>([q.id]);
    for (
      let next = byCell.get(key(source.tab, source.address));
      next && sources.has(next.id) && !seen.has(next.id);
      next = byCell.get(key(source.tab, source.address))
    ) {
      seen.add(next.id);
      source = sources.get(next.id)!;
    }
    answeredAt.set(q.id, source);
    const original = answerCellOwner.get(key(source.tab, source.address));
    if (!original || original.id === q.id || !nothingToFill(q)) continue;
    originalOf.set(q.id, original.id);
    const own = parseCellRef(primarySlot((q.answer_slots ?? []) as AnswerSlot[])!.coordinate, q.tab_name);
    if (own) mirroredAt.set(original.id, [...(mirroredAt.get(original.id) ?? []), own]);
  }
  return { items: questions.filter((q) => !originalOf.has(q.id)), originalOf, mirroredAt, answeredAt };
}

/** The review item of a question: the question itself, or the one a mirror is folded into. */
export function reviewItemOf(fold: FoldedQuestions, questions: readonly QuestionWithAnswers[], q: QuestionWithAnswers): QuestionWithAnswers {
  const original = fold.originalOf.get(q.id);
  return original === undefined ? q : (questions.find((x) => x.id === original) ?? q);
}
