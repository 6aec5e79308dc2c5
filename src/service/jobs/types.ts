/** The job queue and worker lease are part of the storage boundary; re-exported for the worker's users. */
export type { Job, JobQueue, JobState, WorkerLease } from '../storage/types';
