/**
 * "How good is the library for us?" (extension "answers.replay"): the last replay's agreement and coverage,
 * the trend over kept runs, the gaps by section, and a new run for those who may start one. A service
 * without the extension answers 404: the card is then not shown. Without DOM.
 */
import type { ReplayRun, ReplayRunSummary } from '../../api/replay';
import type { ReplayClient } from '../../api/replay-client';
import { attempt, controllerOf, createStore } from '../store';

export type ReplayApi = Pick<ReplayClient, 'start' | 'list' | 'get'>;

/** Who may start a run, from `GET /keys/current/`; null when the service does not say (it decides then). */
export type WhoAmI = () => Promise<{ role: string; read_only: boolean } | null>;

/** Kept runs shown in the trend. */
export const TREND_RUNS = 10;

export interface ReplayCardState {
  /** False once the service said it has no replays (404): nothing is shown. */
  offered: boolean;
  /** Kept runs, newest first (null until read). */
  runs: ReplayRunSummary[] | null;
  /** The newest finished run, whole (its gaps and answers that differ). */
  last: ReplayRun | null;
  /** A run queued or under way, watched until it ends. */
  pending: ReplayRunSummary | null;
  canStart: boolean;
  busy: boolean;
  error: unknown;
}

const isNotFound = (e: unknown) => (e as { kind?: string; status?: number } | null)?.kind === 'http' && (e as { status?: number }).status === 404;

export function createReplayCard(api: ReplayApi, whoAmI: WhoAmI, pollMs = 1000) {
  const store = createStore<ReplayCardState>({ offered: true, runs: null, last: null, pending: null, canStart: true, busy: false, error: null });
  let ctl = new AbortController();
  let timer: ReturnType<typeof setTimeout> | null = null;

  async function load(): Promise<void> {
    try {
      const page = await api.list({ page_size: TREND_RUNS }, { signal: ctl.signal });
      const pending = page.results.find((r) => r.status === 'queued' || r.status === 'running') ?? null;
      const newest = page.results.find((r) => r.status === 'done' || r.status === 'failed');
      const last = newest ? await api.get(newest.id, { signal: ctl.signal }) : null;
      if (ctl.signal.aborted) return;
      store.update({ runs: page.results, last, pending, error: null });
      if (pending) watch();
    } catch (e) {
      if (!ctl.signal.aborted) store.update(isNotFound(e) ? { offered: false } : { error: e });
    }
  }

  /** Reads the kept runs again after a while, until the pending run has ended. */
  function watch(): void {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      void load();
    }, pollMs);
  }

  return controllerOf(store, {
    async open(): Promise<void> {
      const who = await whoAmI().catch(() => null);
      if (!ctl.signal.aborted && who) store.update({ canStart: !who.read_only && who.role !== 'member' });
      await load();
    },
    async start(): Promise<void> {
      await attempt(store, 'error', { error: null }, async () => {
        const run = await api.start({}, { signal: ctl.signal });
        watch();
        return { pending: run };
      });
    },
    dispose(): void {
      ctl.abort();
      ctl = new AbortController();
      if (timer) clearTimeout(timer);
      store.clear();
    },
  });
}

export type ReplayCardController = ReturnType<typeof createReplayCard>;

/** "50.0%", or a dash when there was nothing to share. */
export function percent(share: number | null | undefined): string {
  return share == null ? '–' : `${(share * 100).toFixed(1)}%`;
}
