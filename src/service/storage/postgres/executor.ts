/**
 * The SQL executor on node-postgres: a pool of connections; a unit of work takes one connection for
 * BEGIN … COMMIT, so several requests' transactions run side by side. Statements are written with `?`
 * (the shared repositories' spelling) and sent with `$1…$n`. A lost or refused connection becomes a
 * StorageUnavailable error (503 for the caller); the pool replaces broken connections by itself, so the
 * service recovers without restarting when the database is back.
 */
import pg from 'pg';
import type { Sql } from '../sql/executor';
import { StorageUnavailable } from '../errors';

// BIGINT (ids, counts, epoch milliseconds) as numbers: every value we store stays far below 2^53.
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 20) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

export interface PoolOptions {
  url: string;
  /** Connections per process (default 10). */
  size?: number;
}

export function createPool(opts: PoolOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: opts.url,
    max: opts.size ?? 10,
    // Fail fast when the server is gone, instead of queueing requests behind a dead connect.
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    types,
  });
  // An idle connection dropped by the server (restart, failover) must not crash the process; the pool
  // discards it and opens a new one on the next query.
  pool.on('error', () => undefined);
  // The pool stops listening for a connection's errors while it is checked out, so a connection lost
  // between two statements of a transaction would be an uncaught error that ends the process. The loss
  // surfaces anyway as the next statement's failure (and the connection is discarded on release).
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

/** `?` placeholders to `$n`, outside quoted strings. */
export function numbered(sql: string): string {
  let n = 0;
  let out = '';
  let quoted = false;
  for (const c of sql) {
    if (c === "'") quoted = !quoted;
    out += c === '?' && !quoted ? `$${++n}` : c;
  }
  return out;
}

/** Errors meaning "the database cannot be reached right now", as opposed to a bad statement. */
export function isConnectionError(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | null;
  if (!e) return false;
  const code = e.code ?? '';
  if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'EAI_AGAIN'].includes(code)) return true;
  // Class 08: connection exception; 57P01-03: admin shutdown, crash shutdown, cannot connect now.
  if (code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03') return true;
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(e.message ?? '');
}

function translate(error: unknown): never {
  if (isConnectionError(error)) {
    throw new StorageUnavailable(`the database is unreachable (${(error as Error).message || (error as { code?: string }).code}); retry shortly`, error);
  }
  throw error;
}

type Queryable = Pick<pg.Pool, 'query'> | pg.PoolClient;

export class PgSql implements Sql {
  readonly dialect = 'postgres' as const;

  constructor(
    private readonly pool: pg.Pool,
    private readonly client: pg.PoolClient | null = null,
  ) {}

  private get target(): Queryable {
    return this.client ?? this.pool;
  }

  private async query<T>(sql: string, args: unknown[]): Promise<pg.QueryResult<T & pg.QueryResultRow>> {
    try {
      return await this.target.query<T & pg.QueryResultRow>(numbered(sql), args);
    } catch (error) {
      translate(error);
    }
  }

  async all<T>(sql: string, args: unknown[] = []): Promise<T[]> {
    return (await this.query<T>(sql, args)).rows;
  }

  async get<T>(sql: string, args: unknown[] = []): Promise<T | undefined> {
    return (await this.query<T>(sql, args)).rows[0];
  }

  async run(sql: string, args: unknown[] = []): Promise<{ changes: number }> {
    return { changes: (await this.query(sql, args)).rowCount ?? 0 };
  }

  async insert(sql: string, args: unknown[] = []): Promise<number> {
    return Number((await this.query<{ id: number }>(`${sql} RETURNING id`, args)).rows[0]!.id);
  }

  atomic<T>(fn: (sql: Sql) => Promise<T>): Promise<T> {
    if (this.client) return fn(this);
    return this.transaction(fn);
  }

  async transaction<T>(fn: (sql: PgSql) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      translate(error);
    }
    let broken = false;
    try {
      await client.query('BEGIN');
      const result = await fn(new PgSql(this.pool, client));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      broken = isConnectionError(error) || error instanceof StorageUnavailable;
      if (!broken) await client.query('ROLLBACK').catch(() => (broken = true));
      if (broken) translate(error instanceof StorageUnavailable ? error.cause : error);
      throw error;
    } finally {
      // A connection that failed mid-transaction is destroyed rather than reused.
      client.release(broken ? true : undefined);
    }
  }
}
