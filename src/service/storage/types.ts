/**
 * The storage boundary of the service: plain records and narrow repository interfaces, all async.
 * Routes and jobs only see these; the implementations are ./sqlite (embedded default) and ./postgres
 * (several processes on one database), sharing the portable SQL of ./sql.
 * Every read that takes an `orgId` returns nothing for rows of another organisation.
 */
import type { DocumentType, FileFormat, Evaluation } from '../../api/schemas';
import type { DetectedQuestion } from '../detect/types';
import type { LibraryRepository } from './library';
import type { ReplayRepository } from './replays';

export type Role = 'admin' | 'repository_manager' | 'member';
export type License = 'active' | 'inactive';
export type FileStatus = 'submitted' | 'processing' | 'ready' | 'failed';
export type GenerationStatus = 'idle' | 'generating' | 'complete';
export type QuestionnaireApproval = 'ready' | 'draft' | 'in_review' | 'approved';

export interface OrgRecord {
  id: number;
  name: string;
  license: License;
  quota_per_minute: number | null;
  upload_requires_manager: boolean;
}

export interface UserRecord {
  id: number;
  org_id: number;
  username: string;
  first_name: string;
  last_name: string;
  email: string;
  role: Role;
}

/** Who is calling: resolved from an API key. */
export interface Principal {
  key_id: number;
  read_only: boolean;
  user: UserRecord;
  org: OrgRecord;
  team_ids: number[];
}

export interface TeamRecord {
  id: number;
  name: string;
}

export interface OfferingRecord {
  id: number;
  name: string;
  type: 'service' | 'product' | 'module';
}

export interface TagRecord {
  id: number;
  name: string;
}

/** What an uploaded file is from the moment it is stored. */
interface StoredFile {
  org_id: number;
  user_id: number;
  purpose: 'repository' | 'questionnaire';
  original_filename: string;
  stored_name: string;
  size: number;
  /** Of the bytes: an upload already in the library adds no evidence. */
  sha256: string;
  file_format: FileFormat;
  document_type: DocumentType;
}

export interface FileRecord extends StoredFile {
  id: number;
  user_display: string;
  status: FileStatus;
  processing_stage: string;
  processing_percent: number;
  error: string | null;
  analysis_type: string | null;
  scope_includes_company: boolean;
  use_as_source: boolean;
  passage_count: number;
  qa_count: number;
  data_count: number;
  total_embeddings: number;
  created_at: string;
  updated_at: string;
  tags: TagRecord[];
  offerings: OfferingRecord[];
}

export interface NewFile extends StoredFile {
  analysis_type?: string | null;
  scope_includes_company?: boolean;
  tag_names?: string[];
  offering_ids?: number[];
}

export interface FileProgress {
  status?: FileStatus;
  processing_stage?: string;
  processing_percent?: number;
  error?: string | null;
  file_format?: FileFormat;
  document_type?: DocumentType;
  passage_count?: number;
  qa_count?: number;
  total_embeddings?: number;
}

export interface FileListQuery {
  purpose: 'repository' | 'questionnaire';
  document_type?: string;
  status?: string;
  search?: string;
  /** Field name, `-` prefix for descending. */
  ordering?: string;
  limit: number;
  offset: number;
}

export interface FileRepository {
  create(file: NewFile): Promise<FileRecord>;
  get(orgId: number, id: number): Promise<FileRecord | null>;
  /** For background jobs, which act for no particular caller. */
  getAny(id: number): Promise<FileRecord | null>;
  list(orgId: number, q: FileListQuery): Promise<{ count: number; rows: FileRecord[] }>;
  update(id: number, change: FileProgress): Promise<void>;
  /** Deletes the record (its tags and offerings links go with it); false when the org has no such file. */
  remove(orgId: number, id: number): Promise<boolean>;
}

export interface OrgRepository {
  findByName(name: string): Promise<OrgRecord | null>;
  /** Every organisation, by id. */
  list(): Promise<OrgRecord[]>;
  get(id: number): Promise<OrgRecord | null>;
  upsert(name: string, change: Partial<Omit<OrgRecord, 'id' | 'name'>>): Promise<OrgRecord>;
}

export interface UserRepository {
  findByUsername(orgId: number, username: string): Promise<UserRecord | null>;
  get(orgId: number, id: number): Promise<UserRecord | null>;
  upsert(orgId: number, username: string, change: Partial<Omit<UserRecord, 'id' | 'org_id' | 'username'>>): Promise<UserRecord>;
}

export interface ApiKeyRepository {
  create(userId: number, keyHash: string, prefix: string, opts: { readOnly: boolean; name: string }): Promise<number>;
  /** The caller behind a key hash, or null when no such key exists. */
  resolve(keyHash: string): Promise<Principal | null>;
}

export interface TeamRepository {
  upsert(orgId: number, name: string): Promise<TeamRecord>;
  get(orgId: number, id: number): Promise<TeamRecord | null>;
  addMember(teamId: number, userId: number): Promise<void>;
  isMember(teamId: number, userId: number): Promise<boolean>;
}

export interface OfferingRepository {
  upsert(orgId: number, name: string, type: OfferingRecord['type']): Promise<OfferingRecord>;
  /** Those of `ids` that exist in the organisation. */
  getMany(orgId: number, ids: number[]): Promise<OfferingRecord[]>;
  /** All of the organisation's offerings, by name. */
  list(orgId: number): Promise<OfferingRecord[]>;
}

export interface SourceRecord {
  id: number;
  type: string;
  relevance_score: number;
  content: string;
  source_file: string;
  file_id: number | null;
  page_number: number;
  context_header: string;
  source_url: string;
}

export interface MessageRecord {
  id: number;
  session_id: number;
  sender: 'user' | 'assistant';
  content: string;
  is_edited: boolean;
  metadata: unknown;
  created_at: string;
  sources: SourceRecord[];
}

export interface SessionRecord {
  id: number;
  org_id: number;
  user_id: number;
  title: string;
  title_is_set: boolean;
  is_archived: boolean;
  created_at: string;
  updated_at: string;
  message_count: number;
  last_message: MessageRecord | null;
}

export interface NewMessage {
  sender: 'user' | 'assistant';
  content: string;
  metadata?: unknown;
  sources?: Omit<SourceRecord, 'id'>[];
}

export interface SessionRepository {
  create(orgId: number, userId: number, opts: { title?: string; is_archived?: boolean }): Promise<SessionRecord>;
  /** A session of this user in this organisation, or null. */
  get(orgId: number, userId: number, id: number): Promise<SessionRecord | null>;
  list(
    orgId: number,
    userId: number,
    q: { search?: string; limit: number; offset: number },
  ): Promise<{
    count: number;
    rows: SessionRecord[];
  }>;
  messages(sessionId: number): Promise<MessageRecord[]>;
  addMessages(sessionId: number, messages: NewMessage[]): Promise<void>;
  /** Sets the title unless one was set by the user or generated earlier. */
  setGeneratedTitle(sessionId: number, title: string): Promise<void>;
}

export interface QuestionnaireRecord {
  id: number;
  org_id: number;
  user_id: number;
  owner: UserRecord;
  file: FileRecord;
  client: string | null;
  document_type: string;
  status: QuestionnaireApproval;
  visibility: 'organization' | 'team';
  team: TeamRecord | null;
  generation_status: GenerationStatus;
  detected_language: string;
  language_override: string | null;
  scope_includes_company: boolean;
  advanced_options: Record<string, unknown>;
  warnings: string[];
  reviewers: UserRecord[];
  offerings: OfferingRecord[];
  submitted_for_review_at: string | null;
  approved_at: string | null;
  created_at: string;
  updated_at: string;
  question_count: number;
  answered_count: number;
  approved_count: number;
}

/** What a stored question keeps of the detector's output; the detected text is stored as `text`. */
export type DetectedQuestionFields = Pick<
  DetectedQuestion,
  'original_id' | 'tab_name' | 'section_path' | 'order' | 'row' | 'question_coordinate' | 'block' | 'answer_slots'
>;

export interface NewQuestion extends DetectedQuestionFields {
  text: string;
  needs_filling: boolean;
}

export interface NewQuestionnaire {
  org_id: number;
  user_id: number;
  file_id: number;
  client: string | null;
  document_type: string;
  visibility: 'organization' | 'team';
  team_id: number | null;
  detected_language: string;
  language_override: string | null;
  advanced_options: Record<string, unknown>;
  warnings: string[];
  reviewer_ids: number[];
  offering_ids: number[];
  questions: NewQuestion[];
}

export interface EvidenceRecord {
  id: number;
  type: string;
  content: string;
  filename: string;
  file_id: number;
  page_number: number;
  section_path: string[];
  tab_name: string;
  relevance_score: number;
  rank: number;
  passage_id: number | null;
  qna_id: number | null;
  context_header: string;
  question_text: string | null;
  source_location: string | null;
  created_at: string;
}

export interface AnswerRecord {
  id: number;
  question_id: number;
  text: string;
  evaluation: Evaluation | null;
  facts_summary: unknown;
  slot_responses: { slot_key: string; content: string }[];
  status: 'draft' | 'approved';
  method: string;
  created_at: string;
  updated_at: string;
  evidence: EvidenceRecord[];
}

export interface QuestionRecord extends NewQuestion {
  id: number;
  questionnaire_id: number;
  flagged_for_review: boolean;
  selected_answer_id: number | null;
  security_control: string | null;
  category: string | null;
  answers: AnswerRecord[];
}

export interface NewAnswer {
  text: string;
  evaluation: Evaluation;
  slot_responses: { slot_key: string; content: string }[];
  method: string;
  flagged_for_review: boolean;
  evidence: Omit<EvidenceRecord, 'id' | 'created_at'>[];
}

export interface QuestionnaireRepository {
  create(q: NewQuestionnaire): Promise<QuestionnaireRecord>;
  get(orgId: number, id: number): Promise<QuestionnaireRecord | null>;
  getAny(id: number): Promise<QuestionnaireRecord | null>;
  list(orgId: number, filter: { team_id?: number; visibility?: string }): Promise<QuestionnaireRecord[]>;
  setGenerationStatus(id: number, status: GenerationStatus): Promise<void>;
  setStatus(id: number, status: QuestionnaireApproval): Promise<void>;
  /** Questions in reading order, with their answers (unless `withAnswers` is false) and evidence (unless `withEvidence` is false). */
  questions(questionnaireId: number, opts?: { withAnswers?: boolean; withEvidence?: boolean }): Promise<QuestionRecord[]>;
  /** Ids of questions that have no answer yet, in reading order: what generation still has to do. */
  unansweredQuestionIds(questionnaireId: number): Promise<number[]>;
  question(id: number): Promise<QuestionRecord | null>;
  /** Stores an answer and selects it, atomically. */
  addAnswer(questionId: number, answer: NewAnswer): Promise<number>;
}

/**
 * The persisted job queue. A job is claimed by one worker at a time under a lease its worker renews
 * (`heartbeat`); a job whose lease ran out (its process died) can be claimed again by another worker.
 */
export type JobState = 'queued' | 'running' | 'done' | 'failed';

export interface Job {
  id: number;
  kind: string;
  payload: Record<string, unknown>;
  state: JobState;
  attempts: number;
  last_error: string | null;
}

export interface JobQueue {
  enqueue(kind: string, payload: Record<string, unknown>): Promise<number>;
  /**
   * Marks the oldest claimable job of `kind` running under this queue's lease (attempts + 1) and returns
   * it, or null. Claimable: queued, or running under a lease that expired.
   */
  claim(kind: string): Promise<Job | null>;
  /** Extends the lease of a job this queue holds; false when the job is no longer ours (taken over). */
  heartbeat(id: number): Promise<boolean>;
  complete(id: number): Promise<void>;
  /** Back to `queued` (to retry or resume later) or `failed` for good. */
  release(id: number, outcome: { state: 'queued' | 'failed'; error?: string }): Promise<void>;
  /** Puts every `running` job back to `queued`; returns how many. Only for the holder of a WorkerLease. */
  requeueRunning(): Promise<number>;
  /** Puts back the jobs an earlier run of this service instance held when it stopped; returns how many. */
  requeueOwn?(): Promise<number>;
  get(id: number): Promise<Job | null>;
  /** How many jobs there are of each kind in each state (for metrics). */
  counts(): Promise<{ kind: string; state: string; count: number }[]>;
}

/**
 * The right to run the background jobs of one SQLite data folder. Only its holder claims jobs and, when
 * it takes the lease over, puts jobs left `running` by a dead holder back in the queue; a second service
 * process on the same folder serves requests and stands by. (PostgreSQL needs none: its jobs carry their
 * own lease and every process works.)
 */
export interface WorkerLease {
  /** Takes or renews the lease; false while another live process holds it. */
  tryAcquire(): Promise<boolean>;
  release(): Promise<void>;
  /** Who holds it, for the message a standby process prints. */
  holder(): Promise<string | null>;
}

export interface QuotaDecision {
  allowed: boolean;
  retryAfterSeconds: number;
}

/** Per-organisation requests per minute, counted where every service process sees the same count. */
export interface RateLimiter {
  hit(orgId: number, perMinute: number): Promise<QuotaDecision>;
}

/** The repositories, as seen inside and outside a unit of work. */
export interface Repositories {
  orgs: OrgRepository;
  users: UserRepository;
  keys: ApiKeyRepository;
  teams: TeamRepository;
  offerings: OfferingRepository;
  files: FileRepository;
  sessions: SessionRepository;
  questionnaires: QuestionnaireRepository;
  /** The answer library's entries and decisions (over the knowledge index's tables, ./library.ts). */
  library: LibraryRepository;
  /** Replay runs of the answer library (./replays.ts). */
  replays: ReplayRepository;
}

/** What a unit of work sees: every repository and the job queue, all in one transaction. */
export interface UnitOfWork extends Repositories {
  jobs: Pick<JobQueue, 'enqueue'>;
}

export interface Store extends Repositories {
  /** Which backend, for messages and tests ("sqlite" or "postgres"). */
  readonly backend: 'sqlite' | 'postgres';
  jobs: JobQueue;
  quota: RateLimiter;
  /** The single-holder lease the SQLite queue needs; null on PostgreSQL, where every process works. */
  workerLease: WorkerLease | null;
  /**
   * Runs `fn` in one transaction: everything it writes, jobs enqueued included, is committed together
   * or not at all. Do other I/O (file bytes, extraction, HTTP) before or after, never inside: on SQLite
   * the callback may only await the `tx` it is given (see sqlite/executor.ts).
   */
  unitOfWork<T>(fn: (tx: UnitOfWork) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
