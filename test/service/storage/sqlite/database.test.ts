import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { databasePath, NEW_DATABASE_PAGE_SIZE, openDatabase } from '../../../../src/service/storage/sqlite/database';
import { SqliteKnowledgeIndex } from '../../../../src/service/storage/sqlite/knowledge';

describe('the SQLite database file', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'qfill-database-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is made with large pages, so a passage row does not leave most of its page empty', async () => {
    const db = openDatabase(dir);
    try {
      expect(NEW_DATABASE_PAGE_SIZE).toBe(32_768);
      expect(db.pragma('page_size', { simple: true })).toBe(NEW_DATABASE_PAGE_SIZE);
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      // Rows of about 3 KB: fifty of them take a handful of pages, not one page each.
      const index = new SqliteKnowledgeIndex(db);
      const words = Array.from({ length: 450 }, (_, i) => `word${i}`).join(' ');
      const passages = Array.from({ length: 50 }, (_, n) => ({
        page_number: 1,
        section_path: [],
        context_header: '',
        content: `${n} ${words}`,
        stems: words,
        index_header: '',
        index_body: `${n} ${words}`,
        embedding: null,
      }));
      const file = { org_id: 1, file_id: 1, filename: 'a.md', offering_ids: [], scope_includes_company: true, use_as_source: true };
      await index.replaceFile(file, passages, []);
      const pages = db.prepare("SELECT COUNT(*) FROM dbstat WHERE name = 'kb_passages'").pluck().get() as number;
      expect(pages).toBeLessThan(15);
    } finally {
      db.close();
    }
  });

  it('keeps the page size an existing database was made with, and everything in it', () => {
    const old = new Database(databasePath(dir));
    old.pragma('page_size = 4096');
    old.pragma('journal_mode = WAL');
    old.exec("CREATE TABLE kept (v TEXT); INSERT INTO kept VALUES ('before')");
    old.close();
    const db = openDatabase(dir);
    try {
      expect(db.pragma('page_size', { simple: true })).toBe(4096);
      expect(db.prepare('SELECT v FROM kept').pluck().all()).toEqual(['before']);
      // The service's own tables were added to it as usual.
      expect(db.prepare("SELECT COUNT(*) FROM sqlite_schema WHERE name = 'schema_migrations'").pluck().get()).toBe(1);
    } finally {
      db.close();
    }
  });
});
