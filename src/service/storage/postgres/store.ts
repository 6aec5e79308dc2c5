/** The PostgreSQL implementation of the storage boundary: the shared SQL repositories on a pool. */
import type pg from 'pg';
import type { Store, UnitOfWork } from '../types';
import { SqlJobQueue, type JobQueueOptions } from '../sql/jobs';
import { SqlRateLimiter } from '../sql/quota';
import { repositories } from '../sql/repositories';
import { PgSql } from './executor';

export function createPostgresStore(pool: pg.Pool, options: { jobs?: JobQueueOptions } = {}): Store {
  const sql = new PgSql(pool);
  let closed = false;
  return {
    backend: 'postgres',
    ...repositories(sql),
    jobs: new SqlJobQueue(sql, options.jobs),
    quota: new SqlRateLimiter(sql),
    // Every process works the queue; each job carries its own lease (see ../sql/jobs.ts).
    workerLease: null,
    unitOfWork<T>(fn: (tx: UnitOfWork) => Promise<T>): Promise<T> {
      return sql.transaction((tx) => fn({ ...repositories(tx), jobs: new SqlJobQueue(tx, options.jobs) }));
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}
