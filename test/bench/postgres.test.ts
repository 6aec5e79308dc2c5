/** The PostgreSQL bench on a fresh database: it reads what a previous run left without assuming the tables exist. */
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { passagesIn } from '../../bench/postgres';
import { createTestDatabase, type TestDatabase } from '../service/postgres';

const databases: TestDatabase[] = [];

afterEach(async () => {
  for (const db of databases.splice(0)) await db.drop();
});

describe('the PostgreSQL bench', () => {
  it('counts no passages in a fresh database, and the passages a previous run left', async () => {
    const db = await createTestDatabase();
    databases.push(db);
    expect(await passagesIn(db.url)).toBe(0);
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      await client.query('CREATE TABLE kb_counts (org_id integer, kind text, rows bigint)');
      expect(await passagesIn(db.url)).toBe(0);
      await client.query("INSERT INTO kb_counts VALUES (1, 'passages', 1200), (2, 'passages', 34), (1, 'terms', 99)");
    } finally {
      await client.end();
    }
    expect(await passagesIn(db.url)).toBe(1234);
  });
});
