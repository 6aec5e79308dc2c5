/** The SQLite implementation of the storage boundary: the shared SQL repositories on one connection. */
import type { Db } from './database';
import type { Store, UnitOfWork } from '../types';
import { repositories } from '../sql/repositories';
import { SqlJobQueue, type JobQueueOptions } from '../sql/jobs';
import { SqlRateLimiter } from '../sql/quota';
import { SqliteSql } from './executor';
import { SqliteWorkerLease } from './lease';

export interface SqliteStoreOptions {
  jobs?: JobQueueOptions;
  /** How long the worker lease lasts without renewal (default 60 s). */
  workerLeaseMs?: number;
  /** Runs before the connection closes (the WAL checkpointing thread ends first). */
  beforeClose?: () => Promise<void>;
}

export function createSqliteStore(db: Db, options: SqliteStoreOptions = {}): Store {
  const sql = new SqliteSql(db);
  const jobs = new SqlJobQueue(sql, options.jobs);
  return {
    backend: 'sqlite',
    ...repositories(sql),
    jobs,
    quota: new SqlRateLimiter(sql),
    workerLease: new SqliteWorkerLease(sql, options.workerLeaseMs),
    unitOfWork<T>(fn: (tx: UnitOfWork) => Promise<T>): Promise<T> {
      return sql.transaction((tx) => fn({ ...repositories(tx), jobs: new SqlJobQueue(tx, options.jobs) }));
    },
    async close() {
      await options.beforeClose?.();
      db.close();
    },
  };
}
