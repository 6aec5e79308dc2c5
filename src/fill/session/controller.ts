/**
 * The fill of one workbook as a state machine, composed of its steps: fill (read → upload), results
 * (detect → generate), write (with the overwrite confirmation), resume (open, continue or discard an
 * interrupted fill, stop), undo (with the later-edits confirmation) and correct. The task pane renders
 * its state; `qfill fill` drives the same steps. Every message is derived from `outcome`, the last
 * result, which each action replaces rather than adds to.
 */
import type { QuestionWithAnswers } from '../../api/schemas';
import { createContext } from './context';
import { correct } from './correct';
import { fill } from './fill';
import { continueInterrupted, discardInterrupted, open, stop } from './resume';
import type { CorrectionTarget, FillOptions, FillState, SessionDeps } from './types';
import { cancelUndo, findLaterEdits, requestUndo, undo } from './undo';
import { confirmOverwrite, rewrite } from './write';

export { DEFAULT_STALL_MS, SessionError, freshSteps, initialState } from './state';

export function createFillSession(deps: SessionDeps, options: Partial<FillOptions> = {}) {
  const ctx = createContext(deps, options);
  const { store, run } = ctx;
  return {
    get state(): FillState {
      return store.state;
    },
    subscribe: store.subscribe,
    setOptions: (patch: Partial<FillOptions>) => store.update({ options: { ...store.state.options, ...patch } }),
    /** Fills the workbook from scratch: read, upload, wait for answers, write. */
    fill: (signal?: AbortSignal) => fill(ctx, signal),
    open: () => open(ctx),
    continueInterrupted: () => continueInterrupted(ctx),
    discardInterrupted: () => discardInterrupted(ctx),
    stop: () => stop(ctx),
    confirmOverwrite: (choice: 'replace' | 'keep' | 'cancel') => confirmOverwrite(ctx, choice),
    rewrite: () => rewrite(ctx),
    requestUndo: () => requestUndo(ctx),
    findLaterEdits: () => findLaterEdits(ctx),
    cancelUndo: () => cancelUndo(ctx),
    undo: (keepLaterEdits: boolean) => undo(ctx, keepLaterEdits),
    correct: (q: QuestionWithAnswers, target: CorrectionTarget, text: string, overwrite: boolean) => correct(ctx, q, target, text, overwrite),
    /** The connection was shown to work since: an old failure is no longer true (a running fill keeps its own). */
    forgetFailure(): void {
      const kind = store.state.outcome?.kind;
      if (run.running || (kind !== 'failed' && kind !== 'link-gone' && kind !== 'undo-failed')) return;
      store.update({ outcome: null });
    },
    dispose(): void {
      run.dispose();
      store.clear();
    },
  };
}

export type FillSession = ReturnType<typeof createFillSession>;
