/** Where a question repeated by formula on other tabs is answered, and where else it shows. */
import type { QuestionWithAnswers } from '../../api/schemas';
import type { FoldedQuestions } from '../../fill/mirrors';
import { type CellRef, parseCellRef } from '../../fill/cells';

export interface AnsweredWhere {
  /** The question's own answer cell, where it is answered (or the cell its formula shows). */
  at: CellRef | null;
  /** Cells on other tabs showing this answer by formula. */
  mirrors: CellRef[];
  /** The mirror the analyst selected in the sheet, if that is how the question came up. */
  selected?: CellRef | null;
}

/**
 * For the review item `selected`, reached by picking `picked` (itself, or a mirror of it): where it is
 * answered and shown again; undefined when it is neither mirrored nor answered elsewhere.
 */
export function answeredWhere(fold: FoldedQuestions, selected: QuestionWithAnswers, picked: QuestionWithAnswers | null): AnsweredWhere | undefined {
  const mirrors = fold.mirroredAt.get(selected.id) ?? [];
  const own = fold.answeredAt.get(selected.id) ?? null;
  if (!own && mirrors.length === 0) return undefined;
  const answerSlot = (selected.answer_slots ?? []).find((s) => !s.is_blocked);
  const at = own ?? (answerSlot ? parseCellRef(answerSlot.coordinate, selected.tab_name) : null);
  const via = picked && picked.id !== selected.id ? picked : null;
  const viaSlot = via ? (via.answer_slots ?? []).find((s) => s.mirror_of) : undefined;
  return { at, mirrors, selected: via && viaSlot ? parseCellRef(viaSlot.coordinate, via.tab_name) : null };
}
