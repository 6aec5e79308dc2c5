/**
 * The knowledge index on PostgreSQL: each lexeme's postings (per batch of a file's rows: ids, term
 * frequencies, lengths, see ./postings.ts) find the rows, and BM25 is computed as SQLite's FTS5 computes
 * it (k1 1.2, b 0.75, the same column weights, document frequencies and lengths over the same lexemes,
 * see ./tokens), so both backends rank alike. Statistics are kept in tables as rows change.
 *
 * A search is two statements: the statistics it needs and its lexemes' postings (scored here, or for
 * 'all' terms, newest first, intersected here; never the matching rows), then the scope's filters and the
 * best rows' contents.
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';
import type * as K from '../../knowledge-index';
import { migratePostgresKnowledgeIndex, TF_TENTHS } from './schema';
import { PostgresVectorLists } from './vectors';
import { indexCounts, indexTokens } from './tokens';
import { IndexUpkeep } from './upkeep';
import { newestHoldingAll, PostingsBuilder, scorePostings, type PostingsChunk } from './postings';
import { numbered } from '../executor';
import { refreshConflictsSql, textInArg } from '../../sql/library-schema';

export { KNOWLEDGE_INDEX_MIGRATIONS, migratePostgresKnowledgeIndex } from './schema';

/** What the index needs of node-postgres: a pool (or anything that lends clients and runs queries). */
export type Queryable = Pick<pg.Pool, 'query' | 'connect'>;

/** Scope tokens FTS5 indexes in every row (org and file columns) count in its lengths; so here too. */
const SCOPE_TOKENS = 2;
/** Rows a statement writes. */
const WRITE_BATCH = 1000;
/**
 * Rows of a file one postings row covers at most: fewer, larger postings rows (a lexeme's postings in a
 * large file are a few rows, not one per batch), while what is gathered stays a few megabytes.
 */
const POSTINGS_ROWS = 8000;

interface Prepared {
  row: Record<string, unknown>;
  /** Lexeme → 10 × weighted occurrences (see TF_TENTHS), in the row's lexeme order. */
  tf: Map<string, number>;
  doclen: number;
}

/** The columns a hit returns, per kind (besides id, file_id and the file's name). */
const HIT_COLUMNS: Record<K.IndexKind, string[]> = {
  passages: ['page_number', 'section_path', 'context_header', 'content', 'stems'],
  qa: ['question', 'answer', 'slots', 'original_id', 'tab_name', 'location', 'question_stems', 'stems'],
};

/**
 * A statement prepared once per connection (named after its text), planned once rather than on every
 * ask. Only for statements whose plan cannot go wrong without their values: the ranked pool's final
 * statement (rows by id from arrays). Not the postings' (a generic plan read every postings row of the
 * organisation, not the lexemes') nor the unranked search's.
 */
function prepared(text: string, values: unknown[]): pg.QueryConfig {
  return { name: `kb_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`, text, values };
}

function toBlob(v: Float32Array): Buffer {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}

function lexeme(word: string): string | null {
  const tokens = indexTokens(word);
  return tokens.length === 1 ? tokens[0]! : null;
}

export interface PostgresKnowledgeIndexOptions {
  /** Vectors of a kind an organisation has before its nearest-neighbour search uses lists (see ./vectors.ts). */
  minVectorsForLists?: number;
  /** Rows written before the first background ANALYZE (see ./upkeep.ts; tests lower it). */
  firstAnalyzeRows?: number;
  /** Rows of a file one postings row covers at most (tests lower it); POSTINGS_ROWS unset. */
  postingsRows?: number;
}

export class PostgresKnowledgeIndex implements K.KnowledgeIndex {
  private readonly vectors: PostgresVectorLists;
  private readonly upkeep: IndexUpkeep;
  private readonly postingsRows: number;

  constructor(
    private readonly db: Queryable,
    options: PostgresKnowledgeIndexOptions = {},
  ) {
    this.postingsRows = options.postingsRows ?? POSTINGS_ROWS;
    this.vectors = new PostgresVectorLists(db, { minVectors: options.minVectorsForLists });
    this.upkeep = new IndexUpkeep(db, options.firstAnalyzeRows);
  }

  /** Resolves when the background ANALYZE and pending-list merge under way (if any) are done (tests, benches). */
  async upkeepSettled(): Promise<string | null> {
    await this.upkeep.settled();
    return this.upkeep.lastError;
  }

  /** Resolves when the vector lists being built in the background are done (tests, benches). */
  async vectorListsSettled(): Promise<string | null> {
    await this.vectors.settled();
    return this.vectors.lastError;
  }

  /** Vectors the last `nearest` read (tests and benches). */
  get vectorsLastScanned(): number {
    return this.vectors.lastScanned;
  }

  /** Applies the index's schema (for databases whose migrations do not include KNOWLEDGE_INDEX_MIGRATIONS). */
  async migrate(): Promise<void> {
    await migratePostgresKnowledgeIndex(this.db);
  }

  async replaceFile(file: K.IndexedFile, passages: Iterable<K.PassageEntry>, qa: Iterable<K.QaEntry>, onProgress?: (stored: number) => void): Promise<void> {
    const listOf = { passages: await this.vectors.listFunction('passages', file.org_id), qa: await this.vectors.listFunction('qa', file.org_id) };
    const vectors = { passages: 0, qa: 0 };
    const written = { passages: 0, qa: 0 };
    await this.transaction(async (c) => {
      await this.saveFile(c, file);
      const keys = await this.deleteContent(c, file.org_id, file.file_id);
      let stored = 0;
      for (const [kind, entries] of [
        ['passages', passages],
        ['qa', qa],
      ] as const) {
        const added = new FileStats();
        const postings = new PostingsBuilder();
        let batch: Prepared[] = [];
        // One batch in flight while the next is prepared: PostgreSQL writes while this thread tokenises.
        let inFlight: Promise<void> = Promise.resolve();
        const flush = async () => {
          await inFlight;
          if (batch.length === 0) return;
          const sent = batch;
          batch = [];
          added.add(sent);
          inFlight = this.insertBatch(c, kind, file, sent).then(async (ids) => {
            postings.add(sent, ids);
            if (postings.rows >= this.postingsRows) await this.insertPostings(c, kind, file, postings);
            stored += sent.length;
            onProgress?.(stored);
          });
          // Handled where it is awaited; a rejection must not go unobserved while the next batch is made.
          inFlight.catch(() => undefined);
        };
        for (const entry of entries as Iterable<K.PassageEntry | K.QaEntry>) {
          const list = listOf[kind](entry.embedding);
          if (entry.embedding) vectors[kind]++;
          if (kind === 'qa') keys.add((entry as K.QaEntry).qkey);
          batch.push(kind === 'passages' ? preparePassage(entry as K.PassageEntry, list) : prepareQa(entry as K.QaEntry, list));
          if (batch.length >= WRITE_BATCH) await flush();
        }
        await flush();
        await inFlight;
        await this.insertPostings(c, kind, file, postings);
        // The file's statistics last, in one statement: the rows of kb_terms and kb_counts it locks
        // (every ingestion touches the common terms) stay locked from here to COMMIT only, so files
        // ingested side by side do not wait for each other's whole transaction.
        await this.addStats(c, kind, file.org_id, added);
        written[kind] = added.rows;
      }
      await refreshConflicts(c, file.org_id, keys);
    });
    this.upkeep.noteWrite('passages', written.passages);
    this.upkeep.noteWrite('qa', written.qa);
    await this.vectors.noteWrite('passages', file.org_id, vectors.passages);
    await this.vectors.noteWrite('qa', file.org_id, vectors.qa);
  }

  async updateFile(file: K.IndexedFile): Promise<void> {
    await this.transaction(async (c) => {
      const before = await c.query<{ filename: string }>('SELECT filename FROM kb_files WHERE org_id = $1 AND file_id = $2', [file.org_id, file.file_id]);
      await this.saveFile(c, file);
      // A new name may make the file supersede, or stop superseding, another of that name.
      if (before.rows[0]?.filename === file.filename) return;
      const answered = await c.query<{ qkey: string }>('SELECT DISTINCT qkey FROM kb_qa WHERE org_id = $1 AND file_id = $2', [file.org_id, file.file_id]);
      await refreshConflicts(c, file.org_id, new Set(answered.rows.map((r) => r.qkey)));
    });
  }

  async deleteFile(orgId: number, fileId: number): Promise<void> {
    await this.transaction(async (c) => {
      await refreshConflicts(c, orgId, await this.deleteContent(c, orgId, fileId));
      await c.query('DELETE FROM kb_file_offerings WHERE org_id = $1 AND file_id = $2', [orgId, fileId]);
      await c.query('DELETE FROM kb_files WHERE org_id = $1 AND file_id = $2', [orgId, fileId]);
    });
  }

  async search<K extends K.IndexKind>(query: K.IndexQuery<K>): Promise<K.IndexSearchResult<K>> {
    const words = query.terms.filter((t) => /^[\p{L}\p{N}]+$/u.test(t));
    const lexemes = words.map(lexeme).filter((l): l is string => l !== null);
    if (lexemes.length === 0) return { hits: [], pool_size: 0 };
    const kind: K.IndexKind = query.kind;
    const table = kind === 'passages' ? 'kb_passages' : 'kb_qa';
    // One phrase per query word, as FTS5 counts them (two words with one stem count twice).
    const multiplicity = new Map<string, number>();
    for (const l of lexemes) multiplicity.set(l, (multiplicity.get(l) ?? 0) + 1);
    const distinct = [...multiplicity.keys()];
    const match = query.match ?? 'any';
    const fileId = query.scope.file_id;
    const oneFile = fileId !== undefined && fileId !== null && Number.isInteger(fileId);
    const offerings = query.scope.offering_ids?.length ? query.scope.offering_ids : null;
    const scopeFile = oneFile ? fileId : null;
    // Ranked: scored from the lexemes' postings (see rankedPool); unranked ('all' terms, newest first):
    // the newest rows their postings hold together (see holdingAllPool). Either is then sent back.
    const ranked =
      match === 'all'
        ? await this.holdingAllPool(kind, query.scope.org_id, scopeFile, distinct, Math.floor(query.pool))
        : await this.rankedPool(
            kind,
            query.scope.org_id,
            scopeFile,
            distinct,
            distinct.map((l) => multiplicity.get(l)!),
            Math.floor(query.pool),
          );
    // $1 the pool's ids, $2 org, $3 file (or null), $4 offerings (or null), $5 pool, $6 limit, $7 files, $8 scores.
    const args: unknown[] = [
      ranked.map((r) => r.id),
      query.scope.org_id,
      scopeFile,
      offerings,
      Math.floor(query.pool),
      Math.floor(query.limit),
      ranked.map((r) => r.fileId),
      ranked.map((r) => r.bm),
    ];
    const pool = 'SELECT p.id, p.file_id, p.bm FROM unnest($1::bigint[], $7::bigint[], $8::float8[]) AS p(id, file_id, bm) LIMIT $5';
    const columns = HIT_COLUMNS[kind].map((c) => `t.${c}`).join(', ');
    // The pool is ranked before the scope's mutable filters (as in SQLite); only the best `limit` rows
    // that pass them are read whole. The first row always comes, carrying the pool's size.
    const text = `WITH pool AS (${pool}),
       passed AS (
         SELECT p.id, p.bm FROM pool p JOIN kb_files f ON f.org_id = $2 AND f.file_id = p.file_id
         WHERE f.use_as_source AND ($3::bigint IS NULL OR f.file_id = $3)
           AND ($4::bigint[] IS NULL OR f.scope_includes_company OR EXISTS (
             SELECT 1 FROM kb_file_offerings o WHERE o.org_id = f.org_id AND o.file_id = f.file_id AND o.offering_id = ANY($4::bigint[])))
         ORDER BY p.bm DESC, p.id LIMIT $6)
       SELECT (SELECT count(*) FROM pool) AS pool_size, h.* FROM (SELECT 1) AS one LEFT JOIN (
         SELECT p.bm, t.id, t.file_id, f.filename, ${columns}
         FROM passed p JOIN ${table} t ON t.id = p.id JOIN kb_files f ON f.org_id = t.org_id AND f.file_id = t.file_id
       ) h ON TRUE`;
    const { rows } = await this.db.query(prepared(text, args));
    const poolSize = Number(rows[0]?.pool_size ?? 0);
    const hits = rows
      .filter((r) => r.id !== null && r.id !== undefined)
      .map((r) => ({ ...hitOf(kind, r), bm: Number(r.bm) }))
      .sort((a, b) => b.bm - a.bm || a.id - b.id);
    return { hits: hits as K.HitOf<K>[], pool_size: poolSize };
  }

  /**
   * The best `pool` rows holding any of `lexemes` by BM25, FTS5's formula: the statistics (average length,
   * each lexeme's IDF times the query words it stands for) and the lexemes' postings in one statement,
   * ordered by lexeme, then scored here (see ./postings.ts).
   */
  private async rankedPool(kind: K.IndexKind, orgId: number, fileId: number | null, lexemes: string[], multiplicity: number[], pool: number) {
    const { rows } = await this.db.query<{
      avgdl: number;
      w: number[];
      i: string | null;
      file_id: string | null;
      first_id: string | null;
      postings: Buffer | null;
    }>(
      `WITH totals AS (SELECT coalesce(sum(rows), 0)::float8 AS n, coalesce(sum(tokens), 0)::float8 AS tokens FROM kb_counts WHERE kind = $1),
       stats AS MATERIALIZED (
         SELECT CASE WHEN tt.n > 0 THEN tt.tokens / tt.n ELSE 1::float8 END AS avgdl,
           array(
             SELECT q.m * (CASE WHEN (tt.n - d.docs + 0.5) / (d.docs + 0.5) <= 1 THEN 1e-6::float8 ELSE ln((tt.n - d.docs + 0.5) / (d.docs + 0.5)) END)
             FROM unnest($3::text[], $4::int[]) WITH ORDINALITY AS q(term, m, i)
               CROSS JOIN LATERAL (SELECT coalesce((SELECT k.docs FROM kb_terms k WHERE k.kind = $1 AND k.term = q.term), 0)::float8 AS docs OFFSET 0) d
             ORDER BY q.i
           ) AS w
         FROM totals tt)
       SELECT s.avgdl, s.w, c.i, c.file_id, c.first_id, c.postings FROM stats s LEFT JOIN (
         SELECT q.i, p.file_id, p.first_id, p.postings
         FROM unnest($3::text[]) WITH ORDINALITY AS q(term, i)
           JOIN kb_postings p ON p.kind = $1 AND p.org_id = $2 AND p.term = q.term AND ($5::bigint IS NULL OR p.file_id = $5)
       ) c ON TRUE
       ORDER BY c.i, c.file_id, c.first_id`,
      [kind, orgId, lexemes, multiplicity, fileId],
    );
    const first = rows[0];
    if (!first) return [];
    const chunks: PostingsChunk[] = rows
      .filter((r) => r.postings !== null)
      .map((r) => ({ term: Number(r.i) - 1, fileId: Number(r.file_id), firstId: Number(r.first_id), bytes: r.postings! }));
    return scorePostings(chunks, first.w.map(Number), Number(first.avgdl), pool).best;
  }

  /**
   * The newest `pool` rows holding every one of `lexemes`, from their postings (see newestHoldingAll):
   * every postings row of the lexemes, in one index scan, intersected here. With many small files a lexeme
   * has a postings row per file; grouping the chunks the lexemes share in SQL first, then joining back for
   * their postings (or reading them newest first until the pool is full, when few rows hold them all)
   * cost several times this scan's few milliseconds.
   */
  private async holdingAllPool(kind: K.IndexKind, orgId: number, fileId: number | null, lexemes: string[], pool: number) {
    const { rows } = await this.db.query<{ i: string; file_id: string; first_id: string; postings: Buffer }>(
      `SELECT q.i, p.file_id, p.first_id, p.postings
       FROM unnest($3::text[]) WITH ORDINALITY AS q(term, i)
         JOIN kb_postings p ON p.kind = $1 AND p.org_id = $2 AND p.term = q.term AND ($4::bigint IS NULL OR p.file_id = $4)`,
      [kind, orgId, lexemes, fileId],
    );
    const chunks: PostingsChunk[] = rows.map((r) => ({ term: Number(r.i) - 1, fileId: Number(r.file_id), firstId: Number(r.first_id), bytes: r.postings }));
    return newestHoldingAll(chunks, lexemes.length, pool).best;
  }

  async byIds<K extends K.IndexKind>(kind: K, scope: K.IndexScope, ids: number[]): Promise<K.HitOf<K>[]> {
    if (ids.length === 0) return [];
    return (await this.fetch(kind, scope, ids)).map((h) => ({ ...h, bm: 0 })) as K.HitOf<K>[];
  }

  /** The rows with these ids that the scope allows, with their file's name. */
  private async fetch(kind: K.IndexKind, scope: K.IndexScope, ids: number[]): Promise<(K.PassageHit | K.QaHit)[]> {
    const offerings = scope.offering_ids?.length ? scope.offering_ids : null;
    const table = kind === 'passages' ? 'kb_passages' : 'kb_qa';
    const { rows } = await this.db.query(
      `SELECT t.id, t.file_id, f.filename, ${HIT_COLUMNS[kind].map((c) => `t.${c}`).join(', ')}
       FROM ${table} t JOIN kb_files f ON f.org_id = t.org_id AND f.file_id = t.file_id
       WHERE t.id = ANY($1::bigint[]) AND t.org_id = $2 AND f.use_as_source
         AND ($3::bigint IS NULL OR f.file_id = $3)
         AND ($4::bigint[] IS NULL OR f.scope_includes_company OR EXISTS (
           SELECT 1 FROM kb_file_offerings o WHERE o.org_id = f.org_id AND o.file_id = f.file_id AND o.offering_id = ANY($4::bigint[])))`,
      [ids, scope.org_id, scope.file_id ?? null, offerings],
    );
    return rows.map((r) => hitOf(kind, r));
  }

  /**
   * The `k` nearest vectors (cosine; embeddings are unit vectors): an exact scan in batches while the
   * organisation has few, then through its vector lists (see ./vectors.ts; pgvector is not installable
   * on these machines). Memory stays bounded whatever the corpus.
   */
  async nearest(kind: K.IndexKind, orgId: number, query: Float32Array, k: number): Promise<number[]> {
    return this.vectors.nearest(kind, orgId, query, k, await this.orgRows(kind, orgId));
  }

  async termDocs(kind: K.IndexKind, terms: K.TermRef[]): Promise<number[]> {
    const lexemes = terms.map((t) => lexeme(t.word) ?? t.stem);
    return this.lexemeDocs(kind, lexemes);
  }

  private async lexemeDocs(kind: K.IndexKind, lexemes: string[]): Promise<number[]> {
    if (lexemes.length === 0) return [];
    const { rows } = await this.db.query<{ term: string; docs: string }>('SELECT term, docs FROM kb_terms WHERE kind = $1 AND term = ANY($2::text[])', [
      kind,
      [...new Set(lexemes)],
    ]);
    const docs = new Map(rows.map((r) => [r.term, Number(r.docs)]));
    return lexemes.map((l) => docs.get(l) ?? 0);
  }

  /** One statement: both kinds' totals, the organisation's rows and each term's document frequency. */
  async termStats(orgId: number, terms: Record<K.IndexKind, K.TermRef[]>): Promise<Record<K.IndexKind, K.KindStats>> {
    const lexemesOf = (kind: K.IndexKind) => terms[kind].map((t) => lexeme(t.word) ?? t.stem);
    const { rows } = await this.db.query<{ kind: K.IndexKind; total: string | number; org: string | number; docs: (string | number)[] | null }>(
      `SELECT k.kind,
         (SELECT coalesce(sum(c.rows), 0) FROM kb_counts c WHERE c.kind = k.kind) AS total,
         (SELECT coalesce(sum(c.rows), 0) FROM kb_counts c WHERE c.kind = k.kind AND c.org_id = $1) AS org,
         array(SELECT coalesce(t.docs, 0) FROM unnest(k.terms) WITH ORDINALITY AS u(term, i)
                 LEFT JOIN kb_terms t ON t.kind = k.kind AND t.term = u.term ORDER BY u.i) AS docs
       FROM (VALUES ('passages', $2::text[]), ('qa', $3::text[])) AS k(kind, terms)`,
      [orgId, lexemesOf('passages'), lexemesOf('qa')],
    );
    const of = (kind: K.IndexKind): K.KindStats => {
      const row = rows.find((r) => r.kind === kind);
      return { total: Number(row?.total ?? 0), org: Number(row?.org ?? 0), docs: (row?.docs ?? []).map(Number) };
    };
    return { passages: of('passages'), qa: of('qa') };
  }

  async totalRows(kind: K.IndexKind): Promise<number> {
    return (await this.totals(kind))[0];
  }

  private async totals(kind: K.IndexKind): Promise<[number, number]> {
    const { rows } = await this.db.query<{ rows: string | null; tokens: string | null }>(
      'SELECT SUM(rows) AS rows, SUM(tokens) AS tokens FROM kb_counts WHERE kind = $1',
      [kind],
    );
    return [Number(rows[0]?.rows ?? 0), Number(rows[0]?.tokens ?? 0)];
  }

  async orgRows(kind: K.IndexKind, orgId: number): Promise<number> {
    const { rows } = await this.db.query<{ rows: string }>('SELECT rows FROM kb_counts WHERE kind = $1 AND org_id = $2', [kind, orgId]);
    return Number(rows[0]?.rows ?? 0);
  }

  async fileFacts(orgId: number, fileId: number, labelQuestions: string[]): Promise<K.FileFacts | null> {
    return (await this.filesFacts(orgId, [fileId], labelQuestions)).get(fileId) ?? null;
  }

  async filesFacts(orgId: number, fileIds: number[], labelQuestions: string[]): Promise<Map<number, K.FileFacts>> {
    const found = new Map<number, K.FileFacts>();
    if (fileIds.length === 0) return found;
    const { rows } = await this.db.query<
      { file_id: string | number; subject: string | null; label: string | null; offerings: (string | number)[] | null } & K.FileDates
    >(
      `SELECT f.file_id, f.subject, f.as_of, f.valid_until, f.valid_said,
         (SELECT q.answer FROM kb_qa q WHERE q.org_id = f.org_id AND q.file_id = f.file_id
            AND lower(trim(q.question)) = ANY($3::text[]) AND length(q.answer) <= 80 ORDER BY q.id LIMIT 1) AS label,
         (SELECT array_agg(o.offering_id ORDER BY o.offering_id) FROM kb_file_offerings o WHERE o.org_id = f.org_id AND o.file_id = f.file_id) AS offerings
       FROM kb_files f WHERE f.org_id = $1 AND f.file_id = ANY($2::bigint[])`,
      [orgId, [...new Set(fileIds)], labelQuestions],
    );
    for (const row of rows) {
      found.set(Number(row.file_id), {
        subject: row.subject,
        label: row.label,
        offering_ids: (row.offerings ?? []).map(Number),
        as_of: row.as_of,
        valid_until: row.valid_until,
        valid_said: row.valid_said,
      });
    }
    return found;
  }

  async setFileSubject(orgId: number, fileId: number, subject: string | null): Promise<void> {
    await this.db.query('UPDATE kb_files SET subject = $1 WHERE org_id = $2 AND file_id = $3', [subject, orgId, fileId]);
  }

  async setFileDates(orgId: number, fileId: number, dates: K.FileDates): Promise<void> {
    await this.db.query('UPDATE kb_files SET as_of = $1, valid_until = $2, valid_said = $3 WHERE org_id = $4 AND file_id = $5', [
      dates.as_of,
      dates.valid_until,
      dates.valid_said,
      orgId,
      fileId,
    ]);
  }

  async orgNames(orgId: number): Promise<string | null> {
    const { rows } = await this.db.query<{ names: string }>('SELECT names FROM kb_org_names WHERE org_id = $1', [orgId]);
    return rows[0]?.names ?? null;
  }

  async setOrgNames(orgId: number, names: string): Promise<void> {
    await this.db.query('INSERT INTO kb_org_names (org_id, names) VALUES ($1, $2) ON CONFLICT (org_id) DO UPDATE SET names = excluded.names', [orgId, names]);
  }

  private async transaction<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.db.connect();
    try {
      await client.query('BEGIN');
      const result = await fn(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  private async saveFile(c: pg.PoolClient, file: K.IndexedFile): Promise<void> {
    await c.query(
      `INSERT INTO kb_files (org_id, file_id, filename, scope_includes_company, use_as_source) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (org_id, file_id) DO UPDATE SET filename = excluded.filename,
         scope_includes_company = excluded.scope_includes_company, use_as_source = excluded.use_as_source`,
      [file.org_id, file.file_id, file.filename, file.scope_includes_company, file.use_as_source],
    );
    await c.query('DELETE FROM kb_file_offerings WHERE org_id = $1 AND file_id = $2', [file.org_id, file.file_id]);
    const offerings = [...new Set(file.offering_ids)];
    if (offerings.length) {
      await c.query('INSERT INTO kb_file_offerings (org_id, file_id, offering_id) SELECT $1, $2, unnest($3::bigint[]) ON CONFLICT DO NOTHING', [
        file.org_id,
        file.file_id,
        offerings,
      ]);
    }
  }

  /**
   * Removes a file's rows and postings and takes them out of the statistics (one statement per kind);
   * returns the question keys its entries answered, whose conflicts the caller refreshes once the file is
   * rewritten.
   */
  private async deleteContent(c: pg.PoolClient, orgId: number, fileId: number): Promise<Set<string>> {
    const answered = await c.query<{ qkey: string }>('SELECT DISTINCT qkey FROM kb_qa WHERE org_id = $1 AND file_id = $2', [orgId, fileId]);
    for (const [kind, table] of [
      ['passages', 'kb_passages'],
      ['qa', 'kb_qa'],
    ] as const) {
      const { rows } = await c.query<{ term: string; docs: string | number }>(
        `WITH gone AS (DELETE FROM ${table} WHERE org_id = $2 AND file_id = $3 RETURNING doclen),
         counted AS (
           UPDATE kb_counts k SET rows = k.rows - g.n, tokens = k.tokens - g.tokens
           FROM (SELECT count(*) AS n, coalesce(sum(doclen), 0) AS tokens FROM gone) g
           WHERE k.org_id = $2 AND k.kind = $1 AND g.n > 0),
         postings AS (DELETE FROM kb_postings WHERE org_id = $2 AND file_id = $3 AND kind = $1 RETURNING term, length(postings) / 12 AS n)
         UPDATE kb_terms k SET docs = k.docs - d.n
         FROM (SELECT term, sum(n) AS n FROM postings GROUP BY term) d
         WHERE k.kind = $1 AND k.term = d.term
         RETURNING k.term, k.docs`,
        [kind, orgId, fileId],
      );
      const unused = rows.filter((r) => Number(r.docs) <= 0).map((r) => r.term);
      if (unused.length) await c.query('DELETE FROM kb_terms WHERE kind = $1 AND term = ANY($2::text[]) AND docs <= 0', [kind, unused]);
    }
    return new Set(answered.rows.map((r) => r.qkey));
  }

  /**
   * A batch of rows in one statement, their ids drawn first (for their postings, see PostingsBuilder);
   * their statistics are added once per file (see addStats).
   */
  private async insertBatch(c: pg.PoolClient, kind: K.IndexKind, file: K.IndexedFile, batch: Prepared[]): Promise<number[]> {
    const table = kind === 'passages' ? 'kb_passages' : 'kb_qa';
    const { rows: drawn } = await c.query<{ id: string }>(`SELECT nextval(pg_get_serial_sequence('${table}', 'id')) AS id FROM generate_series(1, $1)`, [
      batch.length,
    ]);
    const ids = drawn.map((r) => r.id);
    const columns = Object.keys(batch[0]!.row);
    const all = ['id', ...columns, 'doclen'];
    // Sent as arrays: one parameter per column, whatever the batch.
    const types: Record<string, string> = { id: 'bigint', page_number: 'int', embedding: 'bytea', list_id: 'int', doclen: 'int' };
    const args = all.map((col) => batch.map((p, i) => (col === 'id' ? ids[i] : col === 'doclen' ? p.doclen : p.row[col])));
    await c.query(
      `INSERT INTO ${table} (org_id, file_id, ${all.join(', ')})
       SELECT $1, $2, ${all.map((col) => `u.${col}`).join(', ')}
       FROM unnest(${all.map((col, i) => `$${i + 3}::${types[col] ?? 'text'}[]`).join(', ')}) AS u(${all.join(', ')})`,
      [file.org_id, file.file_id, ...args],
    );
    return ids.map(Number);
  }

  /** The postings gathered so far, a postings row per lexeme, in one statement. */
  private async insertPostings(c: pg.PoolClient, kind: K.IndexKind, file: K.IndexedFile, builder: PostingsBuilder): Promise<void> {
    const packed = builder.take();
    if (!packed) return;
    await c.query(
      `INSERT INTO kb_postings (kind, org_id, term, file_id, first_id, postings)
       SELECT $1, $2, p.term, $3, $4, p.postings FROM unnest($5::text[], $6::bytea[]) AS p(term, postings)`,
      [kind, file.org_id, file.file_id, packed.firstId, packed.terms, packed.bytes],
    );
  }

  /** What a file's rows add to the statistics: document frequencies, rows and tokens, in one statement. */
  private async addStats(c: pg.PoolClient, kind: K.IndexKind, orgId: number, added: FileStats): Promise<void> {
    if (added.rows === 0) return;
    // Terms in one order in every transaction, so concurrent ingestions lock kb_terms rows alike.
    const terms = [...added.docs.keys()].sort();
    await c.query(
      `WITH terms AS (
         INSERT INTO kb_terms (kind, term, docs) SELECT $2, t, d FROM unnest($3::text[], $4::bigint[]) AS u(t, d)
         ON CONFLICT (kind, term) DO UPDATE SET docs = kb_terms.docs + excluded.docs)
       INSERT INTO kb_counts (org_id, kind, rows, tokens) VALUES ($1, $2, $5, $6)
       ON CONFLICT (org_id, kind) DO UPDATE SET rows = kb_counts.rows + excluded.rows, tokens = kb_counts.tokens + excluded.tokens`,
      [orgId, kind, terms, terms.map((t) => added.docs.get(t)!), added.rows, added.tokens],
    );
  }
}

/** The statistics a file's rows add, summed over its batches. */
class FileStats {
  readonly docs = new Map<string, number>();
  rows = 0;
  tokens = 0;

  add(batch: Prepared[]): void {
    this.rows += batch.length;
    for (const p of batch) {
      this.tokens += p.doclen;
      for (const l of p.tf.keys()) this.docs.set(l, (this.docs.get(l) ?? 0) + 1);
    }
  }
}

function prepare(kind: K.IndexKind, row: Record<string, unknown>, head: string, body: string): Prepared {
  const headTokens = indexTokens(head);
  const bodyTokens = indexTokens(body);
  const counts = indexCounts([
    { tokens: headTokens, weight: 'A' },
    { tokens: bodyTokens, weight: '' },
  ]);
  const tenths = TF_TENTHS[kind];
  const tf = new Map<string, number>();
  for (const [l, { a, d }] of counts) tf.set(l, tenths.a * a + tenths.d * d);
  return { row, tf, doclen: headTokens.length + bodyTokens.length + SCOPE_TOKENS };
}

function preparePassage(p: K.PassageEntry, list: number | null): Prepared {
  return prepare(
    'passages',
    {
      page_number: p.page_number,
      section_path: JSON.stringify(p.section_path),
      context_header: p.context_header,
      content: p.content,
      stems: p.stems,
      embedding: p.embedding ? toBlob(p.embedding) : null,
      list_id: list,
    },
    p.index_header,
    p.index_body,
  );
}

function prepareQa(q: K.QaEntry, list: number | null): Prepared {
  return prepare(
    'qa',
    {
      question: q.question,
      answer: q.answer,
      slots: JSON.stringify(q.slots),
      original_id: q.original_id,
      tab_name: q.tab_name,
      location: q.location,
      qkey: q.qkey,
      section: q.section ?? null,
      question_stems: q.question_stems,
      stems: q.stems,
      embedding: q.embedding ? toBlob(q.embedding) : null,
      list_id: list,
    },
    q.index_question,
    q.index_answer,
  );
}

/** The answer library's conflicts of these question keys, as the file's new entries make them (../../sql/library-schema.ts). */
async function refreshConflicts(c: pg.PoolClient, orgId: number, keys: Set<string>): Promise<void> {
  if (keys.size === 0) return;
  for (const statement of refreshConflictsSql('postgres')) await c.query(numbered(statement), [orgId, textInArg('postgres', [...keys])]);
}

/** A row of HIT_COLUMNS (with id, file_id, filename) as a hit, `bm` 0. */
function hitOf(kind: K.IndexKind, r: Record<string, unknown>): K.PassageHit | K.QaHit {
  const common = { id: Number(r.id), file_id: Number(r.file_id), filename: r.filename as string, stems: r.stems as string, bm: 0 };
  if (kind === 'passages') {
    return {
      ...common,
      page_number: Number(r.page_number),
      section_path: JSON.parse(r.section_path as string) as string[],
      context_header: r.context_header as string,
      content: r.content as string,
    };
  }
  return {
    ...common,
    question: r.question as string,
    answer: r.answer as string,
    slots: JSON.parse(r.slots as string) as K.QaSlot[],
    original_id: (r.original_id as string | null) ?? null,
    tab_name: r.tab_name as string,
    location: r.location as string,
    question_stems: r.question_stems as string,
  };
}
