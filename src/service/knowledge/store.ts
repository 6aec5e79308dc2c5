/**
 * The knowledge base's SQLite tables and prepared statements. Everything SQLite-specific lives here,
 * so a PostgreSQL implementation replaces this module, not the answering logic.
 */
import type { Database, Statement } from 'better-sqlite3';
import type { FileMeta } from './types';

const SCHEMA_VERSION = 2;

const MIGRATIONS: Record<number, string> = {
  1: `
    CREATE TABLE IF NOT EXISTS kb_files (
      org_id INTEGER NOT NULL,
      file_id INTEGER NOT NULL,
      filename TEXT NOT NULL,
      scope_includes_company INTEGER NOT NULL DEFAULT 0,
      use_as_source INTEGER NOT NULL DEFAULT 1,
      PRIMARY KEY (org_id, file_id)
    );
    CREATE TABLE IF NOT EXISTS kb_file_offerings (
      org_id INTEGER NOT NULL,
      file_id INTEGER NOT NULL,
      offering_id INTEGER NOT NULL,
      PRIMARY KEY (org_id, file_id, offering_id)
    );
    CREATE TABLE IF NOT EXISTS kb_passages (
      id INTEGER PRIMARY KEY,
      org_id INTEGER NOT NULL,
      file_id INTEGER NOT NULL,
      page_number INTEGER NOT NULL,
      section_path TEXT NOT NULL,
      context_header TEXT NOT NULL,
      content TEXT NOT NULL,
      stems TEXT NOT NULL,
      embedding BLOB
    );
    CREATE INDEX IF NOT EXISTS kb_passages_by_file ON kb_passages (org_id, file_id);
    CREATE VIRTUAL TABLE IF NOT EXISTS kb_passages_fts USING fts5 (org, file, header, body, tokenize = 'porter unicode61');
    CREATE VIRTUAL TABLE IF NOT EXISTS kb_passages_vocab USING fts5vocab (kb_passages_fts, 'row');
    CREATE TABLE IF NOT EXISTS kb_qa (
      id INTEGER PRIMARY KEY,
      org_id INTEGER NOT NULL,
      file_id INTEGER NOT NULL,
      question TEXT NOT NULL,
      answer TEXT NOT NULL,
      slots TEXT NOT NULL,
      original_id TEXT,
      tab_name TEXT NOT NULL,
      location TEXT NOT NULL,
      question_stems TEXT NOT NULL,
      stems TEXT NOT NULL,
      embedding BLOB
    );
    CREATE INDEX IF NOT EXISTS kb_qa_by_file ON kb_qa (org_id, file_id);
    CREATE VIRTUAL TABLE IF NOT EXISTS kb_qa_fts USING fts5 (org, file, question, answer, tokenize = 'porter unicode61');
    CREATE VIRTUAL TABLE IF NOT EXISTS kb_qa_vocab USING fts5vocab (kb_qa_fts, 'row');
  `,
  // Whose statement a file is (issue 14): the organisation it is about when that is not necessarily
  // the uploader (e.g. "Amazon Web Services" for an AWS SOC 3), and each organisation's own names.
  2: `
    ALTER TABLE kb_files ADD COLUMN subject TEXT;
    CREATE TABLE IF NOT EXISTS kb_org_names (org_id INTEGER PRIMARY KEY, names TEXT NOT NULL);
  `,
};

export function migrate(db: Database): void {
  db.exec('CREATE TABLE IF NOT EXISTS kb_schema_version (version INTEGER NOT NULL)');
  const row = db.prepare('SELECT MAX(version) AS version FROM kb_schema_version').get() as { version: number | null };
  const current = row.version ?? 0;
  for (let v = current + 1; v <= SCHEMA_VERSION; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v]!);
      db.prepare('INSERT INTO kb_schema_version (version) VALUES (?)').run(v);
    })();
  }
}

export interface PassageRow {
  id: number;
  file_id: number;
  filename: string;
  page_number: number;
  section_path: string;
  context_header: string;
  content: string;
  stems: string;
  bm: number;
}

export interface QaRow {
  id: number;
  file_id: number;
  filename: string;
  question: string;
  answer: string;
  slots: string;
  original_id: string | null;
  tab_name: string;
  location: string;
  question_stems: string;
  stems: string;
  bm: number;
}

export interface EmbeddingRow {
  id: number;
  embedding: Buffer;
}

/** The file filter shared by every search: org, use_as_source, file_id, offerings-or-company scope. */
const FILE_FILTER = `
  f.use_as_source = 1
  AND (@file_id IS NULL OR f.file_id = @file_id)
  AND (@offerings IS NULL OR f.scope_includes_company = 1 OR EXISTS (
    SELECT 1 FROM kb_file_offerings o
    WHERE o.org_id = f.org_id AND o.file_id = f.file_id AND o.offering_id IN (SELECT value FROM json_each(@offerings))
  ))`;

export interface FilterParams {
  org: number;
  file_id: number | null;
  offerings: string | null;
}

export interface SearchParams extends FilterParams {
  match: string;
  limit: number;
  pool: number;
}

/**
 * A pooled BM25 search of one index. FTS first (org and file are index columns, so another org's text
 * never fills the pool), BM25 over the pool only, then the mutable filters (offerings, use_as_source) on
 * the pool's rows. CROSS JOIN pins that order: left to itself the planner walks every row of the org by
 * the `_by_file` index and probes the pool for each, which costs milliseconds on a large org.
 * `weights` are the BM25 weights of the two text columns (the scope columns weigh 0).
 */
function searchSql(fts: string, weights: string, table: string, alias: string, columns: string): string {
  const bm25 = `bm25(${fts}, 0, 0, ${weights})`;
  return `
      WITH hits AS (
        SELECT rowid AS id, -${bm25} AS bm FROM ${fts}
        WHERE ${fts} MATCH @match ORDER BY ${bm25} LIMIT @pool
      )
      SELECT ${columns}, hits.bm AS bm, (SELECT COUNT(*) FROM hits) AS pool_size
      FROM hits
      CROSS JOIN ${table} ${alias} ON ${alias}.id = hits.id
      CROSS JOIN kb_files f ON f.org_id = ${alias}.org_id AND f.file_id = ${alias}.file_id
      WHERE ${alias}.org_id = @org AND ${FILE_FILTER}
      ORDER BY hits.bm DESC
      LIMIT @limit`;
}

/** FTS column values that scope a row: `o<org>` and `f<file>` tokens, searchable with column filters. */
export function scopeTokens(orgId: number, fileId: number): [string, string] {
  return [`o${orgId}`, `f${fileId}`];
}

/** Which index a term statistic is about: passages or the answer library. */
export type IndexKind = 'passages' | 'qa';

export class KnowledgeStore {
  readonly insertPassage: Statement;
  readonly insertPassageFts: Statement;
  readonly insertQa: Statement;
  readonly insertQaFts: Statement;
  readonly upsertFile: Statement;
  readonly deleteOfferings: Statement;
  readonly insertOffering: Statement;
  readonly searchPassages: Statement<[SearchParams], PassageRow & { pool_size: number }>;
  readonly searchQa: Statement<[SearchParams], QaRow & { pool_size: number }>;
  readonly passageTermDocs: Statement<[string], number>;
  readonly qaTermDocs: Statement<[string], number>;
  readonly passageTotal: Statement<[], number>;
  readonly qaTotal: Statement<[], number>;
  readonly passageOrgTotal: Statement<[number], number>;
  readonly qaOrgTotal: Statement<[number], number>;
  readonly passagesByIds: Statement<[FilterParams & { ids: string }], PassageRow>;
  readonly qaByIds: Statement<[FilterParams & { ids: string }], QaRow>;
  readonly passageEmbeddings: Statement<[{ org: number }], EmbeddingRow>;
  readonly qaEmbeddings: Statement<[{ org: number }], EmbeddingRow>;
  readonly fileFacts: Statement<[number, number], { subject: string | null; label: string | null; offerings: string | null }>;
  readonly setSubject: Statement<[string | null, number, number]>;
  readonly orgNames: Statement<[number], string>;
  readonly setOrgNames: Statement<[number, string]>;

  /**
   * Document frequencies read from fts5vocab, which counts by walking the term's whole doclist (a
   * frequent term costs milliseconds); questions repeat their vocabulary, so they are cached until the
   * content changes, here (see `contentChanged`) or through another connection (`noticeExternalChanges`).
   */
  private readonly termDocsCache = { passages: new Map<string, number>(), qa: new Map<string, number>() };
  private readonly totalsCache: Partial<Record<IndexKind, number>> = {};
  private readonly orgRowsCache = new Map<string, number>();
  private readonly dataVersion: Statement<[], number>;
  private seenDataVersion: number;
  /** Bumped on every content change; caches built on content (e.g. in retrieval) compare it. */
  generation = 0;

  constructor(readonly db: Database) {
    migrate(db);
    this.insertPassage = db.prepare(`
      INSERT INTO kb_passages (org_id, file_id, page_number, section_path, context_header, content, stems, embedding)
      VALUES (@org_id, @file_id, @page_number, @section_path, @context_header, @content, @stems, @embedding)`);
    this.insertPassageFts = db.prepare('INSERT INTO kb_passages_fts (rowid, org, file, header, body) VALUES (?, ?, ?, ?, ?)');
    this.insertQa = db.prepare(`
      INSERT INTO kb_qa (org_id, file_id, question, answer, slots, original_id, tab_name, location, question_stems, stems, embedding)
      VALUES (@org_id, @file_id, @question, @answer, @slots, @original_id, @tab_name, @location, @question_stems, @stems, @embedding)`);
    this.insertQaFts = db.prepare('INSERT INTO kb_qa_fts (rowid, org, file, question, answer) VALUES (?, ?, ?, ?, ?)');
    this.upsertFile = db.prepare(`
      INSERT INTO kb_files (org_id, file_id, filename, scope_includes_company, use_as_source)
      VALUES (@org_id, @file_id, @filename, @scope, @use_as_source)
      ON CONFLICT (org_id, file_id) DO UPDATE SET filename = excluded.filename,
        scope_includes_company = excluded.scope_includes_company, use_as_source = excluded.use_as_source`);
    this.deleteOfferings = db.prepare('DELETE FROM kb_file_offerings WHERE org_id = ? AND file_id = ?');
    this.insertOffering = db.prepare('INSERT OR IGNORE INTO kb_file_offerings (org_id, file_id, offering_id) VALUES (?, ?, ?)');

    const passageColumns = `p.id, p.file_id, f.filename, p.page_number, p.section_path, p.context_header, p.content, p.stems`;
    const qaColumns = `q.id, q.file_id, f.filename, q.question, q.answer, q.slots, q.original_id, q.tab_name, q.location, q.question_stems, q.stems`;
    // Passages weigh their body over the heading trail; library entries their question over the answer.
    this.searchPassages = db.prepare(searchSql('kb_passages_fts', '0.5, 1.0', 'kb_passages', 'p', passageColumns));
    this.searchQa = db.prepare(searchSql('kb_qa_fts', '1.0, 0.3', 'kb_qa', 'q', qaColumns));
    this.passageTermDocs = db.prepare<[string], number>('SELECT doc FROM kb_passages_vocab WHERE term = ?').pluck();
    this.qaTermDocs = db.prepare<[string], number>('SELECT doc FROM kb_qa_vocab WHERE term = ?').pluck();
    this.passageTotal = db.prepare<[], number>('SELECT COUNT(*) FROM kb_passages').pluck();
    this.qaTotal = db.prepare<[], number>('SELECT COUNT(*) FROM kb_qa').pluck();
    this.passageOrgTotal = db.prepare<[number], number>('SELECT COUNT(*) FROM kb_passages WHERE org_id = ?').pluck();
    this.qaOrgTotal = db.prepare<[number], number>('SELECT COUNT(*) FROM kb_qa WHERE org_id = ?').pluck();
    this.passagesByIds = db.prepare(`
      SELECT ${passageColumns}, 0 AS bm FROM kb_passages p
      JOIN kb_files f ON f.org_id = p.org_id AND f.file_id = p.file_id
      WHERE p.id IN (SELECT value FROM json_each(@ids)) AND p.org_id = @org AND ${FILE_FILTER}`);
    this.qaByIds = db.prepare(`
      SELECT ${qaColumns}, 0 AS bm FROM kb_qa q
      JOIN kb_files f ON f.org_id = q.org_id AND f.file_id = q.file_id
      WHERE q.id IN (SELECT value FROM json_each(@ids)) AND q.org_id = @org AND ${FILE_FILTER}`);
    this.passageEmbeddings = db.prepare('SELECT id, embedding FROM kb_passages WHERE org_id = @org AND embedding IS NOT NULL');
    this.qaEmbeddings = db.prepare('SELECT id, embedding FROM kb_qa WHERE org_id = @org AND embedding IS NOT NULL');
    // A completed questionnaire's own "Product Name" answer names what its answers are about.
    this.fileFacts = db.prepare(`
      SELECT f.subject AS subject,
        (SELECT q.answer FROM kb_qa q WHERE q.org_id = f.org_id AND q.file_id = f.file_id
           AND lower(trim(q.question)) IN ('product name', 'product', 'solution name', 'product or service name', 'name of product')
           AND length(q.answer) <= 80 ORDER BY q.id LIMIT 1) AS label,
        (SELECT group_concat(o.offering_id) FROM kb_file_offerings o WHERE o.org_id = f.org_id AND o.file_id = f.file_id) AS offerings
      FROM kb_files f WHERE f.org_id = ? AND f.file_id = ?`);
    this.setSubject = db.prepare('UPDATE kb_files SET subject = ? WHERE org_id = ? AND file_id = ?');
    this.orgNames = db.prepare<[number], string>('SELECT names FROM kb_org_names WHERE org_id = ?').pluck();
    this.setOrgNames = db.prepare(
      'INSERT INTO kb_org_names (org_id, names) VALUES (?, ?) ON CONFLICT (org_id) DO UPDATE SET names = excluded.names',
    );
    this.dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
    this.seenDataVersion = this.dataVersion.get() ?? 0;
  }

  /** Rows of the index (all organisations) holding the stemmed `term`. */
  termDocs(kind: IndexKind, term: string): number {
    const cache = this.termDocsCache[kind];
    let docs = cache.get(term);
    if (docs === undefined) {
      docs = (kind === 'passages' ? this.passageTermDocs : this.qaTermDocs).get(term) ?? 0;
      // Bounded: an adversarial stream of unique terms must not grow memory.
      if (cache.size > 100_000) cache.clear();
      cache.set(term, docs);
    }
    return docs;
  }

  /** Rows in the index (all organisations). */
  totalRows(kind: IndexKind): number {
    return (this.totalsCache[kind] ??= (kind === 'passages' ? this.passageTotal : this.qaTotal).get() ?? 0);
  }

  /** Rows of one organisation in the index. */
  orgRows(kind: IndexKind, orgId: number): number {
    const key = `${kind}:${orgId}`;
    let rows = this.orgRowsCache.get(key);
    if (rows === undefined) {
      rows = (kind === 'passages' ? this.passageOrgTotal : this.qaOrgTotal).get(orgId) ?? 0;
      this.orgRowsCache.set(key, rows);
    }
    return rows;
  }

  /** Forgets everything derived from the indexed content. Called after every write to it. */
  contentChanged(): void {
    this.termDocsCache.passages.clear();
    this.termDocsCache.qa.clear();
    delete this.totalsCache.passages;
    delete this.totalsCache.qa;
    this.orgRowsCache.clear();
    this.generation++;
  }

  /**
   * Drops the caches when another connection (another process on the same file) has committed since
   * the last call. Once per search is enough: one search runs synchronously, nothing commits inside it.
   */
  noticeExternalChanges(): void {
    const version = this.dataVersion.get() ?? 0;
    if (version !== this.seenDataVersion) {
      this.contentChanged();
      this.seenDataVersion = version;
    }
  }

  saveFileMeta(meta: FileMeta): void {
    this.upsertFile.run({
      org_id: meta.org_id,
      file_id: meta.file_id,
      filename: meta.filename,
      scope: meta.scope_includes_company ? 1 : 0,
      use_as_source: meta.use_as_source ? 1 : 0,
    });
    this.deleteOfferings.run(meta.org_id, meta.file_id);
    for (const offering of new Set(meta.offering_ids)) this.insertOffering.run(meta.org_id, meta.file_id, offering);
  }

  /** Removes a file's content (passages, Q&A and their index rows); keeps nothing behind. */
  deleteContent(orgId: number, fileId: number): void {
    this.db.prepare(
      'DELETE FROM kb_passages_fts WHERE rowid IN (SELECT id FROM kb_passages WHERE org_id = ? AND file_id = ?)',
    ).run(orgId, fileId);
    this.db.prepare('DELETE FROM kb_passages WHERE org_id = ? AND file_id = ?').run(orgId, fileId);
    this.db.prepare('DELETE FROM kb_qa_fts WHERE rowid IN (SELECT id FROM kb_qa WHERE org_id = ? AND file_id = ?)').run(orgId, fileId);
    this.db.prepare('DELETE FROM kb_qa WHERE org_id = ? AND file_id = ?').run(orgId, fileId);
    this.contentChanged();
  }

  deleteFile(orgId: number, fileId: number): void {
    this.db.transaction(() => {
      this.deleteContent(orgId, fileId);
      this.deleteOfferings.run(orgId, fileId);
      this.db.prepare('DELETE FROM kb_files WHERE org_id = ? AND file_id = ?').run(orgId, fileId);
    })();
  }
}
