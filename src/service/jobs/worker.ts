/**
 * Runs persisted jobs in the background: one loop per kind, one job at a time per kind unless its
 * `concurrency` says more (each loop claims from the queue as another process would). Handlers get a
 * `shouldStop` check so a shutdown can interrupt long work between steps; the job then goes back to
 * `queued` and resumes on the next start.
 *
 * With a lease (SQLite), only the process holding it runs jobs: a second service on the same data folder
 * stands by (its uploads are picked up by the holder's polling) and takes over when the holder goes away.
 * Without one (PostgreSQL), every process works; each running job's own lease is renewed by a heartbeat
 * while its handler runs, and a job whose process died is claimed again once that lease runs out.
 *
 * A job whose lease this worker could not renew for half of it (the database unreachable, this process
 * stalled) is no longer safely ours: `shouldStop` says so, before another worker may claim it, and the
 * handler writes nothing more. Two workers never write one job's results at the same time.
 */
import type { Job, JobQueue, WorkerLease } from './types';

export interface JobContext {
  /** True on shutdown, when the job was taken over, or when its lease may be about to pass to another worker. */
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
  /** How often a running job's lease is renewed (default: a third of the queue's lease, or 10 s). */
  heartbeatMs?: number;
  /** The queue's job lease (default 30 s): a job not renewed for half of it is stopped. */
  jobLeaseMs?: number;
  /** Jobs of a kind run at once (default 1): each its own loop, claiming from the queue like another process. */
  concurrency?: Record<string, number>;
  now?: () => number;
}

export class JobWorker {
  private stopped = true;
  private holding = false;
  private announcedStandby = false;
  private running: Promise<void> = Promise.resolve();
  private leaseTimer: ReturnType<typeof setInterval> | null = null;
  /** The sleeping loops' wake functions, by kind and loop. */
  private wakers = new Map<string, { kind: string; wake: () => void }>();

  constructor(
    private readonly queue: JobQueue,
    private readonly handlers: Record<string, JobHandler>,
    private readonly options: WorkerOptions = {},
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    void this.checkLease();
    this.leaseTimer = setInterval(() => void this.checkLease(), this.options.leaseCheckMs ?? 10_000);
    this.leaseTimer.unref();
  }

  /** Started and not stopped: running the jobs, or standing by for the lease of another process. */
  get started(): boolean {
    return !this.stopped;
  }

  /** True while this process runs the jobs (always, without a lease, once started). */
  get active(): boolean {
    return !this.stopped && this.holding;
  }

  /** Wakes the loop of `kind` (or all loops) after a job was queued. */
  notify(kind?: string): void {
    for (const waker of this.wakers.values()) if (kind === undefined || waker.kind === kind) waker.wake();
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
        await this.options.lease?.release();
      } catch (error) {
        this.options.log?.('could not release the worker lease; another process takes over when it expires', error);
      }
    }
  }

  private checking = false;

  private async checkLease(): Promise<void> {
    if (this.stopped || this.checking) return;
    this.checking = true;
    try {
      await this.checkLeaseOnce();
    } finally {
      this.checking = false;
    }
  }

  private async checkLeaseOnce(): Promise<void> {
    const lease = this.options.lease;
    let mine: boolean;
    try {
      mine = lease ? await lease.tryAcquire() : true;
    } catch (error) {
      // The database is busy beyond its timeout: keep the current role and try again next time.
      this.options.log?.('could not check the worker lease', error);
      return;
    }
    if (this.stopped) return;
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
      const holder = await lease?.holder().catch(() => null);
      this.options.log?.(
        `background jobs of this data folder are run by ${holder ?? 'another process'}; this process serves requests and takes over if it stops`,
      );
    }
  }

  private async runLoops(): Promise<void> {
    if (!this.active) return;
    // Only a lease holder may do this: a job `running` now was left by a holder that is gone. Without a
    // worker lease, other live processes run jobs too, and a dead one's jobs come back when their lease ends.
    try {
      if (this.options.lease) await this.queue.requeueRunning();
      // Without a worker lease (PostgreSQL), only this instance's own interrupted jobs are known to be dead.
      else await this.queue.requeueOwn?.();
    } catch (error) {
      this.options.log?.('could not put interrupted jobs back in the queue; they are claimed again when their lease ends', error);
    }
    const loops = Object.keys(this.handlers).flatMap((kind) =>
      Array.from({ length: Math.max(1, this.options.concurrency?.[kind] ?? 1) }, (_, slot) => this.loop(kind, slot)),
    );
    await Promise.all(loops);
  }

  private async loop(kind: string, slot: number): Promise<void> {
    const handler = this.handlers[kind]!;
    const maxAttempts = this.options.maxAttempts ?? 3;
    while (this.active) {
      let job: Job | null;
      try {
        job = await this.queue.claim(kind);
      } catch (error) {
        // E.g. the database stayed locked by another process beyond busy_timeout: try again later.
        this.options.log?.(`could not claim a ${kind} job`, error);
        job = null;
      }
      if (!job) {
        await this.sleep(kind, slot);
        continue;
      }
      // Renew the job's lease while it runs; if it was taken over (we stalled past the lease), stop.
      let lost = false;
      const current = job;
      const now = this.options.now ?? Date.now;
      // The claim was the first renewal; measured from before the heartbeat's statement is sent, so a
      // renewal counts from no later than the lease it wrote.
      let renewedAt = now();
      const safeFor = (this.options.jobLeaseMs ?? 30_000) / 2;
      const heartbeat = setInterval(() => {
        const sent = now();
        this.queue.heartbeat(current.id).then(
          (ours) => {
            if (ours) renewedAt = Math.max(renewedAt, sent);
            else if (!lost) {
              lost = true;
              this.options.log?.(`job ${current.id} (${kind}) was taken over by another worker; this one stops it`);
            }
          },
          (error) => this.options.log?.(`could not renew the lease of job ${current.id}`, error),
        );
      }, this.options.heartbeatMs ?? 10_000);
      heartbeat.unref();
      const unsafe = () => {
        if (!lost && now() - renewedAt > safeFor) {
          lost = true;
          this.options.log?.(
            `job ${current.id} (${kind}): its lease could not be renewed for ${Math.round(safeFor / 1000)} s; this worker stops it, and it is claimed again when the lease ends`,
          );
        }
        return lost;
      };
      const ctx: JobContext = { shouldStop: () => !this.active || unsafe() };
      try {
        const outcome = await handler(job, ctx);
        if (outcome === 'interrupted') await this.queue.release(job.id, { state: 'queued' });
        else await this.queue.complete(job.id);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        this.options.log?.(`job ${job.id} (${kind}) attempt ${job.attempts} failed: ${message}`, error);
        try {
          await this.queue.release(job.id, { state: job.attempts >= maxAttempts ? 'failed' : 'queued', error: message });
        } catch (releaseError) {
          // Left `running`: claimed again when its lease ends (or on the next start, with a worker lease).
          this.options.log?.(`could not release job ${job.id}`, releaseError);
        }
      } finally {
        clearInterval(heartbeat);
      }
      // Let HTTP handlers run between jobs even when the queue is long.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  private sleep(kind: string, slot: number): Promise<void> {
    const key = `${kind}#${slot}`;
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.options.pollMs ?? 1000);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakers.set(key, {
        kind,
        wake: () => {
          this.wakers.delete(key);
          done();
        },
      });
    });
  }
}
