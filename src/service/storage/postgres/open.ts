/** Storage on PostgreSQL: all state in the database; uploaded bytes in a folder every process shares. */
import { resolve } from 'node:path';
import { DiskBlobStore } from '../../files/blobstore';
import type { Storage, StorageOptions } from '../open';
import { openPostgres } from './database';
import { createPostgresStore } from './store';

export async function openPostgresStorage(opts: StorageOptions & { databaseUrl: string }): Promise<Storage> {
  const pool = await openPostgres({ url: opts.databaseUrl, poolSize: opts.poolSize });
  return {
    store: createPostgresStore(pool, { jobs: { leaseMs: opts.jobLeaseMs } }),
    blobs: new DiskBlobStore(resolve(opts.filesDir ?? opts.dataDir)),
    // h18's PostgreSQL knowledge index (storage/postgres/knowledge) plugs in here.
    knowledgeIndex: null,
  };
}
