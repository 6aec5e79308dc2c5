/**
 * Extension "answers.replay" (not in the v2 spec): how good the answer library is for this organisation,
 * measured on its own past questionnaires, and what it cannot answer yet.
 *
 *   POST /answers/library/replay/        {max_questionnaires?}: starts a run (in the background); the run, queued
 *   GET  /answers/library/replay/        the kept runs, newest first, without their details (the trend)
 *   GET  /answers/library/replay/{id}/   one run: per questionnaire, overall, the questions it got wrong, the gaps
 *
 * A run takes the completed questionnaires in the library (newest first, at most `max_questionnaires`),
 * blanks each and fills it from the rest of the library (leave-one-out: the entries learned from that
 * questionnaire are left out), with the same answering a fill uses. Agreement: of the questions the library
 * answered, the share whose answer is the questionnaire's own. Coverage: the share of the questionnaire's
 * answered questions the library answered. Gaps: questions of the organisation's recent questionnaires that
 * nothing in the library answers, by section.
 *
 * Members read runs; starting one needs an admin or repository manager's key that is not read-only (403).
 * Another organisation's run is 404.
 */
import { z } from 'zod/mini';
import { paginated } from './schemas';

const opt = z.optional;
const nul = z.nullable;
const int = () => z.int();
/** A share 0..1, null when there was nothing to share (no question, nothing answered). */
const share = () => nul(z.number());

export const REPLAY_LIMITS = {
  /** Questionnaires one run replays at most (newest first); the default when none is asked for. */
  questionnairesMax: 50,
  questionnairesDefault: 10,
  /** Questions replayed of one questionnaire at most. */
  questionsPerQuestionnaire: 2000,
  /** Questions a run keeps among those it got wrong, and among the gaps. */
  wrongKept: 500,
  gapsKept: 500,
  /** Recent questionnaires whose questions are checked for gaps. */
  gapQuestionnaires: 5,
} as const;

export const REPLAY_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export const ReplayStatus = z.enum(REPLAY_STATUSES);

/** Agreement and coverage of a set of questions. */
export const ReplayFigures = z.looseObject({
  /** Questions the questionnaire answered (the key). */
  questions: int(),
  /** Of those, answered by the library. */
  answered: int(),
  /** Of those answered, the library's answer is the questionnaire's. */
  agreed: int(),
  agreement: share(),
  coverage: share(),
  /** Answers where past answers disagreed (surfaced conflicts: flagged, or settled by a rule). */
  conflicts: int(),
});

export const ReplayQuestionnaire = z.looseObject({
  ...ReplayFigures.shape,
  file_id: int(),
  file_name: z.string(),
});

/** A question the library answered otherwise than the questionnaire did. */
export const ReplayWrong = z.looseObject({
  file_id: int(),
  file_name: z.string(),
  question: z.string(),
  original_id: nul(z.string()),
  /** What the questionnaire said (its primary answer). */
  expected: z.string(),
  /** What the library answered. */
  got: z.string(),
  /** Why the library answered so (the fill's reason). */
  reason: z.string(),
});

/** A question where past answers disagreed when it was replayed (settle it once in the library). */
export const ReplayConflict = z.looseObject({
  file_id: int(),
  file_name: z.string(),
  question: z.string(),
  original_id: nul(z.string()),
  /** The library's key of the question (`LibraryEntry.question_key`): what settling is by. */
  question_key: z.string(),
  /** "Canvas Catalog: No · Canvas Studio: Yes". */
  sides: z.string(),
  /** The rule that decided (same_offering, most_recent, majority), or null: left for review. */
  rule: nul(z.string()),
});

export const ReplayGapQuestion = z.looseObject({
  questionnaire_id: int(),
  questionnaire: z.string(),
  question: z.string(),
  original_id: nul(z.string()),
});

export const ReplayGapSection = z.looseObject({
  /** The section's title ("Data security"), else the tab's name. */
  section: z.string(),
  questions: z.array(ReplayGapQuestion),
});

export const ReplayRunSummary = z.looseObject({
  id: int(),
  status: ReplayStatus,
  started_by: z.string(),
  created_at: z.string(),
  finished_at: nul(z.string()),
  /** Why it failed, when it did. */
  error: nul(z.string()),
  max_questionnaires: int(),
  /** Over every questionnaire replayed; null until done. */
  overall: nul(ReplayFigures),
  /** Questions of recent questionnaires nothing in the library answers; null until done. */
  gap_count: nul(int()),
});

export const ReplayRun = z.looseObject({
  ...ReplayRunSummary.shape,
  questionnaires: z.array(ReplayQuestionnaire),
  /** The first REPLAY_LIMITS.wrongKept questions answered otherwise, questionnaire by questionnaire. */
  wrong: z.array(ReplayWrong),
  /** How many were answered otherwise in all (`wrong` may hold fewer). */
  wrong_count: int(),
  /** The first REPLAY_LIMITS.wrongKept questions where past answers disagreed (`overall.conflicts` counts them all). */
  conflicted: z.array(ReplayConflict),
  gaps: z.array(ReplayGapSection),
});

export const ReplayStart = z.strictObject({
  max_questionnaires: opt(z.int().check(z.gte(1), z.lte(REPLAY_LIMITS.questionnairesMax))),
});

export const ReplayListQuery = z.strictObject({
  page: opt(z.pipe(z.coerce.number(), z.int().check(z.gte(1)))),
  page_size: opt(z.pipe(z.coerce.number(), z.int().check(z.gte(1), z.lte(200)))),
});

export const ReplayRunPage = paginated(ReplayRunSummary);

export type ReplayStatus = z.infer<typeof ReplayStatus>;
export type ReplayFigures = z.infer<typeof ReplayFigures>;
export type ReplayQuestionnaire = z.infer<typeof ReplayQuestionnaire>;
export type ReplayWrong = z.infer<typeof ReplayWrong>;
export type ReplayConflict = z.infer<typeof ReplayConflict>;
export type ReplayGapQuestion = z.infer<typeof ReplayGapQuestion>;
export type ReplayGapSection = z.infer<typeof ReplayGapSection>;
export type ReplayRunSummary = z.infer<typeof ReplayRunSummary>;
export type ReplayRun = z.infer<typeof ReplayRun>;
export type ReplayStart = z.input<typeof ReplayStart>;
export type ReplayListQuery = z.input<typeof ReplayListQuery>;
