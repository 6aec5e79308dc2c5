/** Storage on PostgreSQL: all state in the database; uploaded bytes in a folder every process shares. */
import { resolve } from 'node:path';
import { DiskBlobStore } from '../../files/blobstore';
import type { Storage, StorageOptions } from '../open';
import type { Sql } from '../sql/executor';
import { openPostgres } from './database';
import { PgSql } from './executor';
import { PostgresKnowledgeIndex } from './knowledge';
import { KNOWLEDGE_INDEX_MIGRATIONS } from './knowledge/schema';
import { createPostgresStore } from './store';

export async function openPostgresStorage(opts: StorageOptions & { databaseUrl: string }): Promise<Storage> {
  // The knowledge index's migrations run with the core ones, once, under the same advisory lock.
  const pool = await openPostgres({ url: opts.databaseUrl, poolSize: opts.poolSize, extraMigrations: KNOWLEDGE_INDEX_MIGRATIONS });
  return {
    store: createPostgresStore(pool, { jobs: { leaseMs: opts.jobLeaseMs } }),
    blobs: new DiskBlobStore(resolve(opts.filesDir ?? opts.dataDir)),
    knowledgeIndex: new PostgresKnowledgeIndex(pool),
  };
}

/** The database as the shared SQL executor, migrated, for `qfill migrate` to copy into. */
export async function openPostgresTarget(url: string): Promise<{ transaction<T>(fn: (sql: Sql) => Promise<T>): Promise<T>; close(): Promise<void> }> {
  const pool = await openPostgres({ url, poolSize: 2 });
  const sql = new PgSql(pool);
  return { transaction: (fn) => sql.transaction(fn), close: () => pool.end() };
}
