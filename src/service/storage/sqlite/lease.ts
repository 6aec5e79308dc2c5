/**
 * The worker lease on SQLite: one row naming the holding process (host, pid, random token) and when the
 * lease expires unless renewed. A lease is free when it expired, or when its holder was on this host
 * and that process is gone (so a restart after a crash resumes at once instead of waiting for expiry).
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { SqliteSql } from './executor';
import type { WorkerLease } from '../types';
import { processIsAlive } from '../instance';

interface LeaseRow {
  host: string;
  pid: number;
  token: string;
  expires_at: number;
}

export class SqliteWorkerLease implements WorkerLease {
  private readonly token = randomBytes(8).toString('hex');
  private readonly host = hostname();

  constructor(
    private readonly sql: SqliteSql,
    private readonly ttlMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  tryAcquire(): Promise<boolean> {
    return this.sql.atomic(async (sql) => {
      const row = await sql.get<LeaseRow>('SELECT host, pid, token, expires_at FROM worker_lease WHERE id = 1');
      const t = this.now();
      const free = !row || row.token === this.token || row.expires_at <= t || (row.host === this.host && row.pid !== process.pid && !processIsAlive(row.pid));
      if (!free) return false;
      await sql.run(
        `INSERT INTO worker_lease (id, host, pid, token, expires_at) VALUES (1, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET host = excluded.host, pid = excluded.pid, token = excluded.token, expires_at = excluded.expires_at`,
        [this.host, process.pid, this.token, t + this.ttlMs],
      );
      return true;
    });
  }

  async release(): Promise<void> {
    await this.sql.run('DELETE FROM worker_lease WHERE id = 1 AND token = ?', [this.token]);
  }

  async holder(): Promise<string | null> {
    const row = await this.sql.get<LeaseRow>('SELECT host, pid FROM worker_lease WHERE id = 1');
    return row ? `process ${row.pid} on ${row.host}` : null;
  }
}
