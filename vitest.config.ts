import pg from 'pg';
import { defineConfig, type ViteUserConfig } from 'vitest/config';

/** The service suites that run a second time on PostgreSQL (test/service/postgres.ts makes the databases). */
const POSTGRES_SUITES: string[] = [
  'test/service/chat.test.ts',
  'test/service/errors.test.ts',
  'test/service/organisation.test.ts',
  'test/service/questionnaires.test.ts',
  'test/service/repository.test.ts',
  'test/service/repository-delete.test.ts',
  'test/service/knowledge/chat.test.ts',
];

/**
 * QFILL_TEST_DATABASE_URL names a PostgreSQL server tests may create databases on (`.ci/run` sets it).
 * Unset, the local server of these machines is tried; when none answers, the PostgreSQL-only tests fail
 * saying what is missing and the service suites run on SQLite alone.
 */
async function postgresForTests(): Promise<string | null> {
  const url = process.env.QFILL_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1500 });
  try {
    await client.connect();
    process.env.QFILL_TEST_DATABASE_URL = url;
    return url;
  } catch {
    return null;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export default defineConfig(async (): Promise<ViteUserConfig> => {
  const postgres = await postgresForTests();
  return {
    esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
    test: {
      testTimeout: 60_000,
      hookTimeout: 180_000,
      pool: 'forks' as const,
      projects: [
        { extends: true, test: { name: 'default', include: ['test/**/*.test.ts', 'test/**/*.test.tsx'] } },
        ...(postgres && POSTGRES_SUITES.length > 0
          ? [{ extends: true as const, test: { name: 'postgres', include: POSTGRES_SUITES, env: { QFILL_TEST_BACKEND: 'postgres' } } }]
          : []),
      ],
    },
  };
});
