/**
 * Rows of a query run directly on a service's own database, whichever backend holds it: for the checks
 * no API exposes (keys stored only as hashes, rows left behind by a delete). `?` placeholders; SQL both
 * SQLite and PostgreSQL accept; PostgreSQL's 64-bit integers come back as numbers, as SQLite's do.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import pg from 'pg';

export interface DatabaseLocation {
  /** PostgreSQL holding the state; null or absent for SQLite. */
  databaseUrl?: string | null;
  /** SQLite: the service's data folder (its qfill.sqlite), unless `sqliteFile` names the file. */
  dataDir?: string;
  sqliteFile?: string;
}

const numbers = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format ?? 'text'),
} as pg.CustomTypesConfig;

export async function queryDatabase<T = Record<string, unknown>>(where: DatabaseLocation, sql: string, args: unknown[] = []): Promise<T[]> {
  if (where.databaseUrl) {
    const client = new pg.Client({ connectionString: where.databaseUrl, types: numbers });
    await client.connect();
    try {
      let n = 0;
      return (
        await client.query(
          sql.replace(/\?/g, () => `$${++n}`),
          args,
        )
      ).rows as T[];
    } finally {
      await client.end();
    }
  }
  const file = where.sqliteFile ?? (where.dataDir ? join(where.dataDir, 'qfill.sqlite') : null);
  if (!file) throw new Error('queryDatabase: give a databaseUrl, a dataDir or a sqliteFile');
  const db = new Database(file);
  try {
    return db.prepare(sql).all(...args) as T[];
  } finally {
    db.close();
  }
}
