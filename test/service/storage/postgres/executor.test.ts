// The connection pool survives a connection lost while a transaction holds it between two statements:
// the loss surfaces as that transaction's failure, never as an uncaught error that stops the process.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type pg from 'pg';
import { createPool } from '../../../../src/service/storage/postgres/executor';
import { createTestDatabase, type TestDatabase } from '../../postgres';

let database: TestDatabase;
let pool: pg.Pool;

beforeAll(async () => {
  database = await createTestDatabase();
  pool = createPool({ url: database.url, size: 2 });
});

afterAll(async () => {
  await pool?.end();
  await database?.drop();
});

it('a connection ended by the server while checked out between statements fails its next statement, and the pool goes on', async () => {
  const held = await pool.connect();
  const { rows } = await held.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const ended = new Promise((resolve) => held.once('end', resolve));
  await pool.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
  await ended;
  await expect(held.query('SELECT 1')).rejects.toThrow();
  held.release(true);
  const after = await pool.query<{ one: number }>('SELECT 1 AS one');
  expect(after.rows[0]!.one).toBe(1);
}, 15_000);
