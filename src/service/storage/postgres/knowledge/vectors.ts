/**
 * Nearest-neighbour search of an organisation's embeddings on PostgreSQL, as on SQLite (see
 * ../../sqlite/knowledge/vectors.ts): exact below `minVectors`, then vector lists (../../ivf.ts) built in
 * the background by the process that noticed, shared with every other process through kb_vector_lists.
 */
import type { IndexKind } from '../../knowledge-index';
import { buildVectorLists, ListBuilds, listOf, listsFromBytes, listsToBytes, MIN_VECTORS_FOR_LISTS, vectorFromBytes, type StoredLists } from '../../ivf';
import { nearestVectors, type VectorRow } from '../../nearest';
import type { Queryable } from './index';

/** Lists read per statement by a query. */
const LISTS_PER_READ = 16;
/** How long a process trusts that an organisation has no (ready) lists before it looks again. */
const ABSENT_TTL_MS = 5_000;

const TABLES: Record<IndexKind, string> = { passages: 'kb_passages', qa: 'kb_qa' };

export class PostgresVectorLists {
  private readonly stored = new Map<string, { value: StoredLists; at: number }>();
  private readonly builds: ListBuilds;
  lastScanned = 0;

  constructor(
    private readonly db: Queryable,
    options: { minVectors?: number } = {},
  ) {
    this.builds = new ListBuilds(options.minVectors ?? MIN_VECTORS_FOR_LISTS);
  }

  /** The organisation's lists (read again after ABSENT_TTL_MS while absent or not ready). */
  async lists(kind: IndexKind, orgId: number): Promise<StoredLists> {
    const key = `${kind}:${orgId}`;
    const cached = this.stored.get(key);
    if (cached && (cached.value?.ready || Date.now() - cached.at < ABSENT_TTL_MS)) return cached.value;
    const { rows } = await this.db.query<{ dim: number; coarse: Buffer; fine: Buffer; ready: boolean }>(
      'SELECT dim, coarse, fine, ready FROM kb_vector_lists WHERE org_id = $1 AND kind = $2',
      [orgId, kind],
    );
    const row = rows[0];
    const value: StoredLists = row ? { lists: listsFromBytes(row.dim, row.coarse, row.fine), ready: row.ready } : null;
    // Bounded: one entry per organisation and kind.
    if (this.stored.size >= 64) this.stored.clear();
    this.stored.set(key, { value, at: Date.now() });
    return value;
  }

  /** The list function for rows written now (null lists: none yet). */
  async listFunction(kind: IndexKind, orgId: number): Promise<(embedding: Float32Array | null) => number | null> {
    const stored = await this.lists(kind, orgId);
    return (embedding) => (embedding && stored ? listOf(stored.lists, embedding) : null);
  }

  /** After a committed write of `vectors` embeddings: see ListBuilds.noteWrite (../../ivf.ts). */
  noteWrite(kind: IndexKind, orgId: number, vectors: number): Promise<void> {
    return this.builds.noteWrite(`${kind}:${orgId}`, vectors, {
      stored: () => this.lists(kind, orgId),
      countUpTo: (limit) => this.countUpTo(kind, orgId, limit),
      build: () => this.build(kind, orgId),
    });
  }

  get lastError(): string | null {
    return this.builds.lastError;
  }

  settled(): Promise<void> {
    return this.builds.settled();
  }

  private async countUpTo(kind: IndexKind, orgId: number, limit: number): Promise<number> {
    const { rows } = await this.db.query<{ n: string }>(
      `SELECT count(*) AS n FROM (SELECT 1 FROM ${TABLES[kind]} WHERE org_id = $1 AND embedding IS NOT NULL LIMIT $2) s`,
      [orgId, limit],
    );
    return Number(rows[0]?.n ?? 0);
  }

  private async read(kind: IndexKind, orgId: number, after: number, limit: number, unassigned: boolean) {
    const { rows } = await this.db.query<{ id: string; embedding: Buffer }>(
      `SELECT id, embedding FROM ${TABLES[kind]} WHERE org_id = $1 AND embedding IS NOT NULL${unassigned ? ' AND list_id IS NULL' : ''}
         AND id > $2 ORDER BY id LIMIT $3`,
      [orgId, after === -Infinity ? 0 : after, limit],
    );
    return rows.map((r) => ({ id: Number(r.id), embedding: vectorFromBytes(r.embedding) }));
  }

  private async build(kind: IndexKind, orgId: number): Promise<void> {
    const key = `${kind}:${orgId}`;
    await buildVectorLists({
      vectors: (after, limit) => this.read(kind, orgId, after, limit, false),
      unassigned: (after, limit) => this.read(kind, orgId, after, limit, true),
      stored: async () => (await this.lists(kind, orgId))?.lists ?? null,
      assign: async (lists) => {
        if (lists.length === 0) return;
        await this.db.query(`UPDATE ${TABLES[kind]} t SET list_id = u.list FROM unnest($1::bigint[], $2::int[]) AS u(id, list) WHERE t.id = u.id`, [
          lists.map(([id]) => id),
          lists.map(([, list]) => list),
        ]);
      },
      keep: async (lists) => {
        const bytes = listsToBytes(lists);
        await this.db.query(
          `INSERT INTO kb_vector_lists (org_id, kind, dim, coarse, fine, ready) VALUES ($1, $2, $3, $4, $5, FALSE)
             ON CONFLICT (org_id, kind) DO NOTHING`,
          [orgId, kind, lists.dim, bytes.coarse, bytes.fine],
        );
        this.stored.delete(key);
        return (await this.lists(kind, orgId))!.lists;
      },
      ready: async () => {
        await this.db.query('UPDATE kb_vector_lists SET ready = TRUE WHERE org_id = $1 AND kind = $2', [orgId, kind]);
        this.stored.delete(key);
      },
    });
  }

  /** See nearestVectors (../../nearest.ts); `rows`: how many rows of the kind the organisation has. */
  async nearest(kind: IndexKind, orgId: number, query: Float32Array, k: number, rows: number): Promise<number[]> {
    const stored = await this.lists(kind, orgId);
    const read = async (sql: string, params: unknown[]) =>
      (await this.db.query<{ id: string; embedding: Buffer }>(sql, params)).rows.map((r): VectorRow => [Number(r.id), r.embedding]);
    const found = await nearestVectors(
      {
        listsPerRead: LISTS_PER_READ,
        inLists: (lists) =>
          read(`SELECT id, embedding FROM ${TABLES[kind]} WHERE org_id = $1 AND list_id IS NOT NULL AND list_id = ANY($2::int[])`, [orgId, lists]),
        batchAfter: (after, limit) =>
          read(`SELECT id, embedding FROM ${TABLES[kind]} WHERE org_id = $1 AND embedding IS NOT NULL AND id > $2 ORDER BY id LIMIT $3`, [
            orgId,
            after ?? 0,
            limit,
          ]),
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
