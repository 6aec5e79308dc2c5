/**
 * One workbook, one answer. A question asked again in the same workbook (HECVAT 4 repeats its GNRL rows
 * on every tab) gets the answer already given to it; a question that says nearly the same thing about the
 * same subject but received a different list answer is flagged, naming the other one, so the analyst
 * settles it once. What "the same question" is lives in question-identity.ts: the same words under
 * another section, or following another question they refer back to, are another question.
 */
import type { AnswerSlot } from '../../../api/schemas';
import { questionIdentity, questionSubject, type QuestionInContext } from '../question-identity';
import { mirrorSource } from '../../../fill/mirror-cell';
import { type CellRef, parseCellRef } from '../../../xlsx/a1';
import { setCosine, stemmedTerms } from '../text';
import type { AnswerResult } from '../types';
import { evaluation } from './evaluation';
import { isListSlot, primarySlot, writableSlots } from './slots';

/** Questions this close in stemmed terms ask the same thing; their list answers must agree. */
const SAME_QUESTION_COSINE = 0.9;
/** A contradicted answer is at most low trust: a draft until a person chooses. */
const CONTRADICTED_MAX_SCORE = 45;

export interface AskedQuestion extends QuestionInContext {
  answer_slots: AnswerSlot[];
  /** Its tab: where its answer cells are, for a row elsewhere that shows one of them by formula. */
  tab_name?: string;
  /** Where it is asked, for the reason ("Security!C12"). */
  where: string;
}

interface Given {
  /** questionIdentity; empty for answers that may not be copied. */
  identity: string;
  subject: string;
  stems: Set<string>;
  shape: string;
  listValue: string | null;
  where: string;
  /** Its writable answer cells (`tab!A1`, lower-cased tab). */
  cells: string[];
  result: AnswerResult;
}

const cellKey = (c: CellRef) => `${c.tab.trim().toLowerCase()}!${c.address}`;

function writableCells(q: AskedQuestion): string[] {
  if (q.tab_name === undefined) return [];
  return writableSlots(q.answer_slots).flatMap((s) => {
    const c = parseCellRef(s.coordinate, q.tab_name!);
    return c ? [cellKey(c)] : [];
  });
}

/** The slots' roles and lists: a repeat's answer is copied only onto the same shape of answer cells. */
function shapeOf(slots: AnswerSlot[]): string {
  return JSON.stringify(writableSlots(slots).map((s) => [s.role, s.allowed_values ?? null]));
}

function listValueOf(q: { answer_slots: AnswerSlot[] }, result: AnswerResult): string | null {
  const primary = primarySlot(writableSlots(q.answer_slots));
  if (!primary || !isListSlot(primary)) return null;
  const value = result.slot_responses.find((r) => r.slot_key === primary.role)?.content.trim();
  return value ? value : null;
}

export class WorkbookConsistency {
  private readonly given: Given[] = [];

  /** The answer already given to this very question in this workbook, copied, or null. */
  repeatOf(q: AskedQuestion): AnswerResult | null {
    const identity = questionIdentity(q);
    const shape = shapeOf(q.answer_slots);
    const earlier = this.given.find((g) => g.identity === identity && g.shape === shape);
    if (!earlier) return this.mirrored(q);
    const r = earlier.result;
    const reason = `${r.evaluation.reason} (the same question is asked at ${earlier.where}: one workbook, one answer)`;
    return { ...r, slot_responses: r.slot_responses.map((s) => ({ ...s })), evaluation: { ...r.evaluation, reason } };
  }

  /**
   * A row that shows another question's answer cell by formula (HECVAT 4 repeats START HERE's rows on
   * its other tabs; `mirror_of`) gets that question's answer, so the two never disagree; null when the
   * cell it shows is no question's answered here.
   */
  private mirrored(q: AskedQuestion): AnswerResult | null {
    const source = q.tab_name === undefined ? null : mirrorSource({ answer_slots: q.answer_slots, tab_name: q.tab_name });
    if (!source) return null;
    const key = cellKey(source);
    const original = this.given.find((g) => g.identity !== '' && g.cells.includes(key));
    if (!original) return null;
    const r = original.result;
    const reason = `${r.evaluation.reason} (this row shows ${source.tab}!${source.address} by formula: the answer given there)`;
    return { ...r, slot_responses: r.slot_responses.map((s) => ({ ...s })), evaluation: { ...r.evaluation, reason } };
  }

  /**
   * Records an answer; flags it when a question asking the same thing got another list answer.
   * `copyable: false` for answers known only from storage (a resumed fill): checked against, never copied.
   */
  record(q: AskedQuestion, result: AnswerResult, copyable = true): AnswerResult {
    const stems = stemmedTerms(q.text);
    const subject = questionSubject(q);
    const listValue = listValueOf(q, result);
    let out = result;
    if (listValue !== null) {
      const other = this.given.find(
        (g) =>
          g.listValue !== null &&
          g.listValue.toLowerCase() !== listValue.toLowerCase() &&
          g.subject === subject &&
          setCosine(g.stems, stems) >= SAME_QUESTION_COSINE,
      );
      if (other) {
        const score = Math.min(result.score, CONTRADICTED_MAX_SCORE);
        const reason = `${result.evaluation.reason}; this contradicts the answer ${other.listValue} to the same question at ${other.where}, so check both`;
        out = {
          ...result,
          score,
          flagged_for_review: true,
          evaluation: { ...result.evaluation, ...evaluation(score, reason, result.method), contradicts: { where: other.where, value: other.listValue } },
        };
      }
    }
    this.given.push({
      identity: copyable ? questionIdentity(q) : '',
      subject,
      stems,
      shape: shapeOf(q.answer_slots),
      listValue,
      where: q.where,
      cells: writableCells(q),
      result: out,
    });
    return out;
  }
}
