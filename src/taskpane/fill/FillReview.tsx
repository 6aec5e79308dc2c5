/**
 * The review under a fill, and saving the reviewed answers to the library: both load after the first
 * paint (src/taskpane/later.ts), so the pane says so meanwhile.
 */
import { useMemo } from 'preact/hooks';
import type { CellRef, WorkbookAdapter } from '../../excel/types';
import type { FillSession, FillState } from '../../fill/session';
import type { Later } from '../later';
import type { CorrectFn } from '../panes/Correction';
import { answeredByWrites } from '../review';
import type { TaskpaneApi } from '../types';
import type { ReviewSelection } from './use-review-selection';
import { heldBackValues } from './view';

export interface FillReviewProps {
  view: Later | null;
  session: FillSession | null;
  state: FillState;
  client: TaskpaneApi | null;
  workbook: WorkbookAdapter;
  selection: ReviewSelection;
  /** Running, undoing or asking: saving to the library waits. */
  busy: boolean;
  uploadBlocked: string | null;
}

export function FillReview(props: FillReviewProps) {
  const { view, session, state, client, workbook, selection } = props;
  const { questions, report } = state;
  const written = useMemo(() => (report ? answeredByWrites(report.plan.writes, questions, report.plan.skipped) : null), [report, questions]);
  const heldBack = useMemo(() => heldBackValues(report), [report]);
  const readValues = useMemo(() => (workbook.readValues ? (refs: CellRef[]) => workbook.readValues!(refs) : undefined), [workbook]);
  const correct: CorrectFn = (q, target, text, overwrite) =>
    session ? session.correct(q, target, text, overwrite) : Promise.resolve({ written: false, reason: 'Connect to a service first.' });

  if (questions.length === 0) return null;
  if (!view) return <p class="qf-muted">Loading the review…</p>;
  return (
    <>
      <view.ReviewList
        questions={questions}
        selectedId={selection.selectedId}
        onPick={selection.pick}
        onCorrect={correct}
        corrected={state.corrected}
        written={written}
        heldBack={heldBack}
        {...(readValues ? { readValues } : {})}
      />
      {client && session && !props.busy && (
        <view.SaveToLibrary
          key={state.questionnaireId}
          client={client}
          workbook={workbook}
          questions={questions}
          fileName={state.fileName}
          laterEdits={session.findLaterEdits}
          blocked={props.uploadBlocked}
        />
      )}
    </>
  );
}
