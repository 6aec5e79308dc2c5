/**
 * Every service suite runs on SQLite (vitest's `default` project) and again on PostgreSQL: the HTTP-level
 * ones against two `qfill serve --database` processes on one database (project `serve`, SERVE_SUITES), the
 * rest in process (project `postgres`, IN_PROCESS_ONLY, with why). Left out: suites that touch no storage
 * (detection, extraction, text: nothing differs by backend) and suites that choose their backend
 * themselves (OWN_BACKEND, with why). test/service/backends.test.ts fails on a suite that opens storage and
 * is on none of these lists.
 */

/** Suites that choose their backend themselves (they already run on PostgreSQL, or test SQLite's own mechanisms). */
export const OWN_BACKEND: Record<string, string> = {
  'test/service/broken-uploads.test.ts': 'runs a qfill serve process on each backend itself',
  'test/service/postgres-faults.test.ts': 'PostgreSQL by design: the database stopped and restarted under a serving process',
  'test/service/postgres-processes.test.ts': 'PostgreSQL by design: two and three qfill serve processes on one database',
  'test/service/storage/postgres.test.ts': 'PostgreSQL by design: advisory-lock migrations, SKIP LOCKED leases, the shared quota',
  'test/service/storage/knowledge-index.test.ts': 'runs every case on both backends itself',
  'test/service/storage/migrate.test.ts': 'copies SQLite into PostgreSQL: both by design',
  'test/service/storage/postgres/executor.test.ts': "PostgreSQL by design: the pool's handling of a connection lost while checked out",
  'test/service/storage/postgres/knowledge-index.test.ts': "PostgreSQL by design: the index's own postings, their migration and one statement per search",
  'test/service/storage/postgres/tokens.test.ts': "the PostgreSQL index's tokenizer alone: pure functions, no database",
  'test/service/storage/ranking-backends.test.ts': 'compares SQLite and PostgreSQL: both by design',
  'test/service/storage/sql/replays-schema.test.ts': "both backends' migration texts by design (it reads them, opens no database)",
  'test/service/storage/sqlite/knowledge-schema.test.ts': "SQLite by design: the FTS5 index's own schema migrations",
  'test/service/storage/sqlite/database.test.ts': 'SQLite by design: the page size of the database file',
  'test/service/storage/sqlite/checkpointer.test.ts': "SQLite by design: the thread that checkpoints SQLite's write-ahead log",
  'test/service/storage/sqlite/knowledge/turns.test.ts': "SQLite by design: its write transactions taking turns on the event loop (PostgreSQL's run off it)",
  'test/service/storage/vector-search.test.ts': 'runs every case on both backends itself',
  'test/service/two-processes.test.ts': "SQLite's single-holder worker lease on one data folder (PostgreSQL's per-job lease: postgres-processes)",
  'test/service/worker.test.ts': "the worker loop over a stubbed queue and SQLite's worker lease (PostgreSQL has none)",
};

/**
 * The suites run on PostgreSQL against two `qfill serve --database` processes on one database (vitest's
 * `serve` project, QFILL_TEST_SERVE=processes; requests alternate between the processes): the HTTP-level
 * ones. The others reach into the in-process service and run in process (`postgres`): IN_PROCESS_ONLY says how.
 */
export const SERVE_SUITES = [
  'test/service/auth.test.ts',
  'test/service/chat.test.ts',
  'test/service/data-privacy.test.ts',
  'test/service/duplicate-upload.test.ts',
  'test/service/errors.test.ts',
  'test/service/fixtures-kb.test.ts',
  'test/service/fixtures-questionnaires.test.ts',
  'test/service/hostile.test.ts',
  'test/service/keys.test.ts',
  'test/service/knowledge/answer/consistency.test.ts',
  'test/service/knowledge/chat.test.ts',
  'test/service/library.test.ts',
  'test/service/library-owners.test.ts',
  'test/service/library-pages.test.ts',
  'test/service/library-sections.test.ts',
  'test/service/library-replay.test.ts',
  'test/service/organisation.test.ts',
  'test/service/questionnaires.test.ts',
  'test/service/repository-delete.test.ts',
  'test/service/repository.test.ts',
];

export const IN_PROCESS_ONLY: Record<string, string> = {
  'test/service/http/openapi.test.ts': "compares the in-process app's registered routes with the description",
  'test/service/http/health.test.ts': 'builds the app with its workers off to see readiness fail, and counts its own metrics',
  'test/service/http/fair-uploads.test.ts': 'builds the app with small upload shares and pace limits (no flags for them)',
  'test/service/restart.test.ts': 'stops and restarts the service with its workers off, and runs a job handler by hand',
  'test/service/hostile-availability.test.ts': 'builds the app with small reading and upload budgets (no flags for them) and a reader sandbox',
  'test/service/http/origin.test.ts': 'builds the app with CORS origins and a public URL of its own',
  'test/service/routes/api-plugin.test.ts': 'builds the app around a static folder of its own',
  'test/service/static.test.ts': 'builds the app around a static folder of its own',
  'test/service/storage/unit-of-work.test.ts': 'the storage boundary itself, no HTTP',
  'test/service/knowledge/answer.test.ts': 'the knowledge base over the index, no HTTP',
  'test/service/knowledge/answer/library.test.ts': 'the knowledge base over the index, no HTTP',
  'test/service/knowledge/answer/identity.test.ts': 'the knowledge base over the index, no HTTP',
  'test/service/knowledge/answer/ownership.test.ts': 'the knowledge base over the index, no HTTP',
  'test/service/knowledge/answer/product.test.ts': 'the knowledge base over the index, no HTTP',
  'test/service/knowledge/llm.test.ts': 'the knowledge base over the index with a stub model, no HTTP',
  'test/service/llm/generation.test.ts':
    "builds the app with a stub model's QFILL_LLM_* settings in its process environment (its restart case spawns qfill serve on a SQLite data folder)",
  'test/service/knowledge/retrieval.test.ts': 'the knowledge base over the index, no HTTP',
  'test/service/llm/model-evidence.test.ts': "builds the app with a stub model's QFILL_LLM_* settings in its process environment",
};
