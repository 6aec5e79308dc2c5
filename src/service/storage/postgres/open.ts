/** Storage on PostgreSQL: all state in the database; uploaded bytes in a folder every process shares. */
import { resolve } from 'node:path';
import { DiskBlobStore } from '../../files/blobstore';
import type { Storage, StorageOptions } from '../open';
import type { Sql } from '../sql/executor';
import { openPostgres } from './database';
import { StorageUnavailable } from '../errors';
import { isConnectionError, PgSql } from './executor';
import { PostgresKnowledgeIndex } from './knowledge';
import { KNOWLEDGE_INDEX_MIGRATIONS } from './knowledge/schema';
import { createPostgresStore } from './store';
import { claimInstance } from '../instance';

export async function openPostgresStorage(opts: StorageOptions & { databaseUrl: string }): Promise<Storage> {
  // The knowledge index's migrations run with the core ones, once, under the same advisory lock.
  const pool = await openPostgres({ url: opts.databaseUrl, poolSize: opts.poolSize, extraMigrations: KNOWLEDGE_INDEX_MIGRATIONS });
  const instance = claimInstance(opts.dataDir);
  const store = createPostgresStore(pool, { jobs: { leaseMs: opts.jobLeaseMs, instanceId: instance?.id ?? null } });
  const closeStore = store.close.bind(store);
  store.close = async () => {
    await instance?.release();
    await closeStore();
  };
  return {
    store,
    blobs: new DiskBlobStore(resolve(opts.filesDir ?? opts.dataDir)),
    knowledgeIndex: unavailableWhenDisconnected(new PostgresKnowledgeIndex(pool)),
  };
}

/**
 * The index's calls, with "the database cannot be reached" reported as the boundary's StorageUnavailable
 * (as the store's are): a request gets 503, and answer generation stops and resumes rather than storing
 * "answering failed" as an answer.
 */
function unavailableWhenDisconnected<T extends object>(target: T): T {
  return new Proxy(target, {
    get(object, property, receiver) {
      const value = Reflect.get(object, property, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const translate = (error: unknown) => {
          if (isConnectionError(error)) throw new StorageUnavailable(`the database is unreachable (${(error as Error).message}); retry shortly`, error);
          throw error;
        };
        try {
          const result = (value as (...a: unknown[]) => unknown).apply(object, args);
          return result instanceof Promise ? result.catch(translate) : result;
        } catch (error) {
          return translate(error);
        }
      };
    },
  });
}

/** The database as the shared SQL executor, migrated, for `qfill migrate` to copy into. */
export async function openPostgresTarget(url: string): Promise<{ transaction<T>(fn: (sql: Sql) => Promise<T>): Promise<T>; close(): Promise<void> }> {
  // With the knowledge index's migrations: the answer library's tables are among what is copied.
  const pool = await openPostgres({ url, poolSize: 2, extraMigrations: KNOWLEDGE_INDEX_MIGRATIONS });
  const sql = new PgSql(pool);
  return { transaction: (fn) => sql.transaction(fn), close: () => pool.end() };
}
