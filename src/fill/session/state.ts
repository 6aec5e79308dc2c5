/** The session's published state: its initial value, step lists, and the store that tells listeners of each change. */
import { ApiError } from '../../api/errors';
import { STEP_ORDER, type FillOptions, type FillState, type Steps } from './types';

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
export const allDone = (): Steps => Object.fromEntries(STEP_ORDER.map((k) => [k, { state: 'done', detail: '' }])) as Steps;
export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
export const isNotFound = (e: unknown) => e instanceof ApiError && e.kind === 'http' && e.status === 404;

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

/**
 * A controller's published state: each change replaces it and is told to every listener, so a component
 * renders the latest state and a test reads it without any DOM. The fill session's, and the pane's other
 * controllers' (src/taskpane/store.ts).
 */
export interface Store<S = FillState> {
  readonly state: S;
  update(patch: Partial<S> | ((s: S) => Partial<S>)): void;
  subscribe(listener: (s: S) => void): () => void;
  clear(): void;
}

export function createStore<S extends object>(initial: S): Store<S> {
  let st = initial;
  const listeners = new Set<(s: S) => void>();
  return {
    get state() {
      return st;
    },
    update(patch) {
      st = { ...st, ...(typeof patch === 'function' ? patch(st) : patch) };
      for (const l of [...listeners]) l(st);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    clear: () => listeners.clear(),
  };
}
