/**
 * The worker lease on SQLite: one row naming the holding process (host, pid, random token) and when the
 * lease expires unless renewed. A lease is free when it expired, or when its holder was on this host
 * and that process is gone (so a restart after a crash resumes at once instead of waiting for expiry).
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Db } from './database';
import type { WorkerLease } from '../../jobs/types';

interface LeaseRow {
  host: string;
  pid: number;
  token: string;
  expires_at: number;
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class SqliteWorkerLease implements WorkerLease {
  private readonly token = randomBytes(8).toString('hex');
  private readonly host = hostname();

  constructor(
    private readonly db: Db,
    private readonly ttlMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  tryAcquire(): boolean {
    return this.db
      .transaction(() => {
        const row = this.db.prepare('SELECT host, pid, token, expires_at FROM worker_lease WHERE id = 1').get() as LeaseRow | undefined;
        const t = this.now();
        const free =
          !row ||
          row.token === this.token ||
          row.expires_at <= t ||
          (row.host === this.host && row.pid !== process.pid && !processIsAlive(row.pid));
        if (!free) return false;
        this.db
          .prepare(
            `INSERT INTO worker_lease (id, host, pid, token, expires_at) VALUES (1, ?, ?, ?, ?)
             ON CONFLICT (id) DO UPDATE SET host = excluded.host, pid = excluded.pid, token = excluded.token, expires_at = excluded.expires_at`,
          )
          .run(this.host, process.pid, this.token, t + this.ttlMs);
        return true;
      })
      .immediate();
  }

  release(): void {
    this.db.prepare('DELETE FROM worker_lease WHERE id = 1 AND token = ?').run(this.token);
  }

  holder(): string | null {
    const row = this.db.prepare('SELECT host, pid FROM worker_lease WHERE id = 1').get() as LeaseRow | undefined;
    return row ? `process ${row.pid} on ${row.host}` : null;
  }
}
