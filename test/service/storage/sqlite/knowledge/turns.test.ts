/**
 * Files written at once take turns: one write transaction a turn of the event loop, so a request waits
 * for at most one file's slice, however many files are being indexed.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteKnowledgeIndex } from '../../../../../src/service/storage/sqlite/knowledge';
import { WriteTurns } from '../../../../../src/service/storage/sqlite/knowledge/turns';
import { passageOf } from '../../entries';

/** Counts the event loop's turns: an immediate queued by an immediate runs on the next turn. */
function turnCounter() {
  const counter = { turn: 0, running: true };
  const tick = () => {
    counter.turn++;
    if (counter.running) setImmediate(tick);
  };
  setImmediate(tick);
  return counter;
}

describe('write turns', () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  });

  it('resumes callers one a turn, in the order they asked', async () => {
    const counter = turnCounter();
    cleanups.push(() => (counter.running = false));
    const turns = new WriteTurns();
    const resumed: { caller: number; turn: number }[] = [];
    await Promise.all([1, 2, 3].map((caller) => turns.next().then(() => resumed.push({ caller, turn: counter.turn }))));
    expect(resumed.map((r) => r.caller)).toEqual([1, 2, 3]);
    expect(new Set(resumed.map((r) => r.turn)).size).toBe(3);
  });

  it('writes two large files at once with never two transactions in one turn, and finds both whole', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'qfill-turns-'));
    const db = new Database(join(dir, 'kb.sqlite'));
    cleanups.push(() => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    });
    const counter = turnCounter();
    cleanups.push(() => (counter.running = false));
    const committedInTurn: number[] = [];
    const index = new SqliteKnowledgeIndex(db, { onRowsWritten: () => committedInTurn.push(counter.turn) });
    const file = (fileId: number, word: string) => ({
      meta: { org_id: 1, file_id: fileId, filename: `${word}.txt`, offering_ids: [], scope_includes_company: true, use_as_source: true },
      // Larger than one batch, so the file is written in several transactions.
      passages: Array.from({ length: 2000 }, (_, i) =>
        passageOf(`${word} section ${i}`, `The ${word} control number ${i} is reviewed every year by the security team.`),
      ),
    });
    const files = [file(1, 'encryption'), file(2, 'retention')];
    await Promise.all(files.map((f) => index.replaceFile(f.meta, f.passages, [])));

    expect(committedInTurn.length).toBeGreaterThanOrEqual(8);
    expect(new Set(committedInTurn).size).toBe(committedInTurn.length);
    expect(await index.orgRows('passages', 1)).toBe(4000);
  });
});
