/**
 * Connects to PostgreSQL and applies pending migrations once, however many processes start together:
 * each takes the same session-level advisory lock before looking at `schema_migrations`, so the first
 * migrates while the others wait on the lock, then find nothing left to do.
 */
import type pg from 'pg';
import { StorageUnavailable } from '../errors';
import { createPool, isConnectionError } from './executor';
import { MIGRATIONS, type Migration } from './migrations';

/** An arbitrary constant naming "qfill schema migrations" among advisory locks. */
const MIGRATION_LOCK = 7_155_016;

export interface OpenPostgresOptions {
  url: string;
  poolSize?: number;
  /** More migrations to apply after the core ones (e.g. the knowledge index's), same lock and table. */
  extraMigrations?: Migration[];
}

export async function openPostgres(opts: OpenPostgresOptions): Promise<pg.Pool> {
  const pool = createPool({ url: opts.url, size: opts.poolSize });
  try {
    await migrate(pool, [...MIGRATIONS, ...(opts.extraMigrations ?? [])]);
  } catch (error) {
    await pool.end().catch(() => undefined);
    if (isConnectionError(error) || (error as { code?: string }).code === '3D000' || (error as { code?: string }).code === '28P01') {
      throw new StorageUnavailable(
        `cannot connect to PostgreSQL at ${describe(opts.url)}: ${(error as Error).message || (error as { code?: string }).code}`,
        error,
      );
    }
    throw error;
  }
  return pool;
}

function describe(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || 5432}${u.pathname}`;
  } catch {
    return 'the given URL';
  }
}

export async function migrate(pool: pg.Pool, migrations: Migration[]): Promise<number> {
  const client = await pool.connect();
  let applied = 0;
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
        version INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        applied_at TEXT NOT NULL
      )`);
      const done = new Set((await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version));
      for (const m of migrations) {
        if (done.has(m.version)) continue;
        await client.query('BEGIN');
        try {
          await client.query(m.sql);
          await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [m.version, m.name, new Date().toISOString()]);
          await client.query('COMMIT');
          applied++;
        } catch (error) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw error;
        }
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    }
  } finally {
    client.release();
  }
  return applied;
}
