/**
 * What a reviewed workbook teaches the library: each question's answer cells as they are now (read
 * through the workbook, after the analyst's corrections), sent as a Q&A sheet (`qa-sheet.ts`). Only
 * an answered question is an entry: a question whose answer cell is empty taught nothing, whatever
 * its comment column holds. Pure: the caller reads the cells.
 */
import type { AnswerSlot, QuestionWithAnswers } from '../api/schemas';
import { parseA1, toA1 } from '../xlsx/a1';
import { primarySlot } from './answer';

/** One answer cell of a question, where the reviewed value is read from. */
export interface ReviewedCell {
  questionId: number;
  tab: string;
  address: string;
  slot: AnswerSlot;
}

export interface ReviewedSlot {
  role: string;
  header: string;
  /** `Tab!A1` of the answer cell. */
  cell: string;
  value: string;
}

export interface ReviewedEntry {
  questionId: number;
  tab: string;
  /** `Tab!A1` of the question text, or of its first answer cell when the service did not say. */
  questionCell: string;
  originalId: string | null;
  question: string;
  /** The primary (answer) slot first. */
  slots: ReviewedSlot[];
  /** The analyst changed one of its cells after the fill (in the sheet or from the review). */
  corrected: boolean;
}

export interface ReviewedAnswers {
  entries: ReviewedEntry[];
  /** Answered questions per answer tab, in workbook order. */
  byTab: { tab: string; count: number }[];
  corrected: number;
  /** Questions whose answer cell is empty: not learned. */
  unanswered: number;
}

const cellRef = (tab: string, address: string) => `${tab}!${address}`;

/** The writable answer cells of every question, in questionnaire order: what to read before learning. */
export function reviewedCells(questions: readonly QuestionWithAnswers[]): ReviewedCell[] {
  const cells: ReviewedCell[] = [];
  for (const q of questions) {
    for (const slot of q.answer_slots ?? []) {
      if (slot.is_blocked) continue;
      const c = parseA1(slot.coordinate ?? '');
      if (c) cells.push({ questionId: q.id, tab: c.sheet ?? q.tab_name, address: toA1(c.row, c.column), slot });
    }
  }
  return cells;
}

/**
 * The entries the reviewed cells make. `values[i]` is the current text of `cells[i]`;
 * `changed` holds `Tab!A1` of the cells the analyst changed after the fill.
 */
export function reviewedAnswers(
  questions: readonly QuestionWithAnswers[],
  cells: readonly ReviewedCell[],
  values: readonly string[],
  changed: ReadonlySet<string>,
): ReviewedAnswers {
  const byQuestion = new Map<number, { cell: ReviewedCell; value: string }[]>();
  cells.forEach((cell, i) => {
    const list = byQuestion.get(cell.questionId) ?? [];
    list.push({ cell, value: String(values[i] ?? '').trim() });
    byQuestion.set(cell.questionId, list);
  });
  const entries: ReviewedEntry[] = [];
  let unanswered = 0;
  for (const q of questions) {
    const read = byQuestion.get(q.id);
    if (!read) continue;
    const primary = primarySlot(read.map((r) => r.cell.slot));
    const answer = read.find((r) => r.cell.slot === primary);
    if (!answer || answer.value === '') {
      unanswered++;
      continue;
    }
    const ordered = [answer, ...read.filter((r) => r !== answer && r.value !== '')];
    const slots = ordered.map((r) => ({ role: r.cell.slot.role, header: r.cell.slot.header, cell: cellRef(r.cell.tab, r.cell.address), value: r.value }));
    const questionCell = parseA1(q.question_coordinate ?? '');
    entries.push({
      questionId: q.id,
      tab: q.tab_name,
      questionCell: questionCell ? cellRef(questionCell.sheet ?? q.tab_name, toA1(questionCell.row, questionCell.column)) : slots[0]!.cell,
      originalId: q.original_id ?? null,
      question: q.original_question_text,
      slots,
      corrected: read.some((r) => changed.has(cellRef(r.cell.tab, r.cell.address))),
    });
  }
  const counts = new Map<string, number>();
  for (const e of entries) counts.set(e.tab, (counts.get(e.tab) ?? 0) + 1);
  return {
    entries,
    byTab: [...counts].map(([tab, count]) => ({ tab, count })),
    corrected: entries.filter((e) => e.corrected).length,
    unanswered,
  };
}
