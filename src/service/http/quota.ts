/**
 * Per-organisation request quota (requests per minute), fixed one-minute windows. The service counts
 * in its database (storage/sql/quota.ts) so several processes share one quota; the in-memory
 * limiter below suits a single process without storage.
 */
import type { QuotaDecision, RateLimiter } from '../storage/types';

export type { QuotaDecision, RateLimiter };

export class FixedWindowLimiter implements RateLimiter {
  private readonly windows = new Map<number, { start: number; count: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  async hit(orgId: number, perMinute: number): Promise<QuotaDecision> {
    const t = this.now();
    let w = this.windows.get(orgId);
    if (!w || t - w.start >= 60_000) {
      w = { start: t, count: 0 };
      this.windows.set(orgId, w);
    }
    if (w.count >= perMinute) {
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((w.start + 60_000 - t) / 1000)) };
    }
    w.count++;
    return { allowed: true, retryAfterSeconds: 0 };
  }
}
