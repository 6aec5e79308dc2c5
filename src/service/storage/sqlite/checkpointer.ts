/**
 * Checkpoints of the write-ahead log in a thread of their own while a large upload is indexed.
 *
 * SQLite copies the WAL into the database file every 1,000 pages, in the connection that just
 * committed: here the service's only connection, on the thread that also answers requests. Profiling a
 * 100,000-passage build put 9% of that thread's time in those copies and the build 20% slower than with
 * no fsync at all. Once the index has written START_AFTER_ROWS rows, a thread with its own
 * connection copies the log with PASSIVE checkpoints (they wait for no one) as it grows. The writer
 * then checkpoints only once the log holds `writerFallbackBytes`, which finds the log already copied but for its last
 * frames and lets the next transaction start the log again from its beginning: the WAL stays bounded
 * even if the thread falls behind or fails. The thread ends after a quiet minute.
 */
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import type { Db } from './database';

/** SQLite's own default: the writer checkpoints after commits that leave this many pages in the log. */
const DEFAULT_AUTOCHECKPOINT_PAGES = 1000;

export interface CheckpointerOptions {
  /** Index rows written before the thread starts (small writes keep SQLite's own checkpoints). */
  startAfterRows?: number;
  /** The writer's own checkpoint threshold while the thread runs, in bytes of log (whatever the page size). */
  writerFallbackBytes?: number;
  /** The thread is asked to copy the log after every so many rows written. */
  checkpointEveryRows?: number;
  /** How long after the last request the thread copies what is left. */
  settleMs?: number;
  /** The thread ends after this long with nothing written. */
  idleExitMs?: number;
}

const DEFAULTS: Required<CheckpointerOptions> = {
  startAfterRows: 5_000,
  writerFallbackBytes: 32 * 1024 * 1024,
  checkpointEveryRows: 1_000,
  settleMs: 1_000,
  idleExitMs: 60_000,
};

const WORKER = new URL('./checkpoint-worker.mjs', import.meta.url);

export class WalCheckpointer {
  private readonly options: Required<CheckpointerOptions>;
  private worker: Worker | null = null;
  private rowsWritten = 0;
  private rowsSinceRequest = 0;
  private closed = false;
  /** Threads started so far, and frames the current one found copied at its last look (for tests). */
  started = 0;
  checkpointedFrames = 0;
  checkpoints = 0;
  lastError: string | null = null;

  constructor(
    private readonly db: Db,
    options: CheckpointerOptions = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
  }

  get running(): boolean {
    return this.worker !== null;
  }

  /** The index wrote `rows` rows (committed): starts the thread once enough have been. */
  noteWrites(rows: number): void {
    if (this.worker) {
      this.rowsSinceRequest += rows;
      if (this.rowsSinceRequest >= this.options.checkpointEveryRows) {
        this.rowsSinceRequest = 0;
        this.worker.postMessage('checkpoint');
      }
      return;
    }
    if (this.closed) return;
    this.rowsWritten += rows;
    if (this.rowsWritten >= this.options.startAfterRows) this.start();
  }

  private start(): void {
    // An in-memory or temporary database has no log file another connection could checkpoint.
    if (this.db.memory || this.db.name === '' || this.db.pragma('journal_mode', { simple: true }) !== 'wal') return;
    const { settleMs, idleExitMs, writerFallbackBytes } = this.options;
    const pageSize = this.db.pragma('page_size', { simple: true }) as number;
    const worker = new Worker(WORKER, { workerData: { path: this.db.name, settleMs, idleExitMs }, stdout: false, stderr: false });
    // A service exiting does not wait for it: SQLite's log is safe to leave at any point.
    worker.unref();
    this.worker = worker;
    this.started++;
    this.db.pragma(`wal_autocheckpoint = ${Math.max(1, Math.ceil(writerFallbackBytes / pageSize))}`);
    worker.on('message', (message: { checkpointed?: number; error?: string }) => {
      if (message.error) this.lastError = message.error;
      if (message.checkpointed !== undefined) {
        this.checkpointedFrames = message.checkpointed;
        this.checkpoints++;
      }
    });
    worker.on('error', (error: Error) => {
      this.lastError = error.message;
    });
    worker.on('exit', () => this.ended(worker));
  }

  private ended(worker: Worker): void {
    if (this.worker !== worker) return;
    this.worker = null;
    this.rowsWritten = 0;
    if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
  }

  /** Ends the thread (before the connection closes) and starts no other. */
  async stop(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    if (!worker) return;
    const exited = once(worker, 'exit');
    worker.postMessage('stop');
    // A checkpoint in progress finishes first; one stuck on the disk is not waited for forever.
    const timer = setTimeout(() => void worker.terminate(), 5_000);
    await exited;
    clearTimeout(timer);
  }
}
