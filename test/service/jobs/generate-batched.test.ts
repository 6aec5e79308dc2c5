import { describe, expect, it } from 'vitest';
import type { ServiceContext } from '../../../src/service/context';
import { generateAnswersHandler } from '../../../src/service/jobs/generate';
import type { PendingAnswer } from '../../../src/service/knowledge/knowledge-base';
import type { AnswerResult } from '../../../src/service/knowledge/types';
import type { TokenBudget } from '../../../src/service/llm/budget';
import type { NewAnswer } from '../../../src/service/storage/types';

/** The job over an in-memory questionnaire and a knowledge base that batches, to watch what it stores when. */
function setup(count: number, opts: { concurrency: number; batchSize: number; onBatch?: (n: number) => void }) {
  const stored = new Map<number, NewAnswer[]>();
  const questions = Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    text: `Question ${i + 1}?`,
    original_id: `Q-${i + 1}`,
    answer_slots: [],
    tab_name: 'Security',
    section_path: [],
    row: i + 2,
    question_coordinate: `B${i + 2}`,
  }));
  let status = 'idle';
  let inFlight = 0;
  let maxInFlight = 0;
  let batches = 0;
  const repo = {
    getAny: async () => ({ id: 1, org_id: 1, offerings: [], advanced_options: {}, status: 'draft' }),
    setGenerationStatus: async (_id: number, s: string) => void (status = s),
    setStatus: async () => undefined,
    questions: async () => questions.map((q) => ({ ...q, flagged_for_review: false, answers: [] })),
    unansweredQuestionIds: async () => questions.filter((q) => !stored.has(q.id)).map((q) => q.id),
    question: async (id: number) => questions.find((q) => q.id === id) ?? null,
    addAnswer: async (id: number, a: NewAnswer) => {
      stored.set(id, [...(stored.get(id) ?? []), a]);
      return id;
    },
  };
  const result = (text: string): AnswerResult => ({
    text,
    slot_responses: [],
    score: 70,
    evaluation: { score: 70, trust: 'medium', reason: 'r', method: 'llm' },
    flagged_for_review: false,
    evidence: [],
    method: 'llm',
  });
  const knowledge = {
    batching: () => ({ concurrency: opts.concurrency, tokenBudget: 0 }),
    prepareAnswer: async (_org: number, q: { text: string }) => ({
      pending: { question: q, candidates: [], extractive: async () => result('x') } as unknown as PendingAnswer,
    }),
    planBatches: (pending: PendingAnswer[]) => {
      const out: PendingAnswer[][] = [];
      for (let i = 0; i < pending.length; i += opts.batchSize) out.push(pending.slice(i, i + opts.batchSize));
      return out;
    },
    answerBatch: async (batch: PendingAnswer[], _budget: TokenBudget) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      batches++;
      opts.onBatch?.(batches);
      await new Promise((r) => setTimeout(r, 5));
      inFlight--;
      return { results: batch.map((p) => result(`answer to ${p.question.text}`)), usage: { requests: 1, tokens: 300 } };
    },
  };
  const ctx = { store: { questionnaires: repo }, knowledge } as unknown as ServiceContext;
  return { ctx, stored, status: () => status, maxInFlight: () => maxInFlight, batches: () => batches };
}

const job = { id: 1, kind: 'generate_answers', payload: { questionnaire_id: 1 }, state: 'running' as const, attempts: 1, last_error: null };

describe('generate_answers with a batching knowledge base', () => {
  it('stores every answer once, at most `concurrency` batches in flight, the batch usage on its first answer', async () => {
    const s = setup(20, { concurrency: 3, batchSize: 4 });
    expect(await generateAnswersHandler(s.ctx)(job, { shouldStop: () => false })).toBe('done');
    expect(s.status()).toBe('complete');
    expect([...s.stored.values()].every((a) => a.length === 1)).toBe(true);
    expect(s.stored.size).toBe(20);
    expect(s.batches()).toBe(5);
    expect(s.maxInFlight()).toBeLessThanOrEqual(3);
    expect(s.maxInFlight()).toBeGreaterThan(1);
    const usages = [...s.stored.values()].map((a) => (a[0]!.evaluation as { llm_usage?: unknown }).llm_usage).filter(Boolean);
    expect(usages).toEqual(Array.from({ length: 5 }, () => ({ requests: 1, tokens: 300, questions: 4 })));
    expect(s.stored.get(7)![0]!.text).toBe('answer to Question 7?');
  });

  it('stores nothing from batches that return after the job stopped being ours, and does not mark it complete', async () => {
    let lost = false;
    const s = setup(12, { concurrency: 2, batchSize: 4, onBatch: (n) => void (n === 2 && (lost = true)) });
    expect(await generateAnswersHandler(s.ctx)(job, { shouldStop: () => lost })).toBe('interrupted');
    expect(s.status()).toBe('generating');
    // The first batch returned after the loss too: nothing stored at all, and no third batch was sent.
    expect(s.stored.size).toBe(0);
    expect(s.batches()).toBe(2);
  });
});
