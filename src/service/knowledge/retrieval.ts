/**
 * Lexical retrieval (FTS5 BM25 over passages and answer-library questions), optional dense retrieval
 * fused by reciprocal rank, and an honest 0..1 relevance: the share of the question's key terms a
 * piece of evidence contains, tempered by its BM25 standing among the candidates.
 */
import type { FilterParams, IndexKind, KnowledgeStore, PassageRow, QaRow, SearchParams } from './store';
import { coverage, keyTerms, stem, StemList, stemmedTerms, type TermSet, type TermWeights } from './text';
import type { Evidence, SearchFilters } from './types';

export interface LibrarySlot {
  slot_key: string;
  header?: string;
  content: string;
}

export interface Candidate {
  evidence: Evidence;
  /** The evidence's stemmed key terms (question and answer for library entries). */
  stems: TermSet;
  /** Present for answer-library entries. */
  library?: { question: string; questionStems: Set<string>; slots: LibrarySlot[]; original_id: string | null };
  fusion: number;
}

export interface RetrieveOptions {
  limit: number;
  includePassages?: boolean;
  includeQa?: boolean;
  /** Dense rankings (ids, best first) to fuse with the lexical ones. */
  dense?: { passages: number[]; qa: number[] } | null;
}

const POOL = 40;
const FTS_POOL = 200;
const MAX_TERMS = 32;
/** Rows (summed over the kept terms) a search may make BM25 score; see matchExpression. */
const ROW_BUDGET = 1500;
const MIN_TERMS = 2;
const RRF_K = 60;
const QUESTION_FORM_STEMS = new Set(['often', 'frequent', 'frequenc', 'long', 'mani', 'much', 'kind', 'type', 'typic']);

export function filterParams(orgId: number, filters: SearchFilters): FilterParams {
  const offerings = filters.offering_ids && filters.offering_ids.length > 0 ? JSON.stringify(filters.offering_ids) : null;
  return { org: orgId, file_id: filters.file_id ?? null, offerings };
}

export function retrieve(store: KnowledgeStore, orgId: number, query: string, filters: SearchFilters, options: RetrieveOptions): Candidate[] {
  store.noticeExternalChanges();
  const terms = keyTerms(query).slice(0, MAX_TERMS);
  const queryStems = stemmedTerms(query);
  const candidates: Candidate[] = [];
  const search = { store, orgId, filters, terms, queryStems };
  if (options.includePassages !== false) {
    const dense = options.dense?.passages ?? [];
    candidates.push(...searchIndex(search, 'passages', dense, (p) => store.searchPassages.all(p), (p) => store.passagesByIds.all(p), passageCandidate));
  }
  if (options.includeQa !== false) {
    const dense = options.dense?.qa ?? [];
    candidates.push(...searchIndex(search, 'qa', dense, (p) => store.searchQa.all(p), (p) => store.qaByIds.all(p), qaCandidate));
  }

  return ranked(candidates, options.limit);
}

/** A question's stems without those that only shape the answer ("how often", "how long"). */
export function subjectStems(text: string): Set<string> {
  return new Set([...stemmedTerms(text)].filter((s) => !QUESTION_FORM_STEMS.has(s)));
}

/** What a question is about, for judging whether a sentence speaks to it. */
export interface QuestionFocus {
  /** Rarity (BM25's IDF over the passage index) of each of the question's stems. */
  weights: TermWeights;
  /**
   * Its most distinctive stems that the knowledge base contains at all: in "Have you had an
   * unplanned disruption in the last 12 months?" they are "unplanned" and "disruption", and a
   * sentence about "the last 12 passwords" has neither.
   */
  anchors: Set<string>;
  /**
   * For a chat follow-up, the user's own new words ("tested" in "How often is it tested?"): a quoted
   * sentence (with its heading) must hold at least half of them, so the earlier turn's subject alone
   * does not make a sentence an answer. They replace `anchors`.
   */
  required?: Set<string>;
}

/** A question's distinctive stems: its rarest third, at least two. */
const anchorCount = (stems: number) => Math.max(2, Math.ceil(stems / 3));

export function questionFocus(store: KnowledgeStore, queryStems: Set<string>): QuestionFocus {
  store.noticeExternalChanges();
  const total = store.totalRows('passages');
  const weights = new Map<string, number>();
  const present: { term: string; docs: number }[] = [];
  for (const term of queryStems) {
    // "How often", "how long", "how many": the form of the answer, not its subject.
    if (QUESTION_FORM_STEMS.has(term)) {
      weights.set(term, 0.1);
      continue;
    }
    const docs = Math.min(total, store.termDocs('passages', term));
    weights.set(term, Math.log(1 + (total - docs + 0.5) / (docs + 0.5)));
    // A stem no passage has (a typo, another spelling) cannot single out a sentence.
    if (docs > 0) present.push({ term, docs });
  }
  present.sort((a, b) => a.docs - b.docs);
  return {
    weights: (term) => weights.get(term) ?? 1,
    anchors: new Set(present.slice(0, anchorCount(queryStems.size)).map((p) => p.term)),
  };
}

/** Best first (relevance, then fused rank), cut to `limit`, ranks renumbered from 1. */
export function ranked(candidates: Candidate[], limit: number): Candidate[] {
  const top = [...candidates]
    .sort((a, b) => b.evidence.relevance_score - a.evidence.relevance_score || b.fusion - a.fusion)
    .slice(0, limit);
  top.forEach((c, i) => (c.evidence.rank = i + 1));
  return top;
}

/**
 * The FTS5 MATCH expression: the org (and file) scope as column filters, AND an OR of quoted terms.
 * Terms are letters and digits only (see keyTerms), so no user text can become query syntax.
 * BM25 is computed for every row the OR matches, so the cost of a search is the number of rows its
 * terms occur in. Terms are taken rarest first (they are also the ones BM25 weighs most) until their
 * rows add up to the budget; the frequent ones left out still count in the coverage every candidate
 * is scored with afterwards, they only stop widening the pool. A small index keeps every term.
 */
function matchExpression(terms: string[], orgId: number, filters: SearchFilters, store: KnowledgeStore, kind: IndexKind): string | null {
  if (terms.length === 0) return null;
  let kept = terms;
  const orgRows = store.orgRows(kind, orgId);
  if (orgRows > ROW_BUDGET && terms.length > MIN_TERMS) {
    // Frequencies are counted over every organisation; the org's share of them is what its search scores.
    const orgShare = orgRows / Math.max(orgRows, store.totalRows(kind));
    const counted = terms.map((term) => ({ term, rows: store.termDocs(kind, stem(term)) * orgShare })).sort((a, b) => a.rows - b.rows);
    kept = [];
    let rows = 0;
    for (const c of counted) {
      if (kept.length >= MIN_TERMS && rows + c.rows > ROW_BUDGET) break;
      kept.push(c.term);
      rows += c.rows;
    }
  }
  let scope = `org : "o${Math.trunc(orgId)}"`;
  if (filters.file_id !== undefined && Number.isInteger(filters.file_id)) scope += ` AND file : "f${filters.file_id}"`;
  return `${scope} AND (${kept.map((t) => `"${t}"`).join(' OR ')})`;
}

interface Search {
  store: KnowledgeStore;
  orgId: number;
  filters: SearchFilters;
  terms: string[];
  queryStems: Set<string>;
}

/** One index's candidates: its BM25 pool plus the rows only dense retrieval found, scored. */
function searchIndex<R extends { id: number; bm: number }>(
  search: Search,
  kind: IndexKind,
  denseIds: number[],
  run: (params: SearchParams) => (R & { pool_size: number })[],
  byIds: (params: FilterParams & { ids: string }) => R[],
  build: (row: R) => Candidate,
): Candidate[] {
  const params = filterParams(search.orgId, search.filters);
  const match = matchExpression(search.terms, search.orgId, search.filters, search.store, kind);
  const rows: R[] = match ? lexical(run, { ...params, match, limit: POOL, pool: FTS_POOL }) : [];
  const extra = missingIds(denseIds, rows);
  if (extra.length) rows.push(...byIds({ ...params, ids: JSON.stringify(extra) }));
  return scoreRows(rows, denseIds, search.queryStems, build);
}

/** Runs a pooled FTS search; when filters discard most of a full pool, searches a larger one. */
function lexical<R>(run: (params: SearchParams) => (R & { pool_size: number })[], params: SearchParams): R[] {
  let rows = run(params);
  if (rows.length < params.limit && (rows[0]?.pool_size ?? 0) >= params.pool) rows = run({ ...params, pool: params.pool * 50 });
  return rows;
}

function missingIds(ids: number[], rows: { id: number }[]): number[] {
  const have = new Set(rows.map((r) => r.id));
  return ids.filter((id) => !have.has(id));
}

function scoreRows<R extends { id: number; bm: number }>(
  rows: R[],
  denseIds: number[],
  queryStems: Set<string>,
  build: (row: R) => Candidate,
): Candidate[] {
  const bmBest = rows.reduce((m, r) => Math.max(m, r.bm), 0);
  const lexicalRank = new Map(rows.filter((r) => r.bm > 0).map((r, i) => [r.id, i]));
  const denseRank = new Map(denseIds.map((id, i) => [id, i]));
  return rows.map((row) => {
    const candidate = build(row);
    const cov = coverage(queryStems, candidate.stems);
    const bmShare = bmBest > 0 ? row.bm / bmBest : 0;
    let relevance = cov * (0.75 + 0.25 * bmShare);
    const lr = lexicalRank.get(row.id);
    const dr = denseRank.get(row.id);
    candidate.fusion = (lr === undefined ? 0 : 1 / (RRF_K + lr)) + (dr === undefined ? 0 : 1 / (RRF_K + dr));
    // Found only by meaning: its term overlap undersells it; credit its dense standing a little.
    if (lr === undefined && dr !== undefined) relevance = Math.max(relevance, 0.5 - dr * 0.02);
    candidate.evidence.relevance_score = round3(Math.min(1, relevance));
    return candidate;
  });
}

function passageCandidate(row: PassageRow): Candidate {
  return {
    evidence: {
      type: 'passage',
      passage_id: row.id,
      qna_id: null,
      file_id: row.file_id,
      filename: row.filename,
      page_number: row.page_number,
      content: row.content,
      context_header: row.context_header,
      section_path: JSON.parse(row.section_path) as string[],
      tab_name: '',
      relevance_score: 0,
      rank: 0,
    },
    stems: new StemList(row.stems),
    fusion: 0,
  };
}

function qaCandidate(row: QaRow): Candidate {
  const slots = JSON.parse(row.slots) as LibrarySlot[];
  return {
    evidence: {
      type: 'qna',
      passage_id: null,
      qna_id: row.id,
      file_id: row.file_id,
      filename: row.filename,
      page_number: 1,
      content: qaContent(row.answer, slots),
      context_header: row.tab_name,
      section_path: row.tab_name ? [row.tab_name] : [],
      tab_name: row.tab_name,
      question_text: row.question,
      source_location: row.location,
      relevance_score: 0,
      rank: 0,
    },
    stems: new StemList(row.stems),
    library: {
      question: row.question,
      questionStems: new Set(row.question_stems.split(' ')),
      slots,
      original_id: row.original_id,
    },
    fusion: 0,
  };
}

/** An answer-library entry as readable evidence: `Yes. We use SAML SSO.` */
export function qaContent(answer: string, slots: LibrarySlot[]): string {
  const parts = [answer, ...slots.map((s) => s.content).filter((c) => c !== answer)];
  return parts
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => (/[.!?]$/.test(p) ? p : `${p}.`))
    .join(' ');
}

function round3(n: number): number {
  return Math.round(n * 1000) / 1000;
}
