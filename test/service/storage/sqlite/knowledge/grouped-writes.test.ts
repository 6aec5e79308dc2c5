/**
 * The knowledge index's grouped writes on a real database file, watched through a second connection (as
 * another process would see the file): files written at once share one transaction, each write's promise
 * resolves only once its rows are committed, a failing write undoes only its own rows, and a group commits
 * at its size or age limit, when the writes stop, and when the index closes.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openKnowledgeIndexDatabase, type Db } from '../../../../../src/service/storage/sqlite/database';
import { SqliteKnowledgeIndex, type SqliteKnowledgeIndexOptions } from '../../../../../src/service/storage/sqlite/knowledge';
import type { IndexedFile } from '../../../../../src/service/storage/knowledge-index';
import { passageOf } from '../../entries';

const fileOf = (fileId: number, orgId = 1): IndexedFile => ({
  org_id: orgId,
  file_id: fileId,
  filename: `f${fileId}.md`,
  offering_ids: [],
  scope_includes_company: true,
  use_as_source: true,
});
const passages = (fileId: number, n: number) => Array.from({ length: n }, (_, i) => passageOf(`Section ${i}`, `Backups of file ${fileId} item ${i} are encrypted daily.`));
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('grouped writes of the SQLite knowledge index', () => {
  let dir: string;
  let db: Db;
  let other: Database.Database;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'qfill-groups-'));
    db = openKnowledgeIndexDatabase(dir);
  });
  afterEach(() => {
    other?.close();
    if (db.open) db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function open(options: SqliteKnowledgeIndexOptions = {}) {
    const index = new SqliteKnowledgeIndex(db, options);
    other = new Database(join(dir, 'qfill-knowledge.sqlite'), { readonly: true });
    const committedRows = () => (other.prepare('SELECT COUNT(*) AS n FROM kb_passages').get() as { n: number }).n;
    const committedFiles = () => (other.prepare('SELECT file_id FROM kb_files ORDER BY file_id').all() as { file_id: number }[]).map((r) => r.file_id);
    return { index, committedRows, committedFiles };
  }

  it('commits files written at once in one transaction, and resolves each write only once it is committed', async () => {
    const rowsWritten: number[] = [];
    const { index, committedRows, committedFiles } = open({ onRowsWritten: (rows) => rowsWritten.push(rows) });
    const before = index.commits;
    const writes = [1, 2, 3, 4, 5].map((f) => index.replaceFile(fileOf(f), passages(f, 20), []));
    let settled = 0;
    for (const w of writes) void w.then(() => settled++);
    await Promise.resolve();
    // Written on the index's connection, not yet committed: another connection sees none of it.
    expect(committedRows()).toBe(0);
    expect(settled).toBe(0);
    expect((await index.search({ kind: 'passages', terms: ['backups'], match: 'any', scope: { org_id: 1 }, limit: 100, pool: 200 })).hits.length).toBe(100);
    await Promise.all(writes);
    expect(committedRows()).toBe(100);
    expect(committedFiles()).toEqual([1, 2, 3, 4, 5]);
    expect(index.commits - before).toBe(1);
    expect(rowsWritten).toEqual([100]);
  });

  it('a write that fails undoes only its own rows; the others in its group are committed', async () => {
    const { index, committedRows, committedFiles } = open();
    await index.replaceFile(fileOf(2), passages(2, 3), []);
    const good = index.replaceFile(fileOf(1), passages(1, 4), []);
    // Out of the index's organisation range: fails after its file row was written, which is undone.
    const bad = index.replaceFile({ ...fileOf(2), org_id: 2 ** 22 }, passages(2, 5), []);
    const alsoGood = index.replaceFile(fileOf(3), passages(3, 6), []);
    await expect(bad).rejects.toThrow(/outside the knowledge index's range/);
    await Promise.all([good, alsoGood]);
    expect(committedFiles()).toEqual([1, 2, 3]);
    expect(committedRows()).toBe(4 + 3 + 6);
  });

  it('commits a group at its row limit, and every write at an age limit of 0', async () => {
    const bySize = open({ groups: { maxRows: 100 } });
    let before = bySize.index.commits;
    await Promise.all(Array.from({ length: 10 }, (_, f) => bySize.index.replaceFile(fileOf(f + 1), passages(f + 1, 30), [])));
    // 4 files reach 120 rows, 4 more 120, the last 2 commit when the writes stop.
    expect(bySize.index.commits - before).toBe(3);
    expect(bySize.committedRows()).toBe(300);
    other.close();

    const byAge = open({ groups: { maxMs: 0 } });
    before = byAge.index.commits;
    await Promise.all(Array.from({ length: 4 }, (_, f) => byAge.index.replaceFile(fileOf(f + 20), passages(f + 20, 5), [])));
    expect(byAge.index.commits - before).toBe(4);
  });

  it('writes a large file across event-loop turns in several transactions, searchable only once all of it is', async () => {
    const { index, committedRows, committedFiles } = open({ groups: { maxRows: 600 } });
    const reader = new SqliteKnowledgeIndex(new Database(join(dir, 'qfill-knowledge.sqlite')));
    try {
      const before = index.commits;
      let turns = 0;
      let seenMidway = -1;
      const ticker = setInterval(() => turns++, 0);
      const written = index.replaceFile(fileOf(7), passages(7, 2_000), []);
      while (committedRows() < 600) await turn();
      // Rows committed, but the file's scope row comes last: another process finds nothing of it yet.
      seenMidway = (await reader.search({ kind: 'passages', terms: ['backups'], match: 'any', scope: { org_id: 1 }, limit: 10, pool: 50 })).hits.length;
      await written;
      clearInterval(ticker);
      expect(seenMidway).toBe(0);
      expect(committedRows()).toBe(2_000);
      expect(committedFiles()).toEqual([7]);
      expect(index.commits - before).toBeGreaterThanOrEqual(3);
      expect(turns).toBeGreaterThan(0);
      expect((await reader.search({ kind: 'passages', terms: ['backups'], match: 'any', scope: { org_id: 1 }, limit: 10, pool: 50 })).hits.length).toBe(10);
    } finally {
      reader.db.close();
    }
  });

  it('deletes, scope changes and subjects are committed when their promise resolves', async () => {
    const { index, committedFiles } = open();
    await index.replaceFile(fileOf(1), passages(1, 2), []);
    await index.replaceFile(fileOf(2), passages(2, 2), []);
    await index.setFileSubject(1, 1, 'Northwind');
    expect((other.prepare('SELECT subject FROM kb_files WHERE file_id = 1').get() as { subject: string }).subject).toBe('Northwind');
    await index.updateFile({ ...fileOf(2), use_as_source: false });
    expect((other.prepare('SELECT use_as_source FROM kb_files WHERE file_id = 2').get() as { use_as_source: number }).use_as_source).toBe(0);
    await index.deleteFile(1, 1);
    expect(committedFiles()).toEqual([2]);
  });

  it('commits what is written when it closes', async () => {
    const { index, committedRows } = open();
    const written = index.replaceFile(fileOf(1), passages(1, 8), []);
    await index.close();
    await written;
    expect(committedRows()).toBe(8);
    expect(db.inTransaction).toBe(false);
  });
});
