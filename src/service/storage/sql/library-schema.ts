/**
 * The answer library's tables, beside the knowledge index's entries they are about (both backends run
 * them with the index's migrations: SQLite's version 8, PostgreSQL's 1004).
 *
 * Version 10 (PostgreSQL 1008) adds, without touching what exists: an entry's owner and its own review
 * interval, and settlements for one offering (`libraryReviewSql`).
 *
 * An entry is a row of `kb_qa`. Its id changes when its file is processed again, so what analysts decide
 * about it is kept under its stable key: file, location and the question as learned. Entries added by
 * hand are files of their own in the index, with the negative id of their `library_manual` row, so the
 * retrieval that answers finds them like any other.
 */
import { LIBRARY_KEY_LIMITS } from '../../knowledge/question-identity';
import type { Dialect } from './executor';

/** Characters of an answer compared when entries are checked for disagreement. */
export const ANSWER_PREFIX_CHARS = 100;

/** `column` is one of the texts in the one parameter the statement takes there (a JSON array for SQLite). */
export function textInSql(dialect: Dialect, column: string): string {
  return dialect === 'postgres' ? `${column} = ANY(CAST(? AS TEXT[]))` : `${column} IN (SELECT value FROM json_each(?))`;
}

/** The parameter `textInSql` takes for these texts. */
export function textInArg(dialect: Dialect, values: readonly string[]): unknown {
  return dialect === 'postgres' ? [...values] : JSON.stringify(values);
}

/**
 * The keys (of entries passing `where`, on `q`) whose live (not retired) entries give more than one
 * answer, none of them canonical. As a fill does, only the newest upload of a questionnaire speaks for it:
 * an entry is left out when a later file of the same name answers the same question (a fill also counts
 * a workbook's reviewed-answers sheet as that workbook; the list of conflicts does not). The later entry is
 * found by the key's index: "file_id + 0" keeps SQLite from walking every later file's entries instead.
 */
function conflictingKeysSql(where: string): string {
  return `SELECT q.org_id, q.qkey FROM kb_qa q
     JOIN kb_files f ON f.org_id = q.org_id AND f.file_id = q.file_id
     LEFT JOIN library_state s ON s.org_id = q.org_id AND s.file_id = q.file_id AND s.location = q.location AND s.question = q.question
     WHERE ${where} AND NOT EXISTS (
       SELECT 1 FROM kb_qa n JOIN kb_files nf ON nf.org_id = n.org_id AND nf.file_id = n.file_id
       WHERE n.org_id = q.org_id AND n.qkey = q.qkey AND n.file_id + 0 > q.file_id AND LOWER(nf.filename) = LOWER(f.filename))
     GROUP BY q.org_id, q.qkey
     HAVING COUNT(DISTINCT CASE WHEN COALESCE(s.status, 'active') <> 'retired' THEN LOWER(TRIM(SUBSTR(COALESCE(s.edit_answer, q.answer), 1, ${ANSWER_PREFIX_CHARS}))) END) > 1
       AND SUM(CASE WHEN s.status = 'canonical' THEN 1 ELSE 0 END) = 0`;
}

/**
 * Of the open disagreements (`library_conflicts`), those a questionnaire about one offering meets: the
 * question's live entries speaking for the offering (their file names none, or names it), only the newest
 * upload of a file name speaking for it, give more than one answer, and the question is not settled for
 * that offering. Its arguments: org_id, offering_id (settled), offering_id (speaking for), then `after`'s.
 * The disagreements are few and walked in key order, so a page after a key stops once it is full.
 */
export function offeringConflictsSql(dialect: Dialect, after: string): string {
  // The disagreements drive the join, in key order (SQLite: CROSS JOIN keeps them the outer loop; left to
  // itself it walked every entry of the organisation).
  return `SELECT c.qkey FROM library_conflicts c
     ${dialect === 'sqlite' ? 'CROSS JOIN' : 'JOIN'} kb_qa q ON q.org_id = c.org_id AND q.qkey = c.qkey
     JOIN kb_files f ON f.org_id = q.org_id AND f.file_id = q.file_id
     LEFT JOIN library_state s ON s.org_id = q.org_id AND s.file_id = q.file_id AND s.location = q.location AND s.question = q.question
     WHERE c.org_id = ? ${after} AND COALESCE(s.status, 'active') <> 'retired'
       AND NOT EXISTS (SELECT 1 FROM library_settlements t WHERE t.org_id = c.org_id AND t.qkey = c.qkey AND t.offering_id = ?)
       AND (NOT EXISTS (SELECT 1 FROM kb_file_offerings o WHERE o.org_id = q.org_id AND o.file_id = q.file_id)
         OR EXISTS (SELECT 1 FROM kb_file_offerings o WHERE o.org_id = q.org_id AND o.file_id = q.file_id AND o.offering_id = ?))
       AND NOT EXISTS (
         SELECT 1 FROM kb_qa n JOIN kb_files nf ON nf.org_id = n.org_id AND nf.file_id = n.file_id
         WHERE n.org_id = q.org_id AND n.qkey = q.qkey AND n.file_id + 0 > q.file_id AND LOWER(nf.filename) = LOWER(f.filename))
     GROUP BY c.qkey
     HAVING COUNT(DISTINCT LOWER(TRIM(SUBSTR(COALESCE(s.edit_answer, q.answer), 1, ${ANSWER_PREFIX_CHARS})))) > 1`;
}

/**
 * The disagreements among the entries answering these keys, as `library_conflicts` keeps them. Two
 * statements, each taking (org_id, keys): the keys' rows go, those in conflict come back. Run in the
 * transaction that changed an entry or a file's entries, so the table is always what the entries say
 * (conflicts are then read a page at a time, never computed over the whole library).
 */
export function refreshConflictsSql(dialect: Dialect): [string, string] {
  return [
    `DELETE FROM library_conflicts WHERE org_id = ? AND ${textInSql(dialect, 'qkey')}`,
    `INSERT INTO library_conflicts (org_id, qkey) ${conflictingKeysSql(`q.org_id = ? AND ${textInSql(dialect, 'q.qkey')}`)}`,
  ];
}

/**
 * Version 9 (PostgreSQL 1007): each entry keeps its question's key (question-identity.ts
 * libraryQuestionKey, computed as the entry is read; the same words under another section are another
 * question), and `library_conflicts` the keys in disagreement. Rows written before have no subject; their
 * key is computed here as JavaScript would without one (SQLite folds ASCII case and common white space
 * only: a question with other white space or letters gets its exact key when its file is read again).
 */
export function libraryKeysSql(dialect: Dialect): string {
  const pg = dialect === 'postgres';
  const words = (column: string) =>
    pg
      ? `BTRIM(REGEXP_REPLACE(LOWER(${column}), '\\s+', ' ', 'g'))`
      : `TRIM(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(LOWER(${column}), char(13), ' '), char(10), ' '), char(9), ' '), '    ', ' '), '  ', ' '), '  ', ' '))`;
  const key = `CASE WHEN ${words("COALESCE(original_id, '')")} <> ''
    THEN 'id:' || SUBSTR(${words('tab_name')}, 1, ${LIBRARY_KEY_LIMITS.id}) || '|' || SUBSTR(${words('original_id')}, 1, ${LIBRARY_KEY_LIMITS.id})
    ELSE 'text:' || SUBSTR(${words('question')}, 1, ${LIBRARY_KEY_LIMITS.text}) || '|' END`;
  const big = pg ? 'BIGINT' : 'INTEGER';
  return `
ALTER TABLE kb_qa ADD COLUMN ${pg ? 'IF NOT EXISTS ' : ''}qkey TEXT NOT NULL DEFAULT '';
UPDATE kb_qa SET qkey = ${key};
DROP INDEX IF EXISTS kb_qa_by_question_key;
CREATE INDEX IF NOT EXISTS kb_qa_by_qkey ON kb_qa (org_id, qkey);
UPDATE library_state SET qkey = COALESCE((SELECT q.qkey FROM kb_qa q WHERE q.org_id = library_state.org_id AND q.file_id = library_state.file_id
  AND q.location = library_state.location AND q.question = library_state.question LIMIT 1), qkey);
CREATE TABLE IF NOT EXISTS library_conflicts (
  org_id ${big} NOT NULL,
  qkey TEXT NOT NULL,
  PRIMARY KEY (org_id, qkey)
);
INSERT INTO library_conflicts (org_id, qkey) ${conflictingKeysSql('1 = 1')}
ON CONFLICT DO NOTHING;
`;
}

export function libraryTablesSql(dialect: Dialect): string {
  const id = dialect === 'postgres' ? 'BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY' : 'INTEGER PRIMARY KEY';
  const big = dialect === 'postgres' ? 'BIGINT' : 'INTEGER';
  return `
CREATE TABLE IF NOT EXISTS library_state (
  org_id ${big} NOT NULL,
  file_id ${big} NOT NULL,
  location TEXT NOT NULL,
  question TEXT NOT NULL,
  qkey TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'canonical', 'retired')),
  retired_reason TEXT,
  approved_by TEXT,
  approved_at TEXT,
  version INTEGER NOT NULL DEFAULT 1,
  edit_question TEXT,
  edit_answer TEXT,
  edit_slots TEXT,
  as_of TEXT,
  updated_by TEXT,
  updated_at TEXT,
  PRIMARY KEY (org_id, file_id, location, question)
);
-- No other index on library_state: every entry read joins it by its key, and a second index led with
-- org_id is what PostgreSQL's planner took for that join before it had statistics (every state row
-- compared for every entry). Decisions are few; the settled keys are read from the key's rows.
CREATE TABLE IF NOT EXISTS library_events (
  id ${id},
  org_id ${big} NOT NULL,
  file_id ${big} NOT NULL,
  location TEXT NOT NULL,
  question TEXT NOT NULL,
  action TEXT NOT NULL,
  by_name TEXT NOT NULL,
  at TEXT NOT NULL,
  detail TEXT,
  version INTEGER,
  version_question TEXT,
  version_slots TEXT
);
CREATE INDEX IF NOT EXISTS library_events_by_entry ON library_events (org_id, file_id, location, question, id);
CREATE TABLE IF NOT EXISTS library_manual (
  id ${id},
  org_id ${big} NOT NULL,
  question TEXT NOT NULL,
  slots TEXT NOT NULL,
  original_id TEXT,
  offering_ids TEXT NOT NULL DEFAULT '[]',
  created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS library_settings (
  org_id ${big} PRIMARY KEY,
  review_age_months INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS kb_qa_by_location ON kb_qa (org_id, file_id, location);
${
  // A page of the library, newest file first, read in index order and stopped after the page (SQLite's
  // kb_qa_by_file holds the rowid already).
  dialect === 'postgres' ? 'CREATE INDEX IF NOT EXISTS kb_qa_by_file_id ON kb_qa (org_id, file_id, id);' : ''
}
`;
}

/**
 * Owners and review cycles, settlements per offering, and the dates a file states about itself (as of,
 * valid until: ../../knowledge/extract/document-dates.ts): additive (new columns, a new table), so a
 * database of the version before reads as before.
 *
 * `owner` is the username of a user of the organisation (the one who keeps the entry current);
 * `review_months` the entry's own review interval, overriding the organisation's review age.
 * A settlement for one offering chooses an entry for a question when a questionnaire is about that
 * offering, leaving every other offering's disagreement as it was (a whole-question settlement is the
 * chosen entry's `canonical` status).
 */
export function libraryReviewSql(dialect: Dialect): string {
  const big = dialect === 'postgres' ? 'BIGINT' : 'INTEGER';
  const ifNot = dialect === 'postgres' ? 'IF NOT EXISTS ' : '';
  return `
ALTER TABLE library_state ADD COLUMN ${ifNot}owner TEXT;
ALTER TABLE library_state ADD COLUMN ${ifNot}review_months INTEGER;
ALTER TABLE kb_files ADD COLUMN ${ifNot}as_of TEXT;
ALTER TABLE kb_files ADD COLUMN ${ifNot}valid_until TEXT;
ALTER TABLE kb_files ADD COLUMN ${ifNot}valid_said TEXT;
CREATE TABLE IF NOT EXISTS library_settlements (
  org_id ${big} NOT NULL,
  qkey TEXT NOT NULL,
  offering_id ${big} NOT NULL,
  file_id ${big} NOT NULL,
  location TEXT NOT NULL,
  question TEXT NOT NULL,
  by_name TEXT NOT NULL,
  at TEXT NOT NULL,
  PRIMARY KEY (org_id, qkey, offering_id)
);
`;
}

/**
 * Version 11 (PostgreSQL 1009): the section of its sheet an entry was learned in (its section rows'
 * titles, outermost first, joined by " > "), so a section's owner and the conflicts' grouping work within
 * a sheet (HECVAT's sections, the CAIQ's domains), not per sheet only. Rows written before have none
 * (NULL): the library takes their sheet for their section until their file is read again (re-processing,
 * or `qfill migrate`), when the reader gives it. Additive: a database of the version before reads as before.
 */
export function librarySectionsSql(dialect: Dialect): string {
  return `ALTER TABLE kb_qa ADD COLUMN ${dialect === 'postgres' ? 'IF NOT EXISTS ' : ''}section TEXT;`;
}
