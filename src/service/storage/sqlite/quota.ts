/**
 * The per-organisation request quota on SQLite: fixed one-minute windows counted in the database, so
 * every service process on a data folder draws from the same quota. Only organisations with a quota
 * pay for the write.
 */
import type { Db } from './database';
import type { QuotaDecision, RateLimiter } from '../../http/quota';

const WINDOW_MS = 60_000;

export class SqliteRateLimiter implements RateLimiter {
  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  hit(orgId: number, perMinute: number): QuotaDecision {
    return this.db
      .transaction((): QuotaDecision => {
        const t = this.now();
        const w = this.db.prepare('SELECT window_start, count FROM quota_windows WHERE org_id = ?').get(orgId) as
          | { window_start: number; count: number }
          | undefined;
        if (!w || t - w.window_start >= WINDOW_MS || t < w.window_start) {
          this.db
            .prepare(
              `INSERT INTO quota_windows (org_id, window_start, count) VALUES (?, ?, 1)
               ON CONFLICT (org_id) DO UPDATE SET window_start = excluded.window_start, count = 1`,
            )
            .run(orgId, t);
          return { allowed: true, retryAfterSeconds: 0 };
        }
        if (w.count >= perMinute) {
          return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((w.window_start + WINDOW_MS - t) / 1000)) };
        }
        this.db.prepare('UPDATE quota_windows SET count = count + 1 WHERE org_id = ?').run(orgId);
        return { allowed: true, retryAfterSeconds: 0 };
      })
      .immediate();
  }
}
