/** Errors of the storage boundary that callers may act on without knowing the backend. */

/** The database cannot be reached now (down, restarting, network): the request may be retried. */
export class StorageUnavailable extends Error {
  readonly code = 'QFILL_STORAGE_UNAVAILABLE';
  readonly statusCode = 503;

  constructor(message: string, cause?: unknown) {
    super(message, { cause });
    this.name = 'StorageUnavailable';
  }
}

/**
 * Another process holds the database's write lock beyond the wait allowed (SQLite's busy codes; PostgreSQL
 * waits on row locks instead): nothing was written, and the same request works a moment later.
 */
export function isStorageBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_BUSY_SNAPSHOT' || code === 'SQLITE_LOCKED';
}
