/**
 * The knowledge index on SQLite: FTS5 (BM25, porter stemming) over passages and answer-library
 * entries, scope filters joined from `kb_files`, embeddings as Float32 BLOBs.
 */
import type { Database, Statement } from 'better-sqlite3';
import type * as K from '../../knowledge-index';
import { MAX_ORG_ID, migrateKnowledgeIndex, ORG_ROWID_SPAN } from './schema';
import { SqliteVectorLists } from './vectors';
import { WriteTurns } from './turns';
import { refreshConflictsSql } from '../../sql/library-schema';

interface PassageRow {
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

/** A found entry as SQLite returns it: its slots still JSON. */
interface QaRow extends Omit<K.QaHit, 'slots'> {
  slots: string;
}

interface FilterParams {
  org: number;
  /** The organisation's rowid range. */
  lo: number;
  hi: number;
  file_id: number | null;
  offerings: string | null;
}

interface SearchParams extends FilterParams {
  match: string;
  limit: number;
  pool: number;
}

/** The file filter shared by every search: org, use_as_source, file_id, offerings-or-company scope. */
const FILE_FILTER = `
  f.use_as_source = 1
  AND (@file_id IS NULL OR f.file_id = @file_id)
  AND (@offerings IS NULL OR f.scope_includes_company = 1 OR EXISTS (
    SELECT 1 FROM kb_file_offerings o
    WHERE o.org_id = f.org_id AND o.file_id = f.file_id AND o.offering_id IN (SELECT value FROM json_each(@offerings))
  ))`;

/**
 * A pooled BM25 search of one index. FTS first (scoped to the org's rowid range and, for one file, its
 * `file` column, so another org's text never fills the pool), BM25 over the pool only, then the mutable filters (offerings, use_as_source) on
 * the pool's rows. CROSS JOIN pins that order: left to itself the planner walks every row of the org by
 * the `_by_file` index and probes the pool for each, which costs milliseconds on a large org.
 * `weights` are the BM25 weights of the two text columns (the scope columns weigh 0).
 */
function searchSql(fts: string, weights: string, table: string, alias: string, columns: string, ranked: boolean): string {
  const bm25 = `bm25(${fts}, 0, 0, ${weights})`;
  // better-sqlite3 binds every JS number as a REAL, and FTS5 ignores a rowid bound that is not an
  // INTEGER: it reads the terms' whole doclists (every organisation's rows) and SQLite drops the rows
  // outside the range afterwards. Cast, FTS5 seeks to the range and stops at its end.
  // Unranked ('all' terms): newest first, and FTS5 stops after the pool instead of scoring every match.
  const pool = ranked
    ? `SELECT rowid AS id, -${bm25} AS bm FROM ${fts} WHERE ${fts} MATCH @match AND rowid BETWEEN CAST(@lo AS INTEGER) AND CAST(@hi AS INTEGER) ORDER BY ${bm25} LIMIT @pool`
    : `SELECT rowid AS id, 1.0 AS bm FROM ${fts} WHERE ${fts} MATCH @match AND rowid BETWEEN CAST(@lo AS INTEGER) AND CAST(@hi AS INTEGER) ORDER BY rowid DESC LIMIT @pool`;
  return `
      WITH hits AS (${pool})
      SELECT ${columns}, hits.bm AS bm, (SELECT COUNT(*) FROM hits) AS pool_size
      FROM hits
      CROSS JOIN ${table} ${alias} ON ${alias}.id = hits.id
      CROSS JOIN kb_files f ON f.org_id = ${alias}.org_id AND f.file_id = ${alias}.file_id
      WHERE ${alias}.org_id = @org AND ${FILE_FILTER}
      ORDER BY hits.bm DESC
      LIMIT @limit`;
}

/** FTS column values that scope a row: `o<org>` and `f<file>` tokens, searchable with column filters. */
function scopeTokens(orgId: number, fileId: number): [string, string] {
  return [`o${orgId}`, `f${fileId}`];
}

/** The organisation's rowid range (see ORG_ROWID_SPAN); an impossible range for an id out of bounds. */
function orgRange(orgId: number): { lo: number; hi: number } {
  if (!Number.isInteger(orgId) || orgId < 0 || orgId > MAX_ORG_ID) return { lo: 1, hi: 0 };
  return { lo: orgId * ORG_ROWID_SPAN, hi: (orgId + 1) * ORG_ROWID_SPAN - 1 };
}

function filterParams(scope: K.IndexScope): FilterParams {
  const offerings = scope.offering_ids && scope.offering_ids.length > 0 ? JSON.stringify(scope.offering_ids) : null;
  return { org: scope.org_id, ...orgRange(scope.org_id), file_id: scope.file_id ?? null, offerings };
}

/**
 * The FTS5 MATCH expression: the file scope as a column filter, AND an OR (or AND) of quoted terms.
 * Terms are letters and digits only (the query's contract), and anything else is dropped here too, so
 * no user text can become query syntax.
 */
function matchExpression(query: K.IndexQuery): string | null {
  const terms = query.terms.filter((t) => /^[\p{L}\p{N}]+$/u.test(t));
  if (terms.length === 0) return null;
  const any = `(${terms.map((t) => `"${t}"`).join(query.match === 'all' ? ' AND ' : ' OR ')})`;
  const fileId = query.scope.file_id;
  return fileId !== undefined && fileId !== null && Number.isInteger(fileId) ? `file : "f${fileId}" AND ${any}` : any;
}

function passageHit(row: PassageRow): K.PassageHit {
  return { ...row, section_path: JSON.parse(row.section_path) as string[] };
}

function qaHit(row: QaRow): K.QaHit {
  return { ...row, slots: JSON.parse(row.slots) as K.QaSlot[] };
}

function toBlob(v: Float32Array): Buffer {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}

/** Rows of a file replaced in one transaction; a larger file is written in several (see replaceFile). */
const WRITE_BATCH = 500;
/**
 * A larger file's transactions: slices of WRITE_SLICE rows, as many as fit in WRITE_BUDGET_MS, so the
 * event loop is free every few milliseconds (chat stays quick while a large upload is indexed, and with
 * two files ingested at once, each waits for at most the other's one transaction).
 */
const WRITE_SLICE = 50;
const WRITE_BUDGET_MS = 10;
/** Up to this many rows, term counts are exact (see countTermDocs). */
const EXACT_STATS_ROWS = 50_000;
/** Beyond, a term's first TERM_SAMPLE postings are read: its count if it has fewer, else its density. */
const TERM_SAMPLE = 1_000;
/** A term count made at another row count is kept while the index changed by less than this share. */
const STATS_TOLERANCE = 0.05;

interface Batch {
  passages: K.PassageEntry[];
  qa: K.QaEntry[];
}

/** A batch cut into batches of at most `size` rows, in order. */
function slicesOf(batch: Batch, size: number): Batch[] {
  const slices: Batch[] = [];
  for (let i = 0; i < batch.passages.length; i += size) slices.push({ passages: batch.passages.slice(i, i + size), qa: [] });
  for (let i = 0; i < batch.qa.length; i += size) slices.push({ passages: [], qa: batch.qa.slice(i, i + size) });
  return slices;
}

export interface SqliteKnowledgeIndexOptions {
  /** Called after each committed transaction of `replaceFile` with the rows it wrote (see WalCheckpointer). */
  onRowsWritten?: (rows: number) => void;
  /** Vectors of a kind an organisation has before its nearest-neighbour search uses lists (see ./vectors.ts). */
  minVectorsForLists?: number;
}

export class SqliteKnowledgeIndex implements K.KnowledgeIndex {
  private readonly insertPassage: Statement;
  private readonly insertPassageFts: Statement;
  private readonly insertQa: Statement;
  private readonly insertQaFts: Statement;
  private readonly fileKeys: Statement<[number, number], string>;
  private readonly refreshConflictStatements: Statement<[number, string]>[];
  private readonly upsertFile: Statement;
  private readonly deleteOfferings: Statement;
  private readonly deleteFileRow: Statement<[number, number]>;
  private readonly deleteFilePassagesFts: Statement<[number, number]>;
  private readonly deleteFilePassages: Statement<[number, number]>;
  private readonly deleteFileQaFts: Statement<[number, number]>;
  private readonly deleteFileQa: Statement<[number, number]>;
  private readonly insertOffering: Statement;
  private readonly searchPassages: Statement<[SearchParams], PassageRow & { pool_size: number }>;
  private readonly searchQa: Statement<[SearchParams], QaRow & { pool_size: number }>;
  private readonly allPassages: Statement<[SearchParams], PassageRow & { pool_size: number }>;
  private readonly allQa: Statement<[SearchParams], QaRow & { pool_size: number }>;
  private readonly passageTermDocs: Statement<[string], number>;
  private readonly qaTermDocs: Statement<[string], number>;
  private readonly kindTotal: Statement<[K.IndexKind], number>;
  private readonly kindOrgTotal: Statement<[K.IndexKind, number], number>;
  private readonly addCount: Statement<[number, K.IndexKind, number]>;
  private readonly maxPassageId: Statement<[number, number], number | null>;
  private readonly maxQaId: Statement<[number, number], number | null>;
  private readonly passageFirstRows: Statement<[string, number], number>;
  private readonly qaFirstRows: Statement<[string, number], number>;
  private readonly rowsBeforeOrg: Statement<[K.IndexKind, number], number>;
  private readonly passagesByIds: Statement<[FilterParams & { ids: string }], PassageRow>;
  private readonly qaByIds: Statement<[FilterParams & { ids: string }], QaRow>;

  /**
   * Document frequencies, cached (bounded) until the content changes, here (see `contentChanged`) or
   * through another connection (`noticeExternalChanges`); on a large index an entry survives changes
   * that move the row count by less than STATS_TOLERANCE (one more file does not change a frequency
   * that matters). See `countTermDocs` for how they are counted.
   */
  private readonly termDocsCache = { passages: new Map<string, { docs: number; total: number }>(), qa: new Map<string, { docs: number; total: number }>() };
  private readonly totalsCache: Partial<Record<K.IndexKind, number>> = {};
  private readonly orgRowsCache = new Map<string, number>();
  private readonly factsCache = new Map<string, K.FileFacts | null>();
  private readonly fileFactsRow: Statement<
    [{ org: number; file: number; questions: string }],
    { subject: string | null; label: string | null; offerings: string | null } & K.FileDates
  >;
  private readonly setDates: Statement<[string | null, string | null, string | null, number, number]>;
  private readonly setSubject: Statement<[string | null, number, number]>;
  private readonly getOrgNames: Statement<[number], string>;
  private readonly putOrgNames: Statement<[number, string]>;
  private readonly dataVersion: Statement<[], number>;
  private seenDataVersion: number;
  private readonly vectors: SqliteVectorLists;
  private readonly writeTurns = new WriteTurns();

  constructor(
    readonly db: Database,
    private readonly options: SqliteKnowledgeIndexOptions = {},
  ) {
    migrateKnowledgeIndex(db);
    this.vectors = new SqliteVectorLists(db, { minVectors: options.minVectorsForLists });
    // Positional parameters: a million rows each looking up ten named properties cost more than the insert's own JavaScript.
    this.insertPassage = db.prepare(`
      INSERT INTO kb_passages (id, org_id, file_id, page_number, section_path, context_header, content, stems, embedding, list_id)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    this.insertPassageFts = db.prepare('INSERT INTO kb_passages_fts (rowid, org, file, header, body) VALUES (?, ?, ?, ?, ?)');
    this.insertQa = db.prepare(`
      INSERT INTO kb_qa (id, org_id, file_id, question, answer, slots, original_id, tab_name, location, qkey, section, question_stems, stems, embedding, list_id)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    this.fileKeys = db.prepare<[number, number], string>('SELECT DISTINCT qkey FROM kb_qa WHERE org_id = ? AND file_id = ?').pluck();
    this.refreshConflictStatements = refreshConflictsSql('sqlite').map((sql) => db.prepare<[number, string]>(sql));
    this.insertQaFts = db.prepare('INSERT INTO kb_qa_fts (rowid, org, file, question, answer) VALUES (?, ?, ?, ?, ?)');
    this.upsertFile = db.prepare(`
      INSERT INTO kb_files (org_id, file_id, filename, scope_includes_company, use_as_source)
      VALUES (@org_id, @file_id, @filename, @scope, @use_as_source)
      ON CONFLICT (org_id, file_id) DO UPDATE SET filename = excluded.filename,
        scope_includes_company = excluded.scope_includes_company, use_as_source = excluded.use_as_source`);
    this.deleteOfferings = db.prepare('DELETE FROM kb_file_offerings WHERE org_id = ? AND file_id = ?');
    this.deleteFileRow = db.prepare('DELETE FROM kb_files WHERE org_id = ? AND file_id = ?');
    this.deleteFilePassagesFts = db.prepare('DELETE FROM kb_passages_fts WHERE rowid IN (SELECT id FROM kb_passages WHERE org_id = ? AND file_id = ?)');
    this.deleteFilePassages = db.prepare('DELETE FROM kb_passages WHERE org_id = ? AND file_id = ?');
    this.deleteFileQaFts = db.prepare('DELETE FROM kb_qa_fts WHERE rowid IN (SELECT id FROM kb_qa WHERE org_id = ? AND file_id = ?)');
    this.deleteFileQa = db.prepare('DELETE FROM kb_qa WHERE org_id = ? AND file_id = ?');
    this.insertOffering = db.prepare('INSERT OR IGNORE INTO kb_file_offerings (org_id, file_id, offering_id) VALUES (?, ?, ?)');

    const passageColumns = `p.id, p.file_id, f.filename, p.page_number, p.section_path, p.context_header, p.content, p.stems`;
    const qaColumns = `q.id, q.file_id, f.filename, q.question, q.answer, q.slots, q.original_id, q.tab_name, q.location, q.question_stems, q.stems`;
    // Passages weigh their body over the heading trail; library entries their question over the answer.
    this.searchPassages = db.prepare(searchSql('kb_passages_fts', '0.5, 1.0', 'kb_passages', 'p', passageColumns, true));
    this.searchQa = db.prepare(searchSql('kb_qa_fts', '1.0, 0.3', 'kb_qa', 'q', qaColumns, true));
    this.allPassages = db.prepare(searchSql('kb_passages_fts', '0.5, 1.0', 'kb_passages', 'p', passageColumns, false));
    this.allQa = db.prepare(searchSql('kb_qa_fts', '1.0, 0.3', 'kb_qa', 'q', qaColumns, false));
    this.passageTermDocs = db.prepare<[string], number>('SELECT doc FROM kb_passages_vocab WHERE term = ?').pluck();
    this.qaTermDocs = db.prepare<[string], number>('SELECT doc FROM kb_qa_vocab WHERE term = ?').pluck();
    this.kindTotal = db.prepare<[K.IndexKind], number>('SELECT COALESCE(SUM(rows), 0) FROM kb_counts WHERE kind = ?').pluck();
    this.kindOrgTotal = db.prepare<[K.IndexKind, number], number>('SELECT rows FROM kb_counts WHERE kind = ? AND org_id = ?').pluck();
    this.addCount = db.prepare(
      'INSERT INTO kb_counts (org_id, kind, rows) VALUES (?, ?, ?) ON CONFLICT (org_id, kind) DO UPDATE SET rows = rows + excluded.rows',
    );
    this.maxPassageId = db.prepare<[number, number], number | null>('SELECT MAX(id) FROM kb_passages WHERE id BETWEEN ? AND ?').pluck();
    this.maxQaId = db.prepare<[number, number], number | null>('SELECT MAX(id) FROM kb_qa WHERE id BETWEEN ? AND ?').pluck();
    this.passageFirstRows = db
      .prepare<[string, number], number>('SELECT rowid FROM kb_passages_fts WHERE kb_passages_fts MATCH ? ORDER BY rowid LIMIT ?')
      .pluck();
    this.qaFirstRows = db.prepare<[string, number], number>('SELECT rowid FROM kb_qa_fts WHERE kb_qa_fts MATCH ? ORDER BY rowid LIMIT ?').pluck();
    this.rowsBeforeOrg = db.prepare<[K.IndexKind, number], number>('SELECT COALESCE(SUM(rows), 0) FROM kb_counts WHERE kind = ? AND org_id < ?').pluck();
    this.passagesByIds = db.prepare(`
      SELECT ${passageColumns}, 0 AS bm FROM kb_passages p
      JOIN kb_files f ON f.org_id = p.org_id AND f.file_id = p.file_id
      WHERE p.id IN (SELECT value FROM json_each(@ids)) AND p.org_id = @org AND ${FILE_FILTER}`);
    this.qaByIds = db.prepare(`
      SELECT ${qaColumns}, 0 AS bm FROM kb_qa q
      JOIN kb_files f ON f.org_id = q.org_id AND f.file_id = q.file_id
      WHERE q.id IN (SELECT value FROM json_each(@ids)) AND q.org_id = @org AND ${FILE_FILTER}`);
    this.fileFactsRow = db.prepare(`
      SELECT f.subject AS subject, f.as_of AS as_of, f.valid_until AS valid_until, f.valid_said AS valid_said,
        (SELECT q.answer FROM kb_qa q WHERE q.org_id = f.org_id AND q.file_id = f.file_id
           AND lower(trim(q.question)) IN (SELECT value FROM json_each(@questions))
           AND length(q.answer) <= 80 ORDER BY q.id LIMIT 1) AS label,
        (SELECT group_concat(o.offering_id) FROM kb_file_offerings o WHERE o.org_id = f.org_id AND o.file_id = f.file_id) AS offerings
      FROM kb_files f WHERE f.org_id = @org AND f.file_id = @file`);
    this.setSubject = db.prepare('UPDATE kb_files SET subject = ? WHERE org_id = ? AND file_id = ?');
    this.setDates = db.prepare('UPDATE kb_files SET as_of = ?, valid_until = ?, valid_said = ? WHERE org_id = ? AND file_id = ?');
    this.getOrgNames = db.prepare<[number], string>('SELECT names FROM kb_org_names WHERE org_id = ?').pluck();
    this.putOrgNames = db.prepare('INSERT INTO kb_org_names (org_id, names) VALUES (?, ?) ON CONFLICT (org_id) DO UPDATE SET names = excluded.names');
    this.dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
    this.seenDataVersion = this.dataVersion.get() ?? 0;
  }

  /**
   * A file that fits in one batch is replaced in one transaction. A larger one is written in batches,
   * one transaction each with the event loop free in between (requests are served while a large upload
   * is indexed; files written at once take turns, one transaction a turn, see ./turns.ts): its old
   * content and its scope row go first, so nothing of it is searchable until the last batch puts the
   * scope row back; a failure removes what was written.
   */
  async replaceFile(file: K.IndexedFile, passages: Iterable<K.PassageEntry>, qa: Iterable<K.QaEntry>, onProgress?: (stored: number) => void): Promise<void> {
    const rows = this.entryBatches(passages, qa);
    const first = rows.next();
    const second = first.done ? first : rows.next();
    if (second.done) {
      this.db.transaction(() => {
        this.saveFile(file);
        const keys = this.deleteContent(file.org_id, file.file_id);
        if (!first.done) this.insertBatch(file, first.value, keys);
        this.refreshConflicts(file.org_id, keys);
      })();
      this.contentChanged();
      const rows = first.done ? 0 : first.value.passages.length + first.value.qa.length;
      if (!first.done) await this.noteVectors(file.org_id, [first.value]);
      this.options.onRowsWritten?.(rows);
      onProgress?.(rows);
      return;
    }
    let stored = 0;
    // The question keys the file answered and answers: their conflicts are refreshed with the last write.
    let keys = new Set<string>();
    try {
      this.db.transaction(() => {
        keys = this.deleteContent(file.org_id, file.file_id);
        this.deleteOfferings.run(file.org_id, file.file_id);
        this.deleteFileRow.run(file.org_id, file.file_id);
      })();
      for (let batch: IteratorResult<Batch> = first; !batch.done; batch = batch === first ? second : rows.next()) {
        const slices = slicesOf(batch.value, WRITE_SLICE);
        for (let i = 0; i < slices.length; ) {
          await this.writeTurns.next();
          const deadline = performance.now() + WRITE_BUDGET_MS;
          const before = stored;
          const from = i;
          this.db.transaction(() => {
            do {
              this.insertBatch(file, slices[i]!, keys);
              stored += slices[i]!.passages.length + slices[i]!.qa.length;
              i++;
            } while (i < slices.length && performance.now() < deadline);
          })();
          await this.noteVectors(file.org_id, slices.slice(from, i));
          this.options.onRowsWritten?.(stored - before);
          onProgress?.(stored);
        }
      }
      this.db.transaction(() => {
        this.saveFile(file);
        this.refreshConflicts(file.org_id, keys);
      })();
    } catch (error) {
      this.db.transaction(() => {
        for (const key of this.deleteContent(file.org_id, file.file_id)) keys.add(key);
        this.refreshConflicts(file.org_id, keys);
      })();
      throw error;
    } finally {
      this.contentChanged();
    }
  }

  /** Committed rows with embeddings: the organisation's vector lists may now be due (see ./vectors.ts). */
  private async noteVectors(orgId: number, batches: Batch[]): Promise<void> {
    let passages = 0;
    let qa = 0;
    for (const batch of batches) {
      for (const p of batch.passages) if (p.embedding) passages++;
      for (const q of batch.qa) if (q.embedding) qa++;
    }
    await this.vectors.noteWrite('passages', orgId, passages, orgRange(orgId));
    await this.vectors.noteWrite('qa', orgId, qa, orgRange(orgId));
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

  /** Times vector lists were read from the database (tests). */
  get vectorListReads(): number {
    return this.vectors.listReads;
  }

  /** Entries in batches of WRITE_BATCH rows, pulled lazily (the caller may compute them on demand). */
  private *entryBatches(passages: Iterable<K.PassageEntry>, qa: Iterable<K.QaEntry>): Generator<Batch> {
    let batch: Batch = { passages: [], qa: [] };
    for (const p of passages) {
      batch.passages.push(p);
      if (batch.passages.length >= WRITE_BATCH) {
        yield batch;
        batch = { passages: [], qa: [] };
      }
    }
    for (const entry of qa) {
      batch.qa.push(entry);
      if (batch.passages.length + batch.qa.length >= WRITE_BATCH) {
        yield batch;
        batch = { passages: [], qa: [] };
      }
    }
    if (batch.passages.length + batch.qa.length > 0) yield batch;
  }

  /** Inserts rows with ids in the organisation's range, and counts them. Inside a transaction. */
  private insertBatch(file: K.IndexedFile, batch: Batch, keys: Set<string>): void {
    if (!Number.isInteger(file.org_id) || file.org_id < 1 || file.org_id > MAX_ORG_ID) {
      throw new Error(`organisation id ${file.org_id} is outside the knowledge index's range (1..${MAX_ORG_ID})`);
    }
    const { lo, hi } = orgRange(file.org_id);
    const [org, scopeFile] = scopeTokens(file.org_id, file.file_id);
    let id = this.maxPassageId.get(lo, hi) ?? lo;
    for (const p of batch.passages) {
      id++;
      this.insertPassage.run(
        id,
        file.org_id,
        file.file_id,
        p.page_number,
        JSON.stringify(p.section_path),
        p.context_header,
        p.content,
        p.stems,
        p.embedding ? toBlob(p.embedding) : null,
        this.vectors.listFor('passages', file.org_id, p.embedding),
      );
      this.insertPassageFts.run(id, org, scopeFile, p.index_header, p.index_body);
    }
    id = this.maxQaId.get(lo, hi) ?? lo;
    for (const entry of batch.qa) {
      id++;
      keys.add(entry.qkey);
      this.insertQa.run(
        id,
        file.org_id,
        file.file_id,
        entry.question,
        entry.answer,
        JSON.stringify(entry.slots),
        entry.original_id,
        entry.tab_name,
        entry.location,
        entry.qkey,
        entry.section ?? null,
        entry.question_stems,
        entry.stems,
        entry.embedding ? toBlob(entry.embedding) : null,
        this.vectors.listFor('qa', file.org_id, entry.embedding),
      );
      this.insertQaFts.run(id, org, scopeFile, entry.index_question, entry.index_answer);
    }
    if (batch.passages.length) this.addCount.run(file.org_id, 'passages', batch.passages.length);
    if (batch.qa.length) this.addCount.run(file.org_id, 'qa', batch.qa.length);
    if (id > hi) throw new Error(`organisation ${file.org_id} has more rows than its id range holds`);
  }

  async updateFile(file: K.IndexedFile): Promise<void> {
    this.db.transaction(() => {
      const before = this.db
        .prepare<[number, number], string>('SELECT filename FROM kb_files WHERE org_id = ? AND file_id = ?')
        .pluck()
        .get(file.org_id, file.file_id);
      this.saveFile(file);
      // A new name may make the file supersede, or stop superseding, another of that name.
      if (before !== file.filename) this.refreshConflicts(file.org_id, new Set(this.fileKeys.all(file.org_id, file.file_id)));
    })();
    this.factsCache.clear();
  }

  async deleteFile(orgId: number, fileId: number): Promise<void> {
    this.db.transaction(() => {
      this.refreshConflicts(orgId, this.deleteContent(orgId, fileId));
      this.deleteOfferings.run(orgId, fileId);
      this.deleteFileRow.run(orgId, fileId);
    })();
    this.contentChanged();
  }

  async search<K extends K.IndexKind>(query: K.IndexQuery<K>): Promise<K.IndexSearchResult<K>> {
    this.noticeExternalChanges();
    const match = matchExpression(query);
    if (!match) return { hits: [], pool_size: 0 };
    const params: SearchParams = { ...filterParams(query.scope), match, limit: query.limit, pool: query.pool };
    const all = query.match === 'all';
    if (query.kind === 'passages') {
      const rows = (all ? this.allPassages : this.searchPassages).all(params);
      return { hits: rows.map(passageHit) as K.HitOf<K>[], pool_size: rows[0]?.pool_size ?? 0 };
    }
    const rows = (all ? this.allQa : this.searchQa).all(params);
    return { hits: rows.map(qaHit) as K.HitOf<K>[], pool_size: rows[0]?.pool_size ?? 0 };
  }

  async byIds<K extends K.IndexKind>(kind: K, scope: K.IndexScope, ids: number[]): Promise<K.HitOf<K>[]> {
    if (ids.length === 0) return [];
    const params = { ...filterParams(scope), ids: JSON.stringify(ids) };
    if (kind === 'passages') return this.passagesByIds.all(params).map(passageHit) as K.HitOf<K>[];
    return this.qaByIds.all(params).map(qaHit) as K.HitOf<K>[];
  }

  /**
   * The `k` nearest vectors (cosine; embeddings are unit vectors): an exact scan in batches while the
   * organisation has few, then through its vector lists (see ./vectors.ts). No copy of the vectors is
   * held between queries, whatever the corpus.
   */
  async nearest(kind: K.IndexKind, orgId: number, query: Float32Array, k: number): Promise<number[]> {
    this.noticeExternalChanges();
    return this.vectors.nearest(kind, orgId, query, k, orgRange(orgId), await this.orgRows(kind, orgId));
  }

  async termDocs(kind: K.IndexKind, terms: K.TermRef[]): Promise<number[]> {
    this.noticeExternalChanges();
    const cache = this.termDocsCache[kind];
    const total = await this.totalRows(kind);
    return terms.map(({ stem: term, word }) => {
      const cached = cache.get(term);
      if (cached && (total <= EXACT_STATS_ROWS || (total > EXACT_STATS_ROWS && Math.abs(cached.total - total) < total * STATS_TOLERANCE))) {
        return cached.docs;
      }
      const docs = this.countTermDocs(kind, term, word, total);
      // Bounded: an adversarial stream of unique terms must not grow memory.
      if (cache.size > 100_000) cache.clear();
      cache.set(term, { docs, total });
      return docs;
    });
  }

  /**
   * Exact from fts5vocab on an index of up to EXACT_STATS_ROWS rows (it walks the term's whole doclist).
   * Beyond, the term's first TERM_SAMPLE postings (lowest row ids) are read, which FTS5 stops after: a
   * term with fewer is counted exactly (only rare terms choose what a search touches); a frequent one is
   * estimated from how many rows those postings span (ids are dense within an organisation's range, see
   * `orgRange`), a few per cent off, which moves its small weight little. Cost: TERM_SAMPLE postings at
   * most, whatever the corpus.
   */
  private countTermDocs(kind: K.IndexKind, term: string, word: string, total: number): number {
    if (total <= EXACT_STATS_ROWS) return (kind === 'passages' ? this.passageTermDocs : this.qaTermDocs).get(term) ?? 0;
    // MATCH stems its input as the text was stemmed, so it is given the word, never the stem.
    if (!/^[\p{L}\p{N}]+$/u.test(word)) return 0;
    const rowids = (kind === 'passages' ? this.passageFirstRows : this.qaFirstRows).all(`"${word}"`, TERM_SAMPLE);
    if (rowids.length < TERM_SAMPLE) return rowids.length;
    const last = rowids[rowids.length - 1]!;
    const org = Math.floor(last / ORG_ROWID_SPAN);
    // Rows spanned: every row of the organisations before the last posting's, and its own up to it.
    const ownRows = this.kindOrgTotal.get(kind, org) ?? 0;
    const spanned = (this.rowsBeforeOrg.get(kind, org) ?? 0) + Math.min(ownRows, last - org * ORG_ROWID_SPAN);
    if (spanned <= 0) return TERM_SAMPLE;
    return Math.max(TERM_SAMPLE, Math.min(total, Math.round((TERM_SAMPLE / spanned) * total)));
  }

  async totalRows(kind: K.IndexKind): Promise<number> {
    this.noticeExternalChanges();
    return (this.totalsCache[kind] ??= this.kindTotal.get(kind) ?? 0);
  }

  async orgRows(kind: K.IndexKind, orgId: number): Promise<number> {
    this.noticeExternalChanges();
    const key = `${kind}:${orgId}`;
    let rows = this.orgRowsCache.get(key);
    if (rows === undefined) {
      rows = this.kindOrgTotal.get(kind, orgId) ?? 0;
      if (this.orgRowsCache.size > 10_000) this.orgRowsCache.clear();
      this.orgRowsCache.set(key, rows);
    }
    return rows;
  }

  /** In process: the three reads, each served from its cache. */
  async termStats(orgId: number, terms: Record<K.IndexKind, K.TermRef[]>): Promise<Record<K.IndexKind, K.KindStats>> {
    const stats = async (kind: K.IndexKind): Promise<K.KindStats> => ({
      total: await this.totalRows(kind),
      org: await this.orgRows(kind, orgId),
      docs: await this.termDocs(kind, terms[kind]),
    });
    return { passages: await stats('passages'), qa: await stats('qa') };
  }

  /** Cached until the content or a file's scope changes. */
  async fileFacts(orgId: number, fileId: number, labelQuestions: string[]): Promise<K.FileFacts | null> {
    this.noticeExternalChanges();
    const key = `${orgId}:${fileId}:${labelQuestions.join('|')}`;
    if (this.factsCache.has(key)) return this.factsCache.get(key)!;
    const row = this.fileFactsRow.get({ org: orgId, file: fileId, questions: JSON.stringify(labelQuestions) });
    const facts = row
      ? {
          subject: row.subject,
          label: row.label,
          offering_ids: row.offerings ? row.offerings.split(',').map(Number) : [],
          as_of: row.as_of,
          valid_until: row.valid_until,
          valid_said: row.valid_said,
        }
      : null;
    // Bounded: one entry per file asked about.
    if (this.factsCache.size > 10_000) this.factsCache.clear();
    this.factsCache.set(key, facts);
    return facts;
  }

  /** One cached `fileFacts` per file: in process, a round trip costs nothing to save. */
  async filesFacts(orgId: number, fileIds: number[], labelQuestions: string[]): Promise<Map<number, K.FileFacts>> {
    const found = new Map<number, K.FileFacts>();
    for (const fileId of new Set(fileIds)) {
      const facts = await this.fileFacts(orgId, fileId, labelQuestions);
      if (facts) found.set(fileId, facts);
    }
    return found;
  }

  async setFileSubject(orgId: number, fileId: number, subject: string | null): Promise<void> {
    this.setSubject.run(subject, orgId, fileId);
    this.factsCache.clear();
  }

  async setFileDates(orgId: number, fileId: number, dates: K.FileDates): Promise<void> {
    this.setDates.run(dates.as_of, dates.valid_until, dates.valid_said, orgId, fileId);
    this.factsCache.clear();
  }

  async orgNames(orgId: number): Promise<string | null> {
    return this.getOrgNames.get(orgId) ?? null;
  }

  async setOrgNames(orgId: number, names: string): Promise<void> {
    this.putOrgNames.run(orgId, names);
  }

  /** Forgets everything derived from the indexed content. Called after every write to it. */
  private contentChanged(): void {
    this.factsCache.clear();
    // On a large index term counts stay: each entry knows the row count it was made at (see termDocs).
    for (const kind of ['passages', 'qa'] as const) {
      if ((this.totalsCache[kind] ?? 0) <= EXACT_STATS_ROWS) this.termDocsCache[kind].clear();
    }
    delete this.totalsCache.passages;
    delete this.totalsCache.qa;
    this.orgRowsCache.clear();
  }

  /**
   * Drops the caches when another connection (another process on the same file) has committed since
   * the last call. Our own commits bump nothing here (data_version counts other connections' commits).
   */
  private noticeExternalChanges(): void {
    const version = this.dataVersion.get() ?? 0;
    if (version !== this.seenDataVersion) {
      this.contentChanged();
      this.vectors.forget();
      this.seenDataVersion = version;
    }
  }

  private saveFile(file: K.IndexedFile): void {
    this.upsertFile.run({
      org_id: file.org_id,
      file_id: file.file_id,
      filename: file.filename,
      scope: file.scope_includes_company ? 1 : 0,
      use_as_source: file.use_as_source ? 1 : 0,
    });
    this.deleteOfferings.run(file.org_id, file.file_id);
    for (const offering of new Set(file.offering_ids)) this.insertOffering.run(file.org_id, file.file_id, offering);
  }

  /** The answer library's conflicts of these question keys, as the entries now make them (../../sql/library-schema.ts). */
  private refreshConflicts(orgId: number, keys: Set<string>): void {
    if (keys.size === 0) return;
    const list = JSON.stringify([...keys]);
    for (const statement of this.refreshConflictStatements) statement.run(orgId, list);
  }

  /**
   * Removes a file's content (passages, Q&A and their index rows) and uncounts it; keeps nothing behind.
   * Returns the question keys its entries answered (their conflicts are the caller's to refresh).
   */
  private deleteContent(orgId: number, fileId: number): Set<string> {
    const keys = new Set(this.fileKeys.all(orgId, fileId));
    this.deleteFilePassagesFts.run(orgId, fileId);
    const passages = this.deleteFilePassages.run(orgId, fileId).changes;
    this.deleteFileQaFts.run(orgId, fileId);
    const qa = this.deleteFileQa.run(orgId, fileId).changes;
    if (passages) this.addCount.run(orgId, 'passages', -passages);
    if (qa) this.addCount.run(orgId, 'qa', -qa);
    this.contentChanged();
    return keys;
  }
}
