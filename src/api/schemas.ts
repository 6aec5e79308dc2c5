/**
 * The v2 contract (../shared/spec/interface-v2.md) as runtime schemas: the single source of truth.
 * The client validates responses with them; the local service validates requests with them and its
 * tests check responses against them. Types are inferred from the schemas so they cannot drift.
 *
 * Response objects are "loose" (unknown keys kept) so a newer server that adds fields still validates;
 * request schemas are strict so a typo in a field name is a 400, not a silently ignored option.
 */
import { z } from 'zod';

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
const int = z.number().int();

// ---- 2.1 / 2.2 Ask -----------------------------------------------------------------------------
export const AskRequest = z.strictObject({
  question: z.string().trim().min(1, 'question must not be empty').max(LIMITS.questionLength),
  session_id: int.positive().optional(),
  file_id: int.positive().optional(),
  offering_ids: z.array(int.positive()).optional(),
});

/** Spec shows filename/page_number/content; the rest mirrors a chat source (2.5). */
export const AskSource = z.looseObject({
  filename: z.string(),
  page_number: int,
  content: z.string(),
  id: int.optional(),
  type: z.string().optional(),
  relevance_score: z.number().optional(),
  source_file: z.string().optional(),
  context_header: z.string().optional(),
  source_url: z.string().optional(),
  file_id: int.optional(),
});

export const AskResponse = z.looseObject({
  answer: z.string(),
  sources: z.array(AskSource),
  session_id: int.nullable(),
});

// ---- 2.3 - 2.6 Chat ----------------------------------------------------------------------------
export const ChatSource = z.looseObject({
  id: int,
  type: z.string(),
  relevance_score: z.number(),
  content: z.string(),
  source_file: z.string(),
  page_number: int,
  context_header: z.string(),
  source_url: z.string(),
});

export const ChatMessage = z.looseObject({
  id: int,
  sender: Sender,
  content: z.string(),
  created_at: timestamp,
  is_edited: z.boolean(),
  metadata: z.unknown().nullable().optional(),
  sources: z.array(ChatSource),
});

export const ChatSession = z.looseObject({
  id: int,
  title: z.string().max(LIMITS.sessionTitleLength),
  created_at: timestamp,
  updated_at: timestamp,
  is_archived: z.boolean(),
  message_count: int,
  last_message: z.unknown().nullable().optional(),
  messages: z.array(ChatMessage).optional(),
});

export const CreateSessionRequest = z.strictObject({
  title: z.string().trim().min(1, 'title must not be empty').max(LIMITS.sessionTitleLength).optional(),
  is_archived: z.boolean().optional(),
});

export const SendMessageRequest = z.strictObject({
  message: z.string().trim().min(1, 'message must not be empty').max(LIMITS.messageLength),
  file_id: int.positive().nullable().optional(),
  context: z.string().max(LIMITS.contextLength).optional(),
  offering_ids: z.array(int.positive()).optional(),
});

// ---- 2.7 / 2.8 Repository ----------------------------------------------------------------------
export const Tag = z.looseObject({ id: int, name: z.string().min(1).max(LIMITS.tagNameLength) });

export const Offering = z.looseObject({
  id: int,
  name: z.string().max(LIMITS.offeringNameLength),
  type: OfferingType,
});

export const RepositoryFile = z.looseObject({
  id: int,
  original_filename: z.string().max(LIMITS.filenameLength).nullable(),
  status: RepositoryFileStatus,
  status_display: z.string().optional(),
  processing_stage: z.string().max(LIMITS.processingStageLength).optional(),
  processing_percent: int.min(-32768).max(32767).optional(),
  document_type: DocumentType.optional(),
  file_format: FileFormat.optional(),
  source_provider: z.string().max(LIMITS.sourceProviderLength).nullable().optional(),
  created_at: timestamp.optional(),
  tags: z.array(Tag).optional(),
  relevant_offerings: z.array(Offering).optional(),
  scope_includes_company: z.boolean().optional(),
  use_as_source: z.boolean().optional(),
  url: z.string().max(LIMITS.urlLength).nullable().optional(),
  user: z.string().optional(),
  qa_count: int.optional(),
  data_count: int.optional(),
  passage_count: int.optional(),
  total_embeddings: int.optional(),
  is_reprocessable: z.boolean().optional(),
  /** Not in the spec: why processing failed, so a person can act on it. */
  error: z.string().nullable().optional(),
});

// ---- 2.9 Questionnaire -------------------------------------------------------------------------
export const QuestionnaireFileRef = z.looseObject({
  id: int,
  original_filename: z.string(),
  file_format: z.string(),
  status: z.string(),
  created_at: timestamp,
});

export const Team = z.looseObject({ id: int, name: z.string() });

export const Questionnaire = z.looseObject({
  id: int,
  file: QuestionnaireFileRef,
  file_name: z.string().optional(),
  client: z.string().max(LIMITS.clientLength).nullable().optional(),
  status: QuestionnaireStatus,
  status_display: z.string().optional(),
  visibility: Visibility.optional(),
  user: z.string().optional(),
  answers_count: int.optional(),
  approved_count: int.optional(),
  submitted_for_review_at: timestamp.nullable().optional(),
  approved_at: timestamp.nullable().optional(),
  owner: z.string().optional(),
  reviewers: z.array(z.string()).optional(),
  contributors: z.array(z.string()).optional(),
  my_role: z.string().optional(),
  permissions: z.record(z.string(), z.unknown()).optional(),
  stats: z.record(z.string(), z.unknown()).optional(),
  teams: z.array(Team).optional(),
  my_teams: z.unknown().optional(),
  relevant_offerings: z.array(Offering).optional(),
  scope_includes_company: z.boolean().optional(),
  detected_language: z.string().optional(),
  effective_language: z.string().optional(),
  can_access: z.boolean().optional(),
  can_edit: z.boolean().optional(),
  can_approve: z.boolean().optional(),
  can_assign: z.boolean().optional(),
});

// ---- 2.10 / 2.11 Questions, answers, slots -----------------------------------------------------
export const AnswerSlot = z.looseObject({
  role: z.string(),
  header: z.string(),
  coordinate: z.string(),
  value: z.string().nullable().optional(),
  is_blocked: z.boolean().optional(),
  type: z.string().optional(),
  allowed_values: z.array(z.string()).optional(),
});

export const SlotResponse = z.looseObject({
  slot_key: z.string(),
  content: z.string(),
  translations: z.record(z.string(), z.unknown()).optional(),
  is_manually_edited: z.boolean().optional(),
  edited_by: z.string().optional(),
});

export const SourceEvidence = z.looseObject({
  id: int,
  type: z.string(),
  content: z.string(),
  filename: z.string(),
  file_id: int,
  page_number: int,
  section_path: z.array(z.string()).optional(),
  tab_name: z.string(),
  relevance_score: z.number(),
  rank: int,
  created_at: timestamp,
  passage_id: int.nullable().optional(),
  data_id: int.nullable().optional(),
  question_id: int.nullable().optional(),
  qna_id: int.nullable().optional(),
  context_header: z.string().optional(),
  question_text: z.string().optional(),
  source_location: z.string().optional(),
  source_url: z.string().optional(),
  context: int.optional(),
});

export const TRUST_LEVELS = ['high', 'medium', 'low'] as const;
export const TrustLevel = z.enum(TRUST_LEVELS);

/**
 * `evaluation` is "type: not shown" in the spec. This is the shape our service sends; the client
 * accepts anything there and reads it through `readEvaluation`.
 */
export const Evaluation = z.looseObject({
  score: z.number().min(0).max(100),
  trust: TrustLevel,
  reason: z.string(),
  method: z.string().optional(),
});

export const Answer = z.looseObject({
  id: int.optional(),
  text: z.string(),
  evaluation: z.unknown().optional(),
  facts_summary: z.unknown().optional(),
  slot_responses: z.array(SlotResponse).optional(),
  status: AnswerStatus.optional(),
  created_at: timestamp.optional(),
  updated_at: timestamp.optional(),
  source_evidence: z.array(SourceEvidence).optional(),
});

export const AssignedUser = z.looseObject({
  id: int,
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
});

export const QuestionWithAnswers = z.looseObject({
  id: int,
  original_id: z.string().nullable().optional(),
  original_question_text: z.string(),
  answer_slots: z.array(AnswerSlot).optional(),
  tab_name: z.string(),
  section_path: z.array(z.string()).optional(),
  order: int.optional(),
  needs_filling: z.boolean().optional(),
  selected_answer_id: int.nullable().optional(),
  flagged_for_review: z.boolean().optional(),
  security_control: z.string().nullable().optional(),
  category: z.string().nullable().optional(),
  translations: z.record(z.string(), z.unknown()).optional(),
  assigned_users: z.array(AssignedUser).optional(),
  answers: z.array(Answer),
  comment_count: int.optional(),
  unread_comment_count: int.optional(),
  mentions_me: z.boolean().optional(),
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
  question_count: int,
  needs_filling_count: int,
});

export const StructureGroup = z.looseObject({
  tab_name: z.string(),
  section_path: z.array(z.string()).optional(),
  question_count: int,
  needs_filling_count: int,
  answer_slots: z.array(AnswerSlot),
  display_order: int,
  filter_counts: z.record(z.string(), int),
});

export const Structure = z.looseObject({
  tabs: z.array(StructureTab),
  groups: z.array(StructureGroup),
  total_question_count: int,
  total_needs_filling_count: int,
  quick_filter_counts: z.record(z.string(), int),
  avg_score: int.min(0).max(100),
});

// ---- 2.13 / 2.14 / 2.15 ------------------------------------------------------------------------
export const Progress = z.looseObject({
  status: ProgressStatus,
  answers_expected: int,
  answers_received: int,
  percent: int,
});

export const RepositoryUploadResult = z.looseObject({
  count: int,
  failed: z.array(z.string()).optional(),
});

export const QuestionnaireUploadResult = z.looseObject({
  file_ids: z.array(int),
  questionnaire_ids: z.array(int),
});

export function paginated<T extends z.ZodType>(item: T) {
  return z.looseObject({
    count: int,
    next: z.string().nullable(),
    previous: z.string().nullable(),
    results: z.array(item),
  });
}

export const ErrorBody = z.strictObject({ error: z.string() });

// ---- Query and multipart parameters (4.2, 4.6, 4.7, 4.10, 4.12, 4.13) --------------------------
const queryInt = z.coerce.number().int();

export const SessionListQuery = z.strictObject({
  page: queryInt.min(1).optional(),
  page_size: queryInt.min(1).max(LIMITS.pageSizeMax).optional(),
  search: z.string().max(200).optional(),
});

export const QuestionnaireListQuery = z.strictObject({
  team_id: queryInt.positive().optional(),
  visibility: Visibility.optional(),
});

export const AnswersQuery = z.strictObject({
  tab: z.string().optional(),
  section: z.string().optional(),
});

export const RepositoryListQuery = z.strictObject({
  document_type: DocumentType.optional(),
  ordering: z
    .enum([...REPOSITORY_ORDERING_FIELDS, ...REPOSITORY_ORDERING_FIELDS.map((f) => `-${f}` as const)])
    .optional(),
  page: queryInt.min(1).optional(),
  page_size: queryInt.min(1).max(LIMITS.pageSizeMax).optional(),
  search: z.string().max(200).optional(),
  status: RepositoryFileStatus.optional(),
});

/** Non-file fields of POST /filler/questionnaires/ (4.7), after multipart parsing. */
export const QuestionnaireUploadFields = z.strictObject({
  client: z.string().max(LIMITS.clientLength).optional(),
  document_type: DocumentType.optional(),
  visibility: Visibility.optional(),
  team_id: queryInt.positive().optional(),
  reviewer_ids: z.array(queryInt.positive()).optional(),
  advanced_options: z.record(z.string(), z.unknown()).optional(),
});

/** Non-file fields of POST /repository/files/ (4.13), after multipart parsing. */
export const RepositoryUploadFields = z.strictObject({
  tags: z.array(z.string().trim().min(1).max(LIMITS.tagNameLength)).optional(),
  analysis_type: z.string().max(50).optional(),
  relevant_offerings: z.array(queryInt.positive()).optional(),
  scope_includes_company: z.boolean().optional(),
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
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid input';
  const path = issue.path.join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}
