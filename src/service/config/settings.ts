/**
 * Every `QFILL_*` setting, declared once: its kind (read through one zod schema, see ./read), default, what it
 * does, whether it is a secret, and who reads it. docs/operations.md's configuration table is generated from
 * this list (`npx tsx scripts/config-table.ts`), and `qfill config` prints the effective values.
 */
import { flag, httpUrl, integer, oneOf, positiveNumber, postgresUrl, text, type Kind } from './kinds';

/** Who reads a setting: `qfill serve` checks the service's at start and refuses to run with a bad one. */
export type Scope = 'service' | 'fill' | 'npm start' | 'tests';

export interface Setting<T = unknown> {
  readonly kind: Kind<T>;
  /** The value when the variable is unset or blank; undefined = none (the feature is off). */
  readonly default?: T;
  /** The default in words, where the value alone does not say it (e.g. "0 (unlimited)"). */
  readonly defaultText?: string;
  /** Unset, the value of this other setting (when that one is set) comes before the default. */
  readonly fallback?: string;
  readonly description: string;
  /** `true`: the whole value is masked; `password`: only a URL's password is. */
  readonly secret?: true | 'password';
  readonly scope: Scope;
}

const setting = <T, const D extends T | undefined = undefined>(s: Setting<T> & { default?: D }): Setting<T> & { default: D } =>
  s as Setting<T> & { default: D };

/** Pino's levels, which Fastify's logger takes. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const LLM_CONCURRENCY = 4;
const LLM_TIMEOUT_SECONDS = 60;

export const SETTINGS = {
  QFILL_DATABASE_URL: setting({
    kind: postgresUrl,
    defaultText: 'unset (SQLite under `--data`)',
    description: 'PostgreSQL for `serve`, `migrate` and the admin commands (same as `--database`)',
    secret: 'password',
    scope: 'service',
  }),
  QFILL_JOB_LEASE_SECONDS: setting({
    kind: positiveNumber('seconds'),
    default: 30,
    description: "a background job's lease; renewed every third of it",
    scope: 'service',
  }),
  QFILL_READ_TIMEOUT_SECONDS: setting({
    kind: positiveNumber('seconds'),
    default: 60,
    description: 'time to read one uploaded file',
    scope: 'service',
  }),
  QFILL_READ_MEMORY_MB: setting({
    kind: integer(32),
    default: 512,
    description: 'heap to read one uploaded file',
    scope: 'service',
  }),
  QFILL_LOG_LEVEL: setting({
    kind: oneOf(LOG_LEVELS),
    default: 'warn',
    description: "the service's log level",
    scope: 'service',
  }),
  QFILL_LLM_BASE_URL: setting({
    kind: httpUrl,
    description: 'the language model (OpenAI-compatible); used only with `QFILL_LLM_MODEL`',
    scope: 'service',
  }),
  QFILL_LLM_MODEL: setting({
    kind: text('a model or deployment name'),
    description: 'the model to ask; used only with `QFILL_LLM_BASE_URL`',
    scope: 'service',
  }),
  QFILL_LLM_API_KEY: setting({
    kind: text('the key the endpoint expects'),
    description: "the language model's key (Azure: sent as `api-key`, else as a bearer token)",
    secret: true,
    scope: 'service',
  }),
  QFILL_LLM_API_VERSION: setting({
    kind: text('an Azure OpenAI api-version such as 2024-08-01-preview'),
    description: "Azure OpenAI's `api-version`",
    scope: 'service',
  }),
  QFILL_LLM_CONCURRENCY: setting({
    kind: integer(1),
    default: LLM_CONCURRENCY,
    description: 'requests to the model at a time',
    scope: 'service',
  }),
  QFILL_LLM_TIMEOUT_SECONDS: setting({
    kind: positiveNumber('seconds'),
    default: LLM_TIMEOUT_SECONDS,
    description: 'one request to the model',
    scope: 'service',
  }),
  QFILL_LLM_BATCH_QUESTIONS: setting({
    kind: integer(1),
    default: 8,
    description: 'questions per request (1: one question per request)',
    scope: 'service',
  }),
  QFILL_LLM_MAX_PROMPT_CHARS: setting({
    kind: integer(2000),
    default: 24_000,
    description: 'characters of questions and evidence per request',
    scope: 'service',
  }),
  QFILL_LLM_TOKEN_BUDGET: setting({
    kind: integer(0),
    default: 0,
    defaultText: '0 (unlimited)',
    description: 'tokens one questionnaire may spend',
    scope: 'service',
  }),
  QFILL_EMBEDDINGS_BASE_URL: setting({
    kind: httpUrl,
    description: 'the embeddings endpoint (dense retrieval); used only with `QFILL_EMBEDDINGS_MODEL`',
    scope: 'service',
  }),
  QFILL_EMBEDDINGS_MODEL: setting({
    kind: text('a model or deployment name'),
    description: 'the embeddings model; used only with `QFILL_EMBEDDINGS_BASE_URL`',
    scope: 'service',
  }),
  QFILL_EMBEDDINGS_API_KEY: setting({
    kind: text('the key the endpoint expects'),
    description: "the embeddings endpoint's key",
    secret: true,
    scope: 'service',
  }),
  QFILL_EMBEDDINGS_API_VERSION: setting({
    kind: text('an Azure OpenAI api-version such as 2024-08-01-preview'),
    fallback: 'QFILL_LLM_API_VERSION',
    description: "Azure OpenAI's `api-version` for embeddings",
    scope: 'service',
  }),
  QFILL_EMBEDDINGS_CONCURRENCY: setting({
    kind: integer(1),
    default: LLM_CONCURRENCY,
    fallback: 'QFILL_LLM_CONCURRENCY',
    description: 'requests to the embeddings endpoint at a time',
    scope: 'service',
  }),
  QFILL_EMBEDDINGS_TIMEOUT_SECONDS: setting({
    kind: positiveNumber('seconds'),
    default: LLM_TIMEOUT_SECONDS,
    fallback: 'QFILL_LLM_TIMEOUT_SECONDS',
    description: 'one request to the embeddings endpoint',
    scope: 'service',
  }),
  QFILL_BASE_URL: setting({
    kind: httpUrl,
    description: "`qfill fill`'s service (same as `--base`)",
    scope: 'fill',
  }),
  QFILL_API_KEY: setting({
    kind: text('a qfill API key'),
    description: "`qfill fill`'s API key (same as `--key`)",
    secret: true,
    scope: 'fill',
  }),
  QFILL_DATA: setting({
    kind: text('a folder'),
    defaultText: '`.qfill-data` in the project',
    description: "`npm start`'s data folder",
    scope: 'npm start',
  }),
  QFILL_SKIP_BUILD: setting({
    kind: flag,
    default: false,
    description: '`npm start` reuses an existing build',
    scope: 'npm start',
  }),
  QFILL_NO_SIDELOAD: setting({
    kind: flag,
    default: false,
    description: '`npm start` does not sideload into Excel desktop',
    scope: 'npm start',
  }),
  QFILL_TEST_DATABASE_URL: setting({
    kind: postgresUrl,
    defaultText: '`postgres://postgres@127.0.0.1:5432/postgres` when it answers',
    description: 'a PostgreSQL server the tests may create throwaway databases on',
    secret: 'password',
    scope: 'tests',
  }),
  QFILL_TEST_BACKEND: setting({
    kind: oneOf(['sqlite', 'postgres'] as const),
    default: 'sqlite',
    description: 'the backend the service suites run on (the `postgres` and `serve` vitest projects set it)',
    scope: 'tests',
  }),
  QFILL_TEST_SERVE: setting({
    kind: oneOf(['processes'] as const),
    description: '`processes`: the HTTP-level suites run against two `qfill serve` processes (the `serve` vitest project sets it)',
    scope: 'tests',
  }),
  QFILL_TEST_SEED: setting({
    kind: integer(0),
    defaultText: 'a fixed seed',
    description: 'the seed of the randomised broken-upload test',
    scope: 'tests',
  }),
  QFILL_CHROMIUM: setting({
    kind: text('the path of a Chromium executable'),
    default: '/usr/bin/chromium',
    description: 'the browser the browser tests drive',
    scope: 'tests',
  }),
  QFILL_BENCH_DATABASE_URL: setting({
    kind: postgresUrl,
    defaultText: '`QFILL_TEST_DATABASE_URL`, else `postgres://postgres@127.0.0.1:5432/postgres`',
    description: 'a PostgreSQL server `npm run bench` may create its database on',
    secret: 'password',
    scope: 'tests',
  }),
};

export type SettingName = keyof typeof SETTINGS;

export const SETTING_NAMES = Object.keys(SETTINGS) as SettingName[];

/** A setting's value type, `undefined` included when it has no default. */
export type ValueOf<N extends SettingName> = (typeof SETTINGS)[N] extends Setting<infer T> & { default: infer D }
  ? D extends undefined
    ? T | undefined
    : T
  : never;

export type Config = { readonly [N in SettingName]: ValueOf<N> };
