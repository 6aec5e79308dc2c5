/**
 * PostgreSQL for tests: a throwaway database per caller on the server named by QFILL_TEST_DATABASE_URL
 * (`.ci/run` starts the server and sets it). A test that needs PostgreSQL fails, naming what is missing.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const TEST_DATABASE_ENV = 'QFILL_TEST_DATABASE_URL';

/** The backend the service suites run on: `postgres` in the vitest project that sets QFILL_TEST_BACKEND. */
export const TEST_BACKEND: 'sqlite' | 'postgres' = process.env.QFILL_TEST_BACKEND === 'postgres' ? 'postgres' : 'sqlite';

export function serverUrl(): string {
  const url = process.env[TEST_DATABASE_ENV];
  if (!url) {
    throw new Error(
      `This test needs PostgreSQL: set ${TEST_DATABASE_ENV} to a server it may create databases on (e.g. postgres://postgres@127.0.0.1:5432/postgres), or run .ci/run, which starts one and sets it`,
    );
  }
  return url;
}

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl() });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(`This test needs PostgreSQL, but ${TEST_DATABASE_ENV} (${serverUrl()}) is unreachable: ${(error as Error).message}`);
  }
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A new empty database; `drop` removes it (ending any connection still open to it). */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `qf_test_${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(serverUrl());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}
