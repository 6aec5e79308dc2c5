/**
 * The per-organisation request quota: fixed one-minute windows counted in the database, so every
 * service process draws from the same quota. One atomic upsert per request (no read-then-write race
 * between processes); requests over the quota still count, which changes nothing (they are refused
 * until the window ends). Only organisations with a quota pay for the write.
 */
import type { Sql } from './executor';
import type { QuotaDecision, RateLimiter } from '../types';

const WINDOW_MS = 60_000;

export class SqlRateLimiter implements RateLimiter {
  constructor(
    private readonly sql: Sql,
    private readonly now: () => number = Date.now,
  ) {}

  async hit(orgId: number, perMinute: number): Promise<QuotaDecision> {
    const t = this.now();
    // A new window when the stored one is over (or in the future: a clock that went back).
    const stale = `(CAST(? AS BIGINT) - quota_windows.window_start >= ${WINDOW_MS} OR CAST(? AS BIGINT) < quota_windows.window_start)`;
    const w = (await this.sql.get<{ window_start: number; count: number }>(
      `INSERT INTO quota_windows (org_id, window_start, count) VALUES (?, ?, 1)
       ON CONFLICT (org_id) DO UPDATE SET
         window_start = CASE WHEN ${stale} THEN excluded.window_start ELSE quota_windows.window_start END,
         count = CASE WHEN ${stale} THEN 1 ELSE quota_windows.count + 1 END
       RETURNING window_start, count`,
      [orgId, t, t, t, t, t],
    ))!;
    if (Number(w.count) <= perMinute) return { allowed: true, retryAfterSeconds: 0 };
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((Number(w.window_start) + WINDOW_MS - t) / 1000)) };
  }
}
