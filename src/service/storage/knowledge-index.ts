/**
 * The knowledge index boundary: where a file's passages and answer-library (Q&A) entries are stored and
 * searched. `src/service/knowledge` orchestrates (splitting, tokenising, ranking, answering) and talks
 * only to this interface; each backend (./sqlite/knowledge, ./postgres/knowledge) owns its SQL and its
 * full-text syntax. Every method is async so a networked backend fits; every read is scoped to one
 * organisation and never returns another's rows.
 */

/** Which index: document passages or the answer library. */
export type IndexKind = 'passages' | 'qa';

/** What scopes a file's content in searches (kept beside the content, changeable without re-indexing). */
export interface IndexedFile {
  org_id: number;
  file_id: number;
  filename: string;
  offering_ids: number[];
  scope_includes_company: boolean;
  use_as_source: boolean;
}

export interface PassageEntry {
  page_number: number;
  section_path: string[];
  context_header: string;
  content: string;
  /** The passage's stemmed key terms, space-separated (what coverage is computed on). */
  stems: string;
  /** Normalised text for the full-text index (acronyms added), heading trail and body. */
  index_header: string;
  index_body: string;
  embedding: Float32Array | null;
}

export interface QaSlot {
  slot_key: string;
  header?: string;
  content: string;
}

/** An answer-library entry as stored and as found: its question, answer, slots and where it stands. */
export interface QaFields {
  question: string;
  answer: string;
  slots: QaSlot[];
  original_id: string | null;
  tab_name: string;
  location: string;
  /** Stemmed key terms, space-separated: of the question alone, and of question and answer. */
  question_stems: string;
  stems: string;
}

export interface QaEntry extends QaFields {
  /** The question it answers (question-identity.ts libraryQuestionKey): entries with one key answer one question. */
  qkey: string;
  /** Normalised text for the full-text index: the question and the readable answer. */
  index_question: string;
  index_answer: string;
  embedding: Float32Array | null;
}

export interface PassageHit {
  id: number;
  file_id: number;
  filename: string;
  page_number: number;
  section_path: string[];
  context_header: string;
  content: string;
  stems: string;
  /** BM25 (higher is better); 0 for rows fetched by id. */
  bm: number;
}

export interface QaHit extends QaFields {
  id: number;
  file_id: number;
  filename: string;
  bm: number;
}

export type HitOf<K extends IndexKind> = K extends 'passages' ? PassageHit : QaHit;

/** Which of an organisation's files a search may return. */
export interface IndexScope {
  org_id: number;
  /** One file only. */
  file_id?: number | null;
  /** Files of these offerings, or covering the whole company. */
  offering_ids?: number[] | null;
}

/** A lexical search within the scope (see `match`). */
export interface IndexQuery<K extends IndexKind = IndexKind> {
  kind: K;
  scope: IndexScope;
  /** Unstemmed key terms (letters and digits only); the backend stems them as it stems the text. */
  terms: string[];
  /**
   * 'any' (default): rows holding any of the terms, best BM25 first. 'all': rows holding every term,
   * newest first, not ranked (`bm` 1): the plan for a large index, where scoring every match would
   * cost in proportion to the corpus; the search stops after `pool` rows.
   */
  match?: 'any' | 'all';
  /** Rows returned at most. */
  limit: number;
  /** Best-ranked rows considered before the scope's mutable filters (offerings, use_as_source) apply. */
  pool: number;
}

export interface IndexSearchResult<K extends IndexKind = IndexKind> {
  hits: HitOf<K>[];
  /** Rows in the ranked pool before filtering: equal to `pool` means filters may have hidden more. */
  pool_size: number;
}

export interface TermRef {
  stem: string;
  word: string;
}

/** BM25's statistics of one kind, as `totalRows`, `orgRows` and `termDocs` give them. */
export interface KindStats {
  /** Rows (all organisations). */
  total: number;
  /** Rows of the organisation. */
  org: number;
  /** Each asked term's document frequency, in the order asked. */
  docs: number[];
}

/** What the index knows about a file beyond its scope (whose statement it is, what it is about). */
export interface FileFacts {
  /** The organisation the file's statements are about, when not necessarily the uploader's. */
  subject: string | null;
  /** The file's own answer to a "product name" question, if it has one. */
  label: string | null;
  offering_ids: number[];
  /** The date the document speaks as of, when it states one (YYYY-MM-DD). */
  as_of: string | null;
  /** The last day the document is valid for (a report's period, a certificate's expiry), and the words that say so. */
  valid_until: string | null;
  valid_said: string | null;
}

/** The dates a document states about itself (../knowledge/extract/document-dates.ts). */
export interface FileDates {
  as_of: string | null;
  valid_until: string | null;
  valid_said: string | null;
}

export interface KnowledgeIndex {
  /**
   * Replaces the file's content (and its scope) with `passages` and `qa`: searches see the old content
   * or nothing of the file until the new content is complete, and a failure leaves none of it behind.
   * Entries are pulled as they are written (they may be computed on demand); a large file is written in
   * batches without holding the event loop. `onProgress` gets the number of entries stored so far.
   */
  replaceFile(file: IndexedFile, passages: Iterable<PassageEntry>, qa: Iterable<QaEntry>, onProgress?: (stored: number) => void): Promise<void>;
  /** The file's scope changed (offerings, company scope, use_as_source, name); its content stays. */
  updateFile(file: IndexedFile): Promise<void>;
  /** Removes the file's content and scope. */
  deleteFile(orgId: number, fileId: number): Promise<void>;

  search<K extends IndexKind>(query: IndexQuery<K>): Promise<IndexSearchResult<K>>;
  /** The rows with these ids that the scope allows (dense retrieval's extra candidates). */
  byIds<K extends IndexKind>(kind: K, scope: IndexScope, ids: number[]): Promise<HitOf<K>[]>;
  /** Ids of the organisation's rows whose embeddings are nearest (cosine) to `vector`, best first. */
  nearest(kind: IndexKind, orgId: number, vector: Float32Array, k: number): Promise<number[]>;

  /**
   * For each term, the rows (all organisations) holding its stem: BM25's document frequency. `word` is
   * a word of the query with that stem (letters and digits), for a backend that counts by searching.
   */
  termDocs(kind: IndexKind, terms: TermRef[]): Promise<number[]>;
  /** Rows (all organisations). */
  totalRows(kind: IndexKind): Promise<number>;
  /** Rows of one organisation. */
  orgRows(kind: IndexKind, orgId: number): Promise<number>;
  /**
   * `totalRows`, `orgRows` and `termDocs` of both kinds at once: everything an ask's planning and
   * weighting read, in one round trip on a networked backend.
   */
  termStats(orgId: number, terms: Record<IndexKind, TermRef[]>): Promise<Record<IndexKind, KindStats>>;

  /**
   * The file's facts, or null for a file not in the index; `label` is its answer (80 characters at
   * most) to the first of `labelQuestions` (lower-cased question texts) it answers.
   */
  fileFacts(orgId: number, fileId: number, labelQuestions: string[]): Promise<FileFacts | null>;
  /** `fileFacts` of several files at once (one round trip on a networked backend); files not in the index are absent. */
  filesFacts(orgId: number, fileIds: number[], labelQuestions: string[]): Promise<Map<number, FileFacts>>;
  setFileSubject(orgId: number, fileId: number, subject: string | null): Promise<void>;
  setFileDates(orgId: number, fileId: number, dates: FileDates): Promise<void>;
  /** The organisation's own names, as set (null when never set). */
  orgNames(orgId: number): Promise<string | null>;
  setOrgNames(orgId: number, names: string): Promise<void>;
}
