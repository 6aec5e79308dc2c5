/**
 * The `generate_answers` job: answers every question of a questionnaire that has no answer yet, storing
 * each answer as soon as it exists, so progress is visible and a restart resumes where it stopped.
 */
import type { Evaluation } from '../../api/schemas';
import type { ServiceContext } from '../context';
import { evidenceRow } from '../domain/evidence';
import { WorkbookConsistency } from '../knowledge/answer/consistency';
import type { SearchFilters } from '../knowledge/types';
import { StorageUnavailable } from '../storage/errors';
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

    // One workbook, one answer: repeats get the answer given, contradictions are flagged (a resumed
    // fill checks against what it stored before).
    const consistency = new WorkbookConsistency();
    const where = (x: { tab_name: string; question_coordinate?: string | null; row?: number | null }) =>
      `${x.tab_name}!${x.question_coordinate ?? `row ${x.row ?? '?'}`}`;
    for (const done of await repo.questions(q.id, { withEvidence: false })) {
      const stored = done.answers[0];
      const evaluation = stored?.evaluation;
      if (!stored || !evaluation) continue;
      const asked = { text: done.text, original_id: done.original_id, answer_slots: done.answer_slots, where: where(done) };
      const result = { text: stored.text, slot_responses: stored.slot_responses, score: evaluation.score, evaluation, flagged_for_review: done.flagged_for_review, evidence: [], method: 'none' as const };
      consistency.record(asked, result, false);
    }

    for (const questionId of await repo.unansweredQuestionIds(q.id)) {
      if (jobCtx.shouldStop()) return 'interrupted';
      const question = await repo.question(questionId);
      if (!question) continue;
      let answer: NewAnswer;
      try {
        const asked = { text: question.text, original_id: question.original_id, answer_slots: question.answer_slots, where: where(question) };
        const result = consistency.record(
          asked,
          consistency.repeatOf(asked) ??
            (await ctx.knowledge.answerQuestion(
              q.org_id,
              { text: question.text, original_id: question.original_id, answer_slots: question.answer_slots, tab_name: question.tab_name },
              filters,
              options,
            )),
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
        // The database gone is no answer: the attempt fails and the job resumes here once it is back.
        if (error instanceof StorageUnavailable) throw error;
        // One question that cannot be answered must not stall the whole questionnaire.
        const message = error instanceof Error ? error.message : String(error);
        log?.(`question ${questionId} of questionnaire ${q.id} could not be answered: ${message}`, error);
        const evaluation: Evaluation = { score: 0, trust: 'low', reason: `answering failed: ${message}`, method: 'none' };
        answer = { text: '', evaluation, slot_responses: [], method: 'none', flagged_for_review: true, evidence: [] };
      }
      // Answering may take long (a language model): the job may have stopped being ours meanwhile, and
      // then another worker answers this question; storing ours too would give it two answers.
      if (jobCtx.shouldStop()) return 'interrupted';
      await repo.addAnswer(questionId, answer);
      // Keep HTTP responsive between questions.
      await new Promise((resolve) => setImmediate(resolve));
    }

    await repo.setGenerationStatus(q.id, 'complete');
    if (q.status === 'draft') await repo.setStatus(q.id, 'ready');
    return 'done';
  };
}
