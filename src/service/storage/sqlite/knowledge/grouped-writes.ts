/**
 * The knowledge index's writes, grouped into transactions that span several files and event-loop turns.
 *
 * Every commit costs the index twice: FTS5 turns the transaction's rows into a new segment that later
 * merges rewrite, and the write-ahead log takes every page the commit touched, mostly filled or not. At
 * a million passages, documents of 100 passages each committed alone needed 75 µs of the writing
 * thread and 22 KB written a passage; in transactions of 1,000 rows, 54 µs and 13 KB (issue 18). So
 * a write joins the open group (a savepoint inside it: a failing write undoes only its own rows), the
 * event loop stays free between writes, and the group commits when nothing is being written (no file
 * in the middle of its rows, and an event-loop turn passed with no new write), when it holds `maxRows`
 * rows, or when it has been open `maxMs`. A write's promise resolves once its group has committed, so
 * whoever marks a file ready does so only once its rows are durable.
 *
 * The open transaction holds the index file's write lock between turns: it can only live on a
 * connection nothing else writes through, on a file of its own (the store's writes would otherwise
 * wait for it inside SQLite's busy handler, which blocks the event loop the group needs to finish).
 */
import type { Database } from 'better-sqlite3';

export interface GroupedWritesOptions {
  /** A group commits once it holds this many rows (default 4,000). */
  maxRows?: number;
  /** A group commits once it has been open this long, whatever is being written (default 250 ms). */
  maxMs?: number;
  /** Called after each commit with the rows it made durable. */
  onCommit?: (rows: number) => void;
}

interface Group {
  rows: number;
  openedAt: number;
  settle: { resolve: () => void; reject: (error: Error) => void };
  committed: Promise<void>;
}

export class GroupedWrites {
  private readonly maxRows: number;
  private readonly maxMs: number;
  private group: Group | null = null;
  /** Writers between their first and last write (a file written in several steps). */
  private active = 0;
  /** Bumped by every write: the idle check commits only if none came since it was scheduled. */
  private writes = 0;
  private idleCheck: NodeJS.Immediate | null = null;
  /** Transactions committed so far (tests, benches). */
  commits = 0;

  constructor(
    private readonly db: Database,
    private readonly options: GroupedWritesOptions = {},
  ) {
    this.maxRows = options.maxRows ?? 4_000;
    this.maxMs = options.maxMs ?? 250;
  }

  /**
   * Runs `write` (synchronous; returns the rows it wrote) inside the open group and returns a promise
   * that resolves once that group has committed. A write that throws throws here, its own changes
   * undone and the group intact.
   */
  run(write: () => number): Promise<void> {
    const group = this.open();
    let rows = 0;
    try {
      rows = this.db.transaction(write)();
    } finally {
      this.writes++;
      group.rows += rows;
      if (group.rows >= this.maxRows || performance.now() - group.openedAt >= this.maxMs) this.commit(group);
      else this.scheduleIdleCheck();
    }
    return group.committed;
  }

  /**
   * Marks a writer that will call `run` several times with the event loop free in between: the group
   * does not commit for being idle until `end` (it still commits at `maxRows` or `maxMs`).
   */
  begin(): { end: () => void } {
    this.active++;
    let ended = false;
    return {
      end: () => {
        if (ended) return;
        ended = true;
        this.active--;
        this.scheduleIdleCheck();
      },
    };
  }

  /** Commits the open group now (before the connection closes). */
  flush(): Promise<void> {
    const group = this.group;
    if (!group) return Promise.resolve();
    this.commit(group);
    return group.committed.catch(() => undefined);
  }

  private open(): Group {
    if (this.group) return this.group;
    // IMMEDIATE: another process writing the index makes this wait (busy_timeout) now, not fail later.
    this.db.exec('BEGIN IMMEDIATE');
    let settle!: Group['settle'];
    const committed = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
    // A group whose every writer gave up still settles; nobody need be listening.
    committed.catch(() => undefined);
    this.group = { rows: 0, openedAt: performance.now(), settle, committed };
    return this.group;
  }

  private scheduleIdleCheck(): void {
    if (this.idleCheck || !this.group) return;
    const seen = this.writes;
    this.idleCheck = setImmediate(() => {
      this.idleCheck = null;
      const group = this.group;
      if (!group) return;
      if (performance.now() - group.openedAt >= this.maxMs || (this.active === 0 && this.writes === seen)) this.commit(group);
      // A writer in the middle of a file checks again when it ends (no turn-by-turn polling meanwhile).
      else if (this.active === 0) this.scheduleIdleCheck();
    });
  }

  private commit(group: Group): void {
    if (this.group !== group) return;
    this.group = null;
    if (this.idleCheck) {
      clearImmediate(this.idleCheck);
      this.idleCheck = null;
    }
    try {
      this.db.exec('COMMIT');
    } catch (error) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      group.settle.reject(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    this.commits++;
    this.options.onCommit?.(group.rows);
    group.settle.resolve();
  }
}
