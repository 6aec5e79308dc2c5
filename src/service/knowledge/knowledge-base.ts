/**
 * The knowledge base of every organisation: indexing extracted documents, searching them, and answering
 * questionnaire questions and chat messages from them, with evidence. Storage and full-text search are
 * the knowledge index's (src/service/storage/knowledge-index.ts); this is orchestration only.
 */
import type { FileDates, KnowledgeIndex, PassageEntry, QaEntry } from '../storage/knowledge-index';
import { expiredFiles, withExpiry, type ExpiredFiles } from './answer/expiry';
import { noAnswer } from './answer/evaluation';
import { bestSentences, evidenceOnly, extractiveAnswer, guardThirdParty, relevantEvidence, thirdPartyDraft } from './answer/extractive';
import { identityAnswer, identityField } from './answer/identity';
import { answerFromLibrary, findLibraryMatches, withoutSuperseded, type LibraryFileFacts } from './answer/library';
import { decideCandidates, trustedLibraryAnswer, withReview, type LibraryDecisions, type LibraryDecisionSource } from './answer/library-decisions';
import { DEFAULT_REVIEW_AGE_MONTHS } from '../domain/library';
import { LlmAnswerer } from './answer/llm';
import { writableSlots } from './answer/slots';
import { batchLimitsFrom, planBatches, type BatchLimits } from '../llm/batch';
import type { TokenBudget } from '../llm/budget';
import type { Meter } from '../llm/client';
import { isThirdParty, labelOwners, notAnAnswer } from './answer/ownership';
import { forProduct } from './answer/product';
import { documentSubject } from './extract/subject';
import { composeParts, followUpSubject, mentionsAny, partAnswer, questionParts, resolveFollowUp } from './answer/chat';
import { Embedder, type EndpointConfig } from './embeddings';
import { documentDatesOf, pairsToIndex, passageEntry, qaEntry } from './entries';
import { splitIntoPassages, type Passage } from './passages';
import {
  paraphraseText,
  PassagePrior,
  QuestionnaireSearch,
  QuestionnaireTerms,
  questionFocus,
  ranked,
  retrieve,
  TermStatistics,
  type Candidate,
  type QuestionFocus,
  type SearchedQuestion,
} from './retrieval';
import { questionInContext, referredSubject } from './question-identity';
import { isTemplateText, summariseTemplate, templateLabel } from './template-text';
import type {
  AnsweringEngine,
  AnswerOptions,
  AnswerResult,
  ChatAnswer,
  ChatTurn,
  Evidence,
  ExtractedDocument,
  FileMeta,
  QaPair,
  QuestionInput,
  ReadDocument,
  SearchFilters,
} from './types';

export interface KnowledgeOptions {
  llm?: EndpointConfig | null;
  embeddings?: EndpointConfig | null;
  /** What analysts decided in the answer library (retired, settled, edited, approved entries): fills follow it. */
  library?: LibraryDecisionSource | null;
}

/** A question whose evidence is ready for the language model; `extractive` is its answer without one. */
export interface PendingAnswer {
  question: QuestionInput;
  candidates: Candidate[];
  extractive(): Promise<AnswerResult>;
  /** Candidates' documents past their validity: an answer resting on one is lowered (./answer/expiry.ts). */
  expired?: ExpiredFiles;
}

export type PreparedAnswer = { result: AnswerResult } | { pending: PendingAnswer };

export const NOT_FOUND_ANSWER = 'I could not find this in your knowledge base.';

const ANSWER_EVIDENCE = 6;
/**
 * Passages a question's search keeps before auditors' boilerplate, a standard's requirement rows and
 * superseded answers are dropped: those match almost any question, and a pool of twelve was often
 * mostly them, leaving the organisation's own passage on the subject out.
 */
const ANSWER_POOL = 30;
/** A completed questionnaire's own answer to one of these (lower-cased) names what its answers are about. */
const PRODUCT_NAME_QUESTIONS = ['product name', 'product', 'solution name', 'product or service name', 'name of product'];
const DENSE_POOL = 20;
/** Chat searches wider than it cites: a follow-up keeps only the evidence holding its own words. */
const CHAT_POOL = 10;
const CHAT_EVIDENCE = 5;

export class KnowledgeBase {
  private readonly embedder: Embedder | null;
  private readonly llm: LlmAnswerer | null;
  private readonly batchLimits: BatchLimits;
  private readonly library: LibraryDecisionSource | null;

  constructor(
    private readonly index: KnowledgeIndex,
    options: KnowledgeOptions = {},
    env: NodeJS.ProcessEnv = process.env,
  ) {
    this.embedder = options.embeddings ? new Embedder(options.embeddings, env) : null;
    this.llm = options.llm ? new LlmAnswerer(options.llm, env) : null;
    this.batchLimits = batchLimitsFrom(env);
    this.library = options.library ?? null;
  }

  /** Replaces the file's content in the index. Embedding failures fail the call (nothing half-stored). */
  async indexDocument(
    meta: FileMeta,
    doc: ExtractedDocument | ReadDocument,
    onProgress?: (percent: number) => void,
  ): Promise<{ passage_count: number; qa_count: number; total_embeddings: number; template: string | null }> {
    // A reader thread's document comes with its entries; a document read in process may not.
    const prepared = doc.prepared_index;
    const whole = 'pages' in doc ? doc : null;
    if (!prepared && !whole) throw new Error('a document without its pages must come with its index entries');
    // A passage with placeholders or template guidance is no statement of the organisation's: never indexed.
    const split: { context_header: string; content: string }[] = prepared?.passages ?? splitIntoPassages(whole!);
    const template = templateLabel(summariseTemplate(split.map((p) => p.content)));
    const passages = template ? split.filter((p) => !isTemplateText(p.content)) : split;
    const qa: { question: string }[] = prepared?.qa ?? pairsToIndex(whole!);
    onProgress?.(10);

    let passageVectors: Float32Array[] = [];
    let qaVectors: Float32Array[] = [];
    if (this.embedder) {
      passageVectors = await this.embedder.embed(passages.map((p) => `${p.context_header}\n${p.content}`));
      onProgress?.(60);
      qaVectors = await this.embedder.embed(qa.map((p) => p.question));
      onProgress?.(80);
    }

    // Built as the index pulls them, batch by batch, so a large file never holds the event loop; the
    // reader's worker thread already did the CPU-heavy part (splitting, stemming) when it read the file.
    const passageEntries = prepared
      ? lazyMap(passages as typeof prepared.passages, (p, i): PassageEntry => ({ ...p, embedding: passageVectors[i] ?? null }))
      : lazyMap(passages as Passage[], (p, i): PassageEntry => ({ ...passageEntry(p), embedding: passageVectors[i] ?? null }));
    const qaEntries = prepared
      ? lazyMap(prepared.qa, (q, i): QaEntry => ({ ...q, embedding: qaVectors[i] ?? null }))
      : lazyMap(qa as QaPair[], (pair, i): QaEntry => ({ ...qaEntry(pair), embedding: qaVectors[i] ?? null }));
    const from = this.embedder ? 80 : 10;
    const total = Math.max(1, passages.length + qa.length);
    await this.index.replaceFile(meta, passageEntries, qaEntries, (stored) => onProgress?.(Math.floor(from + ((100 - from) * stored) / total)));
    // A subject the reader found (null: it looked and found none) is not looked for again.
    const subject =
      doc.subject ??
      (prepared?.subject !== undefined
        ? prepared.subject
        : whole && (documentSubject({ filename: meta.filename, title: doc.title, pages: whole.pages, document_type: doc.document_type }) ?? null));
    await this.index.setFileSubject(meta.org_id, meta.file_id, subject);
    // The dates it states about itself: its entries' as-of date, and when its evidence expires.
    const dates = prepared?.dates ?? (whole ? documentDatesOf(whole) : null);
    if (dates) await this.index.setFileDates(meta.org_id, meta.file_id, dates);
    onProgress?.(100);
    return { passage_count: passages.length, qa_count: qa.length, total_embeddings: passageVectors.length + qaVectors.length, template };
  }

  async removeFile(orgId: number, fileId: number): Promise<void> {
    await this.index.deleteFile(orgId, fileId);
  }

  /** Lexical search over passages and the answer library, ranked, relevance 0..1. */
  async search(orgId: number, query: string, filters: SearchFilters, limit = 10): Promise<Evidence[]> {
    const safeLimit = Math.max(1, Math.min(100, Math.floor(limit) || 10));
    const found = (await this.decided(orgId, await retrieve(this.index, orgId, query, filters, { limit: safeLimit }), filters.offering_ids)).candidates;
    return (await this.current(orgId, found)).map((c) => c.evidence);
  }

  /**
   * The answer library's entries for a search, best first (ids): the retrieval answering uses, so the
   * library shows what a fill would find. At most `limit`, the retrieval's pool.
   */
  async searchLibrary(orgId: number, query: string, limit = 200): Promise<number[]> {
    const found = await retrieve(this.index, orgId, query, {}, { limit, includePassages: false });
    return found.map((c) => c.evidence.qna_id).filter((id): id is number => id !== null);
  }

  /** The candidates a fill may use after the library's decisions, and those decisions. */
  private async decided(
    orgId: number,
    candidates: Candidate[],
    offeringIds?: readonly number[],
  ): Promise<{ candidates: Candidate[]; decisions: LibraryDecisions }> {
    if (!this.library) return { candidates, decisions: new Map() };
    return decideCandidates(this.library, orgId, candidates, DEFAULT_REVIEW_AGE_MONTHS, new Date(), offeringIds);
  }

  async answerQuestion(orgId: number, q: QuestionInput, filters: SearchFilters, options: AnswerOptions = {}): Promise<AnswerResult> {
    const prepared = await this.prepareAnswer(orgId, q, filters, options);
    if ('result' in prepared) return prepared.result;
    try {
      return withExpiry(guardThirdParty(await this.llm!.answerQuestion(prepared.pending.question, prepared.pending.candidates)), prepared.pending.expired);
    } catch (error) {
      return withExpiry(await this.fallback(prepared.pending, `the language model failed: ${(error as Error).message}`), prepared.pending.expired);
    }
  }

  /**
   * Everything before the language model: the answer itself when no model is needed (a library answer,
   * no evidence, no model configured), else the question with its evidence, for `answerBatch`.
   */
  async prepareAnswer(orgId: number, q: QuestionInput, filters: SearchFilters, options: AnswerOptions = {}): Promise<PreparedAnswer> {
    const prepared = await this.prepare(orgId, q, filters, options);
    if ('result' in prepared)
      return {
        result: withExpiry(
          prepared.result,
          await this.expired(
            orgId,
            prepared.result.evidence.map((e) => e.file_id),
          ),
        ),
      };
    return {
      pending: {
        ...prepared.pending,
        expired: await this.expired(
          orgId,
          prepared.pending.candidates.map((c) => c.evidence.file_id),
        ),
      },
    };
  }

  /** Of these files, those past the validity they state. */
  private async expired(orgId: number, fileIds: number[]): Promise<ExpiredFiles> {
    if (fileIds.length === 0) return new Map();
    return expiredFiles(await this.fileDates(orgId, fileIds), new Date());
  }

  /** The dates the files state about themselves (as of, valid until), by file id. */
  async fileDates(orgId: number, fileIds: number[]): Promise<Map<number, FileDates>> {
    const facts = await this.index.filesFacts(orgId, [...new Set(fileIds)], []);
    return new Map([...facts].map(([id, f]) => [id, { as_of: f.as_of, valid_until: f.valid_until, valid_said: f.valid_said }]));
  }

  private async prepare(orgId: number, q: QuestionInput, filters: SearchFilters, options: AnswerOptions): Promise<PreparedAnswer> {
    const text = q.text.trim();
    if (!text) return { result: noAnswer('The question is empty') };
    const context = questionInContext({ ...q, text });
    // Searched up front with the rest of its questionnaire, or (after the library) now.
    const searched = options.questionnaire?.take(orgId, filters, searchKey(text, context));
    const dense = searched ? searched.dense : await this.denseRankings(orgId, text);
    const stats = searched?.stats ?? (await TermStatistics.load(this.index, orgId, [text, context.query, context.hint, paraphraseText(context.query)]));

    // 1. The answer library: past answers to the same question, disagreements settled only by a stated rule.
    const { library, decisions, reused } =
      (options.questionnaire?.takeLibrary(orgId, filters, questionKey({ ...q, text })) as LibraryOutcome | undefined) ??
      (await this.fromLibrary(orgId, { ...q, text }, filters, options, dense, stats));
    // "Solution Provider Name": the organisation's own names, unless the library holds a trusted past answer.
    const identity = identityField(text) ? identityAnswer(text, await this.organisationNames(orgId), reused?.text ?? null) : null;
    const identityBetter = identity !== null && identity.evaluation.trust !== 'low' && (!reused || reused.evaluation.trust === 'low');
    if (reused && !identityBetter) return { result: withReview(reused, decisions) };
    if (identity) return { result: identity };

    // 2./3. Passages (and near-miss library answers) as evidence; auditors' boilerplate and matrix rows are nobody's answer.
    // Passages that match every question of the questionnaire count for less (PassagePrior).
    const found = searched?.passages ?? (await this.passageSearch(orgId, context, filters, dense, stats));
    const passages = (options.questionnaire?.prior ?? PassagePrior.none).apply(found);
    // A third party's passages were discounted when the pool was cut (passageSearch); library entries are the organisation's.
    const usable = await this.ownedEvidence(orgId, [...library, ...passages]);
    const candidates = relevantEvidence(ranked(usable, ANSWER_EVIDENCE));
    if (candidates.length === 0) {
      return { result: noAnswer("No evidence in the knowledge base shares enough of this question's key terms; answer it manually") };
    }
    const own = candidates.filter((c) => !isThirdParty(c));
    const subject = referredSubject({ ...q, text });
    const extractive = async () => {
      const focus = await questionFocus(this.index, orgId, text, stats);
      return (
        (own.length ? forProduct(q, own, options.product, (evidence) => extractiveAnswer({ ...q, text, subject }, evidence, focus)) : null) ??
        withOwnEvidence(thirdPartyDraft({ ...q, text }, candidates.filter(isThirdParty), focus), own) ??
        evidenceOnly(candidates, 'Related evidence was found but no sentence in it says what the question asks; answer it manually (the evidence is cited)')
      );
    };
    if (!this.llm) return { result: guardThirdParty(await extractive()) };
    return { pending: { question: { ...q, text }, candidates, extractive } };
  }

  /**
   * The answer library's answer alone (a fill's first step), or null when no past answer matches: what a
   * replay of past questionnaires measures (src/service/domain/library-replay.ts).
   */
  async libraryAnswer(orgId: number, q: QuestionInput, filters: SearchFilters, options: AnswerOptions = {}): Promise<AnswerResult | null> {
    const text = q.text.trim();
    if (!text) return null;
    const dense = await this.denseRankings(orgId, text);
    const stats = await TermStatistics.load(this.index, orgId, [text]);
    const { decisions, reused } = await this.fromLibrary(orgId, { ...q, text }, filters, options, dense, stats);
    return reused ? withReview(reused, decisions) : null;
  }

  /**
   * Past answers to the question and the library's answer from them. What analysts decided in the library
   * comes first: retired and overruled entries are gone, edits read as edited.
   */
  private async fromLibrary(
    orgId: number,
    q: QuestionInput,
    filters: SearchFilters,
    options: AnswerOptions,
    dense: { passages: number[]; qa: number[] } | null,
    stats: TermStatistics,
  ): Promise<LibraryOutcome> {
    const { candidates: library, decisions } = await this.decided(
      orgId,
      await retrieve(this.index, orgId, q.text, filters, { limit: 10, includePassages: false, dense, stats }),
      filters.offering_ids,
    );
    const facts = await this.fileFacts(
      orgId,
      library.map((c) => c.evidence.file_id),
    );
    const matches = findLibraryMatches(q, library, (fileId) => facts.get(fileId)!);
    const reused =
      trustedLibraryAnswer(q, matches, decisions) ??
      answerFromLibrary(q, matches, { offering_ids: filters.offering_ids, prefer_recent: options.prefer_recent });
    return { library, decisions, reused };
  }

  /**
   * Every question's passage search, made before any is answered: the prior learned from them (which
   * passages match everything, PassagePrior) and the searches themselves, which answering then reuses.
   * Pass the result as `options.questionnaire` to prepareAnswer / answerQuestion.
   */
  async searchQuestionnaire(orgId: number, questions: QuestionInput[], filters: SearchFilters, options: AnswerOptions = {}): Promise<QuestionnaireSearch> {
    const asked = questions
      .map((q) => ({ q: { ...q, text: q.text.trim() }, context: questionInContext({ ...q, text: q.text.trim() }) }))
      .filter(({ q }) => q.text !== '');
    const terms = QuestionnaireTerms.learn(asked.map((a) => a.context.query));
    const searched = new Map<string, SearchedQuestion>();
    const answered = new Map<string, LibraryOutcome>();
    for (const { q, context } of asked) {
      const key = searchKey(q.text, context);
      let found = searched.get(key);
      if (!found) {
        found = await this.searchStatistics(orgId, q.text, context);
        searched.set(key, found);
      }
      // A question the library answers is answered from it, never from passages: no search for it. What
      // the library holds for each question is kept for answering it. The prior is learned from the
      // questions that are searched only.
      const libraryKey = questionKey(q);
      if (answered.has(libraryKey)) continue;
      const outcome = await this.fromLibrary(orgId, q, filters, options, found.dense, found.stats);
      answered.set(libraryKey, outcome);
      if (!outcome.reused) found.passages ??= await this.passageSearch(orgId, context, filters, found.dense, found.stats, terms);
    }
    const prior = PassagePrior.learn([...searched.values()].flatMap((s) => (s.passages ? [s.passages] : [])));
    return new QuestionnaireSearch(orgId, JSON.stringify(filters), searched, prior, answered);
  }

  /** What a question's search and its library lookup need: its dense rankings and its words' statistics. */
  private async searchStatistics(orgId: number, text: string, context: { query: string; hint: string }): Promise<SearchedQuestion> {
    const dense = await this.denseRankings(orgId, text);
    const stats = await TermStatistics.load(this.index, orgId, [text, context.query, context.hint, paraphraseText(context.query)]);
    return { dense, stats, passages: null };
  }

  /**
   * A question's pool of passages. A third party's passage is discounted before the pool is cut, not
   * after: a long, generic question matches a provider's audit report (the AWS SOC 3) on many words,
   * and cut afterwards, such passages crowd the organisation's own one on the subject out of the pool.
   */
  private async passageSearch(
    orgId: number,
    context: { query: string; hint: string },
    filters: SearchFilters,
    dense: SearchedQuestion['dense'],
    stats: TermStatistics,
    asked?: QuestionnaireTerms,
  ): Promise<Candidate[]> {
    const found = await retrieve(this.index, orgId, context.query, filters, {
      limit: Number.POSITIVE_INFINITY,
      includeQa: false,
      dense,
      hint: context.hint,
      weighByRarity: true,
      paraphrases: true,
      asked,
      stats,
    });
    const names = await this.organisationNames(orgId);
    const facts = await this.fileFacts(
      orgId,
      found.map((c) => c.evidence.file_id),
    );
    return ranked(
      discountThirdParty(
        labelOwners(found, (fileId) => facts.get(fileId)?.subject ?? null, names),
        isThirdParty,
      ),
      ANSWER_POOL,
    );
  }

  /** Which engine writes answers: the language model's name, or extractive (quotes from the documents). */
  answeringEngine(): AnsweringEngine {
    if (!this.llm) return { engine: 'extractive' };
    const endpoint = this.llm.client.endpoint;
    return {
      engine: 'llm',
      model: endpoint.model,
      structured_output: this.llm.client.structuredOutput,
      concurrency: endpoint.concurrency,
      token_budget: endpoint.tokenBudget || null,
    };
  }

  /** How generation may batch and parallelise model requests; null without a model (answers are local). */
  batching(): { concurrency: number; tokenBudget: number } | null {
    return this.llm ? { concurrency: this.llm.client.endpoint.concurrency, tokenBudget: this.llm.client.endpoint.tokenBudget } : null;
  }

  /** Groups prepared questions into requests (same answer cells, capped questions and prompt size). */
  planBatches(pending: PendingAnswer[]): PendingAnswer[][] {
    return planBatches(
      pending.map((p) => {
        const keys = p.candidates.map((c) => `${c.evidence.type}:${c.evidence.passage_id ?? ''}:${c.evidence.qna_id ?? ''}:${c.evidence.content.slice(0, 80)}`);
        return {
          p,
          shape: JSON.stringify(writableSlots(p.question.answer_slots).map((s) => [s.role, s.allowed_values ?? null])),
          evidenceKeys: keys,
          evidenceChars: new Map(keys.map((k, i) => [k, p.candidates[i]!.evidence.content.length + 80])),
          questionChars: p.question.text.length + 200,
        };
      }),
      this.batchLimits,
    ).map((batch) => batch.map((b) => b.p));
  }

  /**
   * One request for a batch of prepared questions; a question the model does not answer (failure, left
   * out, budget spent) gets the extractive answer, flagged, with the reason. Never throws.
   */
  async answerBatch(batch: PendingAnswer[], budget: TokenBudget): Promise<{ results: AnswerResult[]; usage: Meter }> {
    const answered = await this.llm!.answerBatch(batch, budget, this.batchLimits);
    const results: AnswerResult[] = [];
    for (const [i, outcome] of answered.outcomes.entries()) {
      const result = 'result' in outcome ? guardThirdParty(outcome.result) : await this.fallback(batch[i]!, outcome.failed);
      results.push(withExpiry(result, batch[i]!.expired));
    }
    return { results, usage: answered.usage };
  }

  /** The extractive answer, flagged, its reason saying why the model did not answer. */
  private async fallback(pending: PendingAnswer, why: string): Promise<AnswerResult> {
    const answer = guardThirdParty(await pending.extractive());
    const reason = `${answer.evaluation.reason} (${why}; extractive answer instead, review it)`;
    return { ...answer, flagged_for_review: true, evaluation: { ...answer.evaluation, reason } };
  }

  /** The organisation's own names, which decide whose statement a document is. */
  async organisationNames(orgId: number): Promise<string[]> {
    const raw = await this.index.orgNames(orgId);
    return raw ? (JSON.parse(raw) as string[]) : [];
  }

  async setOrganisationNames(orgId: number, names: string[]): Promise<string[]> {
    const clean = [...new Set(names.map((n) => n.trim()).filter((n) => n !== ''))];
    await this.index.setOrgNames(orgId, JSON.stringify(clean));
    return clean;
  }

  /** Candidates without boilerplate and matrix rows, third-party ones labelled. */
  private async ownedEvidence(orgId: number, candidates: Candidate[]): Promise<Candidate[]> {
    const names = await this.organisationNames(orgId);
    const kept = await this.current(
      orgId,
      candidates.filter((c) => notAnAnswer(c) === null),
    );
    const facts = await this.fileFacts(
      orgId,
      kept.filter((c) => c.evidence.type === 'passage').map((c) => c.evidence.file_id),
    );
    return labelOwners(kept, (fileId) => facts.get(fileId)?.subject ?? null, names);
  }

  /** Candidates without past answers that a newer upload of the same questionnaire superseded. */
  private async current(orgId: number, candidates: Candidate[]): Promise<Candidate[]> {
    const facts = await this.fileFacts(
      orgId,
      candidates.filter((c) => c.library).map((c) => c.evidence.file_id),
    );
    return withoutSuperseded(candidates, (fileId) => facts.get(fileId) ?? { label: null });
  }

  async answerChat(orgId: number, question: string, history: ChatTurn[], filters: SearchFilters): Promise<ChatAnswer> {
    const asked = question.trim();
    const resolved = resolveFollowUp(asked, history);
    const notFound: ChatAnswer = { answer: NOT_FOUND_ANSWER, sources: [], resolved_query: resolved };
    const whole = await this.chatEvidence(orgId, resolved, followUpSubject(asked, resolved), filters);
    if (whole.candidates.length === 0 && resolved !== asked) return notFound;

    if (this.llm && whole.candidates.length > 0) {
      try {
        const { answer, cited } = await this.llm.answerChat(asked, history, whole.candidates);
        if (answer) {
          const sources = (cited.length ? cited : whole.candidates).map((c, i) => ({ ...c.evidence, rank: i + 1 }));
          const trust = sources.every((s) => s.third_party) ? 'low' : 'medium';
          return { answer, sources, resolved_query: resolved, trust };
        }
      } catch {
        // Extractive below is the answer when the model is unreachable or replies badly.
      }
    }
    // A message asking several things is answered part by part, each searched on its own, and says which
    // parts it answered; a follow-up is one part (its subject comes from the earlier turns).
    const parts = resolved === asked ? questionParts(asked) : [resolved];
    const names = await this.organisationNames(orgId);
    const answers = [];
    for (const part of parts) {
      const found = parts.length === 1 ? whole : await this.chatEvidence(orgId, part, undefined, filters);
      if (found.candidates.length === 0) {
        answers.push(null);
        continue;
      }
      // The same bar as a questionnaire comment: only whole sentences that speak to the question are quoted.
      answers.push(partAnswer(part, bestSentences(part, found.candidates, 6, found.focus), found.focus, names));
    }
    const reply = composeParts(parts, answers);
    if (!reply) return notFound;
    return { answer: reply.answer, sources: reply.used.map((c, i) => ({ ...c.evidence, rank: i + 1 })), resolved_query: resolved, trust: reply.trust };
  }

  /** Chat evidence for a query, and its focus; a follow-up keeps only the evidence holding its own words. */
  private async chatEvidence(
    orgId: number,
    query: string,
    required: Set<string> | undefined,
    filters: SearchFilters,
  ): Promise<{ candidates: Candidate[]; focus: QuestionFocus }> {
    const dense = await this.denseRankings(orgId, query);
    const stats = await TermStatistics.load(this.index, orgId, [query]);
    const focus: QuestionFocus = { ...(await questionFocus(this.index, orgId, query, stats)), required };
    // Retired and overruled library entries are gone here too; edits read as edited.
    const found = (await this.decided(orgId, await retrieve(this.index, orgId, query, filters, { limit: CHAT_POOL, dense, stats }))).candidates;
    const retrieved = relevantEvidence(await this.ownedEvidence(orgId, found));
    // A follow-up's own words (or words related to them: "algorithm" for AES) name what it asks about the
    // earlier subject: evidence holding none of them answers the earlier turn, not this one.
    const candidates = ranked(required ? retrieved.filter((c) => mentionsAny(c, required)) : retrieved, CHAT_EVIDENCE);
    return { candidates, focus };
  }

  /** What the library knows about each file (its product, offerings, subject). */
  private async fileFacts(orgId: number, fileIds: number[]): Promise<Map<number, LibraryFileFacts & { subject: string | null }>> {
    const facts = new Map<number, LibraryFileFacts & { subject: string | null }>();
    const unique = [...new Set(fileIds)];
    const found = await this.index.filesFacts(orgId, unique, PRODUCT_NAME_QUESTIONS);
    for (const fileId of unique) {
      const row = found.get(fileId);
      facts.set(fileId, { label: row?.label ?? null, subject: row?.subject ?? null, offering_ids: row?.offering_ids ?? [] });
    }
    return facts;
  }

  /** Dense rankings for a query, or null without an embeddings endpoint (or when it fails). */
  private async denseRankings(orgId: number, query: string): Promise<{ passages: number[]; qa: number[] } | null> {
    if (!this.embedder) return null;
    try {
      const [vector] = await this.embedder.embed([query]);
      if (!vector) return null;
      return {
        passages: await this.index.nearest('passages', orgId, vector, DENSE_POOL),
        qa: await this.index.nearest('qa', orgId, vector, DENSE_POOL),
      };
    } catch {
      return null;
    }
  }
}

/**
 * A draft quoting a third party still shows the organisation's own evidence for the question, after the
 * quoted passage: no sentence of it was worth quoting, but it is what a person (or a model) checks first.
 */
function withOwnEvidence(draft: AnswerResult | null, own: Candidate[]): AnswerResult | null {
  if (!draft || own.length === 0) return draft;
  const [quoted, ...rest] = draft.evidence;
  const evidence = [...(quoted ? [quoted] : []), ...own.map((c) => c.evidence), ...rest].slice(0, ANSWER_EVIDENCE_SHOWN);
  return { ...draft, evidence: evidence.map((e, i) => ({ ...e, rank: i + 1 })) };
}

/** Evidence an answer shows (extractive.ts shows five). */
const ANSWER_EVIDENCE_SHOWN = 5;

/** Past answers found for a question, and the library's answer from them (null: none to reuse). */
interface LibraryOutcome {
  library: Candidate[];
  decisions: LibraryDecisions;
  reused: AnswerResult | null;
}

/** What identifies a question's library lookup: all of it (its id, tab and answer cells decide a match too). */
function questionKey(q: QuestionInput): string {
  return JSON.stringify(q);
}

/** What identifies a question's passage search: its words and its context. */
function searchKey(text: string, context: { query: string; hint: string }): string {
  return `${text}\u0000${context.query}\u0000${context.hint}`;
}

/** A third party's passage counts for less than the organisation's own: ours come first for statements about us. */
const THIRD_PARTY_DISCOUNT = 0.7;

function discountThirdParty(candidates: Candidate[], thirdParty: (c: Candidate) => boolean): Candidate[] {
  const discount = (n: number) => Math.round(n * THIRD_PARTY_DISCOUNT * 1000) / 1000;
  for (const c of candidates) {
    if (!thirdParty(c)) continue;
    c.evidence.relevance_score = discount(c.evidence.relevance_score);
    if (c.standing !== undefined) c.standing = discount(c.standing);
  }
  return candidates;
}

function* lazyMap<T, U>(items: T[], fn: (item: T, index: number) => U): Generator<U> {
  for (let i = 0; i < items.length; i++) yield fn(items[i]!, i);
}
