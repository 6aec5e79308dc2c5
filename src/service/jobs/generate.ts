/**
 * The `generate_answers` job: answers every question of a questionnaire that has no answer yet, storing
 * each answer as soon as it exists, so progress is visible and a restart resumes where it stopped.
 */
import type { Evaluation } from '../../api/schemas';
import type { ServiceContext } from '../context';
import { evidenceRow } from '../domain/evidence';
import type { SearchFilters } from '../knowledge/types';
import type { NewAnswer } from '../storage/types';
import type { JobHandler } from './worker';

export function generateAnswersHandler(ctx: ServiceContext, log?: (message: string, error?: unknown) => void): JobHandler {
  return async (job, jobCtx) => {
    const questionnaireId = Number(job.payload.questionnaire_id);
    const repo = ctx.store.questionnaires;
    const q = await repo.getAny(questionnaireId);
    if (!q) return 'done';
    await repo.setGenerationStatus(q.id, 'generating');
    const filters: SearchFilters = q.offerings.length > 0 ? { offering_ids: q.offerings.map((o) => o.id) } : {};
    // The analyst's choice at upload (`prefer_recent`): settles disagreeing past answers by recency.
    const options = { prefer_recent: q.advanced_options.prefer_recent === true };

    for (const questionId of await repo.unansweredQuestionIds(q.id)) {
      if (jobCtx.shouldStop()) return 'interrupted';
      const question = await repo.question(questionId);
      if (!question) continue;
      let answer: NewAnswer;
      try {
        const result = await ctx.knowledge.answerQuestion(
          q.org_id,
          { text: question.text, original_id: question.original_id, answer_slots: question.answer_slots, tab_name: question.tab_name },
          filters,
          options,
        );
        answer = {
          text: result.text,
          evaluation: { ...result.evaluation, method: result.evaluation.method ?? result.method },
          slot_responses: result.slot_responses,
          method: result.method,
          flagged_for_review: result.flagged_for_review,
          evidence: result.evidence.map(evidenceRow),
        };
      } catch (error) {
        // One question that cannot be answered must not stall the whole questionnaire.
        const message = error instanceof Error ? error.message : String(error);
        log?.(`question ${questionId} of questionnaire ${q.id} could not be answered: ${message}`, error);
        const evaluation: Evaluation = { score: 0, trust: 'low', reason: `answering failed: ${message}`, method: 'none' };
        answer = { text: '', evaluation, slot_responses: [], method: 'none', flagged_for_review: true, evidence: [] };
      }
      await repo.addAnswer(questionId, answer);
      // Keep HTTP responsive between questions.
      await new Promise((resolve) => setImmediate(resolve));
    }

    await repo.setGenerationStatus(q.id, 'complete');
    if (q.status === 'draft') await repo.setStatus(q.id, 'ready');
    return 'done';
  };
}
