/**
 * What routes and jobs are given: storage, the job queue, file bytes, and the knowledge and detection
 * functions. Narrow interfaces so each part can be replaced (PostgreSQL storage, another retriever).
 */
import type { ServiceMetrics } from './metrics';
import type { DetectedQuestionnaire } from './detect/types';
import type { BlobStore } from './files/blobstore';
import type { FileSource } from './files/source';
import type { TokenBudget } from './llm/budget';
import type { Meter } from './llm/client';
import type { PendingAnswer, PreparedAnswer } from './knowledge/knowledge-base';
import type {
  AnsweringEngine,
  AnswerOptions,
  AnswerResult,
  ChatAnswer,
  ChatTurn,
  ExtractedDocument,
  FileMeta,
  QuestionInput,
  ReadDocument,
  SearchFilters,
} from './knowledge/types';
import type { FileDates } from './storage/knowledge-index';
import type { Store } from './storage/types';

/** The part of the knowledge module the service uses. */
export interface Knowledge {
  indexDocument(
    meta: FileMeta,
    doc: ExtractedDocument | ReadDocument,
    onProgress?: (percent: number) => void,
  ): Promise<{ passage_count: number; qa_count: number; total_embeddings: number; template?: string | null }>;
  removeFile(orgId: number, fileId: number): Promise<void>;
  /** Answer-library entry ids matching a search, best first (the retrieval answering uses). */
  searchLibrary(orgId: number, query: string, limit?: number): Promise<number[]>;
  answerQuestion(orgId: number, q: QuestionInput, filters: SearchFilters, options?: AnswerOptions): Promise<AnswerResult>;
  /** The answer library's answer alone (a fill's first step), null when no past answer matches; for replays. */
  libraryAnswer?(orgId: number, q: QuestionInput, filters: SearchFilters, options?: AnswerOptions): Promise<AnswerResult | null>;
  answerChat(orgId: number, question: string, history: ChatTurn[], filters: SearchFilters): Promise<ChatAnswer>;
  /** Which engine writes answers (shown by the pane); absent = extractive. */
  answeringEngine?(): AnsweringEngine;
  /**
   * Batched generation with a language model: present together. `batching()` is null when
   * no model is configured; generation then answers one question at a time with `answerQuestion`.
   */
  batching?(): { concurrency: number; tokenBudget: number } | null;
  prepareAnswer?(orgId: number, q: QuestionInput, filters: SearchFilters, options?: AnswerOptions): Promise<PreparedAnswer>;
  /** A questionnaire's searches made up front (its passage prior); passed back as `options.questionnaire`. */
  searchQuestionnaire?(
    orgId: number,
    questions: QuestionInput[],
    filters: SearchFilters,
    options?: AnswerOptions,
  ): Promise<NonNullable<AnswerOptions['questionnaire']>>;
  planBatches?(pending: PendingAnswer[]): PendingAnswer[][];
  answerBatch?(batch: PendingAnswer[], budget: TokenBudget): Promise<{ results: AnswerResult[]; usage: Meter }>;
  /** The organisation's own names: evidence about anyone else is a third party's. */
  organisationNames(orgId: number): Promise<string[]>;
  setOrganisationNames(orgId: number, names: string[]): Promise<string[]>;
  /** The dates files state about themselves (as of, valid until), by file id; absent: none known. */
  fileDates?(orgId: number, fileIds: number[]): Promise<Map<number, FileDates>>;
}

export interface ServiceContext {
  /** All persistence: repositories, the job queue (`store.jobs`), units of work. */
  store: Store;
  blobs: BlobStore;
  knowledge: Knowledge;
  /**
   * Reads a file and prepares its index entries; in the service, in a worker thread within the reading
   * limits (`sandbox/`), which sends back the entries, not the pages.
   */
  extract(source: FileSource, filename: string): Promise<ExtractedDocument | ReadDocument>;
  detect(source: FileSource, filename: string): Promise<DetectedQuestionnaire>;
  /** Tells the background worker that a job of `kind` is waiting. */
  wake(kind: string): void;
  /** Counts for operators (`GET /metrics`); absent where no service runs (tools, some tests). */
  metrics?: ServiceMetrics;
}

export const JOB_KINDS = {
  ingestFile: 'ingest_file',
  generateAnswers: 'generate_answers',
  libraryReplay: 'library_replay',
} as const;
