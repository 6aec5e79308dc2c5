/** The settings read through the one schema: the readers' values for valid input, and bad values named. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, configProblems, effectiveConfig, namesOf, readConfig, unknownVariables } from '../../../src/service/config/read';
import { SETTINGS, SETTING_NAMES, type Setting } from '../../../src/service/config/settings';
import { readLimitsFromEnv } from '../../../src/service/files/limits';
import { knowledgeOptionsFromEnv } from '../../../src/service/knowledge/options';
import { batchLimitsFrom } from '../../../src/service/llm/batch';
import { chatEndpointFrom } from '../../../src/service/llm/endpoint';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const base = { baseUrl: 'http://127.0.0.1:1/v1', model: 'm' };

describe('reading valid values (what each reader gave before)', () => {
  it('takes defaults when nothing is set, and treats blank as unset', () => {
    for (const env of [{}, { QFILL_LLM_CONCURRENCY: '', QFILL_LLM_TIMEOUT_SECONDS: '  ', QFILL_READ_MEMORY_MB: '' }]) {
      expect(chatEndpointFrom(base, env)).toEqual({ ...base, apiVersion: undefined, concurrency: 4, timeoutMs: 60_000, tokenBudget: 0 });
      expect(batchLimitsFrom(env)).toEqual({ maxQuestions: 8, maxPromptChars: 24_000 });
      expect(readLimitsFromEnv(env)).toEqual({ timeoutMs: 60_000, memoryMb: 512 });
      expect(knowledgeOptionsFromEnv(env)).toEqual({ llm: null, embeddings: null });
      expect(readConfig(env).QFILL_LOG_LEVEL).toBe('warn');
    }
  });

  it('reads set values, trimmed, decimals where the setting takes them', () => {
    const env = {
      QFILL_LLM_CONCURRENCY: ' 3 ',
      QFILL_LLM_TIMEOUT_SECONDS: '0.1',
      QFILL_LLM_TOKEN_BUDGET: '1500',
      QFILL_LLM_API_VERSION: '2024-06-01',
      QFILL_LLM_BATCH_QUESTIONS: '1',
      QFILL_LLM_MAX_PROMPT_CHARS: '2000',
      QFILL_READ_TIMEOUT_SECONDS: '2.5',
      QFILL_READ_MEMORY_MB: '32',
    };
    expect(chatEndpointFrom(base, env)).toEqual({ ...base, apiVersion: '2024-06-01', concurrency: 3, timeoutMs: 100, tokenBudget: 1500 });
    expect(batchLimitsFrom(env)).toEqual({ maxQuestions: 1, maxPromptChars: 2000 });
    expect(readLimitsFromEnv(env)).toEqual({ timeoutMs: 2500, memoryMb: 32 });
  });

  it('embeddings fall back to the QFILL_LLM_ values, then to the defaults', () => {
    const llm = { QFILL_LLM_CONCURRENCY: '7', QFILL_LLM_TIMEOUT_SECONDS: '9', QFILL_LLM_API_VERSION: 'v1' };
    expect(chatEndpointFrom(base, llm, 'QFILL_EMBEDDINGS')).toMatchObject({ concurrency: 7, timeoutMs: 9000, apiVersion: 'v1' });
    expect(chatEndpointFrom(base, { ...llm, QFILL_EMBEDDINGS_CONCURRENCY: '2' }, 'QFILL_EMBEDDINGS')).toMatchObject({ concurrency: 2, timeoutMs: 9000 });
    expect(chatEndpointFrom(base, {}, 'QFILL_EMBEDDINGS')).toMatchObject({ concurrency: 4, timeoutMs: 60_000, apiVersion: undefined });
  });

  it('configures an endpoint only with both its URL and model, the key when given', () => {
    const env = {
      QFILL_LLM_BASE_URL: 'http://127.0.0.1:11434/v1',
      QFILL_LLM_MODEL: 'llama',
      QFILL_EMBEDDINGS_BASE_URL: 'https://e.example/v1',
      QFILL_EMBEDDINGS_API_KEY: 'k',
    };
    expect(knowledgeOptionsFromEnv(env)).toEqual({ llm: { baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama' }, embeddings: null });
    expect(knowledgeOptionsFromEnv({ ...env, QFILL_EMBEDDINGS_MODEL: 'e', QFILL_LLM_API_KEY: 'sk' })).toEqual({
      llm: { baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama', apiKey: 'sk' },
      embeddings: { baseUrl: 'https://e.example/v1', model: 'e', apiKey: 'k' },
    });
  });
});

describe('bad values', () => {
  const cases: [Record<string, string>, (env: Record<string, string>) => unknown, RegExp][] = [
    [{ QFILL_READ_TIMEOUT_SECONDS: 'abc' }, readLimitsFromEnv, /QFILL_READ_TIMEOUT_SECONDS is "abc", but it expects a number of seconds above 0/],
    [{ QFILL_READ_MEMORY_MB: '16' }, readLimitsFromEnv, /QFILL_READ_MEMORY_MB is "16", but it expects a whole number of at least 32/],
    [{ QFILL_LLM_CONCURRENCY: 'many' }, (env) => chatEndpointFrom(base, env), /QFILL_LLM_CONCURRENCY is "many", but it expects a whole number of at least 1/],
    [{ QFILL_LLM_CONCURRENCY: '0' }, (env) => chatEndpointFrom(base, env), /QFILL_LLM_CONCURRENCY is "0"/],
    [{ QFILL_LLM_TIMEOUT_SECONDS: '-5' }, (env) => chatEndpointFrom(base, env), /QFILL_LLM_TIMEOUT_SECONDS is "-5"/],
    [
      { QFILL_EMBEDDINGS_CONCURRENCY: '2.5' },
      (env) => chatEndpointFrom(base, env, 'QFILL_EMBEDDINGS'),
      /QFILL_EMBEDDINGS_CONCURRENCY is "2.5", but it expects a whole number/,
    ],
    [{ QFILL_LLM_BATCH_QUESTIONS: '8 questions' }, batchLimitsFrom, /QFILL_LLM_BATCH_QUESTIONS is "8 questions"/],
    [
      { QFILL_LLM_BASE_URL: 'localhost:11434' },
      knowledgeOptionsFromEnv,
      /QFILL_LLM_BASE_URL is "localhost:11434", but it expects an http:\/\/ or https:\/\/ URL/,
    ],
    [
      { QFILL_LOG_LEVEL: 'verbose' },
      (env) => readConfig(env, ['QFILL_LOG_LEVEL']),
      /QFILL_LOG_LEVEL is "verbose", but it expects one of fatal, error, warn, info, debug, trace, silent/,
    ],
  ];

  it.each(cases)('%o stops the reader with an error naming the variable and what it expects', (env, read, message) => {
    expect(() => read(env)).toThrow(ConfigError);
    expect(() => read(env)).toThrow(message);
  });

  it('lists every bad value at once, and a reader minds only its own settings', () => {
    const env = { QFILL_READ_TIMEOUT_SECONDS: 'abc', QFILL_LLM_CONCURRENCY: 'x', QFILL_BASE_URL: 'nope' };
    expect(configProblems(env, namesOf('service')).map((p) => p.name)).toEqual(['QFILL_READ_TIMEOUT_SECONDS', 'QFILL_LLM_CONCURRENCY']);
    expect(batchLimitsFrom(env)).toEqual({ maxQuestions: 8, maxPromptChars: 24_000 });
  });

  it('masks a secret in the error', () => {
    const [problem] = configProblems({ QFILL_DATABASE_URL: 'mysql://root:hunter2@db/qfill' });
    expect(problem).toMatchObject({ name: 'QFILL_DATABASE_URL', value: 'mysql://root:********@db/qfill' });
  });
});

describe('the effective configuration', () => {
  it('says where each value came from and masks secrets', () => {
    const rows = effectiveConfig({
      QFILL_LLM_API_KEY: 'sk-very-secret',
      QFILL_LLM_CONCURRENCY: '6',
      QFILL_DATABASE_URL: 'postgres://qfill:pw-secret@db:5432/qfill',
      QFILL_READ_MEMORY_MB: 'lots',
    });
    const row = (name: string) => rows.find((r) => r.name === name);
    expect(row('QFILL_LLM_API_KEY')).toMatchObject({ value: '********', source: 'environment', problem: null });
    expect(row('QFILL_DATABASE_URL')).toMatchObject({ value: 'postgres://qfill:********@db:5432/qfill', source: 'environment' });
    expect(row('QFILL_LLM_CONCURRENCY')).toMatchObject({ value: '6', source: 'environment' });
    expect(row('QFILL_EMBEDDINGS_CONCURRENCY')).toMatchObject({ value: '6', source: 'QFILL_LLM_CONCURRENCY' });
    expect(row('QFILL_LLM_TIMEOUT_SECONDS')).toMatchObject({ value: '60', source: 'default' });
    expect(row('QFILL_LLM_MODEL')).toMatchObject({ value: null, source: 'default' });
    expect(row('QFILL_READ_MEMORY_MB')?.problem).toMatchObject({ expects: 'a whole number of at least 32' });
    expect(JSON.stringify(rows)).not.toMatch(/very-secret|pw-secret/);
  });

  it('names undeclared QFILL_ variables with the nearest declared one', () => {
    expect(unknownVariables({ QFILL_LLM_CONCURENCY: '3', QFILL_ZZZ_WHATEVER_THIS_IS: '1', PATH: '/bin', QFILL_LLM_MODEL: 'm' })).toEqual([
      { name: 'QFILL_LLM_CONCURENCY', nearest: 'QFILL_LLM_CONCURRENCY' },
      { name: 'QFILL_ZZZ_WHATEVER_THIS_IS', nearest: null },
    ]);
  });
});

describe('the declaration', () => {
  it('gives every default a value its own schema accepts, and every fallback a declared setting of the same kind', () => {
    for (const name of SETTING_NAMES) {
      const s = SETTINGS[name] as Setting;
      if (s.default !== undefined && typeof s.default !== 'boolean') expect(s.kind.schema.parse(String(s.default)), name).toEqual(s.default);
      if (s.fallback) expect(SETTINGS[s.fallback as keyof typeof SETTINGS]?.kind.expects, name).toBe(s.kind.expects);
    }
  });

  it('declares every QFILL_ variable the code names, and only the config module reads them from an environment', () => {
    const files = ['src', 'scripts', 'bench'].flatMap((dir) => sourceFiles(join(ROOT, dir)));
    const named = new Set<string>();
    const direct: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/\bQFILL_[A-Z0-9_]*[A-Z0-9]\b/g)) named.add(m[0]);
      const path = relative(ROOT, file);
      if (path.startsWith('src') && !path.startsWith(join('src', 'service', 'config')) && /env(\.|\[['`])QFILL_|\benv\[`\$\{/.test(text)) direct.push(path);
    }
    // Error codes and prefixes that are not variables.
    for (const notVariable of ['QFILL_STORAGE_UNAVAILABLE', 'QFILL_LLM', 'QFILL_EMBEDDINGS']) named.delete(notVariable);
    expect([...named].filter((name) => !(name in SETTINGS)).sort()).toEqual([]);
    expect(direct).toEqual([]);
  });
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}
