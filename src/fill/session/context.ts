/**
 * What every step of a fill session shares: its dependencies, the state store, the one run at a time,
 * the workbook's link, and the little the steps remember between them.
 */
import type { QuestionWithAnswers } from '../../api/schemas';
import type { PlanOptions, WritePlan } from '../types';
import { createLinkCache, type LinkCache } from './link';
import { createRunner, type Runner } from './runner';
import { createStore, initialState, type Store } from './state';
import type { FillLink, FillOptions, FillState, SessionDeps } from './types';

/** A write waiting for the analyst's answer to "replace N existing values?". */
export interface PendingOverwrite {
  keep: WritePlan;
  all: WritePlan;
  link: FillLink;
  resumed: boolean;
}

export interface SessionContext {
  deps: SessionDeps;
  now: () => number;
  store: Store;
  run: Runner;
  links: LinkCache;
  /** The questions as the service gave them, before any correction: what Undo fill returns the review to. */
  serviceQuestions: QuestionWithAnswers[];
  pending: PendingOverwrite | null;
}

export function createContext(deps: SessionDeps, options: Partial<FillOptions>): SessionContext {
  const now = deps.now ?? Date.now;
  const store = createStore(initialState(options));
  const ctx: SessionContext = {
    deps,
    now,
    store,
    // A new run forgets an overwrite that waited for an answer.
    run: createRunner(store, { now, ...(deps.stallMs !== undefined ? { stallMs: deps.stallMs } : {}), onBegin: () => void (ctx.pending = null) }),
    links: createLinkCache(deps.links),
    serviceQuestions: [],
    pending: null,
  };
  return ctx;
}

export const stateOf = (ctx: SessionContext): FillState => ctx.store.state;
export const isoNow = (ctx: SessionContext): string => new Date(ctx.now()).toISOString();

export function planOptions(ctx: SessionContext, overwrite: boolean): PlanOptions {
  return { overwrite, writeDrafts: ctx.store.state.options.writeDrafts };
}

export async function refreshCanUndo(ctx: SessionContext): Promise<void> {
  const canUndo = (await ctx.deps.workbook.canUndo?.()) ?? false;
  if (canUndo !== ctx.store.state.canUndo) ctx.store.update({ canUndo });
}
