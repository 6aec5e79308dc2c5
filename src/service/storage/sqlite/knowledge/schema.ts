/**
 * The knowledge index's SQLite tables: passages and answer-library entries, each with an FTS5 table
 * (porter + unicode61; `org` and `file` columns hold scope tokens) and its fts5vocab view, and the
 * files' search scope. Versioned in its own table, migrated when the index is opened.
 */
import type { Database } from 'better-sqlite3';
import { libraryKeysSql, libraryReviewSql, librarySectionsSql, libraryTablesSql } from '../../sql/library-schema';

/** Row ids of organisation `o` lie in [o * span, (o + 1) * span): 2^32 rows each, o < 2^21 (safe integers). */
export const ORG_ROWID_SPAN = 4294967296;
export const MAX_ORG_ID = 2 ** 21 - 1;

const SCHEMA_VERSION = 11;

/** Segments FTS5 lets accumulate on a level before merging them into one (its default is 4). */
export const FTS_AUTOMERGE = 16;
/** Segments on one level at which FTS5 merges them all at once, inside one write (its default is 16). */
export const FTS_CRISISMERGE = 64;

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
  // Whose statement a file is: the organisation it is about when that is not necessarily
  // the uploader (e.g. "Amazon Web Services" for an AWS SOC 3), and each organisation's own names.
  2: `
    ALTER TABLE kb_files ADD COLUMN subject TEXT;
    CREATE TABLE IF NOT EXISTS kb_org_names (org_id INTEGER PRIMARY KEY, names TEXT NOT NULL);
  `,
  // A million passages. Each organisation's rows get ids in their own range (org * 2^32 + n),
  // so a search is scoped by a rowid range FTS5 seeks to, instead of an `org : "oN"` phrase whose whole
  // doclist (every row of the org) BM25 walked to count it on every query. Row counts are kept, not counted.
  3: `
    UPDATE kb_passages SET id = org_id * ${ORG_ROWID_SPAN} + id WHERE id < ${ORG_ROWID_SPAN};
    UPDATE kb_passages_fts SET rowid = rowid + CAST(substr(org, 2) AS INTEGER) * ${ORG_ROWID_SPAN} WHERE rowid < ${ORG_ROWID_SPAN};
    UPDATE kb_qa SET id = org_id * ${ORG_ROWID_SPAN} + id WHERE id < ${ORG_ROWID_SPAN};
    UPDATE kb_qa_fts SET rowid = rowid + CAST(substr(org, 2) AS INTEGER) * ${ORG_ROWID_SPAN} WHERE rowid < ${ORG_ROWID_SPAN};
    CREATE TABLE IF NOT EXISTS kb_counts (
      org_id INTEGER NOT NULL,
      kind TEXT NOT NULL,
      rows INTEGER NOT NULL,
      PRIMARY KEY (org_id, kind)
    );
    INSERT OR REPLACE INTO kb_counts (org_id, kind, rows) SELECT org_id, 'passages', COUNT(*) FROM kb_passages GROUP BY org_id;
    INSERT OR REPLACE INTO kb_counts (org_id, kind, rows) SELECT org_id, 'qa', COUNT(*) FROM kb_qa GROUP BY org_id;
  `,
  // Ingestion at 10,000 passages/s: every transaction's rows become a new FTS5 segment, and
  // merging those (each posting rewritten once per level) was a third of the cost of indexing a passage.
  // Merging FTS_AUTOMERGE segments at a time instead of 4 halves the levels, so each posting is rewritten
  // half as often. Only when segments are merged changes: the postings, and so every search and BM25
  // score, are the same. Stored in each FTS table's own config, so existing indexes take it as they are.
  4: `
    INSERT INTO kb_passages_fts (kb_passages_fts, rank) VALUES ('automerge', ${FTS_AUTOMERGE});
    INSERT INTO kb_qa_fts (kb_qa_fts, rank) VALUES ('automerge', ${FTS_AUTOMERGE});
  `,
  // With 16 segments merged at a time, a level often reached the default crisis threshold (16) before the
  // incremental merges had caught up, and one write then merged the whole level: a 700 ms transaction
  // holding the event loop while a large upload was indexed. Incremental merging is left to do it.
  5: `
    INSERT INTO kb_passages_fts (kb_passages_fts, rank) VALUES ('crisismerge', ${FTS_CRISISMERGE});
    INSERT INTO kb_qa_fts (kb_qa_fts, rank) VALUES ('crisismerge', ${FTS_CRISISMERGE});
  `,
  // Nearest-neighbour search without reading every vector: each row's vector list (see
  // ../../ivf.ts), indexed only where there is one (rows without an embedding cost the index nothing),
  // and each organisation's centroids per kind; `ready` once every earlier row has its list.
  6: `
    ALTER TABLE kb_passages ADD COLUMN list_id INTEGER;
    ALTER TABLE kb_qa ADD COLUMN list_id INTEGER;
    CREATE INDEX IF NOT EXISTS kb_passages_by_list ON kb_passages (org_id, list_id) WHERE list_id IS NOT NULL;
    CREATE INDEX IF NOT EXISTS kb_qa_by_list ON kb_qa (org_id, list_id) WHERE list_id IS NOT NULL;
    CREATE TABLE IF NOT EXISTS kb_vector_lists (
      org_id INTEGER NOT NULL,
      kind TEXT NOT NULL,
      dim INTEGER NOT NULL,
      coarse BLOB NOT NULL,
      fine BLOB NOT NULL,
      ready INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (org_id, kind)
    );
  `,
  // A list's vectors read from the index alone, side by side in its entries, instead of each
  // looked up in its row (text, stems and vector together, scattered over the table).
  7: `
    DROP INDEX IF EXISTS kb_passages_by_list;
    DROP INDEX IF EXISTS kb_qa_by_list;
    CREATE INDEX kb_passages_by_list ON kb_passages (org_id, list_id, embedding) WHERE list_id IS NOT NULL;
    CREATE INDEX kb_qa_by_list ON kb_qa (org_id, list_id, embedding) WHERE list_id IS NOT NULL;
  `,
  // The answer library kept by analysts (../../sql/library.ts): decisions about entries, their history,
  // entries added by hand, the review age; and the entries grouped by question without a scan.
  8: libraryTablesSql('sqlite'),
  9: libraryKeysSql('sqlite'),
  // The library's owners and review intervals, and settlements for one offering.
  10: libraryReviewSql('sqlite'),
  // Each library entry's section within its sheet.
  11: librarySectionsSql('sqlite'),
};

/** Brings the index's tables to `target` (the current version unless a test builds an older database). */
export function migrateKnowledgeIndex(db: Database, target = SCHEMA_VERSION): void {
  db.exec('CREATE TABLE IF NOT EXISTS kb_schema_version (version INTEGER NOT NULL)');
  const row = db.prepare('SELECT MAX(version) AS version FROM kb_schema_version').get() as { version: number | null };
  const current = row.version ?? 0;
  for (let v = current + 1; v <= Math.min(target, SCHEMA_VERSION); v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v]!);
      db.prepare('INSERT INTO kb_schema_version (version) VALUES (?)').run(v);
    })();
  }
}
