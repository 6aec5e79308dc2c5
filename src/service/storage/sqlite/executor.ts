/**
 * The SQL executor on better-sqlite3, and how a unit of work runs on a synchronous driver.
 *
 * better-sqlite3 runs every statement synchronously on one connection, so an async unit of work cannot
 * hold "its" transaction while the event loop serves other requests: their statements would land in
 * it. The rule here: a transaction opens (BEGIN IMMEDIATE), its callback runs, and everything it
 * awaits is this connection's statements, which resolve at once; so the whole callback finishes in
 * microtasks, before any timer, I/O callback or other request gets the event loop. Statements from code
 * outside the transaction that happen to run in between (a promise chain of another request resuming
 * in the same microtask queue) are not let in: they wait in `gate` and run right after COMMIT or
 * ROLLBACK. A callback that awaits real I/O (a file, the network) breaks the rule; it is caught (the
 * transaction is still open when the event loop turns) and rolled back with an error naming the rule,
 * rather than holding the write lock of every process on the data folder while the I/O runs.
 *
 * Collecting operations and replaying them at commit was the alternative; it cannot give the callback
 * the ids of rows it just inserted, which every unit of work here needs (the file id for its job).
 */
import type { Db } from './database';
import type { Sql } from '../sql/executor';

class Gate {
  private open = false;
  private readonly waiting: (() => void)[] = [];

  get busy(): boolean {
    return this.open;
  }

  /** Runs `f` now, or right after the open transaction ends. */
  run<T>(f: () => T): Promise<T> {
    if (!this.open) {
      try {
        return Promise.resolve(f());
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return new Promise<T>((resolve, reject) => {
      this.waiting.push(() => {
        try {
          resolve(f());
        } catch (error) {
          reject(error);
        }
      });
    });
  }

  enter(): void {
    this.open = true;
  }

  leave(): void {
    this.open = false;
    // Run what waited, in order, until one of them opens a transaction again.
    while (!this.open && this.waiting.length > 0) this.waiting.shift()!();
  }
}

export class SqliteSql implements Sql {
  readonly dialect = 'sqlite' as const;
  private readonly gate: Gate;

  constructor(
    private readonly db: Db,
    gate?: Gate,
    private readonly inTransaction = false,
  ) {
    this.gate = gate ?? new Gate();
  }

  /** Set when this executor's transaction ended: a statement after that would run outside it. */
  private ended = false;

  private exec<T>(f: () => T): Promise<T> {
    if (this.ended) return Promise.reject(new Error('this unit of work has ended; its statements can no longer run'));
    if (this.inTransaction) {
      try {
        return Promise.resolve(f());
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return this.gate.run(f);
  }

  all<T>(sql: string, args: unknown[] = []): Promise<T[]> {
    return this.exec(() => this.db.prepare(sql).all(...args) as T[]);
  }

  get<T>(sql: string, args: unknown[] = []): Promise<T | undefined> {
    return this.exec(() => this.db.prepare(sql).get(...args) as T | undefined);
  }

  run(sql: string, args: unknown[] = []): Promise<{ changes: number }> {
    return this.exec(() => ({ changes: this.db.prepare(sql).run(...args).changes }));
  }

  insert(sql: string, args: unknown[] = []): Promise<number> {
    return this.exec(() => Number((this.db.prepare(`${sql} RETURNING id`).get(...args) as { id: number | bigint }).id));
  }

  atomic<T>(fn: (sql: Sql) => Promise<T>): Promise<T> {
    if (this.inTransaction) return fn(this);
    return this.transaction(fn);
  }

  /** A unit of work on this connection (see the comment at the top of this file). */
  transaction<T>(fn: (sql: SqliteSql) => Promise<T>): Promise<T> {
    return this.gate.run(() => undefined).then(() => this.begin(fn));
  }

  private async begin<T>(fn: (sql: SqliteSql) => Promise<T>): Promise<T> {
    if (this.gate.busy) return this.transaction(fn);
    // IMMEDIATE: take the write lock up front, so another process writing meanwhile makes us wait
    // (busy_timeout) instead of failing with SQLITE_BUSY when a read would have to become a write.
    this.db.exec('BEGIN IMMEDIATE');
    this.gate.enter();
    let eventLoopTurned = false;
    const watch = setImmediate(() => (eventLoopTurned = true));
    const tx = new SqliteSql(this.db, this.gate, true);
    try {
      const result = await fn(tx);
      if (eventLoopTurned) {
        throw new Error('a SQLite unit of work awaited other I/O inside its transaction; do that I/O before or after the unit of work');
      }
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw error;
    } finally {
      clearImmediate(watch);
      tx.ended = true;
      this.gate.leave();
    }
  }
}
