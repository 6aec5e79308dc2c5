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

export class FillSession {
  private s: FillState;
  private readonly listeners = new Set<(s: FillState) => void>();
  private current: AbortController | null = null;
  private active: StepKey | null = null;
  private lastMove = 0;
  private stallTimer: ReturnType<typeof setInterval> | null = null;
  /** The questions as the service gave them, before any correction: what Undo fill returns the review to. */
  private serviceQuestions: QuestionWithAnswers[] = [];
  private pending: PendingOverwrite | null = null;
  private link: FillLink | null = null;
  private readonly now: () => number;

  constructor(
    private readonly deps: SessionDeps,
    options: Partial<FillOptions> = {},
  ) {
    this.s = initialState(options);
    this.now = deps.now ?? Date.now;
  }

  get state(): FillState {
    return this.s;
  }

  subscribe(listener: (s: FillState) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  setOptions(patch: Partial<FillOptions>): void {
    this.update({ options: { ...this.s.options, ...patch } });
  }

  get running(): boolean {
    return this.current !== null;
  }

  // ---- state plumbing ----

  private update(patch: Partial<FillState>): void {
    this.s = { ...this.s, ...patch };
    for (const l of [...this.listeners]) l(this.s);
  }

  private step(key: StepKey, state: StepState, detail = ''): void {
    if (state === 'active') this.active = key;
    this.update({ steps: { ...this.s.steps, [key]: { state, detail } } });
  }

  private live(ctl: AbortController): boolean {
    return this.current === ctl && !ctl.signal.aborted;
  }

  private begin(external?: AbortSignal): AbortController {
    this.current?.abort();
    const ctl = new AbortController();
    if (external) {
      if (external.aborted) ctl.abort(external.reason);
      else external.addEventListener('abort', () => ctl.abort(external.reason), { once: true });
    }
    this.current = ctl;
    this.active = null;
    this.pending = null;
    this.update({ phase: 'running', outcome: null, stalled: false, replacements: null, laterEdits: null, interruptedAt: null });
    this.startStallTimer(ctl);
    return ctl;
  }

  private end(ctl: AbortController): void {
    if (this.current !== ctl) return;
    this.current = null;
    this.stopStallTimer();
    if (this.s.phase === 'running') this.update({ phase: 'settled', stalled: false });
  }

  private fail(e: unknown, ctl: AbortController): void {
    // A stale run (replaced by a new one, stopped, disposed) says nothing; an external abort (the CLI's
    // --timeout) is this run's result.
    if (this.current !== ctl) return;
    const key = this.active;
    if (key) this.step(key, 'failed', this.s.steps[key].detail);
    this.update({ outcome: { kind: 'failed', step: key, error: e } });
  }

  private startStallTimer(ctl: AbortController): void {
    this.stopStallTimer();
    const stallMs = this.deps.stallMs ?? DEFAULT_STALL_MS;
    this.lastMove = this.now();
    this.stallTimer = setInterval(
      () => {
        if (!this.live(ctl)) return;
        const waiting = this.active === 'detect' || this.active === 'generate';
        const stalled = waiting && this.now() - this.lastMove >= stallMs;
        if (stalled !== this.s.stalled) this.update({ stalled });
      },
      Math.min(5000, Math.max(10, stallMs / 4)),
    );
  }

  private stopStallTimer(): void {
    if (this.stallTimer) clearInterval(this.stallTimer);
    this.stallTimer = null;
  }

  private async saveLink(link: FillLink | null): Promise<void> {
    this.link = link;
    if (!this.deps.links) return;
    if (link) await this.deps.links.write(link);
    else await this.deps.links.clear();
  }

  private async readLink(): Promise<FillLink | null> {
    if (this.link) return this.link;
    return (this.link = (await this.deps.links?.read()) ?? null);
  }

  private async refreshCanUndo(): Promise<void> {
    const canUndo = (await this.deps.workbook.canUndo?.()) ?? false;
    if (canUndo !== this.s.canUndo) this.update({ canUndo });
  }

  // ---- the fill ----

  /** Fills the workbook from scratch: read, upload, wait for answers, write. */
  async fill(signal?: AbortSignal): Promise<FillState> {
    const ctl = this.begin(signal);
    const { api, workbook } = this.deps;
    this.update({
      steps: freshSteps(),
      read: null,
      progress: null,
      secondsLeft: null,
      report: null,
      structure: null,
      warnings: [],
      questions: [],
      questionnaireId: null,
      corrected: new Set(),
    });
    try {
      const previous = await this.readLink();
      this.step('read', 'active');
      const file = await workbook.readFile((p) => this.live(ctl) && this.update({ read: p }));
      if (!this.live(ctl)) return this.s;
      this.step('read', 'done', `${file.fileName}, ${formatBytes(file.bytes.length)}`);
      this.step('upload', 'active', `Sending ${formatBytes(file.bytes.length)}…`);
      const uploaded = await api.uploadQuestionnaires(
        [{ name: file.fileName, data: file.bytes, ...(file.type ? { type: file.type } : {}) }],
        {},
        { signal: ctl.signal },
      );
      const id = uploaded.questionnaire_ids?.[0];
      if (id === undefined) {
        throw new SessionError('no-questionnaire', 'The service accepted the workbook but made no questionnaire of it.');
      }
      if (!this.live(ctl)) return this.s;
      this.step('upload', 'done', `${formatBytes(file.bytes.length)} sent`);
      // What earlier fills wrote stays known, so this one can tell "already filled by us" from the analyst's values.
      const link: FillLink = {
        questionnaireId: id,
        startedAt: new Date(this.now()).toISOString(),
        ...(previous?.cells ? { cells: previous.cells } : {}),
        ...(previous?.cellsWrittenAt ? { cellsWrittenAt: previous.cellsWrittenAt } : {}),
        ...(previous?.corrected ? { corrected: previous.corrected } : {}),
      };
      this.update({ questionnaireId: id });
      await this.saveLink(link);
      await this.generateAndWrite(link, ctl, false);
    } catch (e) {
      this.fail(e, ctl);
    } finally {
      this.end(ctl);
    }
    return this.s;
  }

  /**
   * The pane opened on a workbook: a finished fill shows its answers for review; an unfinished one is
   * offered to continue or discard, and nothing is written until the analyst chooses.
   */
  async open(): Promise<void> {
    let link: FillLink | null;
    try {
      link = await this.readLink();
      await this.refreshCanUndo();
    } catch (e) {
      this.update({ phase: 'settled', outcome: { kind: 'failed', step: null, error: e } });
      return;
    }
    if (!link || this.current || this.s.phase !== 'idle') return;
    if (!link.writtenAt && !link.undoneAt) {
      // Offer to continue only what the service still has; any other failure leaves the choice to the analyst.
      const gone = await this.deps.api.getQuestionnaire?.(link.questionnaireId).then(() => false, isNotFound);
      if (this.current || this.s.phase !== 'idle') return;
      if (gone) {
        await this.saveLink(null);
        this.update({ phase: 'settled', outcome: { kind: 'link-gone' } });
        return;
      }
      this.update({ phase: 'interrupted', interruptedAt: link.startedAt, questionnaireId: link.questionnaireId });
      return;
    }
    const ctl = this.begin();
    this.update({ steps: link.writtenAt ? allDone() : freshSteps(), questionnaireId: link.questionnaireId });
    try {
      await this.loadResults(link.questionnaireId, ctl);
      if (this.live(ctl) && link.writtenAt) this.update({ outcome: { kind: 'already-written', writtenAt: link.writtenAt } });
    } catch (e) {
      await this.forgetGoneLink(e, ctl);
    } finally {
      this.end(ctl);
    }
  }

  /** Continues the interrupted (or stopped) fill: waits for its answers, then writes them. */
  async continueInterrupted(): Promise<void> {
    const link = await this.readLink();
    if (!link) return;
    const ctl = this.begin();
    this.update({
      steps: { ...freshSteps(), read: { state: 'done', detail: '' }, upload: { state: 'done', detail: '' } },
      questionnaireId: link.questionnaireId,
      report: null,
    });
    try {
      await this.generateAndWrite(link, ctl, true);
    } catch (e) {
      await this.forgetGoneLink(e, ctl);
    } finally {
      this.end(ctl);
    }
  }

  /** Forgets the interrupted fill; the workbook stays as it is. */
  async discardInterrupted(): Promise<void> {
    const link = await this.readLink();
    // Cells an earlier, finished fill wrote are still ours to undo: keep knowing them.
    const keep = link?.cells && Object.keys(link.cells).length > 0;
    await this.saveLink(keep ? { ...link!, undoneAt: undefined, writtenAt: link!.cellsWrittenAt ?? new Date(this.now()).toISOString() } : null);
    this.update({ ...initialState(this.s.options), canUndo: this.s.canUndo, outcome: { kind: 'discarded' }, phase: 'idle' });
  }

  private async forgetGoneLink(e: unknown, ctl: AbortController): Promise<void> {
    if (this.current !== ctl) return;
    if (isNotFound(e)) {
      // The service no longer knows this questionnaire (reset, another service): forget the link.
      await this.saveLink(null);
      this.update({ steps: freshSteps(), questionnaireId: null, outcome: { kind: 'link-gone' } });
      return;
    }
    this.fail(e, ctl);
  }

  /** Stops waiting for the service; the link stays, so the fill can be picked up again. */
  stop(): void {
    const ctl = this.current;
    if (!ctl) return;
    this.current = null;
    ctl.abort();
    this.stopStallTimer();
    const key = this.active;
    if (key) this.step(key, 'stopped');
    const resumable = this.s.steps.upload.state === 'done' && this.s.questionnaireId !== null && this.s.report === null;
    this.update({ phase: 'settled', stalled: false, outcome: { kind: 'stopped', resumable } });
  }

  private async generateAndWrite(link: FillLink, ctl: AbortController, resumed: boolean): Promise<void> {
    const { api } = this.deps;
    const id = link.questionnaireId;
    this.step('detect', 'active');
    this.update({ progress: null, secondsLeft: null });
    this.lastMove = this.now();
    const samples: RateSample[] = [];
    let seen = -1;
    const final = await api.pollAnswerProgress(id, {
      signal: ctl.signal,
      onProgress: (p: Progress) => {
        if (!this.live(ctl)) return;
        if (p.answers_received !== seen || p.status === 'complete') {
          seen = p.answers_received;
          this.lastMove = this.now();
          if (this.s.stalled) this.update({ stalled: false });
        }
        this.update({ progress: p });
        if (p.answers_expected > 0 || p.status === 'complete') {
          if (this.active === 'detect') {
            this.step('detect', 'done', `${plural(p.answers_expected, 'question')} found`);
            this.step('generate', 'active');
          }
          samples.push({ at: this.now(), received: p.answers_received });
          this.update({ secondsLeft: estimateSecondsLeft(samples, p.answers_expected) });
        }
      },
    });
    if (!this.live(ctl)) return;
    if (this.active === 'detect') this.step('detect', 'done', `${plural(final.answers_expected, 'question')} found`);
    this.step('generate', 'done', plural(final.answers_received, 'answer'));
    const questions = await this.loadResults(id, ctl);
    if (!questions || !this.live(ctl)) return;
    await this.write(questions, link, ctl, resumed);
  }

  private async loadResults(id: number, ctl: AbortController): Promise<QuestionWithAnswers[] | null> {
    const { api } = this.deps;
    const opts = { signal: ctl.signal };
    const [structure, questions, warnings] = await Promise.all([
      this.deps.details && api.getStructure ? api.getStructure(id, opts) : Promise.resolve(null),
      api.getAnswers(id, {}, opts),
      // Only a hint: a service that cannot say more still fills.
      this.deps.details && api.getQuestionnaire ? api.getQuestionnaire(id, opts).then((q) => q.warnings ?? [], () => []) : Promise.resolve([]),
    ]);
    if (!this.live(ctl)) return null;
    this.serviceQuestions = questions;
    this.update({ structure, questions, warnings, corrected: new Set() });
    return questions;
  }

  private planOptions(overwrite: boolean): PlanOptions {
    // `writeDrafts` is the planner's switch for answers it would otherwise leave to the review.
    return { overwrite, ...(this.s.options.writeDrafts ? { writeDrafts: true } : {}) } as PlanOptions;
  }

  private async write(questions: QuestionWithAnswers[], link: FillLink, ctl: AbortController, resumed: boolean): Promise<void> {
    const { workbook } = this.deps;
    this.step('write', 'active', 'Checking the target cells…');
    const { overwrite } = this.s.options;
    // Without a confirmation to ask (the CLI's --overwrite is the analyst's word already), one plan is enough.
    if (!overwrite || !this.deps.confirmOverwrite) {
      const plan = await workbook.plan(questions, this.planOptions(overwrite));
      if (!this.live(ctl)) return;
      return this.applyPlan(plan, link, ctl, resumed);
    }
    const keep = await workbook.plan(questions, this.planOptions(false));
    if (!this.live(ctl)) return;
    const all = await workbook.plan(questions, this.planOptions(true));
    if (!this.live(ctl)) return;
    const replacements = await this.replacements(keep, all);
    if (!this.live(ctl)) return;
    if (replacements.length === 0) return this.applyPlan(all, link, ctl, resumed);
    // Nothing is destroyed without an explicit click: the run ends here, waiting for confirmOverwrite.
    this.pending = { keep, all, link, resumed };
    this.step('write', 'active', `Waiting for you: ${plural(replacements.length, 'existing value')} would be replaced`);
    this.update({ phase: 'confirm-overwrite', replacements });
  }

  /** The values an overwrite would replace: cells kept without overwrite that it writes with something else. */
  private async replacements(keep: WritePlan, all: WritePlan): Promise<Replacement[]> {
    const writes = new Map(all.writes.map((w) => [cellKey(w.tab, w.address), w]));
    const candidates = keep.skipped.flatMap((s) => {
      const w = s.reason === 'occupied' && s.address ? writes.get(cellKey(s.tab, s.address)) : undefined;
      return w ? [{ skip: s, write: w }] : [];
    });
    if (candidates.length === 0) return [];
    const read = this.deps.workbook.readValues;
    const current = read
      ? await read.call(this.deps.workbook, candidates.map(({ write }) => ({ tab: write.tab, address: write.address })))
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
  async confirmOverwrite(choice: 'replace' | 'keep' | 'cancel'): Promise<void> {
    const pending = this.pending;
    if (!pending || this.s.phase !== 'confirm-overwrite') return;
    this.pending = null;
    if (choice === 'cancel') {
      this.step('write', 'pending');
      this.update({ phase: 'settled', replacements: null, outcome: { kind: 'overwrite-declined' } });
      return;
    }
    const ctl = this.begin();
    try {
      await this.applyPlan(choice === 'replace' ? pending.all : pending.keep, pending.link, ctl, pending.resumed);
    } catch (e) {
      this.fail(e, ctl);
    } finally {
      this.end(ctl);
    }
  }

  private async applyPlan(plan: WritePlan, link: FillLink, ctl: AbortController, resumed: boolean): Promise<void> {
    const { workbook } = this.deps;
    this.step('write', 'active', `Writing ${plural(plan.writes.length, 'cell')}…`);
    const { highlight, sourceNotes } = this.s.options;
    const result = await workbook.apply(plan, { highlight, sourceNotes });
    if (!this.live(ctl)) return;
    const earlierCells = link.cells ?? {};
    const earlier = plan.skipped.filter((s) => s.reason === 'occupied' && s.address && cellKey(s.tab, s.address) in earlierCells).length;
    const failed = new Set(result.failed.map((f) => cellKey(f.tab, f.address)));
    const cells = { ...earlierCells };
    for (const w of plan.writes) if (!failed.has(cellKey(w.tab, w.address))) cells[cellKey(w.tab, w.address)] = textHash(w.value);
    const writtenAt = new Date(this.now()).toISOString();
    const next: FillLink = {
      questionnaireId: link.questionnaireId,
      startedAt: link.startedAt,
      writtenAt,
      cells,
      ...(result.written > 0 ? { cellsWrittenAt: writtenAt } : link.cellsWrittenAt ? { cellsWrittenAt: link.cellsWrittenAt } : {}),
      ...(link.corrected ? { corrected: link.corrected } : {}),
    };
    await this.saveLink(next);
    this.step('write', 'done', `${plural(result.written, 'cell')} written`);
    await this.refreshCanUndo();
    if (!this.live(ctl)) return;
    this.update({
      report: { plan, result, earlier, earlierAt: link.cellsWrittenAt ?? null, resumed },
      outcome: this.s.questions.length === 0 ? { kind: 'no-questions' } : { kind: 'written' },
      replacements: null,
    });
  }

  /** Writes the known answers again (after Undo fill, or with other options). */
  async rewrite(): Promise<void> {
    if (this.s.questions.length === 0) return;
    const link = (await this.readLink()) ?? { questionnaireId: this.s.questionnaireId ?? 0, startedAt: new Date(this.now()).toISOString() };
    const ctl = this.begin();
    this.update({ report: null });
    try {
      await this.write(this.s.questions, link, ctl, false);
    } catch (e) {
      this.fail(e, ctl);
    } finally {
      this.end(ctl);
    }
  }

  // ---- undo ----

  /** Cells changed since the fill (in the sheet, or corrected here) that Undo fill would put back. */
  private async findLaterEdits(): Promise<LaterEdit[]> {
    const link = await this.readLink();
    const read = this.deps.workbook.readValues;
    if (!link || !read) return [];
    const cells = link.cells ?? {};
    const corrected = new Set(link.corrected ?? []);
    const keys = [...new Set([...Object.keys(cells), ...corrected])];
    if (keys.length === 0) return [];
    const refs = keys.map((k) => {
      const bang = k.lastIndexOf('!');
      return { tab: k.slice(0, bang), address: k.slice(bang + 1) };
    });
    const values = await read.call(this.deps.workbook, refs);
    return refs
      .map((ref, i) => ({ ...ref, value: String(values[i] ?? '') }))
      .filter((c, i) => corrected.has(keys[i]!) || textHash(c.value.trim()) !== cells[keys[i]!]);
  }

  /** Undo fill: asks first when it would discard edits made after the fill. */
  async requestUndo(): Promise<void> {
    if (this.current || this.s.phase === 'undoing') return;
    let edits: LaterEdit[] = [];
    try {
      edits = await this.findLaterEdits();
    } catch {
      edits = []; // cannot read the cells: undo as before, the snapshot is still exact
    }
    if (edits.length > 0) {
      this.update({ phase: 'confirm-undo', laterEdits: edits });
      return;
    }
    await this.undo(false);
  }

  cancelUndo(): void {
    if (this.s.phase === 'confirm-undo') this.update({ phase: 'settled', laterEdits: null });
  }

  /** Restores every cell the fill touched; with `keepLaterEdits`, writes the later edits back afterwards. */
  async undo(keepLaterEdits: boolean): Promise<void> {
    const { workbook } = this.deps;
    if (!workbook.undo) return;
    const edits = keepLaterEdits ? (this.s.laterEdits ?? []) : [];
    this.update({ phase: 'undoing', laterEdits: null, outcome: null });
    try {
      const result = await workbook.undo();
      let kept: LaterEdit[] = [];
      if (result && !result.failed?.length) {
        for (const e of edits) {
          const r = await workbook.writeCell?.({ tab: e.tab, address: e.address }, e.value, { overwrite: true });
          if (r?.written) kept.push(e);
        }
        if (kept.length === 0) this.update({ questions: this.serviceQuestions, corrected: new Set() });
        const link = await this.readLink();
        if (link) {
          await this.saveLink({
            questionnaireId: link.questionnaireId,
            startedAt: link.startedAt,
            undoneAt: new Date(this.now()).toISOString(),
            ...(kept.length ? { corrected: kept.map((e) => cellKey(e.tab, e.address)) } : {}),
          });
        }
      } else {
        kept = [];
      }
      await this.refreshCanUndo();
      this.update({
        phase: 'settled',
        report: result && !result.failed?.length ? null : this.s.report,
        steps: { ...this.s.steps, write: { state: 'pending', detail: 'undone' } },
        outcome: { kind: 'undone', result, kept: kept.length },
      });
    } catch (e) {
      this.update({ phase: 'settled', outcome: { kind: 'undo-failed', error: e } });
    }
  }

  // ---- corrections ----

  /** An analyst's correction of one answer cell, written with the safety rules, then shown in the review. */
  async correct(q: QuestionWithAnswers, target: CorrectionTarget, text: string, overwrite: boolean): Promise<{ written: boolean; reason?: string }> {
    const { workbook } = this.deps;
    if (!workbook.writeCell) return { written: false, reason: 'This workbook cannot be written from here.' };
    const result = await workbook.writeCell(target.cell, text, { overwrite });
    if (result.written) {
      const questions = this.s.questions.map((x) => (x.id === q.id ? withCorrection(x, target.slot, text.trim()) : x));
      const link = await this.readLink();
      if (link) {
        const key = cellKey(target.cell.tab, target.cell.address);
        await this.saveLink({ ...link, corrected: [...new Set([...(link.corrected ?? []), key])] });
      }
      const outcome = this.s.outcome?.kind === 'undone' ? null : this.s.outcome;
      this.update({ questions, corrected: new Set(this.s.corrected).add(q.id), outcome });
      await this.refreshCanUndo();
    }
    return result;
  }

  /** The connection was shown to work since: an old failure is no longer true (a running fill keeps its own). */
  forgetFailure(): void {
    const kind = this.s.outcome?.kind;
    if (this.current || (kind !== 'failed' && kind !== 'link-gone' && kind !== 'undo-failed')) return;
    this.update({ outcome: null });
  }

  /** Shows other answers in the review (e.g. the analyst picked one side of a conflict) without writing. */
  replaceQuestion(q: QuestionWithAnswers): void {
    this.update({ questions: this.s.questions.map((x) => (x.id === q.id ? q : x)) });
  }

  dispose(): void {
    this.current?.abort();
    this.current = null;
    this.stopStallTimer();
    this.listeners.clear();
  }
}
