/**
 * Fill this workbook: renders the fill session (src/fill/session), which reads, uploads, waits for
 * detection and answers, writes, resumes, undoes and corrects. The pane adds what only a pane has:
 * the library hint, selection sync with the sheet, and the words for each state. Its parts are in
 * src/taskpane/fill: the hooks, the pure view of the session's state, and the pieces it renders.
 */
import { useEffect } from 'preact/hooks';
import type { ApiError } from '../../api/errors';
import type { QuestionWithAnswers } from '../../api/schemas';
import type { WorkbookAdapter } from '../../excel/types';
import type { FillOptions, FillSession, FillState, StepKey } from '../../fill/session';
import { ConnectFirst, ErrorMessage, Note } from '../components/Message';
import { isForbidden } from '../errors';
import { ConfirmOverwrite, ConfirmUndo } from '../fill/Confirm';
import { FillActions } from '../fill/FillActions';
import { FillReview } from '../fill/FillReview';
import { FillSteps, StalledNote } from '../fill/FillSteps';
import { Interrupted } from '../fill/Interrupted';
import { LibraryHint } from '../fill/LibraryHint';
import { OutcomeNote } from '../fill/OutcomeNote';
import { useFillSession } from '../fill/use-fill-session';
import { useLibraryCounts } from '../fill/use-library-counts';
import { useReviewSelection } from '../fill/use-review-selection';
import { errorOf, fillControls } from '../fill/view';
import { WriteOptions } from '../fill/WriteOptions';
import { useLater } from '../later';
import type { StorageLike, TaskpaneApi } from '../types';
import { WriteReport } from './fill-report';

export type { FillOptions, StepKey };

export interface FillPaneProps {
  client: TaskpaneApi | null;
  workbook: WorkbookAdapter;
  storage: StorageLike;
  uploadBlocked: string | null;
  onUploadRefused: (e: ApiError) => void;
  /** The questions of this workbook's questionnaire, once known (Chat asks about them). */
  onQuestions: (questions: QuestionWithAnswers[]) => void;
  onOpenSettings: () => void;
  onOpenLibrary: () => void;
  /** Whether the Fill tab is shown: the library's state is checked again each time it is. */
  active: boolean;
  /** How long generation may show no progress before the pane says so (ms). Default 3 minutes. */
  stallMs?: number;
  /** Grows when the saved settings are shown to work (Settings saved and checked, or tested): an old failure is no longer true. */
  connectionEpoch?: number;
}

/** Keeps the app in step with the session: Chat gets the questions, a refused upload disables uploads, a fixed connection clears old failures. */
function useTellApp(props: FillPaneProps, session: FillSession | null, state: FillState): void {
  const { outcome, questions } = state;
  // A failure from before the settings were fixed is no longer true.
  useEffect(() => {
    if (props.connectionEpoch) session?.forgetFailure();
  }, [props.connectionEpoch]);

  // Chat asks about this workbook's questions.
  useEffect(() => {
    props.onQuestions(questions);
  }, [questions]);

  // A refused upload disables uploads everywhere, with the service's reason.
  useEffect(() => {
    if (outcome?.kind === 'failed' && outcome.step === 'upload' && isForbidden(outcome.error)) props.onUploadRefused(outcome.error);
  }, [outcome]);
}

export function FillPane(props: FillPaneProps) {
  const { client, workbook } = props;
  const [session, state] = useFillSession(props);
  const view = useLater();
  useTellApp(props, session, state);
  const selection = useReviewSelection(workbook, state);
  const library = useLibraryCounts(client, props.active);
  const { outcome, options, questions, report } = state;
  const running = state.phase === 'running';
  const controls = fillControls(state, !!client, props.uploadBlocked);
  const { started, busy } = controls;

  return (
    <div>
      <h2>Fill</h2>
      {!client && <ConnectFirst onOpenSettings={props.onOpenSettings} />}
      {client && !started && questions.length === 0 && state.phase !== 'interrupted' && (
        <p class="qf-muted">
          Answers this workbook's questions from your library into its empty answer cells, with sources. Your values and formulas are kept; Undo fill puts
          everything back.
        </p>
      )}
      {client && !running && questions.length === 0 && <LibraryHint library={library} onOpenLibrary={props.onOpenLibrary} />}
      {state.phase === 'interrupted' && session && <Interrupted session={session} startedAt={state.interruptedAt} />}
      <div class="qf-row">
        <button type="button" class="qf-btn qf-btn-primary qf-grow" onClick={() => void session?.fill()} disabled={controls.fillDisabled}>
          {running ? 'Filling…' : 'Fill this workbook'}
        </button>
        {running && (
          <button type="button" class="qf-btn" onClick={() => session?.stop()}>
            Stop
          </button>
        )}
      </div>
      {props.uploadBlocked && <Note kind="warn">{props.uploadBlocked}</Note>}
      <WriteOptions options={options} disabled={busy} onChange={(patch: Partial<FillOptions>) => session?.setOptions(patch)} />
      <OutcomeNote outcome={outcome} />
      {started && <FillSteps state={state} />}
      {state.stalled && running && <StalledNote stallMs={props.stallMs ?? 3 * 60_000} />}
      <ErrorMessage error={errorOf(outcome)} />
      {state.phase === 'confirm-overwrite' && state.replacements && session && <ConfirmOverwrite replacements={state.replacements} session={session} />}
      {report && <WriteReport plan={report.plan} result={report.result} earlier={report.earlier} earlierAt={report.earlierAt} />}
      {state.phase === 'confirm-undo' && state.laterEdits && session && <ConfirmUndo laterEdits={state.laterEdits} session={session} />}
      <FillActions session={session} state={state} controls={controls} />
      <ServiceWarnings warnings={state.warnings} />
      <ErrorMessage error={selection.navError} onDismiss={selection.dismissNavError} />
      <FillReview
        view={view}
        session={session}
        state={state}
        client={client}
        workbook={workbook}
        selection={selection}
        busy={busy}
        uploadBlocked={props.uploadBlocked}
      />
    </div>
  );
}

/** What the service noted about the workbook when it read it. */
function ServiceWarnings(props: { warnings: readonly string[] }) {
  if (props.warnings.length === 0) return null;
  return (
    <Note kind="warn">
      The service noted about this workbook:
      <ul class="qf-small">
        {props.warnings.map((w) => (
          <li key={w}>{w}</li>
        ))}
      </ul>
    </Note>
  );
}
