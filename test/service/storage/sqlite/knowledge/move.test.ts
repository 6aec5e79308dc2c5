/**
 * A data folder from before the knowledge index had its own file: opening it moves the index's tables
 * out of the store's database, once, with every row and full-text entry, and a move interrupted after its
 * copy finishes on the next open without copying again.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../../src/service/storage/sqlite/database';
import { SqliteKnowledgeIndex } from '../../../../../src/service/storage/sqlite/knowledge';
import { openStorage, type Storage } from '../../../../../src/service/storage/open';
import type { IndexedFile } from '../../../../../src/service/storage/knowledge-index';
import { passageOf, qaOf } from '../../entries';

const fileOf = (fileId: number, offering_ids: number[] = []): IndexedFile => ({
  org_id: 1,
  file_id: fileId,
  filename: `f${fileId}.md`,
  offering_ids,
  scope_includes_company: false,
  use_as_source: true,
});

/** Writes a file into an index kept in the store's own database, as data folders were before. */
async function indexInStore(dir: string, fileId: number, word: string): Promise<void> {
  const db = openDatabase(dir);
  const index = new SqliteKnowledgeIndex(db);
  await index.replaceFile(fileOf(fileId, [3]), [passageOf('Backups', `Backups are ${word} nightly.`)], [qaOf(`Is data ${word}?`, 'Yes, always.')]);
  await index.setFileSubject(1, fileId, 'Northwind');
  await index.setOrgNames(1, 'Northwind Traders');
  await index.close();
  db.close();
}

const storeTables = (dir: string) => {
  const db = new Database(join(dir, 'qfill.sqlite'), { readonly: true });
  try {
    return (db.prepare("SELECT name FROM sqlite_master WHERE name LIKE 'kb\\_%' ESCAPE '\\'").all() as { name: string }[]).map((r) => r.name);
  } finally {
    db.close();
  }
};

describe('moving the knowledge index out of the store database', () => {
  let dir: string;
  let storage: Storage | null;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'qfill-move-'));
    storage = null;
  });
  afterEach(async () => {
    await storage?.store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const query = { match: 'any' as const, scope: { org_id: 1, offering_ids: [3] }, limit: 10, pool: 20 };
  const search = (word: string) => storage!.knowledgeIndex!.search({ ...query, kind: 'passages', terms: [word] });
  const searchQa = (word: string) => storage!.knowledgeIndex!.search({ ...query, kind: 'qa', terms: [word] });

  it('moves every table and full-text entry into the index file and drops them from the store', async () => {
    await indexInStore(dir, 5, 'encrypted');
    expect(storeTables(dir)).toContain('kb_passages_fts');
    storage = await openStorage({ dataDir: dir });
    expect(storeTables(dir)).toEqual([]);
    const index = storage.knowledgeIndex!;
    expect((await search('encrypted')).hits.map((h) => [h.file_id, h.content])).toEqual([[5, 'Backups are encrypted nightly.']]);
    expect((await searchQa('encrypted')).hits.map((h) => h.answer)).toEqual(['Yes, always.']);
    expect(await index.fileFacts(1, 5, [])).toEqual({ subject: 'Northwind', label: null, offering_ids: [3] });
    expect(await index.orgNames(1)).toBe('Northwind Traders');
    expect(await index.orgRows('passages', 1)).toBe(1);
    // New rows continue after the moved ones.
    await index.replaceFile(fileOf(6, [3]), [passageOf('Keys', 'Keys are encrypted too.')], []);
    expect((await search('encrypted')).hits.map((h) => h.file_id).sort()).toEqual([5, 6]);
    await storage.store.close();

    storage = await openStorage({ dataDir: dir });
    expect((await search('encrypted')).hits.map((h) => h.file_id).sort()).toEqual([5, 6]);
  });

  it('after a move interrupted between its copy and its drop, drops the old tables without copying them again', async () => {
    await indexInStore(dir, 5, 'encrypted');
    storage = await openStorage({ dataDir: dir });
    await storage.store.close();
    storage = null;
    // The store's tables back, with other rows: as if the process had stopped before dropping them.
    await indexInStore(dir, 9, 'archived');
    storage = await openStorage({ dataDir: dir });
    expect(storeTables(dir)).toEqual([]);
    expect((await search('archived')).hits).toEqual([]);
    expect((await search('encrypted')).hits.map((h) => h.file_id)).toEqual([5]);
  });
});
