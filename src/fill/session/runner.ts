/**
 * One run at a time (a fill, a resume, a write): starting one aborts the last, a stale run's results
 * are dropped (`live`), its failure is the run's outcome, its steps are marked as they go, and a
 * wait on the service with no progress for `stallMs` is called stalled.
 */
import { DEFAULT_STALL_MS, type Store } from './state';
import type { FillState, StepKey, StepState } from './types';

export interface Runner {
  /** The step being worked on, if any. */
  readonly active: StepKey | null;
  readonly running: boolean;
  begin(external?: AbortSignal): AbortController;
  end(ctl: AbortController): void;
  fail(e: unknown, ctl: AbortController): void;
  live(ctl: AbortController): boolean;
  /** The current run, if `ctl` is still it (a run replaced or stopped since has nothing more to say). */
  isCurrent(ctl: AbortController): boolean;
  step(key: StepKey, state: StepState, detail?: string): void;
  /** The service showed progress: the stall clock starts again. */
  moved(): void;
  /** Stops the run (its step marked stopped), without an outcome; false when nothing was running. */
  stop(): boolean;
  dispose(): void;
}

export function createRunner(store: Store, options: { stallMs?: number; now: () => number; onBegin?: () => void }): Runner {
  const { now } = options;
  let current: AbortController | null = null;
  let active: StepKey | null = null;
  let lastMove = 0;
  let stallTimer: ReturnType<typeof setInterval> | null = null;
  const st = (): FillState => store.state;

  function step(key: StepKey, state: StepState, detail = ''): void {
    if (state === 'active') active = key;
    store.update({ steps: { ...st().steps, [key]: { state, detail } } });
  }

  const live = (ctl: AbortController) => current === ctl && !ctl.signal.aborted;

  function startStallTimer(ctl: AbortController): void {
    stopStallTimer();
    const stallMs = options.stallMs ?? DEFAULT_STALL_MS;
    lastMove = now();
    stallTimer = setInterval(
      () => {
        if (!live(ctl)) return;
        const waiting = active === 'detect' || active === 'generate';
        const stalled = waiting && now() - lastMove >= stallMs;
        if (stalled !== st().stalled) store.update({ stalled });
      },
      Math.min(5000, Math.max(10, stallMs / 4)),
    );
  }

  function stopStallTimer(): void {
    if (stallTimer) clearInterval(stallTimer);
    stallTimer = null;
  }

  return {
    get active() {
      return active;
    },
    get running() {
      return current !== null;
    },
    begin(external) {
      current?.abort();
      const ctl = new AbortController();
      if (external) {
        if (external.aborted) ctl.abort(external.reason);
        else external.addEventListener('abort', () => ctl.abort(external.reason), { once: true });
      }
      current = ctl;
      active = null;
      options.onBegin?.();
      store.update({ phase: 'running', outcome: null, stalled: false, replacements: null, laterEdits: null, interruptedAt: null });
      startStallTimer(ctl);
      return ctl;
    },
    end(ctl) {
      if (current !== ctl) return;
      current = null;
      stopStallTimer();
      if (st().phase === 'running') store.update({ phase: 'settled', stalled: false });
    },
    fail(e, ctl) {
      // A stale run (replaced by a new one, stopped, disposed) says nothing; an external abort (the CLI's
      // --timeout) is this run's result.
      if (current !== ctl) return;
      const key = active;
      if (key) step(key, 'failed', st().steps[key].detail);
      store.update({ outcome: { kind: 'failed', step: key, error: e } });
    },
    live,
    isCurrent: (ctl) => current === ctl,
    step,
    moved() {
      lastMove = now();
      if (st().stalled) store.update({ stalled: false });
    },
    stop() {
      const ctl = current;
      if (!ctl) return false;
      current = null;
      ctl.abort();
      stopStallTimer();
      if (active) step(active, 'stopped');
      return true;
    },
    dispose() {
      current?.abort();
      current = null;
      stopStallTimer();
    },
  };
}
