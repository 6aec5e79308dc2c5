/**
 * Storage on SQLite under the data folder (the embedded default), and a folder's database read through
 * the shared SQL executor for `qfill migrate`. The only door into this folder from the rest of the
 * service: what it returns are the boundary's types, never a better-sqlite3 one.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { DiskBlobStore } from '../../files/blobstore';
import type { Storage, StorageOptions } from '../open';
import type { Sql } from '../sql/executor';
import { databasePath, openDatabase, underWriteLock } from './database';
import { WalCheckpointer } from './checkpointer';
import { SqliteSql } from './executor';
import { SqliteKnowledgeIndex } from './knowledge';
import { createSqliteStore } from './store';

export function openSqliteStorage(opts: StorageOptions): Storage {
  const db = openDatabase(opts.dataDir, { busyTimeoutMs: opts.busyTimeoutMs });
  const checkpointer = new WalCheckpointer(db);
  return {
    store: createSqliteStore(db, { jobs: { leaseMs: opts.jobLeaseMs }, beforeClose: () => checkpointer.stop() }),
    blobs: new DiskBlobStore(opts.filesDir ? resolve(opts.filesDir) : opts.dataDir),
    // On the store's connection: the index's statements run synchronously, outside any open unit of
    // work's callback (see ./executor.ts), and WAL lets other processes read meanwhile.
    knowledgeIndex: underWriteLock(db, () => new SqliteKnowledgeIndex(db, { onRowsWritten: (rows) => checkpointer.noteWrites(rows) })),
  };
}

/** A data folder's database, to copy from; null when the folder has none. */
export function openSqliteSource(dataDir: string): { sql: Sql; path: string; close(): void } | null {
  const path = databasePath(dataDir);
  if (!existsSync(path)) return null;
  const db = openDatabase(dataDir);
  return { sql: new SqliteSql(db), path, close: () => db.close() };
}

/** Where a data folder's database is (for messages). */
export function sqliteDatabasePath(dataDir: string): string {
  return databasePath(dataDir);
}
