/** Questionnaire endpoints 4.6 - 4.11: upload, list, progress, answers, structure. */
import type { FastifyInstance } from 'fastify';
import { AnswersQuery, LIMITS, QuestionnaireListQuery, QuestionnaireUploadFields } from '../../api/schemas';
import { JOB_KINDS, type ServiceContext } from '../context';
import { DetectError, type DetectedQuestionnaire } from '../detect/types';
import { canSeeQuestionnaire } from '../domain/access';
import { detectLanguage } from '../domain/language';
import { computeStructure, needsFilling } from '../domain/structure';
import { principalOf, requireWritable } from '../http/auth';
import { badRequest, notFound, parseOr400 } from '../http/errors';
import { formToObject } from '../http/form';
import { readMultipart } from '../http/multipart';
import { pathId, singleValuedQuery } from '../http/params';
import { questionnaire, questionWithAnswers } from '../http/serialize';
import { llmUsageOf } from '../jobs/generate';
import type { Principal, QuestionnaireRecord } from '../storage/types';
import { assertOfferingsExist } from './grounding';
import { checkUpload, QUESTIONNAIRE_FORMATS, storeUploadBytes, type AcceptedUpload } from './uploads';

async function visibleOr404(ctx: ServiceContext, p: Principal, id: number): Promise<QuestionnaireRecord> {
  const q = await ctx.store.questionnaires.get(p.org.id, id);
  if (!q || !canSeeQuestionnaire(p, q)) throw notFound(`questionnaire ${id} not found`);
  return q;
}

/** Reads the options we understand from `advanced_options`; unknown keys are kept but unused. */
function readAdvancedOptions(options: Record<string, unknown>): { language: string | null; offering_ids: number[] } {
  let language: string | null = null;
  if (options.language !== undefined) {
    if (typeof options.language !== 'string' || !/^[a-z]{2}$/.test(options.language)) {
      throw badRequest('advanced_options.language: must be a two-letter ISO 639-1 code such as "en"');
    }
    language = options.language;
  }
  let offeringIds: number[] = [];
  const raw = options.offering_ids ?? options.relevant_offerings;
  if (raw !== undefined) {
    if (!Array.isArray(raw) || !raw.every((v) => Number.isInteger(v) && (v as number) > 0)) {
      throw badRequest('advanced_options.offering_ids: must be an array of positive integers');
    }
    if (raw.length > LIMITS.idListLength) throw badRequest(`advanced_options.offering_ids: at most ${LIMITS.idListLength} items`);
    offeringIds = raw as number[];
  }
  return { language, offering_ids: offeringIds };
}

export function questionnaireRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  app.get('/filler/questionnaires/', async (request) => {
    const p = principalOf(request);
    const q = parseOr400(QuestionnaireListQuery, singleValuedQuery(request));
    return (await ctx.store.questionnaires.list(p.org.id, q))
      .filter((item) => canSeeQuestionnaire(p, item))
      .map((item) => questionnaire(item, p));
  });

  app.post('/filler/questionnaires/', async (request) => {
    const p = principalOf(request);
    requireWritable(p, 'upload questionnaires');
    const { files, fields } = await readMultipart(request);
    const body = parseOr400(
      QuestionnaireUploadFields,
      formToObject(fields, { intArrays: ['reviewer_ids'], objects: ['advanced_options'], booleans: ['prefer_recent'] }),
    );
    if (files.length === 0) throw badRequest('files: no file uploaded; send one or more .xlsx or .csv files in the "files" field');

    const visibility = body.visibility ?? (body.team_id !== undefined ? 'team' : 'organization');
    let teamId: number | null = null;
    if (visibility === 'team') {
      if (body.team_id === undefined) throw badRequest('team_id: required when visibility is "team"');
      const team = await ctx.store.teams.get(p.org.id, body.team_id);
      if (!team) throw badRequest(`team_id: unknown team ${body.team_id}`);
      if (!p.team_ids.includes(team.id) && p.user.role !== 'admin') {
        throw badRequest(`team_id: you are not a member of team ${body.team_id}`);
      }
      teamId = team.id;
    } else if (body.team_id !== undefined) {
      throw badRequest('team_id: only allowed with visibility "team"');
    }
    for (const userId of body.reviewer_ids ?? []) {
      if (!(await ctx.store.users.get(p.org.id, userId))) throw badRequest(`reviewer_ids: unknown user ${userId}`);
    }
    const advanced = { ...(body.advanced_options ?? {}) };
    if (advanced.prefer_recent !== undefined && typeof advanced.prefer_recent !== 'boolean') {
      throw badRequest('advanced_options.prefer_recent: must be true or false');
    }
    if (body.prefer_recent !== undefined) advanced.prefer_recent = body.prefer_recent;
    const options = readAdvancedOptions(advanced);
    await assertOfferingsExist(ctx.store, p.org.id, options.offering_ids, 'advanced_options.offering_ids');

    // Detect every file first: one unreadable file rejects the upload and nothing is created.
    const detected: (AcceptedUpload & { result: DetectedQuestionnaire })[] = [];
    for (const upload of files) {
      const check = await checkUpload(upload, QUESTIONNAIRE_FORMATS);
      if (!check.ok) throw badRequest(`files: ${check.name}: ${check.reason}`);
      let result: DetectedQuestionnaire;
      try {
        result = await ctx.detect({ path: upload.path }, check.name);
      } catch (error) {
        if (error instanceof DetectError) throw badRequest(`files: ${check.name}: ${error.message}`);
        request.log.warn({ err: error, filename: check.name }, 'questionnaire detection crashed');
        throw badRequest(`files: ${check.name}: could not be read as a questionnaire (${error instanceof Error ? error.message : String(error)})`);
      }
      if (result.questions.length === 0) throw badRequest(`files: ${check.name}: no questions found`);
      detected.push({ name: check.name, ext: check.ext, format: check.format, file: upload, result });
    }

    const fileIds: number[] = [];
    const questionnaireIds: number[] = [];
    for (const d of detected) {
      const stored = await storeUploadBytes(ctx.blobs, p, 'questionnaire', d);
      const language = detectLanguage(d.result.language_sample || d.result.questions.map((x) => x.original_question_text).join(' '));
      const created = await ctx.store.unitOfWork(async (tx) => {
        const file = await tx.files.create({
          ...stored,
          document_type: body.document_type ?? 'questionnaire',
        });
        await tx.files.update(file.id, { status: 'ready', processing_stage: 'detected', processing_percent: 100 });
        const q = await tx.questionnaires.create({
          org_id: p.org.id,
          user_id: p.user.id,
          file_id: file.id,
          client: body.client ?? null,
          document_type: body.document_type ?? 'questionnaire',
          visibility,
          team_id: teamId,
          detected_language: language,
          language_override: options.language,
          advanced_options: advanced,
          warnings: d.result.warnings,
          reviewer_ids: body.reviewer_ids ?? [],
          offering_ids: options.offering_ids,
          questions: d.result.questions.map((x) => ({
            original_id: x.original_id,
            text: x.original_question_text,
            tab_name: x.tab_name,
            section_path: x.section_path,
            order: x.order,
            row: x.row,
            question_coordinate: x.question_coordinate,
            block: x.block,
            answer_slots: x.answer_slots,
            needs_filling: needsFilling(x.answer_slots),
          })),
        });
        await tx.jobs.enqueue(JOB_KINDS.generateAnswers, { questionnaire_id: q.id });
        return { fileId: file.id, questionnaireId: q.id };
      }).catch(async (error: unknown) => {
        // Not recorded (e.g. the database is unreachable: 503): the bytes must not stay behind.
        await ctx.blobs.remove(stored.stored_name);
        throw error;
      });
      fileIds.push(created.fileId);
      questionnaireIds.push(created.questionnaireId);
    }
    ctx.wake(JOB_KINDS.generateAnswers);
    return { file_ids: fileIds, questionnaire_ids: questionnaireIds };
  });

  app.get('/filler/questionnaires/:id/', async (request) => {
    const p = principalOf(request);
    const q = await visibleOr404(ctx, p, pathId(request));
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

  app.get('/filler/questionnaires/:id/answer-progress/', async (request) => {
    const p = principalOf(request);
    const q = await visibleOr404(ctx, p, pathId(request));
    const expected = q.question_count;
    const received = q.answered_count;
    const percent = q.generation_status === 'complete' || expected === 0 ? 100 : Math.floor((received * 100) / expected);
    return { status: q.generation_status, answers_expected: expected, answers_received: received, percent };
  });

  app.get('/filler/questionnaires/:id/answers/', async (request) => {
    const p = principalOf(request);
    const id = pathId(request);
    const query = parseOr400(AnswersQuery, singleValuedQuery(request));
    await visibleOr404(ctx, p, id);
    return (await ctx.store.questionnaires.questions(id))
      .filter((x) => query.tab === undefined || x.tab_name === query.tab)
      .filter((x) => query.section === undefined || x.section_path.includes(query.section))
      .map(questionWithAnswers);
  });

  app.get('/filler/questionnaires/:id/structure/', async (request) => {
    const p = principalOf(request);
    const id = pathId(request);
    await visibleOr404(ctx, p, id);
    return computeStructure(await ctx.store.questionnaires.questions(id, { withEvidence: false }));
  });
}
