/** Backoff arithmetic and a cancellable sleep; no I/O, so it is the same in the browser and Node. */

export interface RetryPolicy {
  /** Extra attempts after the first one. */
  retries: number;
  baseDelayMs: number;
  /** Cap of one computed backoff delay. */
  maxDelayMs: number;
  /**
   * A `Retry-After` longer than this is not waited for: the call fails at once with the 429 and its
   * `retryAfterSeconds`, so a person is told to come back later instead of watching a frozen pane.
   */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  retries: 4,
  baseDelayMs: 300,
  maxDelayMs: 8000,
  maxRetryAfterMs: 60_000,
};

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export const sleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/**
 * Delay before retry number `attempt` (0 = first retry): exponential, capped, with "equal jitter"
 * (half fixed, half random) so that many clients hit by the same fault do not retry in lockstep.
 */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.round(exp / 2 + (exp / 2) * random());
}

/** `Retry-After` as whole seconds (delta-seconds or an HTTP date); null when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | null {
  if (value === null || value === undefined) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.max(0, Math.ceil((at - now) / 1000));
}
