/**
 * The `generate_answers` job: answers every question of a questionnaire that has no answer yet, storing
 * each answer as soon as it exists, so progress is visible and a restart resumes where it stopped.
 */
import type { Evaluation } from '../../api/schemas';
import type { ServiceContext } from '../context';
import { evidenceRow } from '../domain/evidence';
import { WorkbookConsistency, type AskedQuestion } from '../knowledge/answer/consistency';
import type { SearchFilters } from '../knowledge/types';
import type { PendingAnswer } from '../knowledge/knowledge-base';
import type { AnswerOptions, AnswerResult } from '../knowledge/types';
import { TokenBudget } from '../llm/budget';
import type { Meter } from '../llm/client';
import { domainSubjects, followedQuestions } from '../knowledge/question-identity';
import { StorageUnavailable } from '../storage/errors';
import type { NewAnswer, QuestionRecord, QuestionnaireRecord } from '../storage/types';
import type { JobContext, JobHandler } from './worker';
import { questionnaireCompany, questionnaireProduct, type ProductContext } from '../knowledge/answer/product';

type Log = (message: string, error?: unknown) => void;
type Asked = AskedQuestion;

/** What one run of the job works with. */
interface Run {
  ctx: ServiceContext;
  q: QuestionnaireRecord;
  filters: SearchFilters;
  options: AnswerOptions;
  consistency: WorkbookConsistency;
  /** Each question's predecessor on its sheet: a question referring back ("the policies") is about it. */
  follows: Map<number, string>;
  /** Each question's domain subject (question-identity.ts domainSubjects), by question id. */
  domains: Map<number, string>;
  where: (x: { tab_name: string; question_coordinate?: string | null; row?: number | null }) => string;
  jobCtx: JobContext;
  log?: Log;
}

/**
 * Model usage recorded on a stored answer's evaluation (extension field `llm_usage`): the first answer of
 * each batch carries the batch's requests and tokens (retries and repairs included), so summing over a
 * questionnaire's answers gives what it cost.
 */
export function llmUsageOf(evaluation: unknown): Meter {
  const u = (evaluation as { llm_usage?: { tokens?: unknown; requests?: unknown } } | null)?.llm_usage;
  const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0);
  return { tokens: n(u?.tokens), requests: n(u?.requests) };
}

function newAnswer(result: AnswerResult): NewAnswer {
  return {
    text: result.text,
    evaluation: { ...result.evaluation, method: result.evaluation.method ?? result.method },
    slot_responses: result.slot_responses,
    method: result.method,
    flagged_for_review: result.flagged_for_review,
    evidence: result.evidence.map(evidenceRow),
  };
}

function failedAnswer(run: Run, questionId: number, error: unknown): NewAnswer {
  // One question that cannot be answered must not stall the whole questionnaire.
  const message = error instanceof Error ? error.message : String(error);
  run.log?.(`question ${questionId} of questionnaire ${run.q.id} could not be answered: ${message}`, error);
  const evaluation: Evaluation = { score: 0, trust: 'low', reason: `answering failed: ${message}`, method: 'none' };
  return { text: '', evaluation, slot_responses: [], method: 'none', flagged_for_review: true, evidence: [] };
}

const askedOf = (run: Run, question: QuestionRecord): Asked => ({
  text: question.text,
  original_id: question.original_id,
  section_path: question.section_path,
  follows: run.follows.get(question.id) ?? null,
  answer_slots: question.answer_slots,
  tab_name: question.tab_name,
  where: run.where(question),
});
const inputOf = (run: Run, question: QuestionRecord) => inputIn(question, run.follows, run.domains);
const inputIn = (question: QuestionRecord, follows: Map<number, string>, domains: Map<number, string>) => ({
  text: question.text,
  original_id: question.original_id,
  answer_slots: question.answer_slots,
  tab_name: question.tab_name,
  section_path: question.section_path,
  follows: follows.get(question.id) ?? null,
  domain: domains.get(question.id) ?? null,
});

/** The question each one follows on its sheet (question-identity.ts `followedQuestions`). */
function predecessors(questions: QuestionRecord[]): Map<number, string> {
  const ordered = [...questions].sort((a, b) => a.order - b.order);
  const follows = followedQuestions(ordered);
  const out = new Map<number, string>();
  ordered.forEach((q, i) => follows[i] != null && out.set(q.id, follows[i]!));
  return out;
}

/** Without a language model: one question after another, each stored as soon as it is answered. */
async function generateOneByOne(run: Run, ids: number[]): Promise<'done' | 'interrupted'> {
  const repo = run.ctx.store.questionnaires;
  for (const questionId of ids) {
    if (run.jobCtx.shouldStop()) return 'interrupted';
    const question = await repo.question(questionId);
    if (!question) continue;
    let answer: NewAnswer;
    try {
      const asked = askedOf(run, question);
      answer = newAnswer(
        run.consistency.record(
          asked,
          run.consistency.repeatOf(asked) ?? (await run.ctx.knowledge.answerQuestion(run.q.org_id, inputOf(run, question), run.filters, run.options)),
        ),
      );
    } catch (error) {
      // The database gone is no answer: the attempt fails and the job resumes here once it is back.
      if (error instanceof StorageUnavailable) throw error;
      answer = failedAnswer(run, questionId, error);
    }
    // Answering may take long (a language model): the job may have stopped being ours meanwhile, and
    // then another worker answers this question; storing ours too would give it two answers.
    if (run.jobCtx.shouldStop()) return 'interrupted';
    await repo.addAnswer(questionId, answer);
    run.ctx.metrics?.answerStored(answer);
    // Keep HTTP responsive between questions.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return 'done';
}

/**
 * With a language model: questions are prepared (retrieval, library answers) in reading order; those that
 * need the model are gathered per section (tab and section path) and sent in batches, at most `concurrency`
 * at a time, while the next section is prepared. Every answer is stored as soon as its batch returns, so a
 * restart resumes with the questions still unanswered: a batch in flight when the process died is asked
 * again, an answer stored is never asked again.
 */
async function generateBatched(run: Run, ids: number[], budget: TokenBudget, concurrency: number): Promise<'done' | 'interrupted'> {
  const repo = run.ctx.store.questionnaires;
  const k = run.ctx.knowledge;
  const inFlight = new Set<Promise<void>>();
  let storeError: unknown = null;
  const waiting = new Map<PendingAnswer, { questionId: number; asked: Asked }>();

  const dispatch = async (batch: PendingAnswer[]) => {
    while (inFlight.size >= concurrency) await Promise.race(inFlight);
    const task = (async () => {
      const { results, usage } = await k.answerBatch!(batch, budget);
      // The job stopped being ours while the model answered (lease lost): another worker asks these again.
      if (run.jobCtx.shouldStop()) return;
      for (const [i, result] of results.entries()) {
        const item = waiting.get(batch[i]!)!;
        waiting.delete(batch[i]!);
        const answer = newAnswer(run.consistency.record(item.asked, result));
        if (i === 0) (answer.evaluation as Evaluation & { llm_usage?: unknown }).llm_usage = { ...usage, questions: batch.length };
        await repo.addAnswer(item.questionId, answer);
        run.ctx.metrics?.answerStored(answer);
      }
    })().catch((error: unknown) => {
      // The answers could not be stored: the questions stay unanswered and the job is tried again.
      storeError ??= error;
      run.log?.(`answers of questionnaire ${run.q.id} could not be stored`, error);
    });
    inFlight.add(task);
    void task.finally(() => inFlight.delete(task));
  };
  const flush = async (section: PendingAnswer[]) => {
    for (const batch of k.planBatches!(section)) {
      if (run.jobCtx.shouldStop()) return;
      await dispatch(batch);
    }
  };
  const finish = async () => {
    await Promise.all(inFlight);
    if (storeError) throw storeError;
  };

  let sectionKey: string | null = null;
  let section: PendingAnswer[] = [];
  for (const questionId of ids) {
    if (run.jobCtx.shouldStop()) {
      await finish();
      return 'interrupted';
    }
    const question = await repo.question(questionId);
    if (!question) continue;
    const key = JSON.stringify([question.tab_name, question.section_path ?? []]);
    if (key !== sectionKey) {
      await flush(section);
      section = [];
      sectionKey = key;
    }
    const asked = askedOf(run, question);
    let stored: NewAnswer | null = null;
    try {
      const repeat = run.consistency.repeatOf(asked);
      const prepared = repeat ? { result: repeat } : await k.prepareAnswer!(run.q.org_id, inputOf(run, question), run.filters, run.options);
      if ('result' in prepared) {
        stored = newAnswer(run.consistency.record(asked, prepared.result));
      } else {
        waiting.set(prepared.pending, { questionId, asked });
        section.push(prepared.pending);
      }
    } catch (error) {
      if (error instanceof StorageUnavailable) {
        await Promise.all(inFlight);
        throw error;
      }
      stored = failedAnswer(run, questionId, error);
    }
    if (stored) {
      await repo.addAnswer(questionId, stored);
      run.ctx.metrics?.answerStored(stored);
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  await flush(section);
  await finish();
  // Batches that returned after the job stopped being ours stored nothing: not complete here.
  return run.jobCtx.shouldStop() ? 'interrupted' : 'done';
}

export function generateAnswersHandler(ctx: ServiceContext, log?: (message: string, error?: unknown) => void): JobHandler {
  return async (job, jobCtx) => {
    const questionnaireId = Number(job.payload.questionnaire_id);
    const repo = ctx.store.questionnaires;
    const q = await repo.getAny(questionnaireId);
    if (!q) return 'done';
    await repo.setGenerationStatus(q.id, 'generating');
    const filters: SearchFilters = q.offerings.length > 0 ? { offering_ids: q.offerings.map((o) => o.id) } : {};
    // The analyst's choice at upload (`prefer_recent`): settles disagreeing past answers by recency.
    const options: AnswerOptions = { prefer_recent: q.advanced_options.prefer_recent === true };

    // One workbook, one answer: repeats get the answer given, contradictions are flagged (a resumed
    // fill checks against what it stored before).
    const consistency = new WorkbookConsistency();
    const where = (x: { tab_name: string; question_coordinate?: string | null; row?: number | null }) =>
      `${x.tab_name}!${x.question_coordinate ?? `row ${x.row ?? '?'}`}`;
    // Tokens this questionnaire's stored answers already cost: the budget is per questionnaire, restarts included.
    let spent = 0;
    const all = await repo.questions(q.id, { withEvidence: false });
    const follows = predecessors(all);
    const ordered = [...all].sort((a, b) => a.order - b.order);
    const domains = new Map(domainSubjects(ordered).flatMap((d, i) => (d ? [[ordered[i]!.id, d] as const] : [])));
    for (const done of all) {
      for (const a of done.answers) spent += llmUsageOf(a.evaluation).tokens;
      const stored = done.answers[0];
      const evaluation = stored?.evaluation;
      if (!stored || !evaluation) continue;
      const asked = {
        text: done.text,
        original_id: done.original_id,
        section_path: done.section_path,
        follows: follows.get(done.id) ?? null,
        answer_slots: done.answer_slots,
        where: where(done),
      };
      const result = {
        text: stored.text,
        slot_responses: stored.slot_responses,
        score: evaluation.score,
        evaluation,
        flagged_for_review: done.flagged_for_review,
        evidence: [],
        method: 'none' as const,
      };
      consistency.record(asked, result, false);
    }

    const ids = await repo.unansweredQuestionIds(q.id);
    const k = ctx.knowledge;
    options.product = await productContext(ctx, q, all);
    // Every question searched first: which passages match the whole questionnaire is learned from them.
    if (ids.length > 0 && k.searchQuestionnaire) {
      options.questionnaire = await k.searchQuestionnaire(
        q.org_id,
        ordered.map((question) => inputIn(question, follows, domains)),
        filters,
        options,
      );
    }
    const batching = k.batching?.() ?? null;
    const run: Run = { ctx, q, filters, options, consistency, follows, domains, where, jobCtx, log };
    const outcome =
      batching && k.prepareAnswer && k.planBatches && k.answerBatch
        ? await generateBatched(run, ids, new TokenBudget(batching.tokenBudget, spent), batching.concurrency)
        : await generateOneByOne(run, ids);
    if (outcome === 'interrupted') return 'interrupted';

    await repo.setGenerationStatus(q.id, 'complete');
    if (q.status === 'draft') await repo.setStatus(q.id, 'ready');
    return 'done';
  };
}

/** Titles read to learn product names: an organisation's repository, up to this many files. */
const TITLES_READ = 1000;

/**
 * The product the questionnaire is about (its own "Product Name" value, or its offering), the company
 * answering, and the repository's titles product names are learned from; undefined when it names no product.
 */
async function productContext(ctx: ServiceContext, q: QuestionnaireRecord, questions: QuestionRecord[]): Promise<ProductContext | undefined> {
  const product = questionnaireProduct(questions, q.offerings);
  if (!product) return undefined;
  const company = questionnaireCompany(questions, await ctx.knowledge.organisationNames(q.org_id));
  const files = await ctx.store.files.list(q.org_id, { purpose: 'repository', limit: TITLES_READ, offset: 0 });
  return { product, company, titles: files.rows.map((f) => f.original_filename) };
}
