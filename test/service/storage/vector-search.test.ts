/**
 * Nearest-neighbour search of embeddings past the vector-list threshold, on a real database: the lists
 * are built in the background, a query reads a part of the organisation's vectors and still finds
 * nearly all of the exact top 10; rows written later, deleted rows, other organisations and vectors of
 * another dimension are handled. Below the threshold the search is the exact scan.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IndexedFile, KnowledgeIndex, PassageEntry } from '../../../src/service/storage/knowledge-index';
import pg from 'pg';
import { SqliteKnowledgeIndex } from '../../../src/service/storage/sqlite/knowledge';
import { PostgresKnowledgeIndex } from '../../../src/service/storage/postgres/knowledge';
import { createTestDatabase } from '../postgres';
import { passageOf } from './entries';
import { clusteredVectors, exactNearest } from './vectors';

interface VectorBackend {
  index: KnowledgeIndex;
  /** Background list builds finished; their error, if any. */
  settled(): Promise<string | null>;
  /** Vectors the last nearest() read. */
  scanned(): number;
  /** Rows with an embedding and no list, and whether the organisation's lists are ready. */
  state(orgId: number): Promise<{ unassigned: number; ready: boolean }>;
  /** As if a build had stopped midway: lists not ready, every other row without its list. */
  interrupt(orgId: number): Promise<void>;
  /** A new index on the same database (a restarted process: nothing cached). */
  reopen(): void;
  close(): Promise<void>;
}

const MIN_VECTORS = 1_000;
const DIM = 32;

/** A database as the backends below need it: statements written with $1, $2 ... placeholders. */
interface Connection {
  run(sql: string, params: unknown[]): Promise<void>;
  value(sql: string, params: unknown[]): Promise<unknown>;
  newIndex(): KnowledgeIndex & { vectorListsSettled(): Promise<string | null>; readonly vectorsLastScanned: number };
  close(): Promise<void>;
}

/** The same SQL on both (`(1 = 0)` is 0 on SQLite and false on PostgreSQL). */
function backendOn(connection: Connection): VectorBackend {
  let index = connection.newIndex();
  return {
    get index() {
      return index;
    },
    settled: () => index.vectorListsSettled(),
    scanned: () => index.vectorsLastScanned,
    interrupt: async (orgId) => {
      await connection.run("UPDATE kb_vector_lists SET ready = (1 = 0) WHERE org_id = $1 AND kind = 'passages'", [orgId]);
      await connection.run('UPDATE kb_passages SET list_id = NULL WHERE org_id = $1 AND id % 2 = 0', [orgId]);
    },
    reopen: () => {
      index = connection.newIndex();
    },
    state: async (orgId) => ({
      unassigned: Number(await connection.value('SELECT COUNT(*) FROM kb_passages WHERE org_id = $1 AND embedding IS NOT NULL AND list_id IS NULL', [orgId])),
      ready: Boolean(await connection.value("SELECT ready FROM kb_vector_lists WHERE org_id = $1 AND kind = 'passages'", [orgId])),
    }),
    close: () => connection.close(),
  };
}

async function sqliteVectors(): Promise<VectorBackend> {
  const dir = mkdtempSync(join(tmpdir(), 'qfill-vec-'));
  const db = new Database(join(dir, 'kb.sqlite'));
  db.pragma('journal_mode = WAL');
  const positional = (sql: string) => sql.replace(/\$\d+/g, '?');
  return backendOn({
    run: async (sql, params) => void db.prepare(positional(sql)).run(...params),
    value: async (sql, params) =>
      db
        .prepare(positional(sql))
        .pluck()
        .get(...params),
    newIndex: () => new SqliteKnowledgeIndex(db, { minVectorsForLists: MIN_VECTORS }),
    close: async () => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  });
}

async function postgresVectors(): Promise<VectorBackend> {
  const database = await createTestDatabase();
  const pool = new pg.Pool({ connectionString: database.url, max: 3 });
  await new PostgresKnowledgeIndex(pool).migrate();
  return backendOn({
    run: async (sql, params) => void (await pool.query(sql, params)),
    value: async (sql, params) => {
      const { rows } = await pool.query({ text: sql, values: params, rowMode: 'array' });
      return (rows[0] as unknown[] | undefined)?.[0];
    },
    newIndex: () => new PostgresKnowledgeIndex(pool, { minVectorsForLists: MIN_VECTORS }),
    close: async () => {
      await pool.end();
      await database.drop();
    },
  });
}

function file(org_id: number, file_id: number): IndexedFile {
  return { org_id, file_id, filename: `v${file_id}.md`, offering_ids: [], scope_includes_company: true, use_as_source: true };
}

const entry = (n: number, v: Float32Array): PassageEntry => ({ ...passageOf('Vectors', `Passage number ${n}.`), embedding: v });

describe.each([
  ['SQLite', sqliteVectors],
  ['PostgreSQL', postgresVectors],
])('nearest vectors on %s', (_name, open) => {
  let backend: VectorBackend;
  /** Row id -> vector, of organisation 1 (read back from the index by content). */
  const stored = new Map<number, Float32Array>();
  const vectors = clusteredVectors(12_000, DIM, 60);
  const queries = clusteredVectors(60, DIM, 60, 99);

  beforeAll(async () => {
    backend = await open();
    // 900 vectors: below the threshold, exact.
    await backend.index.replaceFile(
      file(1, 1),
      vectors.slice(0, 900).map((v, n) => entry(n, v)),
      [],
    );
    for (const hit of (await backend.index.search({ kind: 'passages', scope: { org_id: 1 }, terms: ['passage'], limit: 900, pool: 900, match: 'any' })).hits) {
      stored.set(hit.id, vectors[Number(/number (\d+)/.exec(hit.content)![1])]!);
    }
  }, 60_000);

  afterAll(async () => backend?.close());

  it('searches exactly below the threshold: the exact top 10, reading every vector', async () => {
    for (const q of queries.slice(0, 10)) {
      expect(await backend.index.nearest('passages', 1, q, 10)).toEqual(exactNearest(stored, q, 10));
      expect(backend.scanned()).toBe(900);
    }
    expect((await backend.state(1)).ready).toBe(false);
  });

  it('builds lists past the threshold, then reads a part of the vectors and finds at least 90 % of the exact top 10', async () => {
    for (let f = 0; f < 111; f++) {
      const from = 900 + f * 100;
      await backend.index.replaceFile(
        file(1, 10 + f),
        vectors.slice(from, from + 100).map((v, n) => entry(from + n, v)),
        [],
      );
    }
    expect(await backend.settled()).toBeNull();
    expect(await backend.state(1)).toEqual({ unassigned: 0, ready: true });
    for (const hit of (await backend.index.search({ kind: 'passages', scope: { org_id: 1 }, terms: ['passage'], limit: 20_000, pool: 20_000, match: 'any' }))
      .hits) {
      stored.set(hit.id, vectors[Number(/number (\d+)/.exec(hit.content)![1])]!);
    }
    expect(stored.size).toBe(12_000);
    let found = 0;
    let scanned = 0;
    for (const q of queries) {
      const exact = new Set(exactNearest(stored, q, 10));
      const ids = await backend.index.nearest('passages', 1, q, 10);
      expect(ids).toHaveLength(10);
      found += ids.filter((id) => exact.has(id)).length;
      scanned += backend.scanned();
    }
    expect(found / (queries.length * 10)).toBeGreaterThanOrEqual(0.9);
    expect(scanned / queries.length).toBeLessThan(12_000 * 0.5);
  }, 120_000);

  it('gives rows written after the lists theirs when written, and finds them', async () => {
    const fresh = clusteredVectors(50, DIM, 60, 1234);
    await backend.index.replaceFile(
      file(1, 500),
      fresh.map((v, n) => entry(20_000 + n, v)),
      [],
    );
    expect((await backend.state(1)).unassigned).toBe(0);
    for (const [n, v] of fresh.entries()) {
      const id = (
        await backend.index.search({ kind: 'passages', scope: { org_id: 1, file_id: 500 }, terms: [`${20_000 + n}`], limit: 1, pool: 5, match: 'any' })
      ).hits[0]!.id;
      expect((await backend.index.nearest('passages', 1, v, 1))[0]).toBe(id);
    }
  });

  it("never returns a deleted row, another organisation's, or a vector of another dimension", async () => {
    const target = vectors[5_000]!;
    const before = await backend.index.nearest('passages', 1, target, 5);
    await backend.index.replaceFile(file(2, 900), [entry(1, target), entry(2, target)], []);
    await backend.index.replaceFile(file(1, 901), [entry(3, Float32Array.from([1, 0, 0]))], []);
    expect(await backend.index.nearest('passages', 1, target, 5)).toEqual(before);
    const owner = (await backend.index.byIds('passages', { org_id: 1 }, [before[0]!]))[0]!;
    await backend.index.deleteFile(1, owner.file_id);
    const after = await backend.index.nearest('passages', 1, target, 5);
    expect(after).not.toContain(before[0]);
    expect(after).toHaveLength(5);
    expect(await backend.index.nearest('passages', 1, Float32Array.from([1, 0, 0]), 3)).toHaveLength(1);
  });
  it('finishes lists a build left unfinished (a restart midway): exact until every row has its list again', async () => {
    await backend.interrupt(1);
    backend.reopen();
    expect((await backend.state(1)).ready).toBe(false);
    const total = stored.size;
    await backend.index.nearest('passages', 1, queries[0]!, 10);
    expect(backend.scanned()).toBeGreaterThan(total / 2);
    await backend.index.replaceFile(file(1, 902), [entry(30_000, vectors[7]!)], []);
    expect(await backend.settled()).toBeNull();
    // The vector of another dimension (file 901) has no list and never will.
    expect(await backend.state(1)).toEqual({ unassigned: 1, ready: true });
    await backend.index.nearest('passages', 1, queries[0]!, 10);
    expect(backend.scanned()).toBeLessThan(total / 2);
  });
});

describe('nearest vectors on SQLite beside another process writing to the same file', () => {
  let dir: string;
  let reader: Database.Database;
  let writer: Database.Database;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'qfill-vec-two-'));
    reader = new Database(join(dir, 'kb.sqlite'));
    reader.pragma('journal_mode = WAL');
    writer = new Database(join(dir, 'kb.sqlite'));
  });
  afterAll(() => {
    reader?.close();
    writer?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("keeps ready lists across the other connection's commits, and reads lists it built since", async () => {
    const here = new SqliteKnowledgeIndex(reader, { minVectorsForLists: MIN_VECTORS });
    const there = new SqliteKnowledgeIndex(writer, { minVectorsForLists: MIN_VECTORS });
    const vectors = clusteredVectors(1_500, DIM, 30, 7);
    for (let f = 0; f < 15; f++)
      await here.replaceFile(
        file(1, f + 1),
        vectors.slice(f * 100, f * 100 + 100).map((v, n) => entry(f * 100 + n, v)),
        [],
      );
    expect(await here.vectorListsSettled()).toBeNull();
    expect(await here.nearest('passages', 1, vectors[3]!, 10)).toHaveLength(10);
    const reads = here.vectorListReads;

    // The other process writes rows of organisation 1 (they get their lists there) and builds organisation 2's.
    const fresh = clusteredVectors(20, DIM, 30, 8);
    await there.replaceFile(
      file(1, 100),
      fresh.map((v, n) => entry(5_000 + n, v)),
      [],
    );
    await here.nearest('passages', 2, vectors[0]!, 10);
    for (let f = 0; f < 15; f++)
      await there.replaceFile(
        file(2, f + 1),
        vectors.slice(f * 100, f * 100 + 100).map((v, n) => entry(f * 100 + n, v)),
        [],
      );
    expect(await there.vectorListsSettled()).toBeNull();

    // Organisation 1's ready lists were not read again, and the other process's new rows are found through them.
    const newest = (await here.search({ kind: 'passages', scope: { org_id: 1, file_id: 100 }, terms: ['5007'], limit: 1, pool: 5, match: 'any' })).hits[0]!.id;
    expect((await here.nearest('passages', 1, fresh[7]!, 1))[0]).toBe(newest);
    expect(here.vectorListReads).toBe(reads + 1);
    // Organisation 2 had none when asked: its lists, built by the other process, are read now and used.
    expect(await here.nearest('passages', 2, vectors[0]!, 10)).toHaveLength(10);
    expect(here.vectorListReads).toBe(reads + 2);
  }, 60_000);
});
