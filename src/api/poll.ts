/**
 * Waiting for answer generation: poll fast while answers arrive, back off while nothing moves,
 * ride out transient faults, stop at once on faults that will not heal (403, 404, bad answers).
 */
import type { Progress } from './schemas';
import { ApiError, abortedError } from './errors';
import type { Sleep } from './retry';

export interface PollOptions {
  signal?: AbortSignal;
  /** Called after every successful poll, including the final `complete` one. */
  onProgress?: (p: Progress) => void;
  /** Interval after a change (and at the start); default 500 ms. */
  minIntervalMs?: number;
  /** Cap of the interval while nothing changes; default 5000 ms. */
  maxIntervalMs?: number;
  /** Transient failures in a row tolerated before giving up; default 5. */
  maxConsecutiveErrors?: number;
}

export const POLL_DEFAULTS = { minIntervalMs: 500, maxIntervalMs: 5000, maxConsecutiveErrors: 5, slowdown: 1.5 };

/** Network faults, 429 and 5xx may heal by themselves; everything else will not. */
export function isTransient(e: unknown): boolean {
  return e instanceof ApiError && (e.kind === 'network' || (e.kind === 'http' && (e.status === 429 || e.status >= 500)));
}

export async function pollUntilComplete(
  fetchOnce: (signal?: AbortSignal) => Promise<Progress>,
  sleep: Sleep,
  endpoint: string,
  opts: PollOptions = {},
): Promise<Progress> {
  const min = Math.max(0, opts.minIntervalMs ?? POLL_DEFAULTS.minIntervalMs);
  const max = Math.max(min, opts.maxIntervalMs ?? POLL_DEFAULTS.maxIntervalMs);
  const maxErrors = Math.max(0, opts.maxConsecutiveErrors ?? POLL_DEFAULTS.maxConsecutiveErrors);
  let interval = min;
  let errors = 0;
  let last: Progress | null = null;

  for (;;) {
    let wait: number;
    try {
      const progress = await fetchOnce(opts.signal);
      errors = 0;
      opts.onProgress?.(progress);
      if (progress.status === 'complete') return progress;
      const moved = !last || progress.answers_received !== last.answers_received || progress.status !== last.status;
      interval = moved ? min : Math.min(max, interval * POLL_DEFAULTS.slowdown);
      last = progress;
      wait = interval;
    } catch (e) {
      if (!isTransient(e) || ++errors > maxErrors) throw e;
      interval = Math.min(max, interval * POLL_DEFAULTS.slowdown);
      const asked = (e as ApiError).retryAfterSeconds;
      wait = asked !== null ? Math.max(interval, asked * 1000) : interval;
    }
    try {
      await sleep(wait, opts.signal);
    } catch (e) {
      if (opts.signal?.aborted) throw abortedError(endpoint, null, e);
      throw e;
    }
  }
}
