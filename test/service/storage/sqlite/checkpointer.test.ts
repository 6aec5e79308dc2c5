/**
 * The WAL checkpointing thread on a real database file: it copies the log while the index writes, the
 * log stays bounded, it ends when idle or asked, and the data read back is what was written.
 */
import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WalCheckpointer, type CheckpointerOptions } from '../../../../src/service/storage/sqlite/checkpointer';
import { openDatabase, databasePath, type Db } from '../../../../src/service/storage/sqlite/database';
import { SqliteKnowledgeIndex } from '../../../../src/service/storage/sqlite/knowledge';
import { createSqliteStore } from '../../../../src/service/storage/sqlite/store';
import { passageOf } from '../entries';

const words = 'access backup cipher data encryption firewall gateway hash identity journal key log monitor network'.split(' ');

/** A passage of about 150 words (deterministic), so a file of them spans many pages. */
function longPassage(file: number, n: number) {
  const text = Array.from({ length: 150 }, (_, i) => words[(file * 7 + n * 3 + i * 11) % words.length]).join(' ');
  return passageOf(`Section ${file}.${n}`, `${text} item${file}x${n}.`);
}

async function until(condition: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('WalCheckpointer', () => {
  let dir: string;
  let db: Db;
  let checkpointer: WalCheckpointer | null;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'qfill-ckpt-'));
    db = openDatabase(dir);
    checkpointer = null;
  });
  afterEach(async () => {
    await checkpointer?.stop();
    if (db.open) db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function indexWith(options: CheckpointerOptions) {
    const cp = new WalCheckpointer(db, options);
    checkpointer = cp;
    return { cp, index: new SqliteKnowledgeIndex(db, { onRowsWritten: (rows) => cp.noteWrites(rows) }) };
  }

  async function writeFiles(index: SqliteKnowledgeIndex, files: number, perFile: number, from = 0) {
    for (let f = from; f < from + files; f++) {
      const file = { org_id: 1, file_id: f + 1, filename: `f${f}.md`, offering_ids: [], scope_includes_company: true, use_as_source: true };
      await index.replaceFile(
        file,
        Array.from({ length: perFile }, (_, n) => longPassage(f, n)),
        [],
      );
    }
  }

  it('starts only after enough rows, then copies the log into the database file from its own thread', async () => {
    // The writer itself would not checkpoint before a gigabyte of log: what reaches the file is the thread's.
    const { cp, index } = indexWith({ startAfterRows: 200, checkpointEveryRows: 50, writerFallbackBytes: 2 ** 30 });
    await writeFiles(index, 3, 50);
    expect(cp.running).toBe(false);
    const before = statSync(databasePath(dir)).size;
    await writeFiles(index, 10, 50, 3);
    expect(cp.running).toBe(true);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(2 ** 30 / (db.pragma('page_size', { simple: true }) as number));
    await until(() => cp.checkpoints > 0 && statSync(databasePath(dir)).size > before + 1_000_000);
    expect(cp.lastError).toBeNull();
    // What the file holds is what was written: a fresh connection reading the file sees every row.
    const other = new Database(databasePath(dir), { readonly: true });
    try {
      expect(other.prepare('SELECT COUNT(*) FROM kb_passages').pluck().get()).toBe(650);
      expect(other.prepare("SELECT COUNT(*) FROM kb_passages_fts WHERE kb_passages_fts MATCH 'item12x49'").pluck().get()).toBe(1);
    } finally {
      other.close();
    }
  });

  it('keeps the log bounded while a large upload is written', async () => {
    const { cp, index } = indexWith({ startAfterRows: 50, checkpointEveryRows: 50, writerFallbackBytes: 256 * 1024 });
    await writeFiles(index, 150, 50);
    expect(cp.started).toBe(1);
    const wal = statSync(`${databasePath(dir)}-wal`).size;
    const data = statSync(databasePath(dir)).size;
    // Written without restarting (the thread's PASSIVE copies never catch up with a busy writer), the
    // log would hold every page at least once: more than the database file.
    expect(data).toBeGreaterThan(15_000_000);
    expect(wal).toBeLessThan(data / 3);
  });

  it('ends after a quiet while, gives the writer its checkpoints back, and starts again on the next large write', async () => {
    const { cp, index } = indexWith({ startAfterRows: 100, checkpointEveryRows: 50, writerFallbackBytes: 2 ** 30, idleExitMs: 300, settleMs: 50 });
    await writeFiles(index, 3, 50);
    expect(cp.running).toBe(true);
    await until(() => !cp.running);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    await writeFiles(index, 3, 50, 3);
    expect(cp.running).toBe(true);
    expect(cp.started).toBe(2);
  });

  it('stops with the store, before its connection closes, and starts no other', async () => {
    const cp = new WalCheckpointer(db, { startAfterRows: 1 });
    const store = createSqliteStore(db, { beforeClose: () => cp.stop() });
    const index = new SqliteKnowledgeIndex(db, { onRowsWritten: (rows) => cp.noteWrites(rows) });
    await writeFiles(index, 1, 20);
    expect(cp.running).toBe(true);
    await store.close();
    expect(cp.running).toBe(false);
    expect(db.open).toBe(false);
    cp.noteWrites(1_000);
    expect(cp.running).toBe(false);
  });

  it('never starts on a database without a log file of its own', async () => {
    const memory = new Database(':memory:');
    try {
      const cp = new WalCheckpointer(memory, { startAfterRows: 1 });
      const index = new SqliteKnowledgeIndex(memory, { onRowsWritten: (rows) => cp.noteWrites(rows) });
      await writeFiles(index, 1, 20);
      expect(cp.running).toBe(false);
      expect(existsSync(join(dir, ':memory:-wal'))).toBe(false);
    } finally {
      memory.close();
    }
  });
});
