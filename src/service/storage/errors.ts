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
