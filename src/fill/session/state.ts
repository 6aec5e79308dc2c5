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

export interface Store {
  readonly state: FillState;
  update(patch: Partial<FillState>): void;
  subscribe(listener: (s: FillState) => void): () => void;
  clear(): void;
}

/** Each change replaces the state and is told to every listener. */
export function createStore(initial: FillState): Store {
  let st = initial;
  const listeners = new Set<(s: FillState) => void>();
  return {
    get state() {
      return st;
    },
    update(patch) {
      st = { ...st, ...patch };
      for (const l of [...listeners]) l(st);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    clear: () => listeners.clear(),
  };
}
