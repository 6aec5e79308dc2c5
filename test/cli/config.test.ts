/** `qfill config` and the configuration checks of the commands, through bin/qfill.js as a user runs them. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const dirs: string[] = [];

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The environment without any QFILL_ variable of the test run, plus `extra`. */
function envWith(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('QFILL_')));
  return { ...env, ...extra };
}

function qfill(args: string[], extra: Record<string, string>) {
  const r = spawnSync(process.execPath, ['bin/qfill.js', ...args], { cwd: ROOT, env: envWith(extra), encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('qfill config', () => {
  it('prints every setting with its value and source, secrets masked', () => {
    const r = qfill(['config'], {
      QFILL_LLM_BASE_URL: 'https://api.openai.com/v1',
      QFILL_LLM_MODEL: 'gpt-4o-mini',
      QFILL_LLM_API_KEY: 'sk-live-1234567890',
      QFILL_LLM_CONCURRENCY: '6',
      QFILL_DATABASE_URL: 'postgres://qfill:db-password@db.internal:5432/qfill',
      QFILL_API_KEY: 'qf_abcdef',
    });
    expect(r.status, r.stderr).toBe(0);
    const line = (name: string) =>
      r.stdout
        .split('\n')
        .find((l) => l.startsWith(`${name} `))
        ?.replace(/\s+/g, ' ');
    expect(line('QFILL_LLM_BASE_URL')).toBe('QFILL_LLM_BASE_URL https://api.openai.com/v1 environment');
    expect(line('QFILL_LLM_API_KEY')).toBe('QFILL_LLM_API_KEY ******** environment');
    expect(line('QFILL_API_KEY')).toBe('QFILL_API_KEY ******** environment');
    expect(line('QFILL_DATABASE_URL')).toBe('QFILL_DATABASE_URL postgres://qfill:********@db.internal:5432/qfill environment');
    expect(line('QFILL_LLM_TIMEOUT_SECONDS')).toBe('QFILL_LLM_TIMEOUT_SECONDS 60 default');
    expect(line('QFILL_EMBEDDINGS_CONCURRENCY')).toBe('QFILL_EMBEDDINGS_CONCURRENCY 6 QFILL_LLM_CONCURRENCY');
    expect(line('QFILL_EMBEDDINGS_MODEL')).toBe('QFILL_EMBEDDINGS_MODEL (unset) default');
    expect(r.stdout).toMatch(/^# qfill serve/m);
    expect(r.stdout + r.stderr).not.toMatch(/sk-live|db-password|qf_abcdef/);
  });

  it('exits with 2 on a bad value, naming it, and names a misspelt variable', () => {
    const r = qfill(['config'], { QFILL_LLM_CONCURRENCY: 'many', QFILL_LLM_TIMOUT_SECONDS: '5' });
    expect(r.status).toBe(2);
    expect(r.stdout).toMatch(/QFILL_LLM_CONCURRENCY +many +environment +INVALID: expects a whole number of at least 1/);
    expect(r.stdout).toContain('QFILL_LLM_TIMOUT_SECONDS: not a setting of qfill, ignored (did you mean QFILL_LLM_TIMEOUT_SECONDS?)');
  });

  it('is in --help', () => {
    const r = qfill(['--help'], {});
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^ {2}config\n {6}Print the effective configuration/m);
  });
});

describe('a bad setting stops the command with exit code 2 and names the variable', () => {
  it('qfill serve, before it opens anything', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'qfill-config-'));
    dirs.push(dataDir);
    const r = qfill(['serve', '--http', '--port', '0', '--data', join(dataDir, 'data')], {
      QFILL_READ_TIMEOUT_SECONDS: 'abc',
      QFILL_LLM_CONCURRENCY: 'eight',
      QFILL_DATABASE_URL: 'mysql://db/qfill',
      QFILL_LOG_LEVLE: 'info',
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('qfill: QFILL_READ_TIMEOUT_SECONDS is "abc", but it expects a number of seconds above 0 (decimals allowed)');
    expect(r.stderr).toContain('qfill: QFILL_LLM_CONCURRENCY is "eight", but it expects a whole number of at least 1');
    expect(r.stderr).toContain('qfill: QFILL_DATABASE_URL is "mysql://db/qfill", but it expects a PostgreSQL URL');
    expect(r.stderr).toContain('the configuration above is invalid; nothing was started');
    expect(r.stderr).toContain('qfill: QFILL_LOG_LEVLE is not a setting of qfill, so it is ignored (did you mean QFILL_LOG_LEVEL?)');
    expect(r.stdout).not.toMatch(/Listening/);
    expect(spawnSync('ls', [dataDir], { encoding: 'utf8' }).stdout.trim()).toBe('');
  });

  it('qfill keys create, with a database URL that is not PostgreSQL', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'qfill-config-'));
    dirs.push(dataDir);
    const r = qfill(['keys', 'create', '--org', 'acme', '--user', 'alice', '--data', dataDir], { QFILL_DATABASE_URL: 'mysql://root:pw@db/qfill' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('qfill: QFILL_DATABASE_URL is "mysql://root:********@db/qfill", but it expects a PostgreSQL URL');
  });

  it('qfill fill, unless the flag replaces the variable', () => {
    const r = qfill(['fill', 'q.xlsx', '--out', 'o.xlsx'], { QFILL_BASE_URL: '127.0.0.1:3000', QFILL_API_KEY: 'k' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('QFILL_BASE_URL is "127.0.0.1:3000", but it expects an http:// or https:// URL');
  });
});
