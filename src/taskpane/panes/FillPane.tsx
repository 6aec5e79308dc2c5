/**
 * Fill this workbook: read it, upload it, wait for detection and answers (with a real progress bar and
 * time left), write the answers into their cells, then summarise, report, review and undo. A fill in
 * progress is linked to the workbook in storage, so reopening the pane resumes it.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../../api/errors';
import type { Progress, QuestionWithAnswers, Structure } from '../../api/schemas';
import type { ApplyResult, ReadProgress, UndoResult, WorkbookAdapter } from '../../excel/types';
import type { WritePlan } from '../../fill/types';
import { ConnectFirst, ErrorMessage, Note } from '../components/Message';
import { ProgressBar } from '../components/Progress';
import { estimateSecondsLeft, formatBytes, formatDuration, type RateSample } from '../eta';
import { explainQuestionnaireUploadError, isAborted, isForbidden } from '../errors';
import { clearFillLink, readFillLink, writeFillLink } from '../fill-link';
import { findQuestionAt, targetCell, withCorrection } from '../review';
import type { StorageLike, TaskpaneApi } from '../types';
import { Summary, WriteReport } from './fill-report';
import type { CorrectFn } from './Correction';
import { ReviewList } from './ReviewList';

export type StepKey = 'read' | 'upload' | 'detect' | 'generate' | 'write';
type StepState = 'pending' | 'active' | 'done' | 'failed';
type Steps = Record<StepKey, { state: StepState; detail: string }>;

const STEP_LABELS: Record<StepKey, string> = {
  read: 'Reading the workbook',
  upload: 'Uploading',
  detect: 'Detecting questions',
  generate: 'Generating answers',
  write: 'Writing answers into cells',
};
const STEP_ORDER: StepKey[] = ['read', 'upload', 'detect', 'generate', 'write'];

const freshSteps = (): Steps =>
  Object.fromEntries(STEP_ORDER.map((k) => [k, { state: 'pending', detail: '' }])) as Steps;

export interface FillOptions {
  overwrite: boolean;
  highlight: boolean;
  sourceNotes: boolean;
}

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

const DEFAULT_STALL_MS = 3 * 60_000;
const NOT_RETRYABLE = new Set(['no_value', 'no_slot', 'blocked']);

export function FillPane(props: FillPaneProps) {
  const { client, workbook, storage } = props;
  const [steps, setSteps] = useState<Steps>(freshSteps);
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [read, setRead] = useState<ReadProgress | null>(null);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [secondsLeft, setSecondsLeft] = useState<number | null>(null);
  const [structure, setStructure] = useState<Structure | null>(null);
  const [questions, setQuestions] = useState<QuestionWithAnswers[]>([]);
  const [report, setReport] = useState<{ plan: WritePlan; result: ApplyResult } | null>(null);
  const [canUndo, setCanUndo] = useState(false);
  const [undoing, setUndoing] = useState(false);
  const [undoNote, setUndoNote] = useState<{ text: string; kind: 'ok' | 'warn' } | null>(null);
  const [options, setOptions] = useState<FillOptions>({ overwrite: false, highlight: true, sourceNotes: true });
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [navError, setNavError] = useState<unknown>(null);
  const [corrected, setCorrected] = useState<ReadonlySet<number>>(new Set());
  const [library, setLibrary] = useState<LibraryState | null>(null);
  const [stalled, setStalled] = useState(false);
  const [resumable, setResumable] = useState(false);
  /** What the service's detection wants the analyst to know (e.g. a sheet it skipped, and why). */
  const [warnings, setWarnings] = useState<string[]>([]);

  const run = useRef<AbortController | null>(null);
  const active = useRef<StepKey | null>(null);
  const optionsRef = useRef(options);
  optionsRef.current = options;
  const questionsRef = useRef(questions);
  questionsRef.current = questions;
  const resumed = useRef(false);
  /** The questions as the service gave them, before any correction: what Undo fill returns the review to. */
  const serviceQuestions = useRef<QuestionWithAnswers[]>([]);
  const lastMove = useRef(0);
  const stallMs = props.stallMs ?? DEFAULT_STALL_MS;

  useEffect(() => () => run.current?.abort(), []);
  // A failure from before the settings were fixed is no longer true (a fill still running keeps its own).
  useEffect(() => {
    if (props.connectionEpoch && !running) setError(null);
  }, [props.connectionEpoch]);

  const step = (key: StepKey, state: StepState, detail = '') => {
    if (state === 'active') active.current = key;
    setSteps((s) => ({ ...s, [key]: { state, detail } }));
  };

  const begin = (): AbortSignal => {
    run.current?.abort();
    const ctl = new AbortController();
    run.current = ctl;
    setRunning(true);
    setError(null);
    setNotice(null);
    setUndoNote(null);
    setStalled(false);
    setResumable(false);
    active.current = null;
    return ctl.signal;
  };

  const fail = (e: unknown, signal: AbortSignal) => {
    if (signal.aborted || isAborted(e)) return; // the pane closed or a new run started
    const key = active.current;
    if (key) setSteps((s) => ({ ...s, [key]: { ...s[key], state: 'failed' } }));
    setError(e);
  };

  const finish = (signal: AbortSignal) => {
    if (run.current?.signal === signal) setRunning(false);
  };

  const showQuestions = (qs: QuestionWithAnswers[]) => {
    setQuestions(qs);
    props.onQuestions(qs);
  };

  const loadResults = async (api: TaskpaneApi, id: number, signal: AbortSignal) => {
    const [s, qs, notes] = await Promise.all([
      api.getStructure(id, { signal }),
      api.getAnswers(id, {}, { signal }),
      // Only a hint: a service that cannot say more still fills.
      api.getQuestionnaire(id, { signal }).then((q) => q.warnings ?? [], () => []),
    ]);
    if (signal.aborted) return null;
    setWarnings(notes);
    setStructure(s);
    showQuestions(qs);
    serviceQuestions.current = qs;
    setCorrected(new Set());
    return qs;
  };

  const write = async (documentKey: string, id: number, qs: QuestionWithAnswers[], startedAt: string, signal: AbortSignal) => {
    step('write', 'active', 'Checking the target cells…');
    const { overwrite, highlight, sourceNotes } = optionsRef.current;
    const plan = await workbook.plan(qs, { overwrite });
    step('write', 'active', `Writing ${plan.writes.length} cell${plan.writes.length === 1 ? '' : 's'}…`);
    const result = await workbook.apply(plan, { highlight, sourceNotes });
    if (signal.aborted) return;
    step('write', 'done', `${result.written} cell${result.written === 1 ? '' : 's'} written`);
    writeFillLink(storage, documentKey, { questionnaireId: id, startedAt, writtenAt: new Date().toISOString() });
    setReport({ plan, result });
    setCanUndo(await workbook.canUndo());
  };

  /** From "uploaded" to "written": detection, generation, results, writing. */
  const generateAndWrite = async (api: TaskpaneApi, documentKey: string, id: number, startedAt: string, signal: AbortSignal) => {
    step('detect', 'active');
    const samples: RateSample[] = [];
    setProgress(null);
    setSecondsLeft(null);
    lastMove.current = Date.now();
    let seen = -1;
    const final = await api.pollAnswerProgress(id, {
      signal,
      onProgress: (p) => {
        if (signal.aborted) return;
        if (p.answers_received !== seen || p.status === 'complete') {
          seen = p.answers_received;
          lastMove.current = Date.now();
          setStalled(false);
        }
        setProgress(p);
        if (p.answers_expected > 0 || p.status === 'complete') {
          if (active.current === 'detect') {
            step('detect', 'done', `${p.answers_expected} question${p.answers_expected === 1 ? '' : 's'} found`);
            step('generate', 'active');
          }
          samples.push({ at: Date.now(), received: p.answers_received });
          setSecondsLeft(estimateSecondsLeft(samples, p.answers_expected));
        }
      },
    });
    if (signal.aborted) return;
    if (active.current === 'detect') step('detect', 'done', `${final.answers_expected} questions found`);
    step('generate', 'done', `${final.answers_received} answer${final.answers_received === 1 ? '' : 's'}`);
    const qs = await loadResults(api, id, signal);
    if (!qs) return;
    if (qs.length === 0) {
      step('write', 'done', 'nothing to write');
      setNotice('The service found no questions in this workbook. Is it a questionnaire (a sheet of questions with answer columns)?');
      return;
    }
    await write(documentKey, id, qs, startedAt, signal);
  };

  const fill = async () => {
    if (!client) return;
    const signal = begin();
    setSteps(freshSteps());
    setRead(null);
    setProgress(null);
    setReport(null);
    setStructure(null);
    setWarnings([]);
    setQuestions([]);
    setSelectedId(null);
    try {
      const documentKey = await workbook.documentKey();
      step('read', 'active');
      const file = await workbook.readFile((p) => !signal.aborted && setRead(p));
      if (signal.aborted) return;
      step('read', 'done', `${file.fileName}, ${formatBytes(file.bytes.length)}`);
      step('upload', 'active', `Sending ${formatBytes(file.bytes.length)}…`);
      let uploaded;
      try {
        uploaded = await client.uploadQuestionnaires([{ name: file.fileName, data: file.bytes }], {}, { signal });
      } catch (e) {
        if (isForbidden(e)) props.onUploadRefused(e);
        throw explainQuestionnaireUploadError(e);
      }
      const id = uploaded.questionnaire_ids[0];
      if (id === undefined) {
        throw new Error('The service accepted the workbook but made no questionnaire of it. Check that it holds questions with answer columns.');
      }
      step('upload', 'done', `${formatBytes(file.bytes.length)} sent`);
      const startedAt = new Date().toISOString();
      writeFillLink(storage, documentKey, { questionnaireId: id, startedAt });
      await generateAndWrite(client, documentKey, id, startedAt, signal);
    } catch (e) {
      fail(e, signal);
    } finally {
      finish(signal);
    }
  };

  /** Reopened pane: pick up this workbook's fill where it was. */
  const resume = async (api: TaskpaneApi) => {
    let documentKey: string;
    let link;
    try {
      documentKey = await workbook.documentKey();
      link = readFillLink(storage, documentKey);
      setCanUndo(await workbook.canUndo());
    } catch (e) {
      setError(e);
      return;
    }
    // Nothing to resume, or the analyst already started a fill meanwhile.
    if (!link || run.current) return;
    const signal = begin();
    try {
      setSteps({ ...freshSteps(), read: { state: 'done', detail: '' }, upload: { state: 'done', detail: '' } });
      try {
        if (link.writtenAt) {
          setNotice(`Answers were written into this workbook on ${new Date(link.writtenAt).toLocaleString()}.`);
          setSteps(Object.fromEntries(STEP_ORDER.map((k) => [k, { state: 'done', detail: '' }])) as Steps);
          await loadResults(api, link.questionnaireId, signal);
        } else {
          setNotice(`Resuming the fill started ${new Date(link.startedAt).toLocaleString()}.`);
          await generateAndWrite(api, documentKey, link.questionnaireId, link.startedAt, signal);
        }
      } catch (e) {
        // The service no longer knows this questionnaire (reset, other service): forget the link.
        if (e instanceof ApiError && e.kind === 'http' && e.status === 404) {
          clearFillLink(storage, documentKey);
          setNotice(null);
          setSteps(freshSteps());
          throw new Error('The questionnaire this workbook was linked to no longer exists on the service. Fill the workbook again.');
        }
        throw e;
      }
    } catch (e) {
      fail(e, signal);
    } finally {
      finish(signal);
    }
  };

  useEffect(() => {
    if (client && !resumed.current) {
      resumed.current = true;
      void resume(client);
    }
  }, [client]);

  const rewrite = async () => {
    if (questions.length === 0) return;
    const signal = begin();
    setReport(null);
    try {
      const documentKey = await workbook.documentKey();
      const link = readFillLink(storage, documentKey);
      await write(documentKey, link?.questionnaireId ?? 0, questions, link?.startedAt ?? new Date().toISOString(), signal);
    } catch (e) {
      fail(e, signal);
    } finally {
      finish(signal);
    }
  };

  const undo = async () => {
    setUndoing(true);
    setUndoNote(null);
    setError(null);
    try {
      const result = await workbook.undo();
      setUndoNote({ text: describeUndo(result), kind: result?.failed?.length ? 'warn' : 'ok' });
      if (result && !result.failed?.length) {
        // The cells hold what they held before: so does the review.
        showQuestions(serviceQuestions.current);
        setCorrected(new Set());
      }
      const documentKey = await workbook.documentKey();
      const link = readFillLink(storage, documentKey);
      if (link) writeFillLink(storage, documentKey, { questionnaireId: link.questionnaireId, startedAt: link.startedAt });
      setReport(null);
      setSteps((s) => ({ ...s, write: { state: 'pending', detail: 'undone' } }));
      setCanUndo(await workbook.canUndo());
    } catch (e) {
      setError(e);
    } finally {
      setUndoing(false);
    }
  };

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

  // Generation that shows no progress for a long time is said to be stuck, with a way out.
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => {
      if (active.current === 'detect' || active.current === 'generate') setStalled(Date.now() - lastMove.current >= stallMs);
    }, Math.min(5000, Math.max(10, stallMs / 4)));
    return () => clearInterval(timer);
  }, [running, stallMs]);

  // An empty library can answer nothing: say so before the analyst fills.
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

  const correct: CorrectFn = async (q, target, text, overwrite) => {
    const result = await workbook.writeCell(target.cell, text, { overwrite });
    if (result.written) {
      const next = questionsRef.current.map((x) => (x.id === q.id ? withCorrection(x, target.slot, text.trim()) : x));
      showQuestions(next);
      setCorrected((set) => new Set(set).add(q.id));
      setUndoNote(null);
      setCanUndo(await workbook.canUndo());
    }
    return result;
  };

  /** Stops waiting for the service; the link stays, so the fill can be picked up again. */
  const stop = () => {
    run.current?.abort();
    run.current = null;
    const key = active.current;
    if (key) setSteps((s) => ({ ...s, [key]: { ...s[key], state: 'failed', detail: 'stopped' } }));
    setRunning(false);
    setStalled(false);
    setResumable(steps.upload.state === 'done');
    setNotice('Stopped waiting. The service keeps what it generated so far: choose "Check again" to pick this fill up, or fill the workbook again.');
  };

  const checkAgain = () => {
    if (!client) return;
    setResumable(false);
    void resume(client);
  };

  const pick = (q: QuestionWithAnswers) => {
    setSelectedId(q.id);
    setNavError(null);
    const cell = targetCell(q);
    if (cell) workbook.select(cell).catch(setNavError);
  };

  const started = STEP_ORDER.some((k) => steps[k].state !== 'pending');
  const fillDisabled = running || !client || !!props.uploadBlocked;
  // Writing again helps only when options or the sheet can change the outcome, not when answers are missing.
  const nothingWritten =
    !!report && report.result.written === 0 && Object.entries(report.plan.report.byReason).some(([reason, n]) => n && !NOT_RETRYABLE.has(reason));

  return (
    <div>
      <h2>Fill</h2>
      {!client && <ConnectFirst onOpenSettings={props.onOpenSettings} />}
      {client && !started && questions.length === 0 && (
        <p class="qf-muted">
          Answers this workbook's questions from the documents in your library and writes them into the empty answer cells, with
          their sources. Cells you filled are kept, formulas are never touched, and Undo fill puts everything back.
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
      <div class="qf-row">
        <button type="button" class="qf-btn qf-btn-primary qf-grow" onClick={fill} disabled={fillDisabled}>
          {running ? 'Filling…' : 'Fill this workbook'}
        </button>
        {running && (
          <button type="button" class="qf-btn" onClick={stop}>
            Stop
          </button>
        )}
      </div>
      {props.uploadBlocked && <Note kind="warn">{props.uploadBlocked}</Note>}
      <fieldset class="qf-fieldset" disabled={running}>
        <legend>When writing</legend>
        <label class="qf-check">
          <input type="checkbox" checked={options.overwrite} onChange={(e) => setOptions({ ...options, overwrite: e.currentTarget.checked })} />
          <span>Overwrite cells that already hold a value (never formulas)</span>
        </label>
        <label class="qf-check">
          <input type="checkbox" checked={options.highlight} onChange={(e) => setOptions({ ...options, highlight: e.currentTarget.checked })} />
          <span>Highlight answers by trust</span>
        </label>
        <label class="qf-check">
          <input
            type="checkbox"
            checked={options.sourceNotes}
            onChange={(e) => setOptions({ ...options, sourceNotes: e.currentTarget.checked })}
          />
          <span>Add a note with the sources</span>
        </label>
      </fieldset>
      {notice && <Note>{notice}</Note>}
      {started && (
        <ol class="qf-steps" aria-label="Fill steps">
          {STEP_ORDER.map((k) => (
            <li key={k} data-state={steps[k].state} aria-current={steps[k].state === 'active' ? 'step' : undefined}>
              {STEP_LABELS[k]}
              {steps[k].state === 'failed' ? ' — failed' : ''}
              {steps[k].detail && <span class="qf-muted">: {steps[k].detail}</span>}
              {k === 'read' && steps.read.state === 'active' && read && read.total > 0 && (
                <ProgressBar value={read.loaded} max={read.total} label="Reading the workbook" text={`${formatBytes(read.loaded)} of ${formatBytes(read.total)}`} />
              )}
              {k === 'generate' && steps.generate.state === 'active' && progress && (
                <ProgressBar
                  value={progress.answers_received}
                  max={progress.answers_expected}
                  label="Answers generated"
                  text={`${progress.answers_received} of ${progress.answers_expected} answers${
                    secondsLeft !== null ? `, about ${formatDuration(secondsLeft)} left` : ''
                  }`}
                />
              )}
            </li>
          ))}
        </ol>
      )}
      {stalled && running && (
        <Note kind="warn">
          The service has reported no progress for {formatDuration(stallMs / 1000)}. It may be busy with other work or stuck. Keep
          waiting, or choose Stop and pick the fill up later.
        </Note>
      )}
      <ErrorMessage error={error} />
      {report && <WriteReport plan={report.plan} result={report.result} />}
      <div class="qf-row">
        {canUndo && (
          <button type="button" class="qf-btn" onClick={undo} disabled={running || undoing}>
            {undoing ? 'Undoing…' : 'Undo fill'}
          </button>
        )}
        {!running && questions.length > 0 && (!report || nothingWritten) && (
          <button type="button" class="qf-btn" onClick={rewrite}>
            {nothingWritten ? 'Write again with these options' : 'Write answers into the workbook'}
          </button>
        )}
        {resumable && !running && (
          <button type="button" class="qf-btn" onClick={checkAgain}>
            Check again
          </button>
        )}
      </div>
      {undoNote && <Note kind={undoNote.kind}>{undoNote.text}</Note>}
      {warnings.length > 0 && (
        <Note kind="warn">
          The service noted about this workbook:
          <ul class="qf-small">
            {warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </Note>
      )}
      {structure && <Summary structure={structure} questions={questions} />}
      <ErrorMessage error={navError} onDismiss={() => setNavError(null)} />
      {questions.length > 0 && (
        <ReviewList questions={questions} selectedId={selectedId} onPick={pick} onCorrect={correct} corrected={corrected} />
      )}
    </div>
  );
}

/** What Undo fill did, in words; cells Excel would not restore are named, as the snapshot stays for them. */
export function describeUndo(result: UndoResult | null): string {
  if (!result) return 'There was nothing to undo.';
  const done = `Undone: ${result.restored} cell${result.restored === 1 ? '' : 's'} restored.`;
  const failed = result.failed ?? [];
  if (failed.length === 0) return done;
  const named = failed.slice(0, 5).map((f) => `${f.tab}${f.address ? `!${f.address}` : ''} (${f.reason})`).join('; ');
  return `${done} ${failed.length} could not be put back: ${named}${failed.length > 5 ? '; …' : ''}. Fix that (e.g. unprotect the sheet) and choose Undo fill again.`;
}
