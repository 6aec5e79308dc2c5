/** PostgreSQL runs every service suite but those that touch no storage or pick their backend themselves. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { IN_PROCESS_ONLY, OWN_BACKEND, SERVE_SUITES } from './backends';

const ROOT = join(__dirname, '..', '..');

function suites(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return suites(path);
    return name.endsWith('.test.ts') ? [relative(ROOT, path)] : [];
  });
}

/** What opens storage in a suite: the harness's services and knowledge bases, the app, the storage modules. */
const OPENS_STORAGE =
  /\b(startService|startWithTwoOrgs|testStorage|tempKb|buildApp|openStorage|createTestDatabase|createKey)\b|storage\/(sqlite|postgres)\/|better-sqlite3/;

describe('the service suites on PostgreSQL', () => {
  const all = suites(join(ROOT, 'test', 'service')).filter((s) => s !== 'test/service/backends.test.ts');
  const opensStorage = (s: string) => OPENS_STORAGE.test(readFileSync(join(ROOT, s), 'utf8'));

  it('every suite that opens storage runs on PostgreSQL once (against qfill serve processes, or in process) or picks its backend itself', () => {
    const listed = [...SERVE_SUITES, ...Object.keys(IN_PROCESS_ONLY), ...Object.keys(OWN_BACKEND)];
    expect(new Set(listed).size, 'a suite on two lists').toBe(listed.length);
    for (const s of listed) expect(all, `${s} is listed in test/service/backends.ts but does not exist`).toContain(s);
    const unlisted = all.filter((s) => opensStorage(s) && !listed.includes(s));
    expect(unlisted, 'suites that open storage but run on SQLite only: add them to test/service/backends.ts').toEqual([]);
  });

  it('leaves out only suites that open no storage', () => {
    const listed = new Set([...SERVE_SUITES, ...Object.keys(IN_PROCESS_ONLY), ...Object.keys(OWN_BACKEND)]);
    const left = all.filter((s) => !listed.has(s));
    expect(left.length).toBeGreaterThan(5);
    expect(left.filter(opensStorage)).toEqual([]);
  });

  it('the check sees a suite that opens storage', () => {
    expect(OPENS_STORAGE.test("import { startService } from './helpers';")).toBe(true);
    expect(OPENS_STORAGE.test("import { SqliteWorkerLease } from '../../src/service/storage/sqlite/lease';")).toBe(true);
    expect(OPENS_STORAGE.test("import { detectQuestionnaire } from '../../src/service/detect';")).toBe(false);
  });
});
