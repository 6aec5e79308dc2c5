/**
 * Lexical retrieval (BM25 over passages and answer-library questions, through the knowledge index), optional dense retrieval
 * fused by reciprocal rank, and an honest 0..1 relevance: the share of the question's key terms a
 * piece of evidence contains, tempered by its BM25 standing among the candidates.
 */
import type { HitOf, IndexKind, IndexQuery, IndexScope, KindStats, KnowledgeIndex, PassageHit, QaHit, QaSlot, TermRef } from '../storage/knowledge-index';
import { coverage, keyTerms, normalizeText, stem, StemList, stemmedTerms, termWeight, type TermSet, type TermWeights } from './text';
import type { Evidence, SearchFilters } from './types';
import { PARAPHRASES } from './vocabulary';

export type LibrarySlot = QaSlot;

export interface Candidate {
  evidence: Evidence;
  /** The evidence's stemmed key terms (question and answer for library entries). */
  stems: TermSet;
  /** Present for answer-library entries. */
  library?: { question: string; questionStems: Set<string>; slots: LibrarySlot[]; original_id: string | null };
  fusion: number;
  /**
   * What the candidate ranks by when that differs from its relevance: in a questionnaire, its relevance
   * with the questionnaire's asking words weighed down and the passage prior applied. The relevance
   * itself stays the plain share of the question it holds (what evidence must reach to be shown).
   */
  standing?: number;
}

export interface RetrieveOptions {
  limit: number;
  includePassages?: boolean;
  includeQa?: boolean;
  /** Dense rankings (ids, best first) to fuse with the lexical ones. */
  dense?: { passages: number[]; qa: number[] } | null;
  /**
   * Words of the question's context (its section titles): searched too, and a candidate holding them is
   * raised a little, but relevance stays the share of the question's own terms a candidate holds.
   */
  hint?: string;
  /**
   * Count a passage holding a paraphrase of a question's word (vocabulary.ts PARAPHRASES: "export" for
   * "retrieve", "destruction" for "destroy") as holding it, for PARAPHRASE_CREDIT of its weight, and
   * search with the paraphrases too: a questionnaire and a document seldom use the same word.
   */
  paraphrases?: boolean;
  /**
   * Weigh the question's terms by their rarity in the corpus (BM25's IDF over the passages) as well:
   * half the relevance is the plain share of the question's terms a passage holds, half the share of
   * their weight. A passage that matches a question only on words most passages hold ("policies",
   * "reviewed", "at least annually": tables of contents, lists of policies, framework rows) then ranks
   * below one holding its distinctive words ("password"). Learned from the corpus, so nothing names the
   * documents that tend to match everything.
   */
  weighByRarity?: boolean;
  /**
   * The words the questionnaire asks every question with ("policies", "procedures", "processes"), which
   * count for less than its subject (QuestionnaireTerms), in both halves of the relevance.
   */
  asked?: QuestionnaireTerms;
  /** The ask's statistics, read once for all its searches (else read here). */
  stats?: TermStatistics;
}

/**
 * An ask's BM25 statistics (rows of each kind, the organisation's rows, each word's document frequency),
 * read in one call for every text the ask weighs, then shared by its searches' plans and its question
 * focus: on PostgreSQL one round trip instead of one per figure. A word not read up front is asked for.
 */
export class TermStatistics {
  private constructor(
    private readonly index: KnowledgeIndex,
    private readonly stats: Record<IndexKind, KindStats>,
    private readonly known: Record<IndexKind, Map<string, number>>,
  ) {}

  /** The statistics of every key term of `texts` (empty ones skipped). */
  static async load(index: KnowledgeIndex, orgId: number, texts: (string | undefined)[]): Promise<TermStatistics> {
    const words = [...new Set(texts.flatMap((t) => (t ? keyTerms(t) : [])))];
    const refs: TermRef[] = words.map((word) => ({ stem: stem(word), word }));
    const stats = await index.termStats(orgId, { passages: refs, qa: refs });
    const known = (kind: IndexKind) => new Map(words.map((w, i) => [w, stats[kind].docs[i] ?? 0]));
    return new TermStatistics(index, stats, { passages: known('passages'), qa: known('qa') });
  }

  total(kind: IndexKind): number {
    return this.stats[kind].total;
  }

  org(kind: IndexKind): number {
    return this.stats[kind].org;
  }

  async docs(kind: IndexKind, terms: TermRef[]): Promise<number[]> {
    const known = this.known[kind];
    const missing = terms.filter((t) => !known.has(t.word));
    if (missing.length) {
      const counted = await this.index.termDocs(kind, missing);
      missing.forEach((t, i) => known.set(t.word, counted[i] ?? 0));
    }
    return terms.map((t) => known.get(t.word)!);
  }
}

/** How much a passage holding only a paraphrase of a question's word is credited with it. */
const PARAPHRASE_CREDIT = 0.8;
/** How much a candidate holding all of the hint's terms is raised. */
const HINT_WEIGHT = 0.1;
/** With weighByRarity, the share of relevance that stays the plain share of the question's terms. */
const RARITY_PLAIN = 0.5;

const POOL = 40;
const FTS_POOL = 200;
const MAX_TERMS = 32;
/** Rows (summed over the kept terms) a search may make BM25 score; see searchPlan. */
const ROW_BUDGET = 1500;
/**
 * On an organisation's index of more than LARGE_INDEX_ROWS rows, when the kept terms occur in more
 * than SCORE_BUDGET rows, a search asks for rows holding up to MAX_TOGETHER of the rarest terms together.
 */
const LARGE_INDEX_ROWS = 50_000;
const SCORE_BUDGET = 2000;
const MAX_TOGETHER = 4;
/**
 * Postings an 'all' search may walk (about a millisecond). FTS5 walks every term's postings, newest
 * first, until the pool is full: rows x (pool / rows holding them all), or every posting when fewer
 * rows than the pool hold them all.
 */
const WALK_BUDGET = 30_000;
const MIN_TERMS = 2;
const RRF_K = 60;
const QUESTION_FORM_STEMS = new Set(['often', 'frequent', 'frequenc', 'long', 'mani', 'much', 'kind', 'type', 'typic']);

function scopeOf(orgId: number, filters: SearchFilters): IndexScope {
  return { org_id: orgId, file_id: filters.file_id ?? null, offering_ids: filters.offering_ids?.length ? filters.offering_ids : null };
}

export async function retrieve(index: KnowledgeIndex, orgId: number, query: string, filters: SearchFilters, options: RetrieveOptions): Promise<Candidate[]> {
  const own = keyTerms(query);
  const queryStems = stemmedTerms(query);
  const alternatives = options.paraphrases ? paraphrasesOf(queryStems) : null;
  // A paraphrase widens the pool before the hint does: it can hold the question's subject, a title cannot.
  const paraphrased = alternatives ? [...alternatives.words].filter((w) => !own.includes(w)) : [];
  const hinted = options.hint ? keyTerms(options.hint).filter((t) => !own.includes(t) && !paraphrased.includes(t)) : [];
  const terms = [...own.slice(0, MAX_TERMS), ...paraphrased, ...hinted].slice(0, MAX_TERMS);
  const hintStems = new Set([...stemmedTerms(options.hint ?? '')].filter((s) => !queryStems.has(s)));
  const candidates: Candidate[] = [];
  const stats = options.stats ?? (await TermStatistics.load(index, orgId, [query, options.hint]));
  const rarity = options.weighByRarity ? await rarityWeights(stats, query) : null;
  const search = {
    index,
    orgId,
    filters,
    terms,
    queryStems,
    hintStems,
    stats,
    rarity,
    asked: options.asked ?? null,
    alternatives: alternatives?.byStem ?? null,
  };
  if (options.includePassages !== false) {
    candidates.push(...(await searchIndex(search, 'passages', options.dense?.passages ?? [], passageCandidate)));
  }
  if (options.includeQa !== false) {
    candidates.push(...(await searchIndex(search, 'qa', options.dense?.qa ?? [], qaCandidate)));
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
  /** Its stems no passage holds at all: nothing in the knowledge base can state them. */
  absent?: Set<string>;
}

/** A question's distinctive stems: its rarest third, at least two. */
const anchorCount = (stems: number) => Math.max(2, Math.ceil(stems / 3));

export async function questionFocus(index: KnowledgeIndex, orgId: number, text: string, loaded?: TermStatistics): Promise<QuestionFocus> {
  // The question's stems (as stemmedTerms gives them, in order), each with the first word it came from.
  const wordOf = new Map<string, string>();
  for (const word of keyTerms(text)) if (!wordOf.has(stem(word))) wordOf.set(stem(word), word);
  const queryStems = [...wordOf.keys()];
  const stats = loaded ?? (await TermStatistics.load(index, orgId, [text]));
  const total = stats.total('passages');
  const weights = new Map<string, number>();
  const present: { term: string; docs: number }[] = [];
  const absent = new Set<string>();
  const subject = queryStems.filter((term) => !QUESTION_FORM_STEMS.has(term));
  const counts = await stats.docs(
    'passages',
    subject.map((s) => ({ stem: s, word: wordOf.get(s)! })),
  );
  const docsOf = new Map(subject.map((term, i) => [term, counts[i] ?? 0]));
  for (const term of queryStems) {
    // "How often", "how long", "how many": the form of the answer, not its subject.
    if (QUESTION_FORM_STEMS.has(term)) {
      weights.set(term, 0.1);
      continue;
    }
    const docs = Math.min(total, docsOf.get(term) ?? 0);
    weights.set(term, Math.log(1 + (total - docs + 0.5) / (docs + 0.5)));
    // A stem no passage has (a typo, another spelling) cannot single out a sentence.
    if (docs > 0) present.push({ term, docs });
    else absent.add(term);
  }
  present.sort((a, b) => a.docs - b.docs);
  return {
    weights: (term) => weights.get(term) ?? 1,
    anchors: new Set(present.slice(0, anchorCount(queryStems.length)).map((p) => p.term)),
    absent,
  };
}

/** Each of the query's stems weighed by its rarity among passages (IDF, at least a little for the commonest). */
async function rarityWeights(stats: TermStatistics, query: string): Promise<TermWeights> {
  const wordOf = new Map<string, string>();
  for (const word of keyTerms(query)) if (!wordOf.has(stem(word))) wordOf.set(stem(word), word);
  const stems = [...wordOf.keys()];
  const total = stats.total('passages');
  const docs = await stats.docs(
    'passages',
    stems.map((s) => ({ stem: s, word: wordOf.get(s)! })),
  );
  const weights = new Map(
    stems.map((s, i) => {
      const d = Math.min(total, docs[i] ?? 0);
      return [s, QUESTION_FORM_STEMS.has(s) ? 0.1 : Math.max(0.1, Math.log(1 + (total - d + 0.5) / (d + 0.5)))];
    }),
  );
  return (term) => weights.get(term) ?? 1;
}

/**
 * Which passages match everything, learned from the searches of one questionnaire: a passage among the
 * first PRIOR_TOP of far more of its questions than passages usually are (a list of every policy, a
 * framework's table row naming every function, a page touching five subjects) is demoted for all of
 * them. A passage on one subject is first for the few questions on that subject and keeps its standing;
 * one on every subject is first for a share of the questionnaire no subject has. Counted from the
 * questionnaire's own searches, so nothing names the documents that tend to match everything, and a
 * passage that is the answer for its subject still comes first there when it holds the subject's words.
 */
export class PassagePrior {
  private constructor(
    private readonly counts: Map<number, number>,
    /** How often a passage is among the first PRIOR_TOP before it counts as matching everything. */
    private readonly free: number,
  ) {}

  /** No prior: every passage keeps its relevance (a chat message, a questionnaire too short to learn from). */
  static readonly none = new PassagePrior(new Map(), Infinity);

  /** The prior of a questionnaire from each of its questions' passages (`rankings`, best first). */
  static learn(rankings: Candidate[][]): PassagePrior {
    if (rankings.length < PRIOR_MIN_QUESTIONS) return PassagePrior.none;
    const counts = new Map<number, number>();
    let slots = 0;
    for (const ranking of rankings) {
      for (const c of ranked(
        ranking.filter((r) => r.evidence.passage_id !== null),
        PRIOR_TOP,
        false,
      )) {
        counts.set(c.evidence.passage_id!, (counts.get(c.evidence.passage_id!) ?? 0) + 1);
        slots++;
      }
    }
    // The usual standing: the slots spread over the passages that took any.
    const usual = counts.size ? slots / counts.size : 0;
    return new PassagePrior(counts, Math.max(PRIOR_MIN_FREE, PRIOR_FREE_TIMES * usual));
  }

  /** The factor a passage's relevance is multiplied by: 1, or less the more it exceeds the usual standing. */
  weight(passageId: number | null): number {
    const count = passageId === null ? 0 : (this.counts.get(passageId) ?? 0);
    if (count <= this.free) return 1;
    return 1 / (1 + PRIOR_STRENGTH * Math.log(count / this.free));
  }

  /** The candidates with their standing weighed by the prior (in place); their relevance is unchanged. */
  apply(candidates: Candidate[]): Candidate[] {
    for (const c of candidates) {
      const w = this.weight(c.evidence.passage_id);
      if (w < 1) c.standing = round3(standingOf(c) * w);
    }
    return candidates;
  }
}

/**
 * The words a questionnaire asks with, learned from its own questions: a word in a large share of them
 * ("policies", "procedures", "established" in the CAIQ) says how it asks, not what about, and counts
 * for less in every one of its searches; a word in few of them (its subjects: "malware", "password")
 * counts in full. A passage matching a question only on the questionnaire's way of asking (a list of
 * policies, for a question about malware policies) then ranks below the one on the subject.
 */
export class QuestionnaireTerms {
  private constructor(private readonly weights: Map<string, number>) {}

  static readonly none = new QuestionnaireTerms(new Map());

  /** From the questionnaire's searches (each question's query); too few questions teach nothing. */
  static learn(queries: string[]): QuestionnaireTerms {
    if (queries.length < PRIOR_MIN_QUESTIONS) return QuestionnaireTerms.none;
    const docs = new Map<string, number>();
    for (const q of queries) for (const s of stemmedTerms(q)) docs.set(s, (docs.get(s) ?? 0) + 1);
    const weights = new Map<string, number>();
    for (const [s, n] of docs) {
      const share = n / queries.length;
      if (share <= ASKED_FREE_SHARE) continue;
      // 1 at ASKED_FREE_SHARE, falling with the log of the share to ASKED_FLOOR for a word in every question.
      weights.set(s, Math.max(ASKED_FLOOR, 1 - (1 - ASKED_FLOOR) * (Math.log(share / ASKED_FREE_SHARE) / Math.log(1 / ASKED_FREE_SHARE))));
    }
    return new QuestionnaireTerms(weights);
  }

  weight(stemmed: string): number {
    return this.weights.get(stemmed) ?? 1;
  }
}

/** A word in up to this share of a questionnaire's questions can be a subject asked from several sides. */
const ASKED_FREE_SHARE = 0.05;
/** What a word in every question still counts for. */
const ASKED_FLOOR = 0.2;

/** What a question's search found, made before its answer (QuestionnaireSearch). */
export interface SearchedQuestion {
  dense: { passages: number[]; qa: number[] } | null;
  stats: TermStatistics;
  /** Null when the answer library answers every question asked with these words: nothing searched. */
  passages: Candidate[] | null;
}

/**
 * A questionnaire's passage searches, made once up front: the prior learned from them, and each search
 * kept for its question's answer (so learning the prior costs no second search). A question the answer
 * library answers is not searched; what the library holds for each question, found up front, is kept for
 * answering it (`Library`: KnowledgeBase's own record of it). Bound to one organisation and one set of filters.
 */
export class QuestionnaireSearch<Library = unknown> {
  constructor(
    private readonly orgId: number,
    private readonly filters: string,
    private readonly searched: Map<string, SearchedQuestion>,
    readonly prior: PassagePrior,
    private readonly answered: Map<string, Library> = new Map(),
  ) {}

  /** The search made for `key` (a copy: answering rescales its candidates), if made for these org and filters. */
  take(orgId: number, filters: SearchFilters, key: string): SearchedQuestion | undefined {
    if (!this.matches(orgId, filters)) return undefined;
    const found = this.searched.get(key);
    return found && { ...found, passages: found.passages?.map((c) => ({ ...c, evidence: { ...c.evidence } })) ?? null };
  }

  /** What the library holds for the question `key` names, found up front; given once (answering changes it). */
  takeLibrary(orgId: number, filters: SearchFilters, key: string): Library | undefined {
    if (!this.matches(orgId, filters)) return undefined;
    const found = this.answered.get(key);
    this.answered.delete(key);
    return found;
  }

  private matches(orgId: number, filters: SearchFilters): boolean {
    return orgId === this.orgId && JSON.stringify(filters) === this.filters;
  }
}

/** A passage counts among a question's first this many (the evidence a person reads first). */
const PRIOR_TOP = 3;
/** Fewer questions than this say nothing about which passages match everything. */
const PRIOR_MIN_QUESTIONS = 20;
/** A passage may be first this many times the usual standing (a subject asked about from several sides) before it is demoted. */
const PRIOR_FREE_TIMES = 2;
const PRIOR_MIN_FREE = 4;
/** How hard demotion grows with the excess: a passage first for e times the free count keeps 1 / (1 + PRIOR_STRENGTH). */
const PRIOR_STRENGTH = 0.25;

/** What a candidate ranks by: its standing, or its relevance. */
export function standingOf(c: Candidate): number {
  return c.standing ?? c.evidence.relevance_score;
}

/** Best first (standing, then fused rank), cut to `limit`, ranks renumbered from 1 (unless `renumber` is false). */
export function ranked(candidates: Candidate[], limit: number, renumber = true): Candidate[] {
  const top = [...candidates].sort((a, b) => standingOf(b) - standingOf(a) || b.fusion - a.fusion).slice(0, limit);
  if (renumber) top.forEach((c, i) => (c.evidence.rank = i + 1));
  return top;
}

/**
 * What a search asks the index for. The index scores every row its terms occur in, so the cost of a
 * search is the number of rows its terms occur in. Terms are taken rarest first (they are also the
 * ones BM25 weighs most) until their rows add up to the budget; the frequent ones left out still count
 * in the coverage every candidate is scored with afterwards, they only stop widening the pool. A small
 * index keeps every term.
 *
 * On a large index even the two rarest terms of a question can occur in tens of thousands of rows;
 * scoring them all would make every answer cost in proportion to the corpus. Past SCORE_BUDGET rows
 * the search asks for rows holding the rarest terms together (the rows BM25 would rank first anyway),
 * adding terms until the expected intersection is small; `fallback` is the plan when that finds nothing.
 */
interface SearchPlan {
  terms: string[];
  match: 'any' | 'all';
  fallback?: SearchPlan;
}

/**
 * Rows FTS5 collects before the filters: a ranked search orders FTS_POOL of them by BM25; an 'all' search
 * is unranked (newest first), so it stops after as many rows as the search keeps.
 */
const poolOf = (plan: SearchPlan) => (plan.match === 'all' ? POOL : FTS_POOL);

async function searchPlan(terms: string[], stats: TermStatistics, kind: IndexKind): Promise<SearchPlan> {
  const plan: SearchPlan = { terms, match: 'any' };
  if (terms.length === 0) return plan;
  const orgRows = stats.org(kind);
  if (orgRows <= ROW_BUDGET || terms.length <= MIN_TERMS) return plan;
  // Frequencies are counted over every organisation; the org's share of them is what its search scores.
  const orgShare = orgRows / Math.max(orgRows, stats.total(kind));
  const docs = await stats.docs(
    kind,
    terms.map((word) => ({ stem: stem(word), word })),
  );
  const counted = terms.map((term, i) => ({ term, rows: (docs[i] ?? 0) * orgShare })).sort((a, b) => a.rows - b.rows);
  const kept: string[] = [];
  let rows = 0;
  for (const c of counted) {
    if (kept.length >= MIN_TERMS && rows + c.rows > ROW_BUDGET) break;
    kept.push(c.term);
    rows += c.rows;
  }
  if (orgRows <= LARGE_INDEX_ROWS || rows <= SCORE_BUDGET) return { terms: kept, match: 'any' };
  // Together: expected rows = orgRows x the product of each term's share; stop once it is small, or
  // before a term would make the walk to a full pool cost more than WALK_BUDGET postings.
  const together: string[] = [];
  let expected = orgRows;
  let postings = 0;
  for (const c of counted.filter((c) => c.rows > 0)) {
    if (together.length >= MAX_TOGETHER || (together.length >= MIN_TERMS && expected <= FTS_POOL)) break;
    const next = expected * (c.rows / orgRows);
    if (together.length >= MIN_TERMS && (postings + c.rows) * Math.min(1, POOL / next) > WALK_BUDGET) break;
    together.push(c.term);
    expected = next;
    postings += c.rows;
  }
  const rarest = counted.find((c) => c.rows > 0) ?? counted[0]!;
  const fallback: SearchPlan | undefined = rarest.rows <= SCORE_BUDGET ? { terms: [rarest.term], match: 'any' } : undefined;
  return together.length >= MIN_TERMS ? { terms: together, match: 'all', fallback } : (fallback ?? { terms: kept, match: 'any' });
}

interface Search {
  index: KnowledgeIndex;
  orgId: number;
  filters: SearchFilters;
  terms: string[];
  queryStems: Set<string>;
  hintStems: Set<string>;
  rarity: TermWeights | null;
  asked: QuestionnaireTerms | null;
  stats: TermStatistics;
  alternatives: Alternatives | null;
}

/** One index's candidates: its BM25 pool plus the rows only dense retrieval found, scored. */
async function searchIndex<K extends IndexKind>(search: Search, kind: K, denseIds: number[], build: (row: HitOf<K>) => Candidate): Promise<Candidate[]> {
  const scope = scopeOf(search.orgId, search.filters);
  let plan: SearchPlan | undefined = await searchPlan(search.terms, search.stats, kind);
  const rows: HitOf<K>[] = [];
  const excluded = new Set(search.filters.exclude_file_ids ?? []);
  const kept = (found: HitOf<K>[]) => (excluded.size ? found.filter((r) => !excluded.has(r.file_id)) : found);
  // A plan that finds too few rows is topped up by its fallback.
  while (plan && plan.terms.length && rows.length < POOL) {
    rows.push(...kept(missingRows(rows, await lexical(search.index, { kind, scope, terms: plan.terms, match: plan.match, limit: POOL, pool: poolOf(plan) }))));
    plan = plan.fallback;
  }
  const extra = missingIds(denseIds, rows);
  if (extra.length) rows.push(...kept(await search.index.byIds(kind, scope, extra)));
  const passages = kind === 'passages';
  return scoreRows(
    rows,
    denseIds,
    search.queryStems,
    search.hintStems,
    build,
    passages ? search.rarity : null,
    search.alternatives,
    passages ? search.asked : null,
  );
}

/** Runs a pooled lexical search; when filters discard most of a full pool, searches a larger one. */
async function lexical<K extends IndexKind>(index: KnowledgeIndex, query: IndexQuery<K>): Promise<HitOf<K>[]> {
  let result = await index.search(query);
  if (result.hits.length < query.limit && result.pool_size >= query.pool) result = await index.search({ ...query, pool: query.pool * 50 });
  return result.hits;
}

function missingRows<R extends { id: number }>(have: R[], rows: R[]): R[] {
  const ids = new Set(have.map((r) => r.id));
  return rows.filter((r) => !ids.has(r.id));
}

function missingIds(ids: number[], rows: { id: number }[]): number[] {
  const have = new Set(rows.map((r) => r.id));
  return ids.filter((id) => !have.has(id));
}

function scoreRows<R extends { id: number; bm: number }>(
  rows: R[],
  denseIds: number[],
  queryStems: Set<string>,
  hintStems: Set<string>,
  build: (row: R) => Candidate,
  rarity: TermWeights | null = null,
  alternatives: Alternatives | null = null,
  asked: QuestionnaireTerms | null = null,
): Candidate[] {
  const bmBest = rows.reduce((m, r) => Math.max(m, r.bm), 0);
  const candidates = rows.map(build);
  const lexicalRank = new Map(rows.filter((r) => r.bm > 0).map((r, i) => [r.id, i]));
  const denseRank = new Map(denseIds.map((id, i) => [id, i]));
  const weighed = (weights: TermWeights): TermWeights => (asked ? (t) => weights(t) * asked.weight(t) : weights);
  return rows.map((row, i) => {
    const candidate = candidates[i]!;
    const lr = lexicalRank.get(row.id);
    const dr = denseRank.get(row.id);
    const bmShare = bmBest > 0 ? row.bm / bmBest : 0;
    const share = (weights: TermWeights) =>
      alternatives ? paraphrasedCoverage(queryStems, candidate.stems, alternatives, weights) : coverage(queryStems, candidate.stems, weights);
    const relevanceWith = (plain: TermWeights, rare: TermWeights | null) => {
      const cov = rare ? RARITY_PLAIN * share(plain) + (1 - RARITY_PLAIN) * share(rare) : share(plain);
      let relevance = cov * (0.75 + 0.25 * bmShare);
      if (hintStems.size && cov > 0) relevance += HINT_WEIGHT * coverage(hintStems, candidate.stems);
      // Found only by meaning: its term overlap undersells it; credit its dense standing a little.
      if (lr === undefined && dr !== undefined) relevance = Math.max(relevance, 0.5 - dr * 0.02);
      return Math.min(1, relevance);
    };
    candidate.fusion = (lr === undefined ? 0 : 1 / (RRF_K + lr)) + (dr === undefined ? 0 : 1 / (RRF_K + dr));
    const relevance = relevanceWith(termWeight, rarity);
    if (asked) candidate.standing = round3(relevanceWith(weighed(termWeight), rarity && weighed(rarity)));
    candidate.evidence.relevance_score = round3(Math.min(1, relevance));
    return candidate;
  });
}

/** For each stem of a question with paraphrases, their stems (itself left out). */
type Alternatives = Map<string, string[]>;

/** Stem -> the stems of every PARAPHRASES group it belongs to, and each stem's first word (to search with). */
const PARAPHRASE_STEMS = new Map<string, Set<string>>();
const PARAPHRASE_WORD = new Map<string, string>();
for (const group of PARAPHRASES) {
  const stems = group.map((w) => {
    const s = stem(normalizeText(w));
    if (!PARAPHRASE_WORD.has(s)) PARAPHRASE_WORD.set(s, normalizeText(w));
    return s;
  });
  for (const s of stems) PARAPHRASE_STEMS.set(s, new Set([...(PARAPHRASE_STEMS.get(s) ?? []), ...stems]));
}

/** The paraphrases of a question's stems: by stem, and as words to search with. */
export function paraphrasesOf(queryStems: Set<string>): { byStem: Alternatives; words: Set<string> } {
  const byStem: Alternatives = new Map();
  const words = new Set<string>();
  for (const s of queryStems) {
    const others = [...(PARAPHRASE_STEMS.get(s) ?? [])].filter((o) => o !== s && !queryStems.has(o));
    if (others.length === 0) continue;
    byStem.set(s, others);
    for (const o of others) words.add(PARAPHRASE_WORD.get(o)!);
  }
  return { byStem, words };
}

/** The paraphrases of a query's words, as text (for TermStatistics.load: its words' statistics read up front). */
export function paraphraseText(query: string): string {
  return [...paraphrasesOf(stemmedTerms(query)).words].join(' ');
}

/**
 * `coverage` (text.ts), a question's stem counting as held at PARAPHRASE_CREDIT when the candidate holds
 * only a paraphrase of it.
 */
export function paraphrasedCoverage(query: Set<string>, candidate: TermSet, alternatives: Alternatives, weightOf: TermWeights = termWeight): number {
  return coverage(query, candidate, weightOf, (term) => (alternatives.get(term)?.some((a) => candidate.has(a)) ? PARAPHRASE_CREDIT : 0));
}

function passageCandidate(row: PassageHit): Candidate {
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
      section_path: row.section_path,
      tab_name: '',
      relevance_score: 0,
      rank: 0,
    },
    stems: new StemList(row.stems),
    fusion: 0,
  };
}

function qaCandidate(row: QaHit): Candidate {
  const slots = row.slots;
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
