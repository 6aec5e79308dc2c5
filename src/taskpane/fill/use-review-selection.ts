/**
 * Which question the review shows: the one picked in the list (its cell is then selected in the sheet)
 * or selected in the sheet; none once a new fill starts.
 */
import { useEffect, useState } from 'preact/hooks';
import type { QuestionWithAnswers } from '../../api/schemas';
import type { WorkbookAdapter } from '../../excel/types';
import type { FillState } from '../../fill/session';
import { targetCell } from '../review';
import { useSheetSelection } from './use-sheet-selection';

export interface ReviewSelection {
  selectedId: number | null;
  /** Picks a question in the list and selects its cell in the sheet. */
  pick: (q: QuestionWithAnswers) => void;
  /** Why the sheet could not go to the picked question's cell, until dismissed. */
  navError: unknown;
  dismissNavError: () => void;
}

export function useReviewSelection(workbook: WorkbookAdapter, state: Pick<FillState, 'phase' | 'questions'>): ReviewSelection {
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [navError, setNavError] = useState<unknown>(null);
  const running = state.phase === 'running';

  // A new fill starts a new review.
  useEffect(() => {
    if (running && state.questions.length === 0) setSelectedId(null);
  }, [running, state.questions]);

  useSheetSelection(workbook, state.questions, (q) => setSelectedId(q.id));

  const pick = (q: QuestionWithAnswers) => {
    setSelectedId(q.id);
    setNavError(null);
    const cell = targetCell(q);
    if (cell) workbook.select(cell).catch(setNavError);
  };
  return { selectedId, pick, navError, dismissNavError: () => setNavError(null) };
}
