/**
 * Runs persisted jobs in the background: one loop per kind, one job at a time per kind. Handlers get a
 * `shouldStop` check so a shutdown can interrupt long work between steps; the job then goes back to
 * `queued` and resumes on the next start.
 */
import type { Job, JobQueue } from './types';

export interface JobContext {
  shouldStop(): boolean;
}

/** Resolves 'interrupted' when it stopped early because of shutdown; throws to count a failed attempt. */
export type JobHandler = (job: Job, ctx: JobContext) => Promise<'done' | 'interrupted'>;

export interface WorkerOptions {
  maxAttempts?: number;
  /** Safety net in case a notify is missed (e.g. a job queued by another process). */
  pollMs?: number;
  log?: (message: string, error?: unknown) => void;
}

export class JobWorker {
  private stopped = true;
  private loops: Promise<void>[] = [];
  private wakers = new Map<string, () => void>();

  constructor(
    private readonly queue: JobQueue,
    private readonly handlers: Record<string, JobHandler>,
    private readonly options: WorkerOptions = {},
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.queue.requeueRunning();
    this.loops = Object.keys(this.handlers).map((kind) => this.loop(kind));
  }

  /** Wakes the loop of `kind` (or all loops) after a job was queued. */
  notify(kind?: string): void {
    for (const [k, wake] of this.wakers) if (kind === undefined || k === kind) wake();
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.notify();
    await Promise.all(this.loops);
    this.loops = [];
  }

  private async loop(kind: string): Promise<void> {
    const handler = this.handlers[kind]!;
    const maxAttempts = this.options.maxAttempts ?? 3;
    const ctx: JobContext = { shouldStop: () => this.stopped };
    while (!this.stopped) {
      const job = this.queue.claim(kind);
      if (!job) {
        await this.sleep(kind);
        continue;
      }
      try {
        const outcome = await handler(job, ctx);
        if (outcome === 'interrupted') this.queue.release(job.id, { state: 'queued' });
        else this.queue.complete(job.id);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        this.options.log?.(`job ${job.id} (${kind}) attempt ${job.attempts} failed: ${message}`, error);
        this.queue.release(job.id, { state: job.attempts >= maxAttempts ? 'failed' : 'queued', error: message });
      }
      // Let HTTP handlers run between jobs even when the queue is long.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  private sleep(kind: string): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.options.pollMs ?? 1000);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakers.set(kind, () => {
        this.wakers.delete(kind);
        done();
      });
    });
  }
}
