/** Storage on PostgreSQL: all state in the database; uploaded bytes in a folder every process shares. */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DiskBlobStore } from '../../files/blobstore';
import { openIndexFile, underWriteLock } from '../sqlite/database';
import { SqliteKnowledgeIndex } from '../sqlite/knowledge';
import type { Storage, StorageOptions } from '../open';
import { openPostgres } from './database';
import { createPostgresStore } from './store';

export async function openPostgresStorage(opts: StorageOptions & { databaseUrl: string }): Promise<Storage> {
  const pool = await openPostgres({ url: opts.databaseUrl, poolSize: opts.poolSize });
  const filesDir = resolve(opts.filesDir ?? opts.dataDir);
  const store = createPostgresStore(pool, { jobs: { leaseMs: opts.jobLeaseMs } });
  // Interim, until the PostgreSQL knowledge index (storage/postgres/knowledge) lands: the index lives in
  // a SQLite file in the shared files folder, which the processes of one machine share safely (WAL,
  // busy timeout, caches dropped when another process writes). Not for processes on several machines.
  mkdirSync(filesDir, { recursive: true });
  const indexDb = openIndexFile(join(filesDir, 'knowledge.sqlite'), { busyTimeoutMs: opts.busyTimeoutMs });
  const knowledgeIndex = underWriteLock(indexDb, () => new SqliteKnowledgeIndex(indexDb));
  return {
    store: {
      ...store,
      async close() {
        await store.close();
        indexDb.close();
      },
    },
    blobs: new DiskBlobStore(filesDir),
    knowledgeIndex,
  };
}
