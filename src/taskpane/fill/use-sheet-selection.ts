/** Selecting a cell in the sheet brings up its question in the review. */
import { useEffect, useRef } from 'preact/hooks';
import type { QuestionWithAnswers } from '../../api/schemas';
import type { WorkbookAdapter } from '../../excel/types';
import { findQuestionAt } from '../review';

/** Calls `onQuestion` with the question of each cell the analyst selects; a host without selection events is left alone. */
export function useSheetSelection(workbook: WorkbookAdapter, questions: readonly QuestionWithAnswers[], onQuestion: (q: QuestionWithAnswers) => void): void {
  const latest = useRef({ questions, onQuestion });
  latest.current = { questions, onQuestion };
  useEffect(() => {
    let unsubscribe: (() => void) | null = null;
    let gone = false;
    workbook
      .onSelectionChanged((ref) => {
        const q = findQuestionAt(latest.current.questions, ref);
        if (q) latest.current.onQuestion(q);
      })
      .then((off) => (gone ? off() : (unsubscribe = off)))
      .catch(() => {
        /* no selection events in this host: the list still works one way */
      });
    return () => {
      gone = true;
      try {
        // An adapter may unsubscribe asynchronously; a failure then only means the events are gone.
        const done: unknown = unsubscribe?.();
        if (done instanceof Promise) done.catch(() => {});
      } catch {
        /* the host is gone (pane closing): nothing left to unsubscribe from */
      }
    };
  }, [workbook]);
}
