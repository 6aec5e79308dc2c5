/**
 * Fill this workbook: renders the fill session (src/fill/session), which reads, uploads, waits for
 * detection and answers, writes, resumes, undoes and corrects. The pane adds what only a pane has:
 * the library hint, selection sync with the sheet, and the words for each state.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { QuestionWithAnswers } from '../../api/schemas';
import type { CellRef, UndoResult, WorkbookAdapter } from '../../excel/types';
import {
  createFillSession, type FillSession,
  SessionError,
  STEP_ORDER,
  initialState,
  type FillOptions,
  type FillState,
  type Outcome,
  type StepKey,
} from '../../fill/session';
import { ConnectFirst, ErrorMessage, Note } from '../components/Message';
import { ProgressBar } from '../components/Progress';
import { formatBytes, formatDuration } from '../eta';
import { explainQuestionnaireUploadError, isForbidden } from '../errors';
import { fillLinkStore } from '../fill-link';
import { answeredByWrites, findQuestionAt, targetCell } from '../review';
import type { StorageLike, TaskpaneApi } from '../types';
import { WriteReport } from './fill-report';
import type { CorrectFn } from './Correction';
import type { ApiError } from '../../api/errors';
import { useLater } from '../later';

export type { StepKey };

const STEP_LABELS: Record<StepKey, string> = {
  read: 'Reading the workbook',
  upload: 'Uploading',
  detect: 'Detecting questions',
  generate: 'Generating answers',
  write: 'Writing answers into cells',
};

export type { FillOptions };

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

/** How many documents the library holds, and how many are ready to answer from. */
interface LibraryState {
  ready: number;
  total: number;
}

const NOT_RETRYABLE = new Set(['no_value', 'no_slot', 'blocked']);
const PREVIEW = 5;
const plural = (n: number, word: string, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;
const when = (iso: string) => new Date(iso).toLocaleString();

/** One session per connection: a new key or address starts from what the workbook's link says, with no stale message. */
function useFillSession(props: FillPaneProps): [FillSession | null, FillState] {
  const { client, workbook, storage, stallMs } = props;
  const lastOptions = useRef<FillOptions | undefined>(undefined);
  const session = useMemo(
    () =>
      client
        ? createFillSession(
            {
              api: client,
              workbook,
              links: fillLinkStore(storage, workbook),
              details: true,
              confirmOverwrite: true,
              ...(stallMs !== undefined ? { stallMs } : {}),
            },
            lastOptions.current,
          )
        : null,
    [client, workbook, storage, stallMs],
  );
  const [state, setState] = useState<FillState>(() => session?.state ?? initialState());
  useEffect(() => {
    if (!session) {
      setState(initialState(lastOptions.current));
      return;
    }
    setState(session.state);
    const off = session.subscribe((s) => {
      lastOptions.current = s.options;
      setState(s);
    });
    void session.open();
    return () => {
      off();
      session.dispose();
    };
  }, [session]);
  return [session, state];
}

export function FillPane(props: FillPaneProps) {
  const { client, workbook } = props;
  const [session, state] = useFillSession(props);
  const view = useLater();
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [navError, setNavError] = useState<unknown>(null);
  const [library, setLibrary] = useState<LibraryState | null>(null);
  const questionsRef = useRef(state.questions);
  questionsRef.current = state.questions;
  const stallMs = props.stallMs ?? 3 * 60_000;
  const { outcome, steps, options, questions, report } = state;
  const running = state.phase === 'running';

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

  // A new fill starts a new review.
  useEffect(() => {
    if (running && questions.length === 0) setSelectedId(null);
  }, [running, questions]);

  // Selecting a cell in the sheet brings up its question.
  useEffect(() => {
    let unsubscribe: (() => void) | null = null;
    let gone = false;
    workbook
      .onSelectionChanged((ref) => {
        const q = findQuestionAt(questionsRef.current, ref);
        if (q) setSelectedId(q.id);
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

  // An empty library can answer nothing: say so before the analyst fills.
  // What the last key's library held says nothing about this key's.
  useEffect(() => setLibrary(null), [client]);
  useEffect(() => {
    if (!client || !props.active) return;
    const ctl = new AbortController();
    const count = (query: { status?: 'ready' }) => client.listRepositoryFiles({ page_size: 1, ...query }, { signal: ctl.signal }).then((r) => r.count);
    count({ status: 'ready' })
      .then(async (ready) => setLibrary({ ready, total: ready > 0 ? ready : await count({}) }))
      .catch(() => {
        /* the fill itself reports connection problems; this hint is only a hint */
      });
    return () => ctl.abort();
  }, [client, props.active]);

  const correct: CorrectFn = (q, target, text, overwrite) =>
    session ? session.correct(q, target, text, overwrite) : Promise.resolve({ written: false, reason: 'Connect to a service first.' });

  const pick = (q: QuestionWithAnswers) => {
    setSelectedId(q.id);
    setNavError(null);
    const cell = targetCell(q);
    if (cell) workbook.select(cell).catch(setNavError);
  };

  const setOption = (patch: Partial<FillOptions>) => session?.setOptions(patch);
  const started = STEP_ORDER.some((k) => steps[k].state !== 'pending');
  const busy = running || state.phase === 'undoing' || state.phase === 'confirm-overwrite' || state.phase === 'confirm-undo';
  const fillDisabled = busy || !client || !!props.uploadBlocked;
  // Writing again helps only when options or the sheet can change the outcome, not when answers are missing.
  const nothingWritten =
    !!report && report.result.written === 0 && Object.entries(report.plan.report.byReason).some(([reason, n]) => n && !NOT_RETRYABLE.has(reason));
  // "Undo fill" after a run that wrote nothing would undo an earlier fill: it says so.
  const lastRunWrote = outcome?.kind === 'written' && !!report && report.result.written > 0;
  const undoLabel = lastRunWrote || !outcome || outcome.kind === 'already-written' || outcome.kind === 'undone' ? 'Undo fill' : 'Undo the earlier fill';
  const error = errorOf(outcome);
  const written = useMemo(() => (report ? answeredByWrites(report.plan.writes, questions, report.plan.skipped) : null), [report, questions]);
  const heldBack = useMemo(
    () => Object.fromEntries((report?.plan.skipped ?? []).filter((s) => s.reason === 'draft' && s.address && s.value).map((s) => [`${s.tab}!${s.address}`, s.value!])),
    [report],
  );
  const readValues = useMemo(() => (workbook.readValues ? (refs: CellRef[]) => workbook.readValues!(refs) : undefined), [workbook]);

  return (
    <div>
      <h2>Fill</h2>
      {!client && <ConnectFirst onOpenSettings={props.onOpenSettings} />}
      {client && !started && questions.length === 0 && state.phase !== 'interrupted' && (
        <p class="qf-muted">
          Answers this workbook's questions from your library into its empty answer cells, with sources. Your values and formulas are
          kept; Undo fill puts everything back.
        </p>
      )}
      {client && library && library.ready === 0 && !running && questions.length === 0 && (
        <Note kind="warn">
          {library.total === 0
            ? 'Your library has no documents yet, and answers come only from your documents: upload them in Library first.'
            : `Your library's ${library.total} document${library.total === 1 ? ' is' : 's are'} still being processed: fill once ${library.total === 1 ? 'it shows' : 'they show'} Ready.`}{' '}
          <button type="button" class="qf-link" onClick={props.onOpenLibrary}>
            Open Library
          </button>
        </Note>
      )}
      {state.phase === 'interrupted' && session && (
        <div class="qf-msg qf-msg-warn" role="group" aria-label="Interrupted fill">
          <p>
            A fill of this workbook was interrupted{state.interruptedAt ? ` (started ${when(state.interruptedAt)})` : ''}. Nothing is written until
            you choose: continue it, or discard it.
          </p>
          <div class="qf-row">
            <button type="button" class="qf-btn qf-btn-primary" onClick={() => void session.continueInterrupted()}>
              Continue the fill
            </button>
            <button type="button" class="qf-btn" onClick={() => void session.discardInterrupted()}>
              Discard it
            </button>
          </div>
        </div>
      )}
      <div class="qf-row">
        <button type="button" class="qf-btn qf-btn-primary qf-grow" onClick={() => void session?.fill()} disabled={fillDisabled}>
          {running ? 'Filling…' : 'Fill this workbook'}
        </button>
        {running && (
          <button type="button" class="qf-btn" onClick={() => session?.stop()}>
            Stop
          </button>
        )}
      </div>
      {props.uploadBlocked && <Note kind="warn">{props.uploadBlocked}</Note>}
      <fieldset class="qf-fieldset" disabled={busy}>
        <legend>When writing</legend>
        <label class="qf-check">
          <input type="checkbox" checked={options.overwrite} onChange={(e) => setOption({ overwrite: e.currentTarget.checked })} />
          <span>Overwrite cells that already hold a value (never formulas; you confirm first)</span>
        </label>
        <label class="qf-check">
          <input type="checkbox" checked={options.writeDrafts} onChange={(e) => setOption({ writeDrafts: e.currentTarget.checked })} />
          <span>Also write drafts into cells (by default drafts stay in the review)</span>
        </label>
        <label class="qf-check">
          <input type="checkbox" checked={!!options.preferRecent} onChange={(e) => setOption({ preferRecent: e.currentTarget.checked })} />
          <span>Where past answers disagree, take the most recent questionnaire's (else they wait for review)</span>
        </label>
        <label class="qf-check">
          <input type="checkbox" checked={options.highlight} onChange={(e) => setOption({ highlight: e.currentTarget.checked })} />
          <span>Highlight answers by trust</span>
        </label>
        <label class="qf-check">
          <input type="checkbox" checked={options.sourceNotes} onChange={(e) => setOption({ sourceNotes: e.currentTarget.checked })} />
          <span>Add a note with the sources</span>
        </label>
      </fieldset>
      <OutcomeNote outcome={outcome} />
      {started && (
        <ol class="qf-steps" aria-label="Fill steps">
          {STEP_ORDER.map((k) => (
            <li key={k} data-state={steps[k].state} aria-current={steps[k].state === 'active' ? 'step' : undefined}>
              {STEP_LABELS[k]}
              {steps[k].state === 'failed' ? ' — failed' : steps[k].state === 'stopped' ? ' — stopped' : ''}
              {steps[k].detail && <span class="qf-muted">: {steps[k].detail}</span>}
              {k === 'read' && steps.read.state === 'active' && state.read && state.read.total > 0 && (
                <ProgressBar
                  value={state.read.loaded}
                  max={state.read.total}
                  label="Reading the workbook"
                  text={`${formatBytes(state.read.loaded)} of ${formatBytes(state.read.total)}`}
                />
              )}
              {k === 'generate' && steps.generate.state === 'active' && state.progress && (
                <ProgressBar
                  value={state.progress.answers_received}
                  max={state.progress.answers_expected}
                  label="Answers generated"
                  text={`${state.progress.answers_received} of ${state.progress.answers_expected} answers${
                    state.secondsLeft !== null ? `, about ${formatDuration(state.secondsLeft)} left` : ''
                  }`}
                />
              )}
            </li>
          ))}
        </ol>
      )}
      {state.stalled && running && (
        <Note kind="warn">
          The service has reported no progress for {formatDuration(stallMs / 1000)}. It may be busy with other work or stuck: wait,
          or Stop and pick the fill up later.
        </Note>
      )}
      <ErrorMessage error={error} />
      {state.phase === 'confirm-overwrite' && state.replacements && session && (
        <Confirm
          label="Confirm overwrite"
          title={`Overwrite will replace ${plural(state.replacements.length, 'existing value')} in this workbook. Undo fill can put them back.`}
          items={state.replacements.map((x) => ({
            key: `${x.tab}!${x.address}`,
            text: `${x.tab}!${x.address}${x.originalId ? ` (${x.originalId})` : ''}: “${clip(x.current)}” → “${clip(x.next)}”`,
          }))}
          choices={[
            [`Replace ${plural(state.replacements.length, 'value')}`, () => void session.confirmOverwrite('replace')],
            ['Keep them, fill only empty cells', () => void session.confirmOverwrite('keep')],
            ['Cancel', () => void session.confirmOverwrite('cancel')],
          ]}
        />
      )}
      {report && <WriteReport plan={report.plan} result={report.result} earlier={report.earlier} earlierAt={report.earlierAt} />}
      {state.phase === 'confirm-undo' && state.laterEdits && session && (
        <Confirm
          label="Confirm undo"
          title={`${plural(state.laterEdits.length, 'cell was', 'cells were')} changed after the fill: Undo fill would put ${
            state.laterEdits.length === 1 ? 'it' : 'them'
          } back as before the fill, losing ${state.laterEdits.length === 1 ? 'that edit' : 'those edits'}.`}
          items={state.laterEdits.map((x) => ({ key: `${x.tab}!${x.address}`, text: `${x.tab}!${x.address}: “${clip(x.value)}”` }))}
          choices={[
            [`Undo, keeping my ${plural(state.laterEdits.length, 'edit')}`, () => void session.undo(true)],
            ['Undo everything', () => void session.undo(false)],
            ['Cancel', () => session.cancelUndo()],
          ]}
        />
      )}
      <div class="qf-row">
        {state.canUndo && (
          <button type="button" class="qf-btn" onClick={() => void session?.requestUndo()} disabled={busy}>
            {state.phase === 'undoing' ? 'Undoing…' : undoLabel}
          </button>
        )}
        {!busy && questions.length > 0 && (!report || nothingWritten) && (
          <button type="button" class="qf-btn" onClick={() => void session?.rewrite()}>
            {nothingWritten ? 'Write again with these options' : 'Write answers into the workbook'}
          </button>
        )}
        {outcome?.kind === 'stopped' && outcome.resumable && (
          <button type="button" class="qf-btn" onClick={() => void session?.continueInterrupted()}>
            Check again
          </button>
        )}
      </div>
      {state.warnings.length > 0 && (
        <Note kind="warn">
          The service noted about this workbook:
          <ul class="qf-small">
            {state.warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </Note>
      )}
      <ErrorMessage error={navError} onDismiss={() => setNavError(null)} />
      {questions.length > 0 && !view && <p class="qf-muted">Loading the review…</p>}
      {questions.length > 0 && view && (
        <view.ReviewList
          questions={questions}
          selectedId={selectedId}
          onPick={pick}
          onCorrect={correct}
          corrected={state.corrected}
          written={written}
          heldBack={heldBack}
          {...(readValues ? { readValues } : {})}
        />
      )}
      {questions.length > 0 && client && session && view && !busy && (
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
    </div>
  );
}

/** The error of the last result, in the analyst's terms; null when the last result was not a failure. */
function errorOf(outcome: Outcome | null): unknown {
  if (outcome?.kind === 'undo-failed') return outcome.error;
  if (outcome?.kind === 'link-gone') {
    return new Error('The questionnaire this workbook was linked to no longer exists on the service. Fill the workbook again.');
  }
  if (outcome?.kind !== 'failed') return null;
  const e = outcome.error;
  if (e instanceof SessionError && e.code === 'no-questionnaire') {
    return new Error('The service accepted the workbook but made no questionnaire of it. Check that it holds questions with answer columns.');
  }
  return outcome.step === 'upload' ? explainQuestionnaireUploadError(e) : e;
}

/** What the last result means, when it is not an error or a report. */
function OutcomeNote(props: { outcome: Outcome | null }) {
  const o = props.outcome;
  if (!o) return null;
  switch (o.kind) {
    case 'stopped':
      return (
        <Note>
          Stopped.{' '}
          {o.resumable
            ? 'The service keeps what it generated so far: choose "Check again" to pick this fill up, or fill the workbook again.'
            : 'Nothing was written.'}
        </Note>
      );
    case 'already-written':
      return <Note>Answers were written into this workbook on {when(o.writtenAt)}.</Note>;
    case 'no-questions':
      return <Note>The service found no questions in this workbook (a sheet of questions with answer columns).</Note>;
    case 'discarded':
      return <Note>The interrupted fill was discarded; nothing was written.</Note>;
    case 'overwrite-declined':
      return <Note>Nothing was written: no existing value was replaced.</Note>;
    case 'undone':
      return <Note kind={o.result?.failed?.length ? 'warn' : 'ok'}>{describeUndo(o.result, o.kept)}</Note>;
    default:
      return null;
  }
}

/** A question before something is destroyed: what would be lost (the first few), and the choices. */
function Confirm(props: { label: string; title: string; items: { key: string; text: string }[]; choices: [string, () => void][] }) {
  return (
    <div class="qf-msg qf-msg-warn" role="group" aria-label={props.label}>
      <p>
        <strong>{props.title}</strong>
      </p>
      <ul class="qf-small">
        {props.items.slice(0, PREVIEW).map((x) => (
          <li key={x.key}>{x.text}</li>
        ))}
        {props.items.length > PREVIEW && <li>… and {props.items.length - PREVIEW} more.</li>}
      </ul>
      <div class="qf-row">
        {props.choices.map(([label, onClick], i) => (
          <button key={label} type="button" class={i === 0 ? 'qf-btn qf-btn-primary' : 'qf-btn'} onClick={onClick}>
            {label}
          </button>
        ))}
      </div>
    </div>
  );
}

const clip = (text: string) => (text.length > 60 ? `${text.slice(0, 57)}…` : text);

/** What Undo fill did, in words; cells Excel would not restore are named, as the snapshot stays for them. */
export function describeUndo(result: UndoResult | null, kept = 0): string {
  if (!result) return 'There was nothing to undo.';
  const done = `Undone: ${result.restored} cell${result.restored === 1 ? '' : 's'} restored.`;
  const failed = result.failed ?? [];
  if (failed.length === 0) return kept > 0 ? `${done} Your ${plural(kept, 'later edit')} ${kept === 1 ? 'was' : 'were'} kept.` : done;
  const named = failed.slice(0, 5).map((f) => `${f.tab}${f.address ? `!${f.address}` : ''} (${f.reason})`).join('; ');
  return `${done} ${failed.length} could not be put back: ${named}${failed.length > 5 ? '; …' : ''}. Fix that (e.g. unprotect the sheet) and choose Undo fill again.`;
}
