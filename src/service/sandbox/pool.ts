/**
 * A small pool of reader worker threads. Each task has a wall-clock budget (counted from when a ready
 * worker receives it) and each worker a heap cap; a worker over either is terminated and replaced, so
 * no file can hold the request thread or take the process's memory. `close` terminates every worker at
 * once, whatever it is doing.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { TaskName } from './tasks';
import type { TaskInput } from './tasks';
import type { TaskReply, TaskRequest } from './worker-main';

export type SandboxFailure = 'timeout' | 'memory' | 'crash' | 'stopped';

/** A task that did not finish: over its time or memory budget, its worker died, or the pool closed. */
export class SandboxError extends Error {
  override name = 'SandboxError';
  constructor(
    readonly failure: SandboxFailure,
    message: string,
  ) {
    super(message);
  }
}

/** An error thrown by the task itself, rebuilt on this side with its name and message. */
export class TaskError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

export interface PoolOptions {
  /** Most workers alive at once (tasks beyond wait their turn). */
  size: number;
  memoryMb: number;
  /** An idle worker is ended after this long (it keeps the heap of its last file). */
  idleMs?: number;
}

interface Pending {
  request: TaskRequest;
  timeoutMs: number;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  job: Pending | null;
  timer: ReturnType<typeof setTimeout> | null;
}

// A path, not a URL object: under a DOM-like test environment the global URL is not Node's, and Worker
// refuses it ("The URL must be of scheme file").
const BOOTSTRAP = join(dirname(fileURLToPath(import.meta.url)), 'bootstrap.mjs');

/**
 * Tasks someone is waiting for: a questionnaire's questions are read while the analyst watches, and go
 * ahead of library files queued for ingestion, which are background work.
 */
const URGENT_TASKS: ReadonlySet<TaskName> = new Set(['detect']);

export class WorkerPool {
  private readonly slots = new Set<Slot>();
  private readonly waiting: Pending[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: PoolOptions) {}

  run<T>(task: TaskName, input: TaskInput, timeoutMs: number): Promise<T> {
    if (this.closed) return Promise.reject(new SandboxError('stopped', 'the service is stopping'));
    return new Promise<T>((resolve, reject) => {
      const pending: Pending = { request: { id: this.nextId++, task, input }, timeoutMs, resolve: resolve as (v: unknown) => void, reject };
      if (URGENT_TASKS.has(task)) {
        // After the urgent tasks already waiting, ahead of the rest.
        const at = this.waiting.findIndex((w) => !URGENT_TASKS.has(w.request.task));
        this.waiting.splice(at < 0 ? this.waiting.length : at, 0, pending);
      } else this.waiting.push(pending);
      this.dispatch();
    });
  }

  /** Ends every worker now; tasks running or waiting fail with `stopped`. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const stopped = () => new SandboxError('stopped', 'the service is stopping');
    for (const pending of this.waiting.splice(0)) pending.reject(stopped());
    const ending: Promise<unknown>[] = [];
    for (const slot of [...this.slots]) {
      const job = slot.job;
      this.discard(slot);
      job?.reject(stopped());
      ending.push(slot.worker.terminate().catch(() => undefined));
    }
    // A worker inside a long native call ends when it returns; never let that hold a shutdown.
    await Promise.race([Promise.all(ending), new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
  }

  /** Workers alive (for tests and the bench). */
  get workerCount(): number {
    return this.slots.size;
  }

  private dispatch(): void {
    while (this.waiting.length > 0 && !this.closed) {
      const idle = [...this.slots].find((s) => s.ready && !s.job);
      if (idle) {
        this.start(idle, this.waiting.shift()!);
        continue;
      }
      // Workers still starting will take the next tasks.
      const starting = [...this.slots].filter((s) => !s.ready).length;
      if (starting >= this.waiting.length || this.slots.size >= this.options.size) return;
      this.spawn();
    }
  }

  private spawn(): void {
    const worker = new Worker(BOOTSTRAP, {
      resourceLimits: { maxOldGenerationSizeMb: this.options.memoryMb },
      // The worker's own logs would interleave with the service's; errors come back as messages.
      stdout: false,
      stderr: false,
    });
    const slot: Slot = { worker, ready: false, job: null, timer: null };
    this.slots.add(slot);
    worker.on('message', (message: TaskReply | 'ready') => {
      if (message === 'ready') {
        slot.ready = true;
        this.idle(slot);
        this.dispatch();
        return;
      }
      const job = slot.job;
      if (!job || job.request.id !== message.id) return;
      this.finish(slot);
      if (message.ok) job.resolve(message.value);
      else job.reject(new TaskError(message.error.name, message.error.message));
      this.dispatch();
    });
    worker.on('error', (error: Error & { code?: string }) => {
      const job = slot.job;
      this.discard(slot);
      if (job) {
        job.reject(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new SandboxError('memory', `needed more than ${this.options.memoryMb} MB of memory`)
            : new SandboxError('crash', `the reader stopped unexpectedly (${error.message})`),
        );
      } else if (!slot.ready) {
        // A worker that cannot even start fails every task waiting for one, or they would wait forever.
        for (const pending of this.waiting.splice(0)) pending.reject(new SandboxError('crash', `the reader could not start (${error.message})`));
      }
      this.dispatch();
    });
    worker.on('exit', (code) => {
      const job = slot.job;
      if (!this.slots.has(slot)) return;
      this.discard(slot);
      job?.reject(new SandboxError('crash', `the reader stopped unexpectedly (exit code ${code})`));
      this.dispatch();
    });
  }

  private start(slot: Slot, job: Pending): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.job = job;
    slot.worker.ref();
    slot.timer = setTimeout(() => {
      this.discard(slot);
      void slot.worker.terminate().catch(() => undefined);
      job.reject(new SandboxError('timeout', `took longer than ${job.timeoutMs} ms`));
      this.dispatch();
    }, job.timeoutMs);
    slot.worker.postMessage(job.request);
  }

  private finish(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.job = null;
    this.idle(slot);
  }

  /** An idle worker does not keep the process alive, and ends after a while. */
  private idle(slot: Slot): void {
    slot.worker.unref();
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = setTimeout(() => {
      if (slot.job) return;
      this.discard(slot);
      void slot.worker.terminate().catch(() => undefined);
    }, this.options.idleMs ?? 30_000);
    slot.timer.unref();
  }

  private discard(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.job = null;
    this.slots.delete(slot);
  }
}
