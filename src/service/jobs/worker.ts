/**
 * Runs persisted jobs in the background: one loop per kind, one job at a time per kind. Handlers get a
 * `shouldStop` check so a shutdown can interrupt long work between steps; the job then goes back to
 * `queued` and resumes on the next start.
 *
 * With a lease, only the process holding it runs jobs: a second service on the same data folder stands
 * by (its uploads are picked up by the holder's polling) and takes over when the holder goes away.
 */
import type { Job, JobQueue, WorkerLease } from './types';

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
  lease?: WorkerLease;
  /** How often the lease is renewed by its holder, or tried again by a standby process. */
  leaseCheckMs?: number;
}

export class JobWorker {
  private stopped = true;
  private holding = false;
  private announcedStandby = false;
  private running: Promise<void> = Promise.resolve();
  private leaseTimer: ReturnType<typeof setInterval> | null = null;
  private wakers = new Map<string, () => void>();

  constructor(
    private readonly queue: JobQueue,
    private readonly handlers: Record<string, JobHandler>,
    private readonly options: WorkerOptions = {},
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.checkLease();
    this.leaseTimer = setInterval(() => this.checkLease(), this.options.leaseCheckMs ?? 10_000);
    this.leaseTimer.unref();
  }

  /** True while this process runs the jobs (always, without a lease, once started). */
  get active(): boolean {
    return !this.stopped && this.holding;
  }

  /** Wakes the loop of `kind` (or all loops) after a job was queued. */
  notify(kind?: string): void {
    for (const [k, wake] of this.wakers) if (kind === undefined || k === kind) wake();
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.leaseTimer) clearInterval(this.leaseTimer);
    this.leaseTimer = null;
    this.notify();
    await this.running;
    if (this.holding) {
      this.holding = false;
      try {
        this.options.lease?.release();
      } catch (error) {
        this.options.log?.('could not release the worker lease; another process takes over when it expires', error);
      }
    }
  }

  private checkLease(): void {
    if (this.stopped) return;
    const lease = this.options.lease;
    let mine: boolean;
    try {
      mine = lease ? lease.tryAcquire() : true;
    } catch (error) {
      // The database is busy beyond its timeout: keep the current role and try again next time.
      this.options.log?.('could not check the worker lease', error);
      return;
    }
    if (mine && !this.holding) {
      this.holding = true;
      this.announcedStandby = false;
      // Loops of an earlier term (lease lost, then won back) finish their job before new ones start.
      this.running = this.running.then(() => this.runLoops());
    } else if (!mine && this.holding) {
      this.holding = false;
      this.options.log?.('another service process took over the background jobs of this data folder; this one stands by');
      this.notify();
    } else if (!mine && !this.announcedStandby) {
      this.announcedStandby = true;
      this.options.log?.(
        `background jobs of this data folder are run by ${lease?.holder() ?? 'another process'}; this process serves requests and takes over if it stops`,
      );
    }
  }

  private async runLoops(): Promise<void> {
    if (!this.active) return;
    // Only the lease holder may do this: a job `running` now was left by a holder that is gone.
    this.queue.requeueRunning();
    await Promise.all(Object.keys(this.handlers).map((kind) => this.loop(kind)));
  }

  private async loop(kind: string): Promise<void> {
    const handler = this.handlers[kind]!;
    const maxAttempts = this.options.maxAttempts ?? 3;
    const ctx: JobContext = { shouldStop: () => !this.active };
    while (this.active) {
      let job: Job | null;
      try {
        job = this.queue.claim(kind);
      } catch (error) {
        // E.g. the database stayed locked by another process beyond busy_timeout: try again later.
        this.options.log?.(`could not claim a ${kind} job`, error);
        job = null;
      }
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
        try {
          this.queue.release(job.id, { state: job.attempts >= maxAttempts ? 'failed' : 'queued', error: message });
        } catch (releaseError) {
          // Left `running`: the next start (or lease takeover) puts it back in the queue.
          this.options.log?.(`could not release job ${job.id}`, releaseError);
        }
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
