/**
 * The persisted job queue, both backends. A claim marks the job running under this queue's owner token
 * with a lease that its worker renews (`heartbeat`); a running job whose lease ran out belonged to a
 * process that died or hung, and the next claim takes it over. On PostgreSQL the claim skips rows
 * another process is claiming at that moment (FOR UPDATE SKIP LOCKED), so several processes work the
 * same queue without waiting on each other; on SQLite the claim's transaction holds the write lock.
 * Times are the service's clock in milliseconds: a skew between machines below the lease is harmless.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { nowIso } from '../../clock';
import { parseJson, type Sql } from './executor';
import type { Job, JobQueue } from '../types';

interface JobRow {
  id: number;
  kind: string;
  payload: string;
  state: Job['state'];
  attempts: number;
  last_error: string | null;
}

function toJob(r: JobRow): Job {
  return { id: r.id, kind: r.kind, payload: parseJson<Record<string, unknown>>(r.payload, {}), state: r.state, attempts: r.attempts, last_error: r.last_error };
}

export interface JobQueueOptions {
  /** How long a claim holds a job without a heartbeat (default 30 s). */
  leaseMs?: number;
  now?: () => number;
  /** The service instance this process is (./instance.ts), written into every lease it takes. */
  instanceId?: string | null;
}

export class SqlJobQueue implements JobQueue {
  /** Who holds a claimed job: this process, on this host (readable in the table when debugging). */
  readonly owner: string;
  readonly leaseMs: number;
  private readonly now: () => number;
  private readonly instanceId: string | null;

  constructor(
    private readonly sql: Sql,
    options: JobQueueOptions = {},
  ) {
    this.leaseMs = options.leaseMs ?? 30_000;
    this.now = options.now ?? Date.now;
    this.instanceId = options.instanceId ?? null;
    this.owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}${this.instanceId ? `@${this.instanceId}` : ''}`;
  }

  /**
   * Puts back in the queue the jobs an earlier run of this instance held when it stopped: they are ours, and
   * no other process is running them, so nobody needs to wait for their lease to run out.
   */
  async requeueOwn(): Promise<number> {
    if (!this.instanceId) return 0;
    const r = await this.sql.run("UPDATE jobs SET state = 'queued', updated_at = ? WHERE state = 'running' AND lease_owner LIKE ? AND lease_owner <> ?", [
      nowIso(),
      `%@${this.instanceId}`,
      this.owner,
    ]);
    return r.changes;
  }

  enqueue(kind: string, payload: Record<string, unknown>): Promise<number> {
    const now = nowIso();
    return this.sql.insert('INSERT INTO jobs (kind, payload, state, created_at, updated_at) VALUES (?, ?, ?, ?, ?)', [
      kind,
      JSON.stringify(payload),
      'queued',
      now,
      now,
    ]);
  }

  claim(kind: string): Promise<Job | null> {
    const lock = this.sql.dialect === 'postgres' ? 'FOR UPDATE SKIP LOCKED' : '';
    return this.sql.atomic(async (sql) => {
      const t = this.now();
      const row = await sql.get<JobRow>(
        `SELECT id, kind, payload, state, attempts, last_error FROM jobs
         WHERE kind = ? AND (state = 'queued' OR (state = 'running' AND lease_until < ?))
         ORDER BY id LIMIT 1 ${lock}`,
        [kind, t],
      );
      if (!row) return null;
      await sql.run("UPDATE jobs SET state = 'running', attempts = attempts + 1, lease_owner = ?, lease_until = ?, updated_at = ? WHERE id = ?", [
        this.owner,
        t + this.leaseMs,
        nowIso(),
        row.id,
      ]);
      return toJob({ ...row, state: 'running', attempts: row.attempts + 1 });
    });
  }

  async heartbeat(id: number): Promise<boolean> {
    const r = await this.sql.run("UPDATE jobs SET lease_until = ? WHERE id = ? AND lease_owner = ? AND state = 'running'", [
      this.now() + this.leaseMs,
      id,
      this.owner,
    ]);
    return r.changes > 0;
  }

  async complete(id: number): Promise<void> {
    // Only while ours: a job taken over after our lease ran out is the new owner's to finish.
    await this.sql.run("UPDATE jobs SET state = 'done', updated_at = ? WHERE id = ? AND lease_owner = ?", [nowIso(), id, this.owner]);
  }

  async release(id: number, outcome: { state: 'queued' | 'failed'; error?: string }): Promise<void> {
    await this.sql.run('UPDATE jobs SET state = ?, last_error = COALESCE(?, last_error), updated_at = ? WHERE id = ? AND lease_owner = ?', [
      outcome.state,
      outcome.error ?? null,
      nowIso(),
      id,
      this.owner,
    ]);
  }

  async requeueRunning(): Promise<number> {
    return (await this.sql.run("UPDATE jobs SET state = 'queued', updated_at = ? WHERE state = 'running'", [nowIso()])).changes;
  }

  async counts(): Promise<{ kind: string; state: string; count: number }[]> {
    const rows = await this.sql.all<{ kind: string; state: string; count: number | string }>(
      'SELECT kind, state, COUNT(*) AS count FROM jobs GROUP BY kind, state',
    );
    // PostgreSQL's COUNT is a bigint, which the driver returns as text.
    return rows.map((r) => ({ kind: r.kind, state: r.state, count: Number(r.count) }));
  }

  async get(id: number): Promise<Job | null> {
    const row = await this.sql.get<JobRow>('SELECT id, kind, payload, state, attempts, last_error FROM jobs WHERE id = ?', [id]);
    return row ? toJob(row) : null;
  }
}
