/**
 * The rules of a questionnaire upload, in the order they apply: who will see it (the organisation or one team),
 * who reviews it, the options it is answered with, then every file's questions found, then each stored with its
 * answer-generation job. A broken rule is a 400 naming the field; nothing is stored unless every file is read.
 */
import { LIMITS, type QuestionnaireUploadFields } from '../../api/schemas';
import { JOB_KINDS, type ServiceContext } from '../context';
import { DetectError, type DetectedQuestionnaire } from '../detect/types';
import { badRequest } from '../http/errors';
import type { UploadedFile } from '../http/multipart';
import { assertOfferingsExist } from './grounding';
import { checkUpload, QUESTIONNAIRE_FORMATS, storeUploadBytes, type AcceptedUpload } from './uploads';
import type { Principal, Store } from '../storage/types';
import { detectLanguage } from './language';
import { needsFilling } from './structure';

export interface Audience {
  visibility: 'organization' | 'team';
  team_id: number | null;
}

/** Team visibility: given by `visibility`, or implied by `team_id`; only for a team the uploader belongs to (or an admin). */
export async function questionnaireAudience(store: Store, p: Principal, fields: QuestionnaireUploadFields): Promise<Audience> {
  const visibility = fields.visibility ?? (fields.team_id !== undefined ? 'team' : 'organization');
  if (visibility !== 'team') {
    if (fields.team_id !== undefined) throw badRequest('team_id: only allowed with visibility "team"');
    return { visibility, team_id: null };
  }
  if (fields.team_id === undefined) throw badRequest('team_id: required when visibility is "team"');
  const team = await store.teams.get(p.org.id, fields.team_id);
  if (!team) throw badRequest(`team_id: unknown team ${fields.team_id}`);
  if (!p.team_ids.includes(team.id) && p.user.role !== 'admin') throw badRequest(`team_id: you are not a member of team ${fields.team_id}`);
  return { visibility, team_id: team.id };
}

export async function assertReviewersExist(store: Store, orgId: number, userIds: readonly number[]): Promise<void> {
  for (const userId of userIds) {
    if (!(await store.users.get(orgId, userId))) throw badRequest(`reviewer_ids: unknown user ${userId}`);
  }
}

export interface AnsweringOptions {
  /** As stored, `prefer_recent` included; unknown keys are kept but unused. */
  advanced: Record<string, unknown>;
  language: string | null;
  offering_ids: number[];
}

/** The options in `advanced_options` we understand (and the `prefer_recent` field, stored among them). */
export function answeringOptions(fields: QuestionnaireUploadFields): AnsweringOptions {
  const advanced = { ...(fields.advanced_options ?? {}) };
  if (advanced.prefer_recent !== undefined && typeof advanced.prefer_recent !== 'boolean') {
    throw badRequest('advanced_options.prefer_recent: must be true or false');
  }
  if (fields.prefer_recent !== undefined) advanced.prefer_recent = fields.prefer_recent;
  let language: string | null = null;
  if (advanced.language !== undefined) {
    if (typeof advanced.language !== 'string' || !/^[a-z]{2}$/.test(advanced.language)) {
      throw badRequest('advanced_options.language: must be a two-letter ISO 639-1 code such as "en"');
    }
    language = advanced.language;
  }
  let offeringIds: number[] = [];
  const raw = advanced.offering_ids ?? advanced.relevant_offerings;
  if (raw !== undefined) {
    if (!Array.isArray(raw) || !raw.every((v) => Number.isInteger(v) && (v as number) > 0)) {
      throw badRequest('advanced_options.offering_ids: must be an array of positive integers');
    }
    if (raw.length > LIMITS.idListLength) throw badRequest(`advanced_options.offering_ids: at most ${LIMITS.idListLength} items`);
    offeringIds = raw as number[];
  }
  return { advanced, language, offering_ids: offeringIds };
}

export type DetectedUpload = AcceptedUpload & { result: DetectedQuestionnaire };

type Warn = (details: object, message: string) => void;

/** Every file's questions, found before anything is stored: one unreadable file rejects the whole upload. */
export async function detectQuestionnaires(ctx: ServiceContext, files: readonly UploadedFile[], warn: Warn): Promise<DetectedUpload[]> {
  const detected: DetectedUpload[] = [];
  for (const upload of files) {
    const check = await checkUpload(upload, QUESTIONNAIRE_FORMATS);
    if (!check.ok) throw badRequest(`files: ${check.name}: ${check.reason}`);
    let result: DetectedQuestionnaire;
    try {
      result = await ctx.detect({ path: upload.path }, check.name);
    } catch (error) {
      if (error instanceof DetectError) throw badRequest(`files: ${check.name}: ${error.message}`);
      warn({ err: error, filename: check.name }, 'questionnaire detection crashed');
      throw badRequest(`files: ${check.name}: could not be read as a questionnaire (${error instanceof Error ? error.message : String(error)})`);
    }
    if (result.questions.length === 0) throw badRequest(`files: ${check.name}: no questions found`);
    detected.push({ name: check.name, ext: check.ext, format: check.format, file: upload, result });
  }
  return detected;
}

export interface QuestionnaireSettings extends Audience, AnsweringOptions {
  client: string | null;
  document_type: NonNullable<QuestionnaireUploadFields['document_type']>;
  reviewer_ids: number[];
}

/** One detected file stored: its bytes, its file record, the questionnaire with its questions, and its job, together. */
export async function storeQuestionnaire(ctx: ServiceContext, p: Principal, s: QuestionnaireSettings, d: DetectedUpload) {
  const stored = await storeUploadBytes(ctx.blobs, p, 'questionnaire', d);
  const language = detectLanguage(d.result.language_sample || d.result.questions.map((x) => x.original_question_text).join(' '));
  return ctx.store
    .unitOfWork(async (tx) => {
      const file = await tx.files.create({ ...stored, document_type: s.document_type });
      await tx.files.update(file.id, { status: 'ready', processing_stage: 'detected', processing_percent: 100 });
      const q = await tx.questionnaires.create({
        org_id: p.org.id,
        user_id: p.user.id,
        file_id: file.id,
        client: s.client,
        document_type: s.document_type,
        visibility: s.visibility,
        team_id: s.team_id,
        detected_language: language,
        language_override: s.language,
        advanced_options: s.advanced,
        warnings: d.result.warnings,
        reviewer_ids: s.reviewer_ids,
        offering_ids: s.offering_ids,
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
    })
    .catch(async (error: unknown) => {
      // Not recorded (e.g. the database is unreachable: 503): the bytes must not stay behind.
      await ctx.blobs.remove(stored.stored_name);
      throw error;
    });
}

/** `POST /filler/questionnaires/`: the rules above, then every file stored and answer generation woken. */
export async function uploadQuestionnaires(ctx: ServiceContext, p: Principal, fields: QuestionnaireUploadFields, files: readonly UploadedFile[], warn: Warn) {
  const audience = await questionnaireAudience(ctx.store, p, fields);
  await assertReviewersExist(ctx.store, p.org.id, fields.reviewer_ids ?? []);
  const options = answeringOptions(fields);
  await assertOfferingsExist(ctx.store, p.org.id, options.offering_ids, 'advanced_options.offering_ids');
  const detected = await detectQuestionnaires(ctx, files, warn);
  const settings: QuestionnaireSettings = {
    ...audience,
    ...options,
    client: fields.client ?? null,
    document_type: fields.document_type ?? 'questionnaire',
    reviewer_ids: fields.reviewer_ids ?? [],
  };
  const fileIds: number[] = [];
  const questionnaireIds: number[] = [];
  for (const d of detected) {
    const created = await storeQuestionnaire(ctx, p, settings, d);
    fileIds.push(created.fileId);
    questionnaireIds.push(created.questionnaireId);
  }
  ctx.wake(JOB_KINDS.generateAnswers);
  return { file_ids: fileIds, questionnaire_ids: questionnaireIds };
}
