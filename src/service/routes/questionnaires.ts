/** Questionnaire endpoints 4.6 - 4.11: upload, list, progress, answers, structure. */
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context';
import { canSeeQuestionnaire } from '../domain/access';
import { uploadQuestionnaires } from '../domain/questionnaire-upload';
import { computeStructure } from '../domain/structure';
import { principalOf, requireWritable } from '../http/auth';
import { badRequest, notFound } from '../http/errors';
import { questionnaire, questionWithAnswers } from '../http/serialize';
import { llmUsageOf } from '../jobs/generate';
import type { Principal, QuestionnaireRecord } from '../storage/types';
import { route } from './route';

async function visibleOr404(ctx: ServiceContext, p: Principal, id: number): Promise<QuestionnaireRecord> {
  const q = await ctx.store.questionnaires.get(p.org.id, id);
  if (!q || !canSeeQuestionnaire(p, q)) throw notFound(`questionnaire ${id} not found`);
  return q;
}

export function questionnaireRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  route(app, 'listQuestionnaires', async (request) => {
    const p = principalOf(request);
    return (await ctx.store.questionnaires.list(p.org.id, request.query)).filter((item) => canSeeQuestionnaire(p, item)).map((item) => questionnaire(item, p));
  });

  route(app, 'uploadQuestionnaires', { allow: (p) => requireWritable(p, 'upload questionnaires') }, async (request) => {
    if (request.uploads.length === 0) throw badRequest('files: no file uploaded; send one or more .xlsx or .csv files in the "files" field');
    return uploadQuestionnaires(ctx, principalOf(request), request.body, request.uploads, (details, message) => request.log.warn(details, message));
  });

  route(app, 'getQuestionnaire', async (request) => {
    const p = principalOf(request);
    const q = await visibleOr404(ctx, p, request.params.id);
    const out = questionnaire(q, p);
    // What generating this questionnaire's answers cost in language-model calls (summed from its answers,
    // so it survives restarts); only here, not in the list, which would have to read every answer.
    const usage = { requests: 0, tokens: 0 };
    for (const question of await ctx.store.questionnaires.questions(q.id, { withEvidence: false })) {
      for (const a of question.answers) {
        const u = llmUsageOf(a.evaluation);
        usage.requests += u.requests;
        usage.tokens += u.tokens;
      }
    }
    return { ...out, stats: { ...out.stats, llm_requests: usage.requests, llm_tokens: usage.tokens } };
  });

  route(app, 'answerProgress', async (request) => {
    const p = principalOf(request);
    const q = await visibleOr404(ctx, p, request.params.id);
    const expected = q.question_count;
    const received = q.answered_count;
    const percent = q.generation_status === 'complete' || expected === 0 ? 100 : Math.floor((received * 100) / expected);
    return { status: q.generation_status, answers_expected: expected, answers_received: received, percent };
  });

  route(app, 'answers', async (request) => {
    const p = principalOf(request);
    const { id } = request.params;
    const query = request.query;
    await visibleOr404(ctx, p, id);
    return (await ctx.store.questionnaires.questions(id))
      .filter((x) => query.tab === undefined || x.tab_name === query.tab)
      .filter((x) => query.section === undefined || x.section_path.includes(query.section))
      .map(questionWithAnswers);
  });

  route(app, 'structure', async (request) => {
    const p = principalOf(request);
    const { id } = request.params;
    await visibleOr404(ctx, p, id);
    return computeStructure(await ctx.store.questionnaires.questions(id, { withEvidence: false }));
  });
}
