/**
 * The persisted job queue boundary. A job is claimed by one worker at a time; jobs left `running` by a
 * process that died are put back to `queued` on start, so work survives restarts.
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
  enqueue(kind: string, payload: Record<string, unknown>): number;
  /** Marks the oldest queued job of `kind` running (attempts + 1) and returns it, or null. */
  claim(kind: string): Job | null;
  complete(id: number): void;
  /** Back to `queued` (to retry or resume later) or `failed` for good. */
  release(id: number, outcome: { state: 'queued' | 'failed'; error?: string }): void;
  /** Puts every `running` job back to `queued`; returns how many. */
  requeueRunning(): number;
  get(id: number): Job | null;
}

/**
 * The right to run the background jobs of one data folder. Only its holder claims jobs and, when it
 * takes the lease over, puts jobs left `running` by a dead holder back in the queue; a second service
 * process on the same folder serves requests and stands by.
 */
export interface WorkerLease {
  /** Takes or renews the lease; false while another live process holds it. */
  tryAcquire(): boolean;
  release(): void;
  /** Who holds it, for the message a standby process prints. */
  holder(): string | null;
}
