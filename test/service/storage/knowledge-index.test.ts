/**
 * The knowledge index contract, the same tests on SQLite and on PostgreSQL (a throwaway database on the
 * server QFILL_TEST_DATABASE_URL names; the PostgreSQL half fails, naming what is missing, without one).
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IndexedFile, KnowledgeIndex } from '../../../src/service/storage/knowledge-index';
import { SqliteKnowledgeIndex } from '../../../src/service/storage/sqlite/knowledge';
import { PostgresKnowledgeIndex } from '../../../src/service/storage/postgres/knowledge';
import { createTestDatabase, type TestDatabase } from '../postgres';
import { passageOf, qaOf } from './entries';

interface Backend {
  index: KnowledgeIndex;
  close(): Promise<void>;
}

async function sqliteBackend(): Promise<Backend> {
  const dir = mkdtempSync(join(tmpdir(), 'qfill-kidx-'));
  const db = new Database(join(dir, 'kb.sqlite'));
  return {
    index: new SqliteKnowledgeIndex(db),
    close: async () => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function postgresBackend(): Promise<Backend> {
  const database: TestDatabase = await createTestDatabase();
  const pool = new pg.Pool({ connectionString: database.url, max: 3 });
  const index = new PostgresKnowledgeIndex(pool);
  await index.migrate();
  return {
    index,
    close: async () => {
      await pool.end();
      await database.drop();
    },
  };
}

function file(overrides: Partial<IndexedFile> & { file_id: number }): IndexedFile {
  return { org_id: 1, filename: `f${overrides.file_id}.md`, offering_ids: [], scope_includes_company: true, use_as_source: true, ...overrides };
}

const passage = (content: string, header = 'Policy', embedding: number[] | null = null) => passageOf(header, content, embedding);
const qa = qaOf;

const scope = { org_id: 1 };

describe.each([
  ['SQLite', sqliteBackend],
  ['PostgreSQL', postgresBackend],
])('knowledge index on %s', (_name, open) => {
  let backend: Backend;
  let index: KnowledgeIndex;
  beforeAll(async () => {
    backend = await open();
    index = backend.index;
    await index.replaceFile(
      file({ file_id: 1, filename: 'crypto.md' }),
      [passage('Backups are encrypted with AES-256 at rest.'), passage('Keys rotate every year.')],
      [],
    );
    await index.replaceFile(
      file({ file_id: 2, filename: 'product-a.md', scope_includes_company: false, offering_ids: [10] }),
      [passage('Backups of product A are replicated nightly.')],
      [],
    );
    await index.replaceFile(file({ file_id: 3, filename: 'hidden.md', use_as_source: false }), [passage('Backups are hidden here.')], []);
    await index.replaceFile(file({ org_id: 2, file_id: 4, filename: 'other-org.md' }), [passage('Backups of another organisation.')], []);
    await index.replaceFile(file({ file_id: 5, filename: 'library.xlsx' }), [], [qa('Do you encrypt backups?', 'Yes'), qa('Product name', 'Acme Cloud')]);
  });
  afterAll(async () => backend?.close());

  const names = async (terms: string[], s: object = scope, match: 'any' | 'all' = 'any') =>
    (await index.search({ kind: 'passages', scope: { ...scope, ...s }, terms, limit: 10, pool: 200, match })).hits.map((h) => h.filename).sort();

  it('searches with stemming, BM25 first, within the organisation and its filters', async () => {
    const result = await index.search({ kind: 'passages', scope, terms: ['encrypted', 'backups'], limit: 10, pool: 200 });
    expect(result.hits[0]).toMatchObject({ filename: 'crypto.md', section_path: ['Policy'], page_number: 1 });
    expect(result.hits[0]!.bm).toBeGreaterThan(result.hits[1]!.bm);
    expect(result.pool_size).toBe(3);
    // "encryption" finds "encrypted" (both stem to "encrypt").
    expect(await names(['encryption'])).toEqual(['crypto.md']);
    expect(await names(['backups'])).toEqual(['crypto.md', 'product-a.md']);
    expect(await names(['backups'], { org_id: 2 })).toEqual(['other-org.md']);
    expect(await names(['backups'], { file_id: 2 })).toEqual(['product-a.md']);
    expect(await names(['backups'], { offering_ids: [99] })).toEqual(['crypto.md']);
    expect(await names(['backups'], { offering_ids: [10] })).toEqual(['crypto.md', 'product-a.md']);
    expect(await names(['aes256'])).toEqual(['crypto.md']);
    expect(await names(['backups', 'nightly'], {}, 'all')).toEqual(['product-a.md']);
    expect(await names(['nothingmatches'])).toEqual([]);
    // Query syntax never passes through.
    expect(await names(['"', 'OR', 'NEAR(x'])).toEqual([]);
  });

  it('searches the answer library and reads its rows back whole', async () => {
    const result = await index.search({ kind: 'qa', scope, terms: ['encrypt', 'backups'], limit: 10, pool: 200 });
    expect(result.hits).toHaveLength(1);
    expect(result.hits[0]).toMatchObject({
      question: 'Do you encrypt backups?',
      answer: 'Yes',
      slots: [{ slot_key: 'answer', content: 'Yes' }],
      location: 'Sheet1!C2',
    });
    const again = await index.byIds('qa', scope, [result.hits[0]!.id]);
    expect(again[0]).toMatchObject({ question: 'Do you encrypt backups?', bm: 0 });
    expect(await index.byIds('qa', { org_id: 2 }, [result.hits[0]!.id])).toEqual([]);
  });

  it('keeps the statistics BM25 and the query plan need', async () => {
    expect(await index.totalRows('passages')).toBe(5);
    expect(await index.orgRows('passages', 1)).toBe(4);
    expect(await index.orgRows('qa', 1)).toBe(2);
    expect(
      await index.termDocs('passages', [
        { stem: 'backup', word: 'backups' },
        { stem: 'kei', word: 'keys' },
        { stem: 'zzz', word: 'zzz' },
      ]),
    ).toEqual([4, 1, 0]);
  });

  it("gives all of an ask's statistics at once, as the single reads give them", async () => {
    const backups = { stem: 'backup', word: 'backups' };
    const stats = await index.termStats(1, {
      passages: [backups, { stem: 'kei', word: 'keys' }, { stem: 'zzz', word: 'zzz' }],
      qa: [backups, { stem: 'product', word: 'product' }],
    });
    expect(stats.passages).toEqual({ total: 5, org: 4, docs: [4, 1, 0] });
    expect(stats.qa).toEqual({ total: 2, org: 2, docs: [1, 1] });
    expect((await index.termStats(2, { passages: [], qa: [] })).passages).toEqual({ total: 5, org: 1, docs: [] });
  });

  it('knows what a file is about, and the organisation names', async () => {
    expect(await index.fileFacts(1, 5, ['product name'])).toEqual({
      subject: null,
      label: 'Acme Cloud',
      offering_ids: [],
      as_of: null,
      valid_until: null,
      valid_said: null,
    });
    await index.setFileSubject(1, 2, 'Amazon Web Services');
    expect(await index.fileFacts(1, 2, ['product name'])).toEqual({
      subject: 'Amazon Web Services',
      label: null,
      offering_ids: [10],
      as_of: null,
      valid_until: null,
      valid_said: null,
    });
    expect(await index.fileFacts(1, 99, [])).toBeNull();
    // Several files at once: the same facts, and nothing for a file not in the index (nor another organisation's).
    const many = await index.filesFacts(1, [5, 2, 99, 5], ['product name']);
    expect([...many.keys()].sort()).toEqual([2, 5]);
    expect(many.get(5)).toEqual({ subject: null, label: 'Acme Cloud', offering_ids: [], as_of: null, valid_until: null, valid_said: null });
    expect(many.get(2)).toEqual({ subject: 'Amazon Web Services', label: null, offering_ids: [10], as_of: null, valid_until: null, valid_said: null });
    expect((await index.filesFacts(2, [5, 2], ['product name'])).size).toBe(0);
    // The dates a file states about itself, kept with it.
    await index.setFileDates(1, 2, { as_of: '2024-03-31', valid_until: '2024-03-31', valid_said: 'for the period April 1, 2023 to March 31, 2024' });
    expect(await index.fileFacts(1, 2, [])).toMatchObject({
      as_of: '2024-03-31',
      valid_until: '2024-03-31',
      valid_said: 'for the period April 1, 2023 to March 31, 2024',
    });
    expect((await index.filesFacts(1, [2], [])).get(2)).toMatchObject({ valid_until: '2024-03-31' });
    expect(await index.orgNames(1)).toBeNull();
    await index.setOrgNames(1, '["Acme"]');
    expect(await index.orgNames(1)).toBe('["Acme"]');
  });

  it('replaces, re-scopes and deletes a file, statistics following', async () => {
    await index.replaceFile(file({ file_id: 6 }), [passage('Tabletop exercises run yearly.'), passage('Tabletop reviews follow.')], []);
    expect(await names(['tabletop'])).toEqual(['f6.md', 'f6.md']);
    await index.replaceFile(file({ file_id: 6 }), [passage('Tabletop exercises run twice a year.')], []);
    expect(await names(['tabletop'])).toEqual(['f6.md']);
    expect(await index.termDocs('passages', [{ stem: 'tabletop', word: 'tabletop' }])).toEqual([1]);
    await index.updateFile(file({ file_id: 6, use_as_source: false }));
    expect(await names(['tabletop'])).toEqual([]);
    await index.deleteFile(1, 6);
    expect(await index.termDocs('passages', [{ stem: 'tabletop', word: 'tabletop' }])).toEqual([0]);
    expect(await index.orgRows('passages', 1)).toBe(4);
  });

  it('writes a large file in batches, reporting progress, and finds it whole', async () => {
    const many = Array.from({ length: 1203 }, (_, i) => passage(`Batch passage ${i} about quarantine number q${i}.`));
    const progress: number[] = [];
    await index.replaceFile(file({ file_id: 7 }), many, [], (stored) => progress.push(stored));
    expect(progress.length).toBeGreaterThan(1);
    expect(progress[progress.length - 1]).toBe(1203);
    expect(await index.orgRows('passages', 1)).toBe(4 + 1203);
    expect(await names(['q1202'])).toEqual(['f7.md']);
    await index.deleteFile(1, 7);
    expect(await index.orgRows('passages', 1)).toBe(4);
  });

  it('finds the nearest vectors of the organisation only', async () => {
    await index.replaceFile(file({ file_id: 8 }), [passage('One.', 'V', [1, 0]), passage('Two.', 'V', [0.6, 0.8]), passage('Three.', 'V', [0, 1])], []);
    await index.replaceFile(file({ org_id: 2, file_id: 9 }), [passage('Other.', 'V', [1, 0])], []);
    const ids = await index.nearest('passages', 1, Float32Array.from([1, 0]), 2);
    const rows = await index.byIds('passages', scope, ids);
    expect(ids).toHaveLength(2);
    expect(ids.map((id) => rows.find((r) => r.id === id)!.content)).toEqual(['One.', 'Two.']);
  });
});

describe('SQLite term statistics past 50,000 rows', () => {
  it('counts a rare term exactly and estimates a frequent one from its first postings, across organisations', async () => {
    const backend = await sqliteBackend();
    try {
      const index = backend.index;
      // "alpha" in every 10th row of both organisations: 100 of org 1's 1,000 rows, 5,000 of org 2's 50,000.
      const rows = (n: number, tag: string) =>
        Array.from({ length: n }, (_, i) => passage(`Row ${tag}${i} ${i % 10 === 0 ? 'alpha' : 'beta'}${i % 7000 === 0 ? ' zebrafish' : ''}.`));
      await index.replaceFile(file({ file_id: 1 }), rows(1_000, 'a'), []);
      await index.replaceFile(file({ org_id: 2, file_id: 2 }), rows(50_000, 'b'), []);
      const [alpha, zebrafish, none] = await index.termDocs('passages', [
        { stem: 'alpha', word: 'alpha' },
        { stem: 'zebrafish', word: 'zebrafish' },
        { stem: 'zzz', word: 'zzz' },
      ]);
      expect(zebrafish).toBe(1 + 8);
      expect(none).toBe(0);
      expect(Math.abs(alpha! - 5_100)).toBeLessThan(5_100 * 0.05);
    } finally {
      await backend.close();
    }
  }, 120_000);
});
