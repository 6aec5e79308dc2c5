/**
 * The v2 contract (../shared/spec/interface-v2.md) as runtime schemas: the single source of truth.
 * The client validates responses with them; the local service validates requests with them and its
 * tests check responses against them. Types are inferred from the schemas so they cannot drift.
 *
 * Response objects are "loose" (unknown keys kept) so a newer server that adds fields still validates;
 * request schemas are strict so a typo in a field name is a 400, not a silently ignored option.
 */
import { z } from 'zod/mini';

/** The received type as zod's English messages name it. */
function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
  return typeof v;
}

const UNITS: Record<string, string> = { string: 'characters', array: 'items', set: 'items', file: 'bytes', map: 'entries' };
const quoted = (v: unknown) => (typeof v === 'string' ? `"${v}"` : String(v));

/**
 * zod/mini ships without messages. These are zod's English ones for the issues our schemas raise
 * ("Invalid option: expected one of …"), without its whole locale module in the task pane bundle.
 */
function message(issue: z.core.$ZodRawIssue): string {
  const i = issue as z.core.$ZodRawIssue & Record<string, any>;
  switch (i.code) {
    case 'invalid_type':
      return `Invalid input: expected ${i.expected}, received ${typeOf(i.input)}`;
    case 'invalid_value':
      return i.values.length === 1 ? `Invalid input: expected ${quoted(i.values[0])}` : `Invalid option: expected one of ${i.values.map(quoted).join('|')}`;
    case 'too_big':
    case 'too_small': {
      const big = i.code === 'too_big';
      const adj = i.exact ? 'exactly ' : i.inclusive ? (big ? '<=' : '>=') : big ? '<' : '>';
      const unit = UNITS[i.origin as string];
      return `Too ${big ? 'big' : 'small'}: expected ${i.origin ?? 'value'} to ${unit ? 'have' : 'be'} ${adj}${big ? i.maximum : i.minimum}${unit ? ` ${unit}` : ''}`;
    }
    case 'invalid_format':
      return i.format === 'regex' ? `Invalid string: must match pattern ${i.pattern}` : `Invalid ${i.format}`;
    case 'unrecognized_keys':
      return `Unrecognized key${i.keys.length > 1 ? 's' : ''}: ${i.keys.map(quoted).join(', ')}`;
    case 'invalid_element':
      return `Invalid value in ${i.origin}`;
    default:
      return 'Invalid input';
  }
}
z.config({ localeError: message });

// zod/mini keeps the task pane bundle small (the full zod alone would take a third of its budget);
// these helpers keep the schemas below as readable as the chained API.
const opt = z.optional;
const nul = z.nullable;
const optNul = <T extends z.ZodMiniType>(schema: T) => z.optional(z.nullable(schema));
const maxStr = (n: number) => z.string().check(z.maxLength(n));
const nonEmpty = (n: number, what: string) => z.string().check(z.trim(), z.minLength(1, `${what} must not be empty`), z.maxLength(n));
const positiveInt = () => z.int().check(z.positive());
const queryPositiveInt = () => z.pipe(z.coerce.number(), z.int().check(z.positive()));
/** A list of ids or names, at most LIMITS.idListLength long. */
const list = <T extends z.ZodMiniType>(item: T) => z.array(item).check(z.maxLength(LIMITS.idListLength, `at most ${LIMITS.idListLength} items`));

// ---- Section 8: limits -------------------------------------------------------------------------
export const LIMITS = {
  messageLength: 4000,
  contextLength: 8000,
  sessionTitleLength: 200,
  pageSizeDefault: 50,
  pageSizeMax: 200,
  pageDefault: 1,
  filenameLength: 256,
  urlLength: 1024,
  tagNameLength: 50,
  offeringNameLength: 200,
  clientLength: 200,
  processingStageLength: 20,
  sourceProviderLength: 50,
  /** Not in the spec (its "not shown"); a question longer than a message makes no sense. */
  questionLength: 4000,
  /** Not in the spec: the most ids (offerings, reviewers) or tags one request may list. */
  idListLength: 1000,
} as const;

// ---- Enums -------------------------------------------------------------------------------------
export const REPOSITORY_FILE_STATUSES = ['submitted', 'processing', 'ready', 'failed'] as const;
export const QUESTIONNAIRE_STATUSES = ['ready', 'draft', 'in_review', 'approved'] as const;
export const ANSWER_STATUSES = ['draft', 'approved'] as const;
export const PROGRESS_STATUSES = ['idle', 'generating', 'complete'] as const;
export const DOCUMENT_TYPES = [
  'questionnaire',
  'requirements_sheet',
  'qna',
  'security_questionnaire',
  'security_certificate',
  'documentation',
  'data_extraction',
  'template',
  'unknown',
  'q_a',
] as const;
export const FILE_FORMATS = ['url', 'doc', 'docx', 'excel', 'pdf', 'gdrive', 'txt', 'ppt', 'pptx', 'html', 'xml', ''] as const;
export const OFFERING_TYPES = ['service', 'product', 'module'] as const;
export const VISIBILITIES = ['organization', 'team'] as const;
export const SENDERS = ['user', 'assistant'] as const;
export const REPOSITORY_ORDERING_FIELDS = ['created_at', 'original_filename', 'status', 'file_format'] as const;

export const RepositoryFileStatus = z.enum(REPOSITORY_FILE_STATUSES);
export const QuestionnaireStatus = z.enum(QUESTIONNAIRE_STATUSES);
export const AnswerStatus = z.enum(ANSWER_STATUSES);
export const ProgressStatus = z.enum(PROGRESS_STATUSES);
export const DocumentType = z.enum(DOCUMENT_TYPES);
export const FileFormat = z.enum(FILE_FORMATS);
export const OfferingType = z.enum(OFFERING_TYPES);
export const Visibility = z.enum(VISIBILITIES);
export const Sender = z.enum(SENDERS);

const timestamp = z.string();
const int = () => z.int();

// ---- 2.1 / 2.2 Ask -----------------------------------------------------------------------------
export const AskRequest = z.strictObject({
  question: nonEmpty(LIMITS.questionLength, 'question'),
  session_id: opt(positiveInt()),
  file_id: opt(positiveInt()),
  offering_ids: opt(list(positiveInt())),
});

/** Spec shows filename/page_number/content; the rest mirrors a chat source (2.5). */
export const AskSource = z.looseObject({
  filename: z.string(),
  page_number: int(),
  content: z.string(),
  id: opt(int()),
  type: opt(z.string()),
  relevance_score: opt(z.number()),
  source_file: opt(z.string()),
  context_header: opt(z.string()),
  source_url: opt(z.string()),
  file_id: opt(int()),
  /** Extension: the other organisation whose document this is ("Amazon Web Services"). */
  third_party: opt(z.string()),
});

export const AskResponse = z.looseObject({
  answer: z.string(),
  sources: z.array(AskSource),
  session_id: nul(int()),
  /** Extension: how far the sources state what was asked. */
  trust: opt(z.string()),
});

// ---- 2.3 - 2.6 Chat ----------------------------------------------------------------------------
export const ChatSource = z.looseObject({
  id: int(),
  type: z.string(),
  relevance_score: z.number(),
  content: z.string(),
  source_file: z.string(),
  page_number: int(),
  context_header: z.string(),
  source_url: z.string(),
  /** Not in the spec: the repository file the passage comes from (our service sends it). */
  file_id: optNul(int()),
});

export const ChatMessage = z.looseObject({
  id: int(),
  sender: Sender,
  content: z.string(),
  created_at: timestamp,
  is_edited: z.boolean(),
  metadata: optNul(z.unknown()),
  sources: z.array(ChatSource),
});

export const ChatSession = z.looseObject({
  id: int(),
  title: maxStr(LIMITS.sessionTitleLength),
  created_at: timestamp,
  updated_at: timestamp,
  is_archived: z.boolean(),
  message_count: int(),
  last_message: optNul(z.unknown()),
  messages: opt(z.array(ChatMessage)),
});

export const CreateSessionRequest = z.strictObject({
  title: opt(nonEmpty(LIMITS.sessionTitleLength, 'title')),
  is_archived: opt(z.boolean()),
});

export const SendMessageRequest = z.strictObject({
  message: nonEmpty(LIMITS.messageLength, 'message'),
  file_id: optNul(positiveInt()),
  context: opt(maxStr(LIMITS.contextLength)),
  offering_ids: opt(list(positiveInt())),
});

// ---- 2.7 / 2.8 Repository ----------------------------------------------------------------------
export const Tag = z.looseObject({ id: int(), name: z.string().check(z.minLength(1), z.maxLength(LIMITS.tagNameLength)) });

export const Offering = z.looseObject({
  id: int(),
  name: maxStr(LIMITS.offeringNameLength),
  type: OfferingType,
});

export const RepositoryFile = z.looseObject({
  id: int(),
  original_filename: nul(maxStr(LIMITS.filenameLength)),
  status: RepositoryFileStatus,
  status_display: opt(z.string()),
  processing_stage: opt(maxStr(LIMITS.processingStageLength)),
  processing_percent: opt(z.int().check(z.gte(-32768), z.lte(32767))),
  document_type: opt(DocumentType),
  file_format: opt(FileFormat),
  source_provider: optNul(maxStr(LIMITS.sourceProviderLength)),
  created_at: opt(timestamp),
  tags: opt(z.array(Tag)),
  relevant_offerings: opt(z.array(Offering)),
  scope_includes_company: opt(z.boolean()),
  use_as_source: opt(z.boolean()),
  url: optNul(maxStr(LIMITS.urlLength)),
  user: opt(z.string()),
  qa_count: opt(int()),
  data_count: opt(int()),
  passage_count: opt(int()),
  total_embeddings: opt(int()),
  is_reprocessable: opt(z.boolean()),
  /** Not in the spec: why processing failed, so a person can act on it. */
  error: optNul(z.string()),
  /** Not in the spec: the date the document states about itself (YYYY-MM-DD), else its upload date. */
  as_of: opt(z.string()),
  /** Not in the spec: the last day the document is valid for (a report's period, a certificate's expiry), and the words that say so. */
  valid_until: optNul(z.string()),
  valid_said: optNul(z.string()),
  /** Not in the spec: past `valid_until`; answers resting on it get medium trust at most. */
  expired: opt(z.boolean()),
  /**
   * Not in the spec: a sentence about the file's processing, for a person. A duplicate names what it
   * duplicates; the answer library's export uploaded back says what became of its approvals and
   * settlements ("library export: 1 approval and 1 settlement applied", or why they were not applied).
   */
  note: opt(z.string()),
});

// ---- 2.9 Questionnaire -------------------------------------------------------------------------
export const QuestionnaireFileRef = z.looseObject({
  id: int(),
  original_filename: z.string(),
  file_format: z.string(),
  status: z.string(),
  created_at: timestamp,
});

export const Team = z.looseObject({ id: int(), name: z.string() });

export const Questionnaire = z.looseObject({
  id: int(),
  file: QuestionnaireFileRef,
  file_name: opt(z.string()),
  client: optNul(maxStr(LIMITS.clientLength)),
  status: QuestionnaireStatus,
  status_display: opt(z.string()),
  visibility: opt(Visibility),
  user: opt(z.string()),
  answers_count: opt(int()),
  approved_count: opt(int()),
  submitted_for_review_at: optNul(timestamp),
  approved_at: optNul(timestamp),
  owner: opt(z.string()),
  reviewers: opt(z.array(z.string())),
  contributors: opt(z.array(z.string())),
  my_role: opt(z.string()),
  permissions: opt(z.record(z.string(), z.unknown())),
  stats: opt(z.record(z.string(), z.unknown())),
  teams: opt(z.array(Team)),
  my_teams: opt(z.unknown()),
  relevant_offerings: opt(z.array(Offering)),
  scope_includes_company: opt(z.boolean()),
  detected_language: opt(z.string()),
  effective_language: opt(z.string()),
  can_access: opt(z.boolean()),
  can_edit: opt(z.boolean()),
  can_approve: opt(z.boolean()),
  can_assign: opt(z.boolean()),
  // Not in the spec; our service sends them.
  document_type: opt(z.string()),
  /** What the questionnaire detection wants a person to know (e.g. a sheet it skipped, and why). */
  warnings: opt(z.array(z.string())),
  created_at: opt(timestamp),
});

// ---- 2.10 / 2.11 Questions, answers, slots -----------------------------------------------------
export const AnswerSlot = z.looseObject({
  role: z.string(),
  header: z.string(),
  // The contract's own spelling (`C5`, `'Tab'!C5`, `C5:D5`) and stays a string: src/api imports nothing.
  // Code that needs the cell parses it with parseCellRef / parseA1 from src/xlsx/a1.ts.
  coordinate: z.string(),
  value: optNul(z.string()),
  is_blocked: opt(z.boolean()),
  type: opt(z.string()),
  allowed_values: opt(z.array(z.string())),
  /**
   * Not in the spec; our service sends it: the cell this (blocked) formula cell shows, `'START HERE'!C19`,
   * when the questionnaire repeats a question from another place. The question is answered there.
   */
  mirror_of: opt(z.string()),
});

export const SlotResponse = z.looseObject({
  slot_key: z.string(),
  content: z.string(),
  translations: opt(z.record(z.string(), z.unknown())),
  is_manually_edited: opt(z.boolean()),
  edited_by: opt(z.string()),
});

export const SourceEvidence = z.looseObject({
  id: int(),
  type: z.string(),
  content: z.string(),
  filename: z.string(),
  file_id: int(),
  page_number: int(),
  section_path: opt(z.array(z.string())),
  tab_name: z.string(),
  relevance_score: z.number(),
  rank: int(),
  created_at: timestamp,
  passage_id: optNul(int()),
  data_id: optNul(int()),
  question_id: optNul(int()),
  qna_id: optNul(int()),
  context_header: opt(z.string()),
  question_text: opt(z.string()),
  source_location: opt(z.string()),
  source_url: opt(z.string()),
  context: opt(int()),
  /** Extension: the other organisation whose document this is. */
  third_party: opt(z.string()),
});

export const TRUST_LEVELS = ['high', 'medium', 'low'] as const;
export const TrustLevel = z.enum(TRUST_LEVELS);

/**
 * `evaluation` is "type: not shown" in the spec. This is the shape our service sends; the client
 * accepts anything there and reads it through `readEvaluation`. Our service may add:
 * `conflict: {slot_key, rule: 'same_offering'|'most_recent'|'majority'|null, sides}` when past answers
 * disagree, `alternatives: [{value, slot_key, slot_responses, source_file, file_id, questionnaire,
 * question, location, chosen}]` (one per side), `third_party: string[]` (other organisations cited) and
 * `contradicts: {where, value}` (another answer in the same workbook). Source evidence may carry `third_party`.
 */
export const Evaluation = z.looseObject({
  score: z.number().check(z.gte(0), z.lte(100)),
  trust: TrustLevel,
  reason: z.string(),
  method: opt(z.string()),
});

export const Answer = z.looseObject({
  id: opt(int()),
  text: z.string(),
  evaluation: opt(z.unknown()),
  facts_summary: opt(z.unknown()),
  slot_responses: opt(z.array(SlotResponse)),
  status: opt(AnswerStatus),
  created_at: opt(timestamp),
  updated_at: opt(timestamp),
  source_evidence: opt(z.array(SourceEvidence)),
  /** Not in the spec: how the answer was produced (e.g. extracted, generated); our service sends it. */
  method: opt(z.string()),
});

export const AssignedUser = z.looseObject({
  id: int(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
});

export const QuestionWithAnswers = z.looseObject({
  id: int(),
  original_id: optNul(z.string()),
  original_question_text: z.string(),
  answer_slots: opt(z.array(AnswerSlot)),
  tab_name: z.string(),
  section_path: opt(z.array(z.string())),
  order: opt(int()),
  needs_filling: opt(z.boolean()),
  selected_answer_id: optNul(int()),
  flagged_for_review: opt(z.boolean()),
  security_control: optNul(z.string()),
  category: optNul(z.string()),
  translations: opt(z.record(z.string(), z.unknown())),
  assigned_users: opt(z.array(AssignedUser)),
  answers: z.array(Answer),
  comment_count: opt(int()),
  unread_comment_count: opt(int()),
  mentions_me: opt(z.boolean()),
  // Not in the spec; our service sends them so the task pane can find a question from any cell of its row.
  /** 1-based sheet row of the question. */
  row: opt(int()),
  /** A1 address of the cell holding the question text (may carry its sheet: "'Tab 1'!B7"). */
  question_coordinate: opt(z.string()),
});

// ---- 2.12 Structure ----------------------------------------------------------------------------
export const QUICK_FILTER_KEYS = [
  'trustLow',
  'trustMedium',
  'trustHigh',
  'approved',
  'notApproved',
  'scoreLow',
  'scoreMedium',
  'scoreHigh',
  'needsReview',
  'lowCoverage',
] as const;
export const GROUP_FILTER_KEYS = ['approved', 'not_approved', 'needs_review', 'low_trust'] as const;

export const StructureTab = z.looseObject({
  tab_name: z.string(),
  question_count: int(),
  needs_filling_count: int(),
});

export const StructureGroup = z.looseObject({
  tab_name: z.string(),
  section_path: opt(z.array(z.string())),
  question_count: int(),
  needs_filling_count: int(),
  answer_slots: z.array(AnswerSlot),
  display_order: int(),
  filter_counts: z.record(z.string(), int()),
});

export const Structure = z.looseObject({
  tabs: z.array(StructureTab),
  groups: z.array(StructureGroup),
  total_question_count: int(),
  total_needs_filling_count: int(),
  quick_filter_counts: z.record(z.string(), int()),
  avg_score: z.int().check(z.gte(0), z.lte(100)),
});

// ---- 2.13 / 2.14 / 2.15 ------------------------------------------------------------------------
export const Progress = z.looseObject({
  status: ProgressStatus,
  answers_expected: int(),
  answers_received: int(),
  percent: int(),
});

/**
 * Extensions to v2 (not in the spec): `GET /extensions/` lists what a service offers beyond the interface,
 * e.g. "repository.delete" for `DELETE /repository/files/{id}/`. A v2 service without it answers 404.
 */
export const ServiceExtensions = z.looseObject({ extensions: z.array(z.string()) });
export const EXTENSION = {
  repositoryDelete: 'repository.delete',
  offeringsList: 'offerings.list',
  organisationNames: 'organisation.names',
  keysCurrent: 'keys.current',
  /** The answer library kept by analysts: ./library.ts. */
  answersLibrary: 'answers.library',
  /** The answer library replayed on past questionnaires, and its gaps: ./replay.ts. */
  answersReplay: 'answers.replay',
} as const;
/** Extension "keys.current": `GET /keys/current/`, whose key this is, so people see which organisation they work in. */
export const KeyIdentity = z.looseObject({
  organization: z.looseObject({ id: int(), name: z.string() }),
  user: z.looseObject({ id: int(), name: z.string(), role: z.string() }),
  read_only: z.boolean(),
});
/** Extension "organisation.names": `GET`/`PUT /organisation/names/`, the names that make a document the organisation's own. */
export const OrganisationNames = z.looseObject({ names: z.array(z.string()) });
/** Extension "offerings.list": `GET /offerings/`, the organisation's offerings, so people pick them by name. */
export const OfferingList = z.looseObject({ results: z.array(Offering) });
export const DeletedRepositoryFile = z.looseObject({ id: int(), deleted: z.boolean() });

export const RepositoryUploadResult = z.looseObject({
  count: int(),
  failed: opt(z.array(z.string())),
});

export const QuestionnaireUploadResult = z.looseObject({
  file_ids: z.array(int()),
  questionnaire_ids: z.array(int()),
});

export function paginated<T extends z.ZodMiniType>(item: T) {
  return z.looseObject({
    count: int(),
    next: nul(z.string()),
    previous: nul(z.string()),
    results: z.array(item),
  });
}

export const ErrorBody = z.strictObject({ error: z.string() });

// ---- Query and multipart parameters (4.2, 4.6, 4.7, 4.10, 4.12, 4.13) --------------------------

export const SessionListQuery = z.strictObject({
  page: opt(z.pipe(z.coerce.number(), z.int().check(z.gte(1)))),
  page_size: opt(z.pipe(z.coerce.number(), z.int().check(z.gte(1), z.lte(LIMITS.pageSizeMax)))),
  search: opt(maxStr(200)),
});

export const QuestionnaireListQuery = z.strictObject({
  team_id: opt(queryPositiveInt()),
  visibility: opt(Visibility),
});

export const AnswersQuery = z.strictObject({
  tab: opt(z.string()),
  section: opt(z.string()),
});

export const RepositoryListQuery = z.strictObject({
  document_type: opt(DocumentType),
  ordering: opt(z.enum([...REPOSITORY_ORDERING_FIELDS, ...REPOSITORY_ORDERING_FIELDS.map((f) => `-${f}` as const)])),
  page: opt(z.pipe(z.coerce.number(), z.int().check(z.gte(1)))),
  page_size: opt(z.pipe(z.coerce.number(), z.int().check(z.gte(1), z.lte(LIMITS.pageSizeMax)))),
  search: opt(maxStr(200)),
  status: opt(RepositoryFileStatus),
});

/** Non-file fields of POST /filler/questionnaires/ (4.7), after multipart parsing. */
export const QuestionnaireUploadFields = z.strictObject({
  client: opt(maxStr(LIMITS.clientLength)),
  document_type: opt(DocumentType),
  visibility: opt(Visibility),
  team_id: opt(queryPositiveInt()),
  reviewer_ids: opt(list(queryPositiveInt())),
  advanced_options: opt(z.record(z.string(), z.unknown())),
  /**
   * Not in the spec: when past answers in the library disagree, take the most recently
   * uploaded questionnaire's answer. Stored as `advanced_options.prefer_recent`.
   */
  prefer_recent: opt(z.boolean()),
});

/** Non-file fields of POST /repository/files/ (4.13), after multipart parsing. */
export const RepositoryUploadFields = z.strictObject({
  tags: opt(list(z.string().check(z.trim(), z.minLength(1), z.maxLength(LIMITS.tagNameLength)))),
  analysis_type: opt(maxStr(50)),
  relevant_offerings: opt(list(queryPositiveInt())),
  scope_includes_company: opt(z.boolean()),
});

// ---- Inferred types ----------------------------------------------------------------------------
export type AskRequest = z.infer<typeof AskRequest>;
export type AskSource = z.infer<typeof AskSource>;
export type AskResponse = z.infer<typeof AskResponse>;
export type ChatSource = z.infer<typeof ChatSource>;
export type ChatMessage = z.infer<typeof ChatMessage>;
export type ChatSession = z.infer<typeof ChatSession>;
export type CreateSessionRequest = z.infer<typeof CreateSessionRequest>;
export type SendMessageRequest = z.infer<typeof SendMessageRequest>;
export type Tag = z.infer<typeof Tag>;
export type Offering = z.infer<typeof Offering>;
export type RepositoryFile = z.infer<typeof RepositoryFile>;
export type Questionnaire = z.infer<typeof Questionnaire>;
export type AnswerSlot = z.infer<typeof AnswerSlot>;
export type SlotResponse = z.infer<typeof SlotResponse>;
export type SourceEvidence = z.infer<typeof SourceEvidence>;
export type TrustLevel = z.infer<typeof TrustLevel>;
export type Evaluation = z.infer<typeof Evaluation>;
export type Answer = z.infer<typeof Answer>;
export type QuestionWithAnswers = z.infer<typeof QuestionWithAnswers>;
export type Structure = z.infer<typeof Structure>;
export type StructureGroup = z.infer<typeof StructureGroup>;
export type Progress = z.infer<typeof Progress>;
export type RepositoryUploadResult = z.infer<typeof RepositoryUploadResult>;
export type ServiceExtensions = z.infer<typeof ServiceExtensions>;
export type KeyIdentity = z.infer<typeof KeyIdentity>;
export type OfferingList = z.infer<typeof OfferingList>;
export type OrganisationNames = z.infer<typeof OrganisationNames>;
export type DeletedRepositoryFile = z.infer<typeof DeletedRepositoryFile>;
export type QuestionnaireUploadResult = z.infer<typeof QuestionnaireUploadResult>;
export type Paginated<T> = { count: number; next: string | null; previous: string | null; results: T[] };
export type SessionListQuery = z.infer<typeof SessionListQuery>;
export type QuestionnaireListQuery = z.infer<typeof QuestionnaireListQuery>;
export type AnswersQuery = z.infer<typeof AnswersQuery>;
export type RepositoryListQuery = z.infer<typeof RepositoryListQuery>;
export type QuestionnaireUploadFields = z.infer<typeof QuestionnaireUploadFields>;
export type RepositoryUploadFields = z.infer<typeof RepositoryUploadFields>;
export type DocumentType = z.infer<typeof DocumentType>;
export type FileFormat = z.infer<typeof FileFormat>;

/** Reads the untyped `evaluation` of an answer; null when a server sends something else. */
export function readEvaluation(value: unknown): Evaluation | null {
  const parsed = Evaluation.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** First failing field of a zod error as "field.path: message", for `{"error": ...}` bodies. */
export function describeIssue(error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid input';
  const path = issue.path.map(String).join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}
