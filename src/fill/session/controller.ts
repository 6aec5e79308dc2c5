/**
 * The fill of one workbook as a state machine: read → upload → poll → plan → write, resume of an
 * interrupted fill (asked, never automatic), the stall timer, overwrite and undo confirmations,
 * corrections. The task pane renders its state; `qfill fill` drives the same steps. Every message is
 * derived from `outcome`, the last result, which each action replaces rather than adds to.
 */
import { ApiError } from '../../api/errors';
import type { Progress, QuestionWithAnswers } from '../../api/schemas';
import type { PlanOptions, WritePlan } from '../types';
import { cellKey, textHash, withCorrection } from './corrections';
import { estimateSecondsLeft, formatBytes, type RateSample } from './eta';
import {
  STEP_ORDER,
  type CorrectionTarget,
  type FillLink,
  type FillOptions,
  type FillState,
  type LaterEdit,
  type Replacement,
  type SessionDeps,
  type StepKey,
  type StepState,
  type Steps,
} from './types';

export const DEFAULT_STALL_MS = 3 * 60_000;

/** Something the service did that the fill cannot go on from; `code` lets each front end word it. */
export class SessionError extends Error {
  constructor(
    readonly code: 'no-questionnaire' | 'link-gone',
    message: string,
  ) {
    super(message);
    this.name = 'SessionError';
  }
}

export const freshSteps = (): Steps => Object.fromEntries(STEP_ORDER.map((k) => [k, { state: 'pending', detail: '' }])) as Steps;
const allDone = (): Steps => Object.fromEntries(STEP_ORDER.map((k) => [k, { state: 'done', detail: '' }])) as Steps;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const isNotFound = (e: unknown) => e instanceof ApiError && e.kind === 'http' && e.status === 404;

export function initialState(options: Partial<FillOptions> = {}): FillState {
  return {
    phase: 'idle',
    steps: freshSteps(),
    outcome: null,
    read: null,
    progress: null,
    secondsLeft: null,
    stalled: false,
    questionnaireId: null,
    fileName: null,
    interruptedAt: null,
    structure: null,
    warnings: [],
    questions: [],
    corrected: new Set(),
    report: null,
    canUndo: false,
    options: { overwrite: false, highlight: true, sourceNotes: true, writeDrafts: false, ...options },
    replacements: null,
    laterEdits: null,
  };
}

interface PendingOverwrite {
  keep: WritePlan;
  all: WritePlan;
  link: FillLink;
  resumed: boolean;
}

// A closure, not a class: its private names shrink when minified (the task pane's size budget).
export function createFillSession(deps: SessionDeps, options: Partial<FillOptions> = {}) {
  let st: FillState = initialState(options);
  const listeners = new Set<(s: FillState) => void>();
  let current: AbortController | null = null;
  let active: StepKey | null = null;
  let lastMove = 0;
  let stallTimer: ReturnType<typeof setInterval> | null = null;
  /** The questions as the service gave them, before any correction: what Undo fill returns the review to. */
  let serviceQuestions: QuestionWithAnswers[] = [];
  let pending: PendingOverwrite | null = null;
  let link: FillLink | null = null;
  const now = deps.now ?? Date.now;

  function subscribe(listener: (s: FillState) => void): () => void {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  }

  function setOptions(patch: Partial<FillOptions>): void {
    update({ options: { ...st.options, ...patch } });
  }

  // ---- state plumbing ----

  function update(patch: Partial<FillState>): void {
    st = { ...st, ...patch };
    for (const l of [...listeners]) l(st);
  }

  function step(key: StepKey, state: StepState, detail = ''): void {
    if (state === 'active') active = key;
    update({ steps: { ...st.steps, [key]: { state, detail } } });
  }

  function live(ctl: AbortController): boolean {
    return current === ctl && !ctl.signal.aborted;
  }

  function begin(external?: AbortSignal): AbortController {
    current?.abort();
    const ctl = new AbortController();
    if (external) {
      if (external.aborted) ctl.abort(external.reason);
      else external.addEventListener('abort', () => ctl.abort(external.reason), { once: true });
    }
    current = ctl;
    active = null;
    pending = null;
    update({ phase: 'running', outcome: null, stalled: false, replacements: null, laterEdits: null, interruptedAt: null });
    startStallTimer(ctl);
    return ctl;
  }

  function end(ctl: AbortController): void {
    if (current !== ctl) return;
    current = null;
    stopStallTimer();
    if (st.phase === 'running') update({ phase: 'settled', stalled: false });
  }

  function fail(e: unknown, ctl: AbortController): void {
    // A stale run (replaced by a new one, stopped, disposed) says nothing; an external abort (the CLI's
    // --timeout) is this run's result.
    if (current !== ctl) return;
    const key = active;
    if (key) step(key, 'failed', st.steps[key].detail);
    update({ outcome: { kind: 'failed', step: key, error: e } });
  }

  function startStallTimer(ctl: AbortController): void {
    stopStallTimer();
    const stallMs = deps.stallMs ?? DEFAULT_STALL_MS;
    lastMove = now();
    stallTimer = setInterval(
      () => {
        if (!live(ctl)) return;
        const waiting = active === 'detect' || active === 'generate';
        const stalled = waiting && now() - lastMove >= stallMs;
        if (stalled !== st.stalled) update({ stalled });
      },
      Math.min(5000, Math.max(10, stallMs / 4)),
    );
  }

  function stopStallTimer(): void {
    if (stallTimer) clearInterval(stallTimer);
    stallTimer = null;
  }

  async function saveLink(next: FillLink | null): Promise<void> {
    link = next;
    if (!deps.links) return;
    if (next) await deps.links.write(next);
    else await deps.links.clear();
  }

  async function readLink(): Promise<FillLink | null> {
    if (link) return link;
    return (link = (await deps.links?.read()) ?? null);
  }

  async function refreshCanUndo(): Promise<void> {
    const canUndo = (await deps.workbook.canUndo?.()) ?? false;
    if (canUndo !== st.canUndo) update({ canUndo });
  }

  // ---- the fill ----

  /** Fills the workbook from scratch: read, upload, wait for answers, write. */
  async function fill(signal?: AbortSignal): Promise<FillState> {
    const ctl = begin(signal);
    const { api, workbook } = deps;
    update({
      steps: freshSteps(),
      read: null,
      progress: null,
      secondsLeft: null,
      report: null,
      structure: null,
      warnings: [],
      questions: [],
      questionnaireId: null,
      fileName: null,
      corrected: new Set(),
    });
    try {
      const previous = await readLink();
      step('read', 'active');
      const file = await workbook.readFile((p) => live(ctl) && update({ read: p }));
      if (!live(ctl)) return st;
      step('read', 'done', `${file.fileName}, ${formatBytes(file.bytes.length)}`);
      update({ fileName: file.fileName });
      step('upload', 'active', `Sending ${formatBytes(file.bytes.length)}…`);
      const uploaded = await api.uploadQuestionnaires(
        [{ name: file.fileName, data: file.bytes, ...(file.type ? { type: file.type } : {}) }],
        st.options.preferRecent ? { prefer_recent: true } : {},
        { signal: ctl.signal },
      );
      const id = uploaded.questionnaire_ids?.[0];
      if (id === undefined) {
        throw new SessionError('no-questionnaire', 'The service accepted the workbook but made no questionnaire of it.');
      }
      if (!live(ctl)) return st;
      step('upload', 'done', `${formatBytes(file.bytes.length)} sent`);
      // What earlier fills wrote stays known, so this one can tell "already filled by us" from the analyst's values.
      const link: FillLink = {
        questionnaireId: id,
        startedAt: new Date(now()).toISOString(),
        fileName: file.fileName,
        ...(previous?.cells ? { cells: previous.cells } : {}),
        ...(previous?.cellsWrittenAt ? { cellsWrittenAt: previous.cellsWrittenAt } : {}),
        ...(previous?.corrected ? { corrected: previous.corrected } : {}),
      };
      update({ questionnaireId: id });
      await saveLink(link);
      await generateAndWrite(link, ctl, false);
    } catch (e) {
      fail(e, ctl);
    } finally {
      end(ctl);
    }
    return st;
  }

  /**
   * The pane opened on a workbook: a finished fill shows its answers for review; an unfinished one is
   * offered to continue or discard, and nothing is written until the analyst chooses.
   */
  async function open(): Promise<void> {
    let link: FillLink | null;
    try {
      link = await readLink();
      await refreshCanUndo();
    } catch (e) {
      update({ phase: 'settled', outcome: { kind: 'failed', step: null, error: e } });
      return;
    }
    if (!link || current || st.phase !== 'idle') return;
    if (!link.writtenAt && !link.undoneAt) {
      // Offer to continue only what the service still has; any other failure leaves the choice to the analyst.
      const gone = await deps.api.getQuestionnaire?.(link.questionnaireId).then(() => false, isNotFound);
      if (current || st.phase !== 'idle') return;
      if (gone) {
        await saveLink(null);
        update({ phase: 'settled', outcome: { kind: 'link-gone' } });
        return;
      }
      update({ phase: 'interrupted', interruptedAt: link.startedAt, questionnaireId: link.questionnaireId, fileName: link.fileName ?? null });
      return;
    }
    const ctl = begin();
    update({ steps: link.writtenAt ? allDone() : freshSteps(), questionnaireId: link.questionnaireId, fileName: link.fileName ?? null });
    try {
      await loadResults(link.questionnaireId, ctl);
      if (live(ctl) && link.writtenAt) update({ outcome: { kind: 'already-written', writtenAt: link.writtenAt } });
    } catch (e) {
      await forgetGoneLink(e, ctl);
    } finally {
      end(ctl);
    }
  }

  /** Continues the interrupted (or stopped) fill: waits for its answers, then writes them. */
  async function continueInterrupted(): Promise<void> {
    const link = await readLink();
    if (!link) return;
    const ctl = begin();
    update({
      steps: { ...freshSteps(), read: { state: 'done', detail: '' }, upload: { state: 'done', detail: '' } },
      questionnaireId: link.questionnaireId,
      fileName: link.fileName ?? null,
      report: null,
    });
    try {
      await generateAndWrite(link, ctl, true);
    } catch (e) {
      await forgetGoneLink(e, ctl);
    } finally {
      end(ctl);
    }
  }

  /** Forgets the interrupted fill; the workbook stays as it is. */
  async function discardInterrupted(): Promise<void> {
    const link = await readLink();
    // Cells an earlier, finished fill wrote are still ours to undo: keep knowing them.
    const keep = link?.cells && Object.keys(link.cells).length > 0;
    await saveLink(keep ? { ...link!, undoneAt: undefined, writtenAt: link!.cellsWrittenAt ?? new Date(now()).toISOString() } : null);
    update({ ...initialState(st.options), canUndo: st.canUndo, outcome: { kind: 'discarded' }, phase: 'idle' });
  }

  async function forgetGoneLink(e: unknown, ctl: AbortController): Promise<void> {
    if (current !== ctl) return;
    if (isNotFound(e)) {
      // The service no longer knows this questionnaire (reset, another service): forget the link.
      await saveLink(null);
      update({ steps: freshSteps(), questionnaireId: null, outcome: { kind: 'link-gone' } });
      return;
    }
    fail(e, ctl);
  }

  /** Stops waiting for the service; the link stays, so the fill can be picked up again. */
  function stop(): void {
    const ctl = current;
    if (!ctl) return;
    current = null;
    ctl.abort();
    stopStallTimer();
    const key = active;
    if (key) step(key, 'stopped');
    const resumable = st.steps.upload.state === 'done' && st.questionnaireId !== null && st.report === null;
    update({ phase: 'settled', stalled: false, outcome: { kind: 'stopped', resumable } });
  }

  async function generateAndWrite(link: FillLink, ctl: AbortController, resumed: boolean): Promise<void> {
    const { api } = deps;
    const id = link.questionnaireId;
    step('detect', 'active');
    update({ progress: null, secondsLeft: null });
    lastMove = now();
    const samples: RateSample[] = [];
    let seen = -1;
    const final = await api.pollAnswerProgress(id, {
      signal: ctl.signal,
      onProgress: (p: Progress) => {
        if (!live(ctl)) return;
        if (p.answers_received !== seen || p.status === 'complete') {
          seen = p.answers_received;
          lastMove = now();
          if (st.stalled) update({ stalled: false });
        }
        update({ progress: p });
        if (p.answers_expected > 0 || p.status === 'complete') {
          if (active === 'detect') {
            step('detect', 'done', `${plural(p.answers_expected, 'question')} found`);
            step('generate', 'active');
          }
          samples.push({ at: now(), received: p.answers_received });
          update({ secondsLeft: estimateSecondsLeft(samples, p.answers_expected) });
        }
      },
    });
    if (!live(ctl)) return;
    if (active === 'detect') step('detect', 'done', `${plural(final.answers_expected, 'question')} found`);
    step('generate', 'done', plural(final.answers_received, 'answer'));
    const questions = await loadResults(id, ctl);
    if (!questions || !live(ctl)) return;
    await write(questions, link, ctl, resumed);
  }

  async function loadResults(id: number, ctl: AbortController): Promise<QuestionWithAnswers[] | null> {
    const { api } = deps;
    const opts = { signal: ctl.signal };
    const [structure, questions, warnings] = await Promise.all([
      deps.details && api.getStructure ? api.getStructure(id, opts) : Promise.resolve(null),
      api.getAnswers(id, {}, opts),
      // Only a hint: a service that cannot say more still fills.
      deps.details && api.getQuestionnaire ? api.getQuestionnaire(id, opts).then((q) => q.warnings ?? [], () => []) : Promise.resolve([]),
    ]);
    if (!live(ctl)) return null;
    serviceQuestions = questions;
    update({ structure, questions, warnings, corrected: new Set() });
    return questions;
  }

  function planOptions(overwrite: boolean): PlanOptions {
    return { overwrite, writeDrafts: st.options.writeDrafts };
  }

  async function write(questions: QuestionWithAnswers[], link: FillLink, ctl: AbortController, resumed: boolean): Promise<void> {
    const { workbook } = deps;
    step('write', 'active', 'Checking the target cells…');
    const { overwrite } = st.options;
    // Without a confirmation to ask (the CLI's --overwrite is the analyst's word already), one plan is enough.
    if (!overwrite || !deps.confirmOverwrite) {
      const plan = await workbook.plan(questions, planOptions(overwrite));
      if (!live(ctl)) return;
      return applyPlan(plan, link, ctl, resumed);
    }
    const keep = await workbook.plan(questions, planOptions(false));
    if (!live(ctl)) return;
    const all = await workbook.plan(questions, planOptions(true));
    if (!live(ctl)) return;
    const replacements = await findReplacements(keep, all);
    if (!live(ctl)) return;
    if (replacements.length === 0) return applyPlan(all, link, ctl, resumed);
    // Nothing is destroyed without an explicit click: the run ends here, waiting for confirmOverwrite.
    pending = { keep, all, link, resumed };
    step('write', 'active', `Waiting for you: ${plural(replacements.length, 'existing value')} would be replaced`);
    update({ phase: 'confirm-overwrite', replacements });
  }

  /** The values an overwrite would replace: cells kept without overwrite that it writes with something else. */
  async function findReplacements(keep: WritePlan, all: WritePlan): Promise<Replacement[]> {
    const writes = new Map(all.writes.map((w) => [cellKey(w.tab, w.address), w]));
    const candidates = keep.skipped.flatMap((s) => {
      const w = s.reason === 'occupied' && s.address ? writes.get(cellKey(s.tab, s.address)) : undefined;
      return w ? [{ skip: s, write: w }] : [];
    });
    if (candidates.length === 0) return [];
    const read = deps.workbook.readValues;
    const current = read
      ? await read.call(deps.workbook, candidates.map(({ write }) => ({ tab: write.tab, address: write.address })))
      : candidates.map(({ skip }) => /already holds "(.*)"\.?$/s.exec(skip.detail)?.[1] ?? '');
    return candidates
      .map(({ write }, i) => ({
        tab: write.tab,
        address: write.address,
        questionId: write.questionId,
        originalId: write.originalId,
        current: String(current[i] ?? ''),
        next: write.value,
      }))
      .filter((r) => r.current.trim() !== r.next.trim());
  }

  /** The analyst's answer to "replace N existing values?". */
  async function confirmOverwrite(choice: 'replace' | 'keep' | 'cancel'): Promise<void> {
    const chosen = pending;
    if (!chosen || st.phase !== 'confirm-overwrite') return;
    pending = null;
    if (choice === 'cancel') {
      step('write', 'pending');
      update({ phase: 'settled', replacements: null, outcome: { kind: 'overwrite-declined' } });
      return;
    }
    const ctl = begin();
    try {
      await applyPlan(choice === 'replace' ? chosen.all : chosen.keep, chosen.link, ctl, chosen.resumed);
    } catch (e) {
      fail(e, ctl);
    } finally {
      end(ctl);
    }
  }

  async function applyPlan(plan: WritePlan, link: FillLink, ctl: AbortController, resumed: boolean): Promise<void> {
    const { workbook } = deps;
    step('write', 'active', `Writing ${plural(plan.writes.length, 'cell')}…`);
    const { highlight, sourceNotes } = st.options;
    const result = await workbook.apply(plan, { highlight, sourceNotes });
    if (!live(ctl)) return;
    const earlierCells = link.cells ?? {};
    const earlier = plan.skipped.filter((s) => s.reason === 'occupied' && s.address && cellKey(s.tab, s.address) in earlierCells).length;
    const failed = new Set(result.failed.map((f) => cellKey(f.tab, f.address)));
    const cells = { ...earlierCells };
    for (const w of plan.writes) if (!failed.has(cellKey(w.tab, w.address))) cells[cellKey(w.tab, w.address)] = textHash(w.value);
    const writtenAt = new Date(now()).toISOString();
    const next: FillLink = {
      questionnaireId: link.questionnaireId,
      startedAt: link.startedAt,
      ...(link.fileName ? { fileName: link.fileName } : {}),
      writtenAt,
      cells,
      ...(result.written > 0 ? { cellsWrittenAt: writtenAt } : link.cellsWrittenAt ? { cellsWrittenAt: link.cellsWrittenAt } : {}),
      ...(link.corrected ? { corrected: link.corrected } : {}),
    };
    await saveLink(next);
    step('write', 'done', `${plural(result.written, 'cell')} written`);
    await refreshCanUndo();
    if (!live(ctl)) return;
    update({
      report: { plan, result, earlier, earlierAt: link.cellsWrittenAt ?? null, resumed },
      outcome: st.questions.length === 0 ? { kind: 'no-questions' } : { kind: 'written' },
      replacements: null,
    });
  }

  /** Writes the known answers again (after Undo fill, or with other options). */
  async function rewrite(): Promise<void> {
    if (st.questions.length === 0) return;
    const link = (await readLink()) ?? { questionnaireId: st.questionnaireId ?? 0, startedAt: new Date(now()).toISOString() };
    const ctl = begin();
    update({ report: null });
    try {
      await write(st.questions, link, ctl, false);
    } catch (e) {
      fail(e, ctl);
    } finally {
      end(ctl);
    }
  }

  // ---- undo ----

  /** Cells changed since the fill (in the sheet, or corrected here) that Undo fill would put back. */
  async function findLaterEdits(): Promise<LaterEdit[]> {
    const link = await readLink();
    const read = deps.workbook.readValues;
    if (!link || !read) return [];
    const cells = link.cells ?? {};
    const corrected = new Set(link.corrected ?? []);
    const keys = [...new Set([...Object.keys(cells), ...corrected])];
    if (keys.length === 0) return [];
    const refs = keys.map((k) => {
      const bang = k.lastIndexOf('!');
      return { tab: k.slice(0, bang), address: k.slice(bang + 1) };
    });
    const values = await read.call(deps.workbook, refs);
    return refs
      .map((ref, i) => ({ ...ref, value: String(values[i] ?? '') }))
      .filter((c, i) => corrected.has(keys[i]!) || textHash(c.value.trim()) !== cells[keys[i]!]);
  }

  /** Undo fill: asks first when it would discard edits made after the fill. */
  async function requestUndo(): Promise<void> {
    if (current || st.phase === 'undoing') return;
    let edits: LaterEdit[] = [];
    try {
      edits = await findLaterEdits();
    } catch {
      edits = []; // cannot read the cells: undo as before, the snapshot is still exact
    }
    if (edits.length > 0) {
      update({ phase: 'confirm-undo', laterEdits: edits });
      return;
    }
    await undo(false);
  }

  function cancelUndo(): void {
    if (st.phase === 'confirm-undo') update({ phase: 'settled', laterEdits: null });
  }

  /** Restores every cell the fill touched; with `keepLaterEdits`, all but the later edits, which stay untouched. */
  async function undo(keepLaterEdits: boolean): Promise<void> {
    const { workbook } = deps;
    if (!workbook.undo) return;
    const edits = keepLaterEdits ? (st.laterEdits ?? []) : [];
    update({ phase: 'undoing', laterEdits: null, outcome: null });
    try {
      const result = await workbook.undo(edits.length ? { keep: edits.map((e) => ({ tab: e.tab, address: e.address })) } : undefined);
      const done = !!result && !result.failed?.length;
      const kept = done ? edits : [];
      if (done) {
        if (kept.length === 0) update({ questions: serviceQuestions, corrected: new Set() });
        const link = await readLink();
        // The kept cells are the analyst's own now: nothing of this fill is left to undo.
        if (link) await saveLink({ questionnaireId: link.questionnaireId, startedAt: link.startedAt, ...(link.fileName ? { fileName: link.fileName } : {}), undoneAt: new Date(now()).toISOString() });
      }
      await refreshCanUndo();
      update({
        phase: 'settled',
        report: result && !result.failed?.length ? null : st.report,
        steps: { ...st.steps, write: { state: 'pending', detail: 'undone' } },
        outcome: { kind: 'undone', result, kept: kept.length },
      });
    } catch (e) {
      update({ phase: 'settled', outcome: { kind: 'undo-failed', error: e } });
    }
  }

  // ---- corrections ----

  /** An analyst's correction of one answer cell, written with the safety rules, then shown in the review. */
  async function correct(q: QuestionWithAnswers, target: CorrectionTarget, text: string, overwrite: boolean): Promise<{ written: boolean; reason?: string }> {
    const { workbook } = deps;
    if (!workbook.writeCell) return { written: false, reason: 'This workbook cannot be written from here.' };
    const result = await workbook.writeCell(target.cell, text, { overwrite });
    if (result.written) {
      const questions = st.questions.map((x) => (x.id === q.id ? withCorrection(x, target.slot, text.trim()) : x));
      const link = await readLink();
      if (link) {
        const key = cellKey(target.cell.tab, target.cell.address);
        await saveLink({ ...link, corrected: [...new Set([...(link.corrected ?? []), key])] });
      }
      const outcome = st.outcome?.kind === 'undone' ? null : st.outcome;
      update({ questions, corrected: new Set(st.corrected).add(q.id), outcome });
      await refreshCanUndo();
    }
    return result;
  }

  /** The connection was shown to work since: an old failure is no longer true (a running fill keeps its own). */
  function forgetFailure(): void {
    const kind = st.outcome?.kind;
    if (current || (kind !== 'failed' && kind !== 'link-gone' && kind !== 'undo-failed')) return;
    update({ outcome: null });
  }

  function dispose(): void {
    current?.abort();
    current = null;
    stopStallTimer();
    listeners.clear();
  }
  return {
    get state(): FillState {
      return st;
    },
    subscribe,
    setOptions,
    fill,
    open,
    continueInterrupted,
    discardInterrupted,
    stop,
    confirmOverwrite,
    rewrite,
    requestUndo,
    findLaterEdits,
    cancelUndo,
    undo,
    correct,
    forgetFailure,
    dispose,
  };
}

export type FillSession = ReturnType<typeof createFillSession>;
