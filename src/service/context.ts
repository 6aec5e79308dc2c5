/**
 * What routes and jobs are given: storage, the job queue, file bytes, and the knowledge and detection
 * functions. Narrow interfaces so each part can be replaced (PostgreSQL storage, another retriever).
 */
import type { DetectedQuestionnaire } from './detect/types';
import type { JobQueue } from './jobs/types';
import type { BlobStore } from './files/blobstore';
import type {
  AnswerOptions,
  AnswerResult,
  ChatAnswer,
  ChatTurn,
  Evidence,
  ExtractedDocument,
  FileMeta,
  QuestionInput,
  SearchFilters,
} from './knowledge/types';
import type { Store } from './storage/types';

/** The part of the knowledge module the service uses. */
export interface Knowledge {
  indexDocument(
    meta: FileMeta,
    doc: ExtractedDocument,
    onProgress?: (percent: number) => void,
  ): Promise<{ passage_count: number; qa_count: number; total_embeddings: number }>;
  removeFile(orgId: number, fileId: number): void;
  search(orgId: number, query: string, filters: SearchFilters, limit?: number): Evidence[];
  answerQuestion(orgId: number, q: QuestionInput, filters: SearchFilters, options?: AnswerOptions): Promise<AnswerResult>;
  answerChat(orgId: number, question: string, history: ChatTurn[], filters: SearchFilters): Promise<ChatAnswer>;
  /** The organisation's own names: evidence about anyone else is a third party's (issue 14). */
  organisationNames(orgId: number): string[];
  setOrganisationNames(orgId: number, names: string[]): string[];
}

export interface ServiceContext {
  store: Store;
  queue: JobQueue;
  blobs: BlobStore;
  knowledge: Knowledge;
  extract(bytes: Uint8Array, filename: string): Promise<ExtractedDocument>;
  detect(bytes: Uint8Array, filename: string): Promise<DetectedQuestionnaire>;
  /** Tells the background worker that a job of `kind` is waiting. */
  wake(kind: string): void;
}

export const JOB_KINDS = {
  ingestFile: 'ingest_file',
  generateAnswers: 'generate_answers',
} as const;
