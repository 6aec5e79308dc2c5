/** The `postgres` project leaves out only suites that touch no storage or pick their backend themselves. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { IN_PROCESS_ONLY, NO_STORAGE, NOT_ON_POSTGRES, OWN_BACKEND, SERVE_SUITES } from './backends';

const ROOT = join(__dirname, '..', '..');

function suites(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return suites(path);
    return name.endsWith('.test.ts') ? [relative(ROOT, path)] : [];
  });
}

/** What opens storage in a suite: the harness's services and knowledge bases, the app, the storage modules. */
const OPENS_STORAGE = /\b(startService|startWithTwoOrgs|testStorage|tempKb|buildApp|openStorage|createTestDatabase|createKey)\b|storage\/(sqlite|postgres)\/|better-sqlite3/;

describe('the suites left out of the postgres project', () => {
  it('exist, and those said to touch no storage open none', () => {
    const all = suites(join(ROOT, 'test', 'service'));
    for (const s of [...NO_STORAGE, ...Object.keys(OWN_BACKEND)]) expect(all, s).toContain(s);
    for (const s of NO_STORAGE) expect(OPENS_STORAGE.test(readFileSync(join(ROOT, s), 'utf8')), `${s} opens storage: it must run on PostgreSQL too`).toBe(false);
  });

  it('every other suite runs on PostgreSQL once: against qfill serve processes, or in process', () => {
    const onPostgres = suites(join(ROOT, 'test', 'service')).filter((s) => !NOT_ON_POSTGRES.includes(s));
    const listed = [...SERVE_SUITES, ...Object.keys(IN_PROCESS_ONLY)];
    expect(new Set(listed).size).toBe(listed.length);
    expect(listed.sort()).toEqual(onPostgres.sort());
  });

  it('the check sees a suite that opens storage', () => {
    expect(OPENS_STORAGE.test("import { startService } from './helpers';")).toBe(true);
    expect(OPENS_STORAGE.test("import { SqliteWorkerLease } from '../../src/service/storage/sqlite/lease';")).toBe(true);
    expect(OPENS_STORAGE.test("import { detectQuestionnaire } from '../../src/service/detect';")).toBe(false);
  });
});
