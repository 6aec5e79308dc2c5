/**
 * Nearest-neighbour search of an organisation's embeddings on SQLite: an exact scan while it has fewer
 * than `minVectors` of a kind, then vector lists (see ../../ivf.ts): trained once in the background from
 * a sample, every row given its list (rows written later get theirs when written), and a query reads only
 * the lists it probes from the `(org_id, list_id, embedding)` index, which holds a list's vectors side by
 * side (schema version 7), without visiting their rows. Memory stays bounded either way: vectors are
 * read in batches and only the best `k` kept.
 */
import type { Database, Statement } from 'better-sqlite3';
import type { IndexKind } from '../../knowledge-index';
import { buildVectorLists, ListBuilds, listOf, listsFromBytes, listsToBytes, MIN_VECTORS_FOR_LISTS, vectorFromBytes, type StoredLists } from '../../ivf';
import { nearestVectors, type VectorRow } from '../../nearest';

/** Lists read per statement by a query. */
const LISTS_PER_READ = 8;

interface EmbeddingRow {
  id: number;
  embedding: Buffer;
}

interface ListsRow {
  dim: number;
  coarse: Buffer;
  fine: Buffer;
  ready: number;
}

export interface VectorListsOptions {
  /** See MIN_VECTORS_FOR_LISTS (tests lower it). */
  minVectors?: number;
}

export class SqliteVectorLists {
  private readonly stored = new Map<string, StoredLists>();
  private reads = 0;
  private readonly builds: ListBuilds;
  /** Vectors the last query read (tests and benches: how much of the organisation a search touches). */
  lastScanned = 0;
  private readonly statements: Record<
    IndexKind,
    {
      range: Statement<{ org: number; after: number; hi: number; limit: number }, EmbeddingRow>;
      inLists: Statement<{ org: number; lists: string }, [number, Buffer]>;
      unassigned: Statement<{ org: number; after: number; hi: number; limit: number }, EmbeddingRow>;
      setList: Statement<[number | null, number]>;
      countUpTo: Statement<{ org: number; lo: number; hi: number; limit: number }, number>;
    }
  >;
  private readonly getLists: Statement<[number, IndexKind], ListsRow>;
  private readonly putLists: Statement<{ org: number; kind: IndexKind; dim: number; coarse: Buffer; fine: Buffer }>;
  private readonly setReady: Statement<[number, IndexKind]>;

  constructor(
    private readonly db: Database,
    options: VectorListsOptions = {},
  ) {
    this.builds = new ListBuilds(options.minVectors ?? MIN_VECTORS_FOR_LISTS);
    // NOT INDEXED: these walk the organisation's rowid range in order. Left to itself the planner takes
    // the (org_id, file_id) index for `org_id = ?` and sorts every row of the organisation for each batch
    // of 2,000: 5.7 s a query at 100,000 vectors, growing with the square of the corpus.
    const of = (table: string) => ({
      range: db.prepare<{ org: number; after: number; hi: number; limit: number }, EmbeddingRow>(
        `SELECT id, embedding FROM ${table} NOT INDEXED WHERE id > @after AND id <= @hi AND org_id = @org AND embedding IS NOT NULL ORDER BY id LIMIT @limit`,
      ),
      inLists: db
        .prepare<{ org: number; lists: string }, [number, Buffer]>(
          `SELECT id, embedding FROM ${table} WHERE org_id = @org AND list_id IS NOT NULL AND list_id IN (SELECT value FROM json_each(@lists))`,
        )
        .raw(),
      unassigned: db.prepare<{ org: number; after: number; hi: number; limit: number }, EmbeddingRow>(
        `SELECT id, embedding FROM ${table} NOT INDEXED WHERE id > @after AND id <= @hi AND org_id = @org AND embedding IS NOT NULL AND list_id IS NULL ORDER BY id LIMIT @limit`,
      ),
      setList: db.prepare<[number | null, number]>(`UPDATE ${table} SET list_id = ? WHERE id = ?`),
      countUpTo: db
        .prepare<{ org: number; lo: number; hi: number; limit: number }, number>(
          `SELECT COUNT(*) FROM (SELECT 1 FROM ${table} NOT INDEXED WHERE id BETWEEN @lo AND @hi AND org_id = @org AND embedding IS NOT NULL LIMIT @limit)`,
        )
        .pluck(),
    });
    this.statements = { passages: of('kb_passages'), qa: of('kb_qa') };
    this.getLists = db.prepare<[number, IndexKind], ListsRow>('SELECT dim, coarse, fine, ready FROM kb_vector_lists WHERE org_id = ? AND kind = ?');
    this.putLists = db.prepare(
      'INSERT INTO kb_vector_lists (org_id, kind, dim, coarse, fine, ready) VALUES (@org, @kind, @dim, @coarse, @fine, 0) ON CONFLICT (org_id, kind) DO NOTHING',
    );
    this.setReady = db.prepare<[number, IndexKind]>('UPDATE kb_vector_lists SET ready = 1 WHERE org_id = ? AND kind = ?');
  }

  private lists(kind: IndexKind, orgId: number): StoredLists {
    const key = `${kind}:${orgId}`;
    if (!this.stored.has(key)) {
      const row = this.getLists.get(orgId, kind);
      this.reads++;
      // Bounded: one entry per organisation and kind searched (about 4 MB each at 1,024 dimensions).
      if (this.stored.size >= 64) this.stored.clear();
      this.stored.set(key, row ? { lists: listsFromBytes(row.dim, row.coarse, row.fine), ready: row.ready === 1 } : null);
    }
    return this.stored.get(key)!;
  }

  /**
   * Another connection committed: lists it may have stored or finished since are read again when next
   * needed. Ready lists never change (rows written later get their list as they are written), so they
   * stay: beside a process that writes steadily, every query would otherwise read and decode them again
   * (about 1.5 MB at 384 dimensions).
   */
  forget(): void {
    for (const [key, stored] of this.stored) if (!stored?.ready) this.stored.delete(key);
  }

  /** How many times lists were read from the table (tests). */
  get listReads(): number {
    return this.reads;
  }

  /** The list a row written now belongs in (null: no lists yet, or a vector of another dimension). */
  listFor(kind: IndexKind, orgId: number, embedding: Float32Array | null): number | null {
    if (!embedding) return null;
    const stored = this.lists(kind, orgId);
    return stored ? listOf(stored.lists, embedding) : null;
  }

  /** After a committed write of `vectors` embeddings: see ListBuilds.noteWrite (../../ivf.ts). */
  noteWrite(kind: IndexKind, orgId: number, vectors: number, range: { lo: number; hi: number }): Promise<void> {
    return this.builds.noteWrite(`${kind}:${orgId}`, vectors, {
      stored: async () => this.lists(kind, orgId),
      countUpTo: async (limit) => this.statements[kind].countUpTo.get({ org: orgId, ...range, limit }) ?? 0,
      build: () => this.build(kind, orgId, range),
    });
  }

  /** The last background build's failure (the search stays exact meanwhile). */
  get lastError(): string | null {
    return this.builds.lastError;
  }

  /** Resolves when every background build started so far has ended (tests, benches). */
  settled(): Promise<void> {
    return this.builds.settled();
  }

  private async build(kind: IndexKind, orgId: number, range: { lo: number; hi: number }): Promise<void> {
    const st = this.statements[kind];
    const key = `${kind}:${orgId}`;
    const read = (rows: EmbeddingRow[]) => rows.map((r) => ({ id: r.id, embedding: vectorFromBytes(r.embedding) }));
    const from = (after: number) => (after === -Infinity ? range.lo - 1 : after);
    await buildVectorLists({
      vectors: async (after, limit) => read(st.range.all({ org: orgId, after: from(after), hi: range.hi, limit })),
      unassigned: async (after, limit) => read(st.unassigned.all({ org: orgId, after: from(after), hi: range.hi, limit })),
      stored: async () => this.lists(kind, orgId)?.lists ?? null,
      assign: async (lists) => {
        this.db.transaction(() => {
          for (const [id, list] of lists) st.setList.run(list, id);
        })();
      },
      keep: async (lists) => {
        this.putLists.run({ org: orgId, kind, dim: lists.dim, ...listsToBytes(lists) });
        this.stored.delete(key);
        return this.lists(kind, orgId)!.lists;
      },
      ready: async () => {
        this.setReady.run(orgId, kind);
        this.stored.delete(key);
      },
    });
  }

  /** See nearestVectors (../../nearest.ts); `rows`: how many rows of the kind the organisation has. */
  async nearest(kind: IndexKind, orgId: number, query: Float32Array, k: number, range: { lo: number; hi: number }, rows: number): Promise<number[]> {
    const st = this.statements[kind];
    const stored = this.lists(kind, orgId);
    const found = await nearestVectors(
      {
        listsPerRead: LISTS_PER_READ,
        inLists: async (lists) => st.inLists.all({ org: orgId, lists: JSON.stringify(lists) }),
        batchAfter: async (after, limit) =>
          st.range.all({ org: orgId, after: after ?? range.lo - 1, hi: range.hi, limit }).map((r): VectorRow => [r.id, r.embedding]),
      },
      stored?.ready ? stored.lists : null,
      query,
      k,
      rows,
    );
    this.lastScanned = found.scanned;
    return found.ids;
  }
}
