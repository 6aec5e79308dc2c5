/**
 * What the shared repositories of this folder need from a database: statements with `?` placeholders,
 * an atomic block, and the few spellings the two dialects do not share. The repositories are written
 * once in the SQL both SQLite (3.35+) and PostgreSQL accept (ON CONFLICT, RETURNING, standard LIKE);
 * each backend supplies an executor (../sqlite/executor.ts, ../postgres/executor.ts).
 */
export type Dialect = 'sqlite' | 'postgres';

export interface Sql {
  readonly dialect: Dialect;
  all<T>(sql: string, args?: unknown[]): Promise<T[]>;
  get<T>(sql: string, args?: unknown[]): Promise<T | undefined>;
  run(sql: string, args?: unknown[]): Promise<{ changes: number }>;
  /** An INSERT; returns the new row's `id` (the statement gets `RETURNING id`). */
  insert(sql: string, args?: unknown[]): Promise<number>;
  /** Runs `fn` in a transaction, or inside the one this executor already belongs to. */
  atomic<T>(fn: (sql: Sql) => Promise<T>): Promise<T>;
}

/**
 * `column` is one of `ids`, with one parameter for the whole list (no statement grows with the list,
 * and no list hits a parameter limit).
 */
export function inList(sql: Sql, column: string, ids: readonly number[]): { clause: string; args: unknown[] } {
  return sql.dialect === 'postgres'
    ? { clause: `${column} = ANY(CAST(? AS BIGINT[]))`, args: [ids.map(Number)] }
    : { clause: `${column} IN (SELECT value FROM json_each(?))`, args: [JSON.stringify(ids.map(Number))] };
}

/** JSON columns: tolerant reads so one bad row never takes a whole list down. */
export function parseJson<T>(text: string | null | undefined, fallback: T): T {
  if (text == null || text === '') return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

export function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Case-insensitive "contains" the same way on both backends (SQLite's LIKE ignores ASCII case, PostgreSQL's does not). */
export function containsSql(column: string): string {
  return `LOWER(${column}) LIKE LOWER(?) ESCAPE '\\'`;
}
