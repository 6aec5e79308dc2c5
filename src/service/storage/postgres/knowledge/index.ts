/**
 * The knowledge index on PostgreSQL: tsvector + GIN finds the rows, and BM25 is computed as SQLite's
 * FTS5 computes it (k1 1.2, b 0.75, the same column weights, document frequencies and lengths over the
 * same lexemes, see ./tokens), so both backends rank alike. Statistics are kept in tables as rows change.
 */
import type pg from 'pg';
import type {
  FileFacts,
  HitOf,
  IndexedFile,
  IndexKind,
  IndexQuery,
  IndexScope,
  IndexSearchResult,
  KnowledgeIndex,
  PassageEntry,
  PassageHit,
  QaEntry,
  QaHit,
  QaSlot,
  TermRef,
} from '../../knowledge-index';
import { keepBest } from '../../nearest';
import { migratePostgresKnowledgeIndex } from './schema';
import { indexTokens, tsqueryLiteral, tsvectorLiteral } from './tokens';

export { KNOWLEDGE_INDEX_MIGRATIONS, migratePostgresKnowledgeIndex } from './schema';

/** What the index needs of node-postgres: a pool (or anything that lends clients and runs queries). */
export type Queryable = Pick<pg.Pool, 'query' | 'connect'>;

const K1 = 1.2;
const B = 0.75;
/** Column weights, as SQLite's bm25() gets them: [heading or question ('A'), body or answer]. */
const WEIGHTS: Record<IndexKind, [number, number]> = { passages: [0.5, 1.0], qa: [1.0, 0.3] };
/** Scope tokens FTS5 indexes in every row (org and file columns) count in its lengths; so here too. */
const SCOPE_TOKENS = 2;
const WRITE_BATCH = 500;
const VECTOR_BATCH = 2000;

interface Prepared {
  row: Record<string, unknown>;
  tsv: string;
  doclen: number;
  lexemes: Set<string>;
}

function toBlob(v: Float32Array): Buffer {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}

function fromBlob(blob: Buffer): Float32Array {
  const copy = new Uint8Array(blob.byteLength);
  copy.set(blob);
  return new Float32Array(copy.buffer);
}

function lexeme(word: string): string | null {
  const tokens = indexTokens(word);
  return tokens.length === 1 ? tokens[0]! : null;
}

export class PostgresKnowledgeIndex implements KnowledgeIndex {
  constructor(private readonly db: Queryable) {}

  /** Applies the index's schema (for databases whose migrations do not include KNOWLEDGE_INDEX_MIGRATIONS). */
  async migrate(): Promise<void> {
    await migratePostgresKnowledgeIndex(this.db);
  }

  async replaceFile(file: IndexedFile, passages: Iterable<PassageEntry>, qa: Iterable<QaEntry>, onProgress?: (stored: number) => void): Promise<void> {
    await this.transaction(async (c) => {
      await this.saveFile(c, file);
      await this.deleteContent(c, file.org_id, file.file_id);
      let stored = 0;
      for (const [kind, entries] of [['passages', passages], ['qa', qa]] as const) {
        let batch: Prepared[] = [];
        const flush = async () => {
          if (batch.length === 0) return;
          await this.insertBatch(c, kind, file, batch);
          stored += batch.length;
          batch = [];
          onProgress?.(stored);
        };
        for (const entry of entries as Iterable<PassageEntry | QaEntry>) {
          batch.push(kind === 'passages' ? preparePassage(entry as PassageEntry) : prepareQa(entry as QaEntry));
          if (batch.length >= WRITE_BATCH) await flush();
        }
        await flush();
      }
    });
  }

  async updateFile(file: IndexedFile): Promise<void> {
    await this.transaction((c) => this.saveFile(c, file));
  }

  async deleteFile(orgId: number, fileId: number): Promise<void> {
    await this.transaction(async (c) => {
      await this.deleteContent(c, orgId, fileId);
      await c.query('DELETE FROM kb_file_offerings WHERE org_id = $1 AND file_id = $2', [orgId, fileId]);
      await c.query('DELETE FROM kb_files WHERE org_id = $1 AND file_id = $2', [orgId, fileId]);
    });
  }

  async search<K extends IndexKind>(query: IndexQuery<K>): Promise<IndexSearchResult<K>> {
    const words = query.terms.filter((t) => /^[\p{L}\p{N}]+$/u.test(t));
    const lexemes = words.map(lexeme).filter((l): l is string => l !== null);
    if (lexemes.length === 0) return { hits: [], pool_size: 0 };
    const table = query.kind === 'passages' ? 'kb_passages' : 'kb_qa';
    const tsquery = tsqueryLiteral([...new Set(lexemes)], query.match ?? 'any');
    const fileId = query.scope.file_id;
    const oneFile = fileId !== undefined && fileId !== null && Number.isInteger(fileId);
    const args: unknown[] = [tsquery, query.scope.org_id];
    if (oneFile) args.push(fileId);
    const where = `t.tsv @@ $1::tsquery AND t.org_id = $2${oneFile ? ' AND t.file_id = $3' : ''}`;

    let pool: { id: number; bm: number }[];
    if (query.match === 'all') {
      // Unranked: newest first, and PostgreSQL stops after the pool.
      const { rows } = await this.db.query<{ id: string }>(`SELECT t.id FROM ${table} t WHERE ${where} ORDER BY t.id DESC LIMIT ${Math.floor(query.pool)}`, args);
      pool = rows.map((r) => ({ id: Number(r.id), bm: 1 }));
    } else {
      pool = await this.ranked(query.kind, table, where, args, lexemes, query.pool);
    }
    if (pool.length === 0) return { hits: [], pool_size: 0 };
    const hits = await this.fetch(query.kind, query.scope, pool.map((p) => p.id));
    const bm = new Map(pool.map((p) => [p.id, p.bm]));
    const ordered = hits
      .map((h) => ({ ...h, bm: bm.get(h.id) ?? 0 }))
      .sort((a, b) => b.bm - a.bm || a.id - b.id)
      .slice(0, query.limit);
    return { hits: ordered as HitOf<K>[], pool_size: pool.length };
  }

  /** Every matching row's BM25 (FTS5's formula), best `pool` first. */
  private async ranked(kind: IndexKind, table: string, where: string, args: unknown[], lexemes: string[], pool: number): Promise<{ id: number; bm: number }[]> {
    const distinct = [...new Set(lexemes)];
    const { rows } = await this.db.query<{ id: string; doclen: number; lexeme: string; a: number; d: number }>(
      `SELECT t.id, t.doclen, u.lexeme,
         cardinality(array_positions(u.weights, 'A')) AS a,
         cardinality(u.positions) - cardinality(array_positions(u.weights, 'A')) AS d
       FROM ${table} t CROSS JOIN LATERAL unnest(t.tsv) AS u
       WHERE ${where} AND u.lexeme = ANY($${args.length + 1}::text[])`,
      [...args, distinct],
    );
    const [n, tokens] = await this.totals(kind);
    const avgdl = n > 0 ? tokens / n : 1;
    const docs = await this.lexemeDocs(kind, distinct);
    const idf = new Map(distinct.map((l, i) => {
      const hit = docs[i] ?? 0;
      const v = Math.log((n - hit + 0.5) / (hit + 0.5));
      return [l, v <= 0 ? 1e-6 : v];
    }));
    const [wa, wd] = WEIGHTS[kind];
    const perRow = new Map<number, { doclen: number; freq: Map<string, number> }>();
    for (const r of rows) {
      const id = Number(r.id);
      let entry = perRow.get(id);
      if (!entry) perRow.set(id, (entry = { doclen: r.doclen, freq: new Map() }));
      entry.freq.set(r.lexeme, wa * Number(r.a) + wd * Number(r.d));
    }
    const scored = [...perRow].map(([id, { doclen, freq }]) => {
      let score = 0;
      // One phrase per query word, as FTS5 counts them (two words with one stem count twice).
      for (const l of lexemes) {
        const f = freq.get(l) ?? 0;
        score += (idf.get(l) ?? 0) * ((f * (K1 + 1)) / (f + K1 * (1 - B + (B * doclen) / avgdl)));
      }
      return { id, bm: score };
    });
    scored.sort((a, b) => b.bm - a.bm || a.id - b.id);
    return scored.slice(0, pool);
  }

  async byIds<K extends IndexKind>(kind: K, scope: IndexScope, ids: number[]): Promise<HitOf<K>[]> {
    if (ids.length === 0) return [];
    return (await this.fetch(kind, scope, ids)).map((h) => ({ ...h, bm: 0 })) as HitOf<K>[];
  }

  /** The rows with these ids that the scope allows, with their file's name. */
  private async fetch(kind: IndexKind, scope: IndexScope, ids: number[]): Promise<(PassageHit | QaHit)[]> {
    const offerings = scope.offering_ids?.length ? scope.offering_ids : null;
    const filter = `t.id = ANY($1::bigint[]) AND t.org_id = $2 AND f.use_as_source
      AND ($3::bigint IS NULL OR f.file_id = $3)
      AND ($4::bigint[] IS NULL OR f.scope_includes_company OR EXISTS (
        SELECT 1 FROM kb_file_offerings o WHERE o.org_id = f.org_id AND o.file_id = f.file_id AND o.offering_id = ANY($4::bigint[])))`;
    const args = [ids, scope.org_id, scope.file_id ?? null, offerings];
    if (kind === 'passages') {
      const { rows } = await this.db.query(
        `SELECT t.id, t.file_id, f.filename, t.page_number, t.section_path, t.context_header, t.content, t.stems
         FROM kb_passages t JOIN kb_files f ON f.org_id = t.org_id AND f.file_id = t.file_id WHERE ${filter}`,
        args,
      );
      return rows.map((r) => ({
        id: Number(r.id),
        file_id: Number(r.file_id),
        filename: r.filename as string,
        page_number: Number(r.page_number),
        section_path: JSON.parse(r.section_path as string) as string[],
        context_header: r.context_header as string,
        content: r.content as string,
        stems: r.stems as string,
        bm: 0,
      }));
    }
    const { rows } = await this.db.query(
      `SELECT t.id, t.file_id, f.filename, t.question, t.answer, t.slots, t.original_id, t.tab_name, t.location, t.question_stems, t.stems
       FROM kb_qa t JOIN kb_files f ON f.org_id = t.org_id AND f.file_id = t.file_id WHERE ${filter}`,
      args,
    );
    return rows.map((r) => ({
      id: Number(r.id),
      file_id: Number(r.file_id),
      filename: r.filename as string,
      question: r.question as string,
      answer: r.answer as string,
      slots: JSON.parse(r.slots as string) as QaSlot[],
      original_id: (r.original_id as string | null) ?? null,
      tab_name: r.tab_name as string,
      location: r.location as string,
      question_stems: r.question_stems as string,
      stems: r.stems as string,
      bm: 0,
    }));
  }

  /**
   * Cosine over the organisation's vectors, read in batches with only the best `k` kept: memory stays
   * bounded whatever the corpus (pgvector is not installable on these machines; each query reads them).
   */
  async nearest(kind: IndexKind, orgId: number, query: Float32Array, k: number): Promise<number[]> {
    const table = kind === 'passages' ? 'kb_passages' : 'kb_qa';
    const best: [number, number][] = [];
    let after = 0;
    for (;;) {
      const { rows } = await this.db.query<{ id: string; embedding: Buffer }>(
        `SELECT id, embedding FROM ${table} WHERE org_id = $1 AND embedding IS NOT NULL AND id > $2 ORDER BY id LIMIT ${VECTOR_BATCH}`,
        [orgId, after],
      );
      for (const r of rows) keepBest(best, Number(r.id), dot(fromBlob(r.embedding), query), k);
      if (rows.length < VECTOR_BATCH) break;
      after = Number(rows[rows.length - 1]!.id);
    }
    return best.map(([id]) => id);
  }

  async termDocs(kind: IndexKind, terms: TermRef[]): Promise<number[]> {
    const lexemes = terms.map((t) => lexeme(t.word) ?? t.stem);
    return this.lexemeDocs(kind, lexemes);
  }

  private async lexemeDocs(kind: IndexKind, lexemes: string[]): Promise<number[]> {
    if (lexemes.length === 0) return [];
    const { rows } = await this.db.query<{ term: string; docs: string }>('SELECT term, docs FROM kb_terms WHERE kind = $1 AND term = ANY($2::text[])', [
      kind,
      [...new Set(lexemes)],
    ]);
    const docs = new Map(rows.map((r) => [r.term, Number(r.docs)]));
    return lexemes.map((l) => docs.get(l) ?? 0);
  }

  async totalRows(kind: IndexKind): Promise<number> {
    return (await this.totals(kind))[0];
  }

  private async totals(kind: IndexKind): Promise<[number, number]> {
    const { rows } = await this.db.query<{ rows: string | null; tokens: string | null }>(
      'SELECT SUM(rows) AS rows, SUM(tokens) AS tokens FROM kb_counts WHERE kind = $1',
      [kind],
    );
    return [Number(rows[0]?.rows ?? 0), Number(rows[0]?.tokens ?? 0)];
  }

  async orgRows(kind: IndexKind, orgId: number): Promise<number> {
    const { rows } = await this.db.query<{ rows: string }>('SELECT rows FROM kb_counts WHERE kind = $1 AND org_id = $2', [kind, orgId]);
    return Number(rows[0]?.rows ?? 0);
  }

  async fileFacts(orgId: number, fileId: number, labelQuestions: string[]): Promise<FileFacts | null> {
    const { rows } = await this.db.query<{ subject: string | null; label: string | null; offerings: string[] | null }>(
      `SELECT f.subject,
         (SELECT q.answer FROM kb_qa q WHERE q.org_id = f.org_id AND q.file_id = f.file_id
            AND lower(trim(q.question)) = ANY($3::text[]) AND length(q.answer) <= 80 ORDER BY q.id LIMIT 1) AS label,
         (SELECT array_agg(o.offering_id ORDER BY o.offering_id) FROM kb_file_offerings o WHERE o.org_id = f.org_id AND o.file_id = f.file_id) AS offerings
       FROM kb_files f WHERE f.org_id = $1 AND f.file_id = $2`,
      [orgId, fileId, labelQuestions],
    );
    const row = rows[0];
    return row ? { subject: row.subject, label: row.label, offering_ids: (row.offerings ?? []).map(Number) } : null;
  }

  async setFileSubject(orgId: number, fileId: number, subject: string | null): Promise<void> {
    await this.db.query('UPDATE kb_files SET subject = $1 WHERE org_id = $2 AND file_id = $3', [subject, orgId, fileId]);
  }

  async orgNames(orgId: number): Promise<string | null> {
    const { rows } = await this.db.query<{ names: string }>('SELECT names FROM kb_org_names WHERE org_id = $1', [orgId]);
    return rows[0]?.names ?? null;
  }

  async setOrgNames(orgId: number, names: string): Promise<void> {
    await this.db.query(
      'INSERT INTO kb_org_names (org_id, names) VALUES ($1, $2) ON CONFLICT (org_id) DO UPDATE SET names = excluded.names',
      [orgId, names],
    );
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

  private async saveFile(c: pg.PoolClient, file: IndexedFile): Promise<void> {
    await c.query(
      `INSERT INTO kb_files (org_id, file_id, filename, scope_includes_company, use_as_source) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (org_id, file_id) DO UPDATE SET filename = excluded.filename,
         scope_includes_company = excluded.scope_includes_company, use_as_source = excluded.use_as_source`,
      [file.org_id, file.file_id, file.filename, file.scope_includes_company, file.use_as_source],
    );
    await c.query('DELETE FROM kb_file_offerings WHERE org_id = $1 AND file_id = $2', [file.org_id, file.file_id]);
    const offerings = [...new Set(file.offering_ids)];
    if (offerings.length) {
      await c.query(
        'INSERT INTO kb_file_offerings (org_id, file_id, offering_id) SELECT $1, $2, unnest($3::bigint[]) ON CONFLICT DO NOTHING',
        [file.org_id, file.file_id, offerings],
      );
    }
  }

  /** Removes a file's rows and takes them out of the statistics. */
  private async deleteContent(c: pg.PoolClient, orgId: number, fileId: number): Promise<void> {
    for (const [kind, table] of [['passages', 'kb_passages'], ['qa', 'kb_qa']] as const) {
      await c.query(
        `UPDATE kb_terms k SET docs = k.docs - d.n
         FROM (SELECT u.lexeme, COUNT(*) AS n FROM ${table} t CROSS JOIN LATERAL unnest(t.tsv) AS u
               WHERE t.org_id = $2 AND t.file_id = $3 GROUP BY u.lexeme) d
         WHERE k.kind = $1 AND k.term = d.lexeme`,
        [kind, orgId, fileId],
      );
      const { rows } = await c.query<{ n: string; tokens: string | null }>(
        `WITH gone AS (DELETE FROM ${table} WHERE org_id = $1 AND file_id = $2 RETURNING doclen) SELECT COUNT(*) AS n, SUM(doclen) AS tokens FROM gone`,
        [orgId, fileId],
      );
      const n = Number(rows[0]?.n ?? 0);
      if (n > 0) {
        await c.query('UPDATE kb_counts SET rows = rows - $3, tokens = tokens - $4 WHERE org_id = $1 AND kind = $2', [
          orgId,
          kind,
          n,
          Number(rows[0]?.tokens ?? 0),
        ]);
      }
    }
    await c.query("DELETE FROM kb_terms WHERE docs <= 0");
  }

  private async insertBatch(c: pg.PoolClient, kind: IndexKind, file: IndexedFile, batch: Prepared[]): Promise<void> {
    const columns = Object.keys(batch[0]!.row);
    const all = [...columns, 'tsv', 'doclen'];
    const types: Record<string, string> = { page_number: 'int', embedding: 'bytea', tsv: 'tsvector', doclen: 'int' };
    const args = all.map((col) =>
      batch.map((p) => (col === 'tsv' ? p.tsv : col === 'doclen' ? p.doclen : p.row[col])),
    );
    const table = kind === 'passages' ? 'kb_passages' : 'kb_qa';
    await c.query(
      `INSERT INTO ${table} (org_id, file_id, ${all.join(', ')})
       SELECT $1, $2, ${all.map((col) => `u.${col}`).join(', ')}
       FROM unnest(${all.map((col, i) => `$${i + 3}::${types[col] === 'tsvector' ? 'text' : (types[col] ?? 'text')}[]`).join(', ')}) AS u(${all.join(', ')})`.replace(
        'u.tsv,',
        'u.tsv::tsvector,',
      ),
      [file.org_id, file.file_id, ...args],
    );
    const docs = new Map<string, number>();
    let tokens = 0;
    for (const p of batch) {
      tokens += p.doclen;
      for (const l of p.lexemes) docs.set(l, (docs.get(l) ?? 0) + 1);
    }
    await c.query(
      `INSERT INTO kb_terms (kind, term, docs) SELECT $1, t, n FROM unnest($2::text[], $3::bigint[]) AS u(t, n)
       ON CONFLICT (kind, term) DO UPDATE SET docs = kb_terms.docs + excluded.docs`,
      [kind, [...docs.keys()], [...docs.values()]],
    );
    await c.query(
      `INSERT INTO kb_counts (org_id, kind, rows, tokens) VALUES ($1, $2, $3, $4)
       ON CONFLICT (org_id, kind) DO UPDATE SET rows = kb_counts.rows + excluded.rows, tokens = kb_counts.tokens + excluded.tokens`,
      [file.org_id, kind, batch.length, tokens],
    );
  }
}

function prepare(row: Record<string, unknown>, head: string, body: string): Prepared {
  const headTokens = indexTokens(head);
  const bodyTokens = indexTokens(body);
  return {
    row,
    tsv: tsvectorLiteral([{ tokens: headTokens, weight: 'A' }, { tokens: bodyTokens, weight: '' }]),
    doclen: headTokens.length + bodyTokens.length + SCOPE_TOKENS,
    lexemes: new Set([...headTokens, ...bodyTokens]),
  };
}

function preparePassage(p: PassageEntry): Prepared {
  return prepare(
    {
      page_number: p.page_number,
      section_path: JSON.stringify(p.section_path),
      context_header: p.context_header,
      content: p.content,
      stems: p.stems,
      embedding: p.embedding ? toBlob(p.embedding) : null,
    },
    p.index_header,
    p.index_body,
  );
}

function prepareQa(q: QaEntry): Prepared {
  return prepare(
    {
      question: q.question,
      answer: q.answer,
      slots: JSON.stringify(q.slots),
      original_id: q.original_id,
      tab_name: q.tab_name,
      location: q.location,
      question_stems: q.question_stems,
      stems: q.stems,
      embedding: q.embedding ? toBlob(q.embedding) : null,
    },
    q.index_question,
    q.index_answer,
  );
}

function dot(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return -Infinity;
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}
