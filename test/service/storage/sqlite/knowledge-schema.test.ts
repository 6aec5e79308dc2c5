/**
 * The knowledge index's schema migrations on SQLite: a database made at an older version is brought to
 * the current one with its content intact and searchable as before.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteKnowledgeIndex } from '../../../../src/service/storage/sqlite/knowledge';
import { FTS_AUTOMERGE, FTS_CRISISMERGE, migrateKnowledgeIndex, ORG_ROWID_SPAN } from '../../../../src/service/storage/sqlite/knowledge/schema';
import { stemmedTerms, textForIndex } from '../../../../src/service/knowledge/text';

describe('knowledge index schema on SQLite', () => {
  let dir: string;
  let db: Database.Database;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'qfill-kschema-'));
    db = new Database(join(dir, 'kb.sqlite'));
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A version-3 database with two passages of organisation 1, written as version 3 wrote them. */
  function versionThree(): void {
    migrateKnowledgeIndex(db, 3);
    db.prepare('INSERT INTO kb_files (org_id, file_id, filename) VALUES (1, 1, ?)').run('backup.md');
    const texts = ['Backups are encrypted with AES-256 at rest.', 'Keys rotate every year and backups are tested.'];
    texts.forEach((content, i) => {
      const id = ORG_ROWID_SPAN + 1 + i;
      db.prepare(
        `INSERT INTO kb_passages (id, org_id, file_id, page_number, section_path, context_header, content, stems) VALUES (?, 1, 1, 1, '["Policy"]', 'Policy', ?, ?)`,
      ).run(id, content, [...stemmedTerms(`Policy\n${content}`)].join(' '));
      db.prepare('INSERT INTO kb_passages_fts (rowid, org, file, header, body) VALUES (?, ?, ?, ?, ?)').run(
        id,
        'o1',
        'f1',
        textForIndex('Policy'),
        textForIndex(content),
      );
    });
    db.prepare("INSERT INTO kb_counts (org_id, kind, rows) VALUES (1, 'passages', 2)").run();
  }

  const scores = () =>
    db.prepare(`SELECT rowid, bm25(kb_passages_fts, 0, 0, 0.5, 1.0) AS bm FROM kb_passages_fts WHERE kb_passages_fts MATCH '"backup"' ORDER BY rowid`).all();
  const config = (table: string, key = 'automerge') => db.prepare(`SELECT v FROM ${table}_config WHERE k = ?`).pluck().get(key);

  it('migrates a version-3 index to the current version: merge settings stored, content and scores unchanged', async () => {
    versionThree();
    const before = scores();
    expect(before).toHaveLength(2);
    expect(config('kb_passages_fts')).toBeUndefined();

    const index = new SqliteKnowledgeIndex(db);
    expect(db.prepare('SELECT MAX(version) FROM kb_schema_version').pluck().get()).toBe(11);
    expect(config('kb_passages_fts')).toBe(FTS_AUTOMERGE);
    expect(config('kb_qa_fts')).toBe(FTS_AUTOMERGE);
    expect(config('kb_passages_fts', 'crisismerge')).toBe(FTS_CRISISMERGE);
    expect(config('kb_qa_fts', 'crisismerge')).toBe(FTS_CRISISMERGE);
    expect(scores()).toEqual(before);
    db.prepare("INSERT INTO kb_passages_fts (kb_passages_fts) VALUES ('integrity-check')").run();

    const found = await index.search({ kind: 'passages', scope: { org_id: 1 }, terms: ['backups'], limit: 10, pool: 50, match: 'any' });
    expect(found.hits.map((h) => h.content).sort()).toEqual(['Backups are encrypted with AES-256 at rest.', 'Keys rotate every year and backups are tested.']);
    expect(await index.orgRows('passages', 1)).toBe(2);
  });

  it('migrates a version-4 index to version 5 (crisis merges), keeping its automerge setting', () => {
    migrateKnowledgeIndex(db, 4);
    expect(config('kb_passages_fts', 'crisismerge')).toBeUndefined();
    migrateKnowledgeIndex(db);
    expect(config('kb_passages_fts')).toBe(FTS_AUTOMERGE);
    expect(config('kb_passages_fts', 'crisismerge')).toBe(FTS_CRISISMERGE);
  });

  it('migrates a version-5 index to version 6 (vector lists) and on: rows keep their content, none has a list yet', async () => {
    versionThree();
    migrateKnowledgeIndex(db, 5);
    const index = new SqliteKnowledgeIndex(db);
    expect(db.prepare('SELECT MAX(version) FROM kb_schema_version').pluck().get()).toBe(11);
    expect(db.prepare('SELECT COUNT(*) FROM kb_passages WHERE list_id IS NULL').pluck().get()).toBe(2);
    expect(db.prepare('SELECT COUNT(*) FROM kb_vector_lists').pluck().get()).toBe(0);
    const plan = db
      .prepare('EXPLAIN QUERY PLAN SELECT id FROM kb_passages WHERE org_id = 1 AND list_id IS NOT NULL AND list_id IN (SELECT value FROM json_each(?))')
      .all('[1,2]') as { detail: string }[];
    expect(plan.map((p) => p.detail).join(' ')).toContain('kb_passages_by_list');
    const found = await index.search({ kind: 'passages', scope: { org_id: 1 }, terms: ['backups'], limit: 10, pool: 50, match: 'any' });
    expect(found.hits).toHaveLength(2);
  });

  it("migrates a version-6 index to version 7: a list's vectors are read from the index alone, rows keep their lists", async () => {
    migrateKnowledgeIndex(db, 6);
    const vector = (x: number) => Buffer.from(Float32Array.from([x, 1 - x, 0]).buffer);
    const insert = db.prepare(
      `INSERT INTO kb_passages (id, org_id, file_id, page_number, section_path, context_header, content, stems, embedding, list_id) VALUES (?, 1, 1, 1, '["P"]', 'P', ?, 'p', ?, ?)`,
    );
    insert.run(ORG_ROWID_SPAN + 1, 'In list 3.', vector(0.25), 3);
    insert.run(ORG_ROWID_SPAN + 2, 'In list 5.', vector(0.5), 5);
    insert.run(ORG_ROWID_SPAN + 3, 'In no list yet.', vector(0.75), null);

    new SqliteKnowledgeIndex(db);
    expect(db.prepare('SELECT MAX(version) FROM kb_schema_version').pluck().get()).toBe(11);
    expect(db.prepare('SELECT id, list_id FROM kb_passages ORDER BY id').raw().all()).toEqual([
      [ORG_ROWID_SPAN + 1, 3],
      [ORG_ROWID_SPAN + 2, 5],
      [ORG_ROWID_SPAN + 3, null],
    ]);
    for (const table of ['kb_passages', 'kb_qa']) {
      const plan = db
        .prepare(
          `EXPLAIN QUERY PLAN SELECT id, embedding FROM ${table} WHERE org_id = 1 AND list_id IS NOT NULL AND list_id IN (SELECT value FROM json_each(?))`,
        )
        .all('[3,5]') as { detail: string }[];
      expect(plan.map((p) => p.detail).join(' ')).toContain(`USING COVERING INDEX ${table}_by_list`);
    }
    const inLists = db.prepare(
      'SELECT id, embedding FROM kb_passages WHERE org_id = 1 AND list_id IS NOT NULL AND list_id IN (SELECT value FROM json_each(?)) ORDER BY id',
    );
    expect(inLists.raw().all('[3,5]')).toEqual([
      [ORG_ROWID_SPAN + 1, vector(0.25)],
      [ORG_ROWID_SPAN + 2, vector(0.5)],
    ]);
  });

  it("migrates a version-7 index to the answer library's tables, its entries found by question key through an index", () => {
    migrateKnowledgeIndex(db, 7);
    new SqliteKnowledgeIndex(db);
    expect(db.prepare('SELECT MAX(version) FROM kb_schema_version').pluck().get()).toBe(11);
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'library_%' ORDER BY name").pluck().all();
    expect(tables).toEqual(['library_conflicts', 'library_events', 'library_manual', 'library_settings', 'library_settlements', 'library_state']);
    const plan = db.prepare('EXPLAIN QUERY PLAN SELECT q.id FROM kb_qa q WHERE q.org_id = 1 AND q.qkey = ?').all('id:answers|pt-01') as { detail: string }[];
    expect(plan.map((p) => p.detail).join(' ')).toMatch(/USING (COVERING )?INDEX kb_qa_by_qkey/);
  });

  it('migrates version 8 to 9: entries written before get their question key, and disagreements are in library_conflicts', () => {
    migrateKnowledgeIndex(db, 8);
    db.prepare('INSERT INTO kb_files (org_id, file_id, filename) VALUES (1, 1, ?), (1, 2, ?)').run('a.xlsx', 'b.xlsx');
    const entry = db.prepare(
      `INSERT INTO kb_qa (id, org_id, file_id, question, answer, slots, original_id, tab_name, location, question_stems, stems) VALUES (?, 1, ?, ?, ?, '[]', ?, 'Answers', ?, '', '')`,
    );
    // The same words (case and white space aside) answered differently; the same id within its tab agreeing.
    entry.run(ORG_ROWID_SPAN + 1, 1, 'Do you  encrypt data\nat rest?', 'Yes', null, 'Answers!B2');
    entry.run(ORG_ROWID_SPAN + 2, 2, 'do you encrypt data at rest?', 'No', null, 'Answers!B2');
    entry.run(ORG_ROWID_SPAN + 3, 1, 'Is MFA enforced?', 'Yes', 'PT-01', 'Answers!B3');
    entry.run(ORG_ROWID_SPAN + 4, 2, 'Is MFA enforced for admins?', 'yes', ' pt-01', 'Answers!B3');
    new SqliteKnowledgeIndex(db);
    expect(db.prepare('SELECT qkey FROM kb_qa ORDER BY id').pluck().all()).toEqual([
      'text:do you encrypt data at rest?|',
      'text:do you encrypt data at rest?|',
      'id:answers|pt-01',
      'id:answers|pt-01',
    ]);
    expect(db.prepare('SELECT qkey FROM library_conflicts WHERE org_id = 1').pluck().all()).toEqual(['text:do you encrypt data at rest?|']);
  });

  it('migrates a version-9 index to 10: owners, review intervals, settlements per offering and file dates, added beside what exists', () => {
    migrateKnowledgeIndex(db, 9);
    db.prepare("INSERT INTO library_state (org_id, file_id, location, question, qkey, status) VALUES (1, 2, 'A!B2', 'Q?', 'text:q?|', 'canonical')").run();
    new SqliteKnowledgeIndex(db);
    expect(db.prepare('SELECT MAX(version) FROM kb_schema_version').pluck().get()).toBe(11);
    expect(db.prepare('SELECT status, owner, review_months FROM library_state').get()).toEqual({ status: 'canonical', owner: null, review_months: null });
    const columns = db
      .prepare("SELECT name FROM pragma_table_info('kb_files') WHERE name IN ('as_of', 'valid_until', 'valid_said') ORDER BY name")
      .pluck()
      .all();
    expect(columns).toEqual(['as_of', 'valid_said', 'valid_until']);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'library_settlements'").pluck().get()).toBe('library_settlements');
  });

  it('migrates version 10 to 11: entries gain their section within the sheet, NULL for those written before', () => {
    migrateKnowledgeIndex(db, 10);
    db.prepare('INSERT INTO kb_files (org_id, file_id, filename) VALUES (1, 1, ?)').run('a.xlsx');
    db.prepare(
      `INSERT INTO kb_qa (id, org_id, file_id, question, answer, slots, original_id, tab_name, location, qkey, question_stems, stems)
       VALUES (?, 1, 1, 'Is MFA enforced?', 'Yes', '[]', 'PT-01', 'Answers', 'Answers!B2', 'id:answers|pt-01', '', '')`,
    ).run(ORG_ROWID_SPAN + 1);
    new SqliteKnowledgeIndex(db);
    expect(db.prepare('SELECT MAX(version) FROM kb_schema_version').pluck().get()).toBe(11);
    expect(db.prepare('SELECT question, section FROM kb_qa').all()).toEqual([{ question: 'Is MFA enforced?', section: null }]);
  });

  it('keeps the index whole through many small writes merged FTS_AUTOMERGE segments at a time', async () => {
    const index = new SqliteKnowledgeIndex(db);
    const file = (file_id: number) => ({ org_id: 1, file_id, filename: `f${file_id}.md`, offering_ids: [], scope_includes_company: true, use_as_source: true });
    for (let f = 1; f <= 3 * FTS_AUTOMERGE; f++) {
      const content = `Passage of file ${f} about retention r${f}.`;
      await index.replaceFile(
        file(f),
        [
          {
            page_number: 1,
            section_path: ['P'],
            context_header: 'P',
            content,
            stems: [...stemmedTerms(`P\n${content}`)].join(' '),
            index_header: 'p',
            index_body: textForIndex(content),
            embedding: null,
          },
        ],
        [],
      );
    }
    db.prepare("INSERT INTO kb_passages_fts (kb_passages_fts) VALUES ('integrity-check')").run();
    const found = await index.search({ kind: 'passages', scope: { org_id: 1 }, terms: ['retention'], limit: 100, pool: 100, match: 'any' });
    expect(found.hits).toHaveLength(3 * FTS_AUTOMERGE);
    expect(
      (await index.search({ kind: 'passages', scope: { org_id: 1 }, terms: ['r7'], limit: 10, pool: 10, match: 'any' })).hits.map((h) => h.filename),
    ).toEqual(['f7.md']);
  });
});
