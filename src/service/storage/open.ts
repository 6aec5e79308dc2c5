/**
 * Opens the service's storage: SQLite under the data folder (the embedded default), or PostgreSQL when
 * a database URL is given. What it returns is all the rest of the service knows about persistence.
 */
import { resolve } from 'node:path';
import type { BlobStore } from '../files/blobstore';
import type { KnowledgeIndex } from './knowledge-index';
import type { Store } from './types';

export interface StorageOptions {
  /** Local things: the SQLite database and uploaded files without a database URL; logs with one. */
  dataDir: string;
  /** `postgres://…`; null or undefined for SQLite under `dataDir`. */
  databaseUrl?: string | null;
  /** SQLite: how long a write waits for another process's lock (default 5 s). */
  busyTimeoutMs?: number;
  /**
   * The folder holding uploaded files' bytes (in its `files/` subfolder); default `dataDir`. With
   * PostgreSQL and processes on several machines, a folder they all share (NFS, SMB, EFS).
   */
  filesDir?: string;
  /** PostgreSQL: connections per process (default 10). */
  poolSize?: number;
  /** How long a claimed job is held without a heartbeat before another worker may take it (default 30 s). */
  jobLeaseMs?: number;
}

export interface Storage {
  store: Store;
  blobs: BlobStore;
  /** Passages and the answer library, in the same database as the store (closed with it). */
  knowledgeIndex: KnowledgeIndex | null;
}

export async function openStorage(opts: StorageOptions): Promise<Storage> {
  const dataDir = resolve(opts.dataDir);
  if (opts.databaseUrl) {
    const { openPostgresStorage } = await import('./postgres/open');
    return openPostgresStorage({ ...opts, dataDir, databaseUrl: opts.databaseUrl });
  }
  const { openSqliteStorage } = await import('./sqlite/open');
  return openSqliteStorage({ ...opts, dataDir });
}
