import { availableParallelism } from 'node:os';
import pg from 'pg';
import { defineConfig, type ViteUserConfig } from 'vitest/config';
import { IN_PROCESS_ONLY, SERVE_SUITES } from './test/service/backends';

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
      // Most suites wait on child processes, HTTP, PostgreSQL and Chromium rather than the CPU: at least two
      // workers even on two cores (vitest's default there is one).
      maxWorkers: Math.max(2, availableParallelism() - 1),
      projects: [
        { extends: true, test: { name: 'default', include: ['test/**/*.test.ts', 'test/**/*.test.tsx'] } },
        // Every service suite again on PostgreSQL (test/service/backends.ts says how, which are left out, and why):
        // the HTTP-level ones against two `qfill serve --database` processes, the rest in process.
        ...(postgres
          ? [
              { extends: true as const, test: { name: 'postgres', include: Object.keys(IN_PROCESS_ONLY), env: { QFILL_TEST_BACKEND: 'postgres' } } },
              {
                extends: true as const,
                test: { name: 'serve', include: SERVE_SUITES, env: { QFILL_TEST_BACKEND: 'postgres', QFILL_TEST_SERVE: 'processes' } },
              },
            ]
          : []),
      ],
    },
  };
});
