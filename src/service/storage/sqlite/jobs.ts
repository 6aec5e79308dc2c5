/**
 * The job queue on SQLite: claims run in IMMEDIATE transactions, so two processes on one data folder
 * never claim the same job and never fail on a read-to-write lock upgrade.
 */
import type { Db } from './database';
import { nowIso } from '../../clock';
import { parseJson } from './json';
import type { Job, JobQueue } from '../../jobs/types';

interface JobRow {
  id: number;
  kind: string;
  payload: string;
  state: Job['state'];
  attempts: number;
  last_error: string | null;
}

function toJob(r: JobRow): Job {
  return { ...r, payload: parseJson<Record<string, unknown>>(r.payload, {}) };
}

export class SqliteJobQueue implements JobQueue {
  constructor(private readonly db: Db) {}

  enqueue(kind: string, payload: Record<string, unknown>): number {
    const now = nowIso();
    const r = this.db
      .prepare('INSERT INTO jobs (kind, payload, state, created_at, updated_at) VALUES (?, ?, ?, ?, ?)')
      .run(kind, JSON.stringify(payload), 'queued', now, now);
    return Number(r.lastInsertRowid);
  }

  claim(kind: string): Job | null {
    return this.db.transaction(() => {
      const row = this.db.prepare("SELECT * FROM jobs WHERE kind = ? AND state = 'queued' ORDER BY id LIMIT 1").get(kind) as
        | JobRow
        | undefined;
      if (!row) return null;
      this.db
        .prepare("UPDATE jobs SET state = 'running', attempts = attempts + 1, updated_at = ? WHERE id = ?")
        .run(nowIso(), row.id);
      return toJob({ ...row, state: 'running', attempts: row.attempts + 1 });
    }).immediate();
  }

  complete(id: number): void {
    this.db.prepare("UPDATE jobs SET state = 'done', updated_at = ? WHERE id = ?").run(nowIso(), id);
  }

  release(id: number, outcome: { state: 'queued' | 'failed'; error?: string }): void {
    this.db
      .prepare('UPDATE jobs SET state = ?, last_error = COALESCE(?, last_error), updated_at = ? WHERE id = ?')
      .run(outcome.state, outcome.error ?? null, nowIso(), id);
  }

  requeueRunning(): number {
    return this.db.prepare("UPDATE jobs SET state = 'queued', updated_at = ? WHERE state = 'running'").run(nowIso()).changes;
  }

  get(id: number): Job | null {
    const row = this.db.prepare('SELECT * FROM jobs WHERE id = ?').get(id) as JobRow | undefined;
    return row ? toJob(row) : null;
  }
}
