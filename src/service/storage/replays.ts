/**
 * Replay runs of the answer library (src/service/domain/library-replay.ts): each run kept, for one
 * organisation at a time, so how good the library is for it can be seen over time.
 */
export type ReplayRunStatus = 'queued' | 'running' | 'done' | 'failed';

/** A run's figures over a set of questions (the API's ReplayFigures). */
export interface ReplayFiguresRecord {
  questions: number;
  answered: number;
  agreed: number;
  agreement: number | null;
  coverage: number | null;
  conflicts: number;
}

export interface ReplayRunRecord {
  id: number;
  org_id: number;
  status: ReplayRunStatus;
  started_by: string;
  max_questionnaires: number;
  created_at: string;
  finished_at: string | null;
  error: string | null;
  overall: ReplayFiguresRecord | null;
  gap_count: number | null;
}

/** What a finished run found, kept whole (per questionnaire, wrong answers, gaps): read one run at a time. */
export type ReplayDetail = Record<string, unknown>;

export interface ReplayRepository {
  create(orgId: number, run: { started_by: string; max_questionnaires: number }): Promise<ReplayRunRecord>;
  get(orgId: number, id: number): Promise<ReplayRunRecord | null>;
  /** For the background job, which acts for no particular caller. */
  getAny(id: number): Promise<ReplayRunRecord | null>;
  /** Newest first. */
  list(orgId: number, page: { limit: number; offset: number }): Promise<{ count: number; rows: ReplayRunRecord[] }>;
  detail(orgId: number, id: number): Promise<ReplayDetail | null>;
  setRunning(id: number): Promise<void>;
  finish(id: number, result: { overall: ReplayFiguresRecord; gap_count: number; detail: ReplayDetail }): Promise<void>;
  fail(id: number, error: string): Promise<void>;
}
