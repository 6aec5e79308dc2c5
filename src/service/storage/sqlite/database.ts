/**
 * Opens the service's SQLite database (WAL, foreign keys) and applies pending numbered migrations.
 * Everything SQLite-specific about the schema lives in this folder.
 */
import Database from 'better-sqlite3';
import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { MIGRATIONS } from './migrations';

export type Db = Database.Database;

export function databasePath(dataDir: string): string {
  return join(dataDir, 'qfill.sqlite');
}

/**
 * Page size of a new database (SQLite's default is 4 KB). A passage's row (its text and stems, about 2 KB)
 * and its full-text copy (about 1.4 KB) fitted once or twice on a 4 KB page, leaving a third to a half of
 * every page empty: bytes that went through the write-ahead log and were copied again into the file.
 * On 32 KB pages a build of 100,000 passages needed about 175 µs of CPU a passage instead of 200, and chat
 * was no slower (docs/benchmarks.md). An existing database keeps the size it was made with.
 */
export const NEW_DATABASE_PAGE_SIZE = 32_768;

export function openDatabase(dataDir: string, opts: { busyTimeoutMs?: number } = {}): Db {
  // The data is the organisations' documents and keys: only this user may read it. SQLite gives the
  // -wal and -shm files the database file's permissions, so creating that file 600 covers all three.
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  closeSync(openSync(databasePath(dataDir), 'a', 0o600));
  // A database from before this rule is tightened too (the folder itself may be one the user chose).
  chmodSync(databasePath(dataDir), 0o600);
  const db = new Database(databasePath(dataDir));
  // First: another process (the CLI creating a key while the server runs, a second service) may hold
  // the write lock briefly, even while we switch to WAL or migrate.
  db.pragma(`busy_timeout = ${Math.max(0, Math.floor(opts.busyTimeoutMs ?? 5000))}`);
  // Takes effect only on a database with nothing in it yet, and must come before WAL is switched on.
  db.pragma(`page_size = ${NEW_DATABASE_PAGE_SIZE}`);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('synchronous = NORMAL');
  migrate(db);
  return db;
}

export function migrate(db: Db): void {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL
  )`);
  const applied = () => new Set((db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((r) => r.version));
  const already = applied();
  if (MIGRATIONS.every((m) => already.has(m.version))) return;
  // IMMEDIATE, and the check again inside: two processes starting together apply each migration once.
  db.transaction(() => {
    const done = applied();
    for (const m of MIGRATIONS) {
      if (done.has(m.version)) continue;
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(m.version, m.name, new Date().toISOString());
    }
  }).immediate();
}

/**
 * Runs `open` (e.g. constructing an index that migrates its own tables) holding the database's write
 * lock, so processes starting together on one file migrate it one after the other, never both at once.
 */
export function underWriteLock<T>(db: Db, open: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = open();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw error;
  }
}
