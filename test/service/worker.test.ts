/** The background worker's own rules: it survives a failing queue, and only the lease holder works. */
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Job, JobQueue, WorkerLease } from '../../src/service/jobs/types';
import { JobWorker } from '../../src/service/jobs/worker';
import { openDatabase } from '../../src/service/storage/sqlite/database';
import { SqliteSql } from '../../src/service/storage/sqlite/executor';
import { SqliteWorkerLease } from '../../src/service/storage/sqlite/lease';
import { SqlJobQueue } from '../../src/service/storage/sql/jobs';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function database() {
  const dir = mkdtempSync(join(tmpdir(), 'qfill-worker-'));
  dirs.push(dir);
  return openDatabase(dir);
}

async function until(what: string, check: () => boolean, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('JobWorker', () => {
  it('keeps running when claiming a job throws (e.g. the database stayed locked)', async () => {
    const db = database();
    const real = new SqlJobQueue(new SqliteSql(db));
    let failures = 2;
    const queue: JobQueue = {
      enqueue: (k, p) => real.enqueue(k, p),
      counts: () => real.counts(),
      claim: (kind) => {
        if (failures > 0) {
          failures--;
          throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
        }
        return real.claim(kind);
      },
      heartbeat: (id) => real.heartbeat(id),
      complete: (id) => real.complete(id),
      release: (id, o) => real.release(id, o),
      requeueRunning: () => real.requeueRunning(),
      get: (id) => real.get(id),
    };
    const done: number[] = [];
    const logged: string[] = [];
    const worker = new JobWorker(queue, { work: async (job: Job) => (done.push(Number(job.payload.n)), 'done') }, { pollMs: 5, log: (m) => logged.push(m) });
    await real.enqueue('work', { n: 1 });
    worker.start();
    try {
      await until('the job to run after the failed claims', () => done.length === 1);
      expect(logged.filter((m) => m.startsWith('could not claim'))).toHaveLength(2);
    } finally {
      await worker.stop();
      db.close();
    }
  });

  it('runs as many jobs of a kind at once as its concurrency says, each once, and one at a time by default', async () => {
    const db = database();
    const queue = new SqlJobQueue(new SqliteSql(db));
    let inFlight = 0;
    let most = 0;
    const done: number[] = [];
    const release: (() => void)[] = [];
    const handler = async (job: Job) => {
      inFlight++;
      most = Math.max(most, inFlight);
      // Held until the test lets it go, so jobs that can overlap do.
      await new Promise<void>((resolve) => release.push(resolve));
      inFlight--;
      done.push(Number(job.payload.n));
      return 'done' as const;
    };
    const worker = new JobWorker(queue, { work: handler, other: handler }, { pollMs: 5, concurrency: { work: 2 } });
    for (let n = 1; n <= 4; n++) await queue.enqueue('work', { n });
    await queue.enqueue('other', { n: 5 });
    await queue.enqueue('other', { n: 6 });
    worker.start();
    try {
      // Two 'work' loops and one 'other' loop hold a job each.
      await until('three jobs in flight', () => inFlight === 3);
      while (done.length < 6) {
        release.shift()?.();
        await new Promise((r) => setTimeout(r, 5));
      }
      expect(most).toBe(3);
      expect([...done].sort()).toEqual([1, 2, 3, 4, 5, 6]);
    } finally {
      for (const r of release) r();
      await worker.stop();
      db.close();
    }
  });

  it('runs nothing while another holder has the lease, and takes over (requeueing its jobs) once it is free', async () => {
    const db = database();
    const queue = new SqlJobQueue(new SqliteSql(db));
    let free = false;
    const lease: WorkerLease = {
      tryAcquire: async () => free,
      release: async () => undefined,
      holder: async () => 'process 1 on elsewhere',
    };
    const done: number[] = [];
    const logged: string[] = [];
    const worker = new JobWorker(
      queue,
      { work: async (job: Job) => (done.push(job.id), 'done') },
      { pollMs: 5, lease, leaseCheckMs: 10, log: (m) => logged.push(m) },
    );
    const left = await queue.enqueue('work', {});
    await queue.claim('work'); // left `running` by the other holder
    const waiting = await queue.enqueue('work', {});
    worker.start();
    try {
      await new Promise((r) => setTimeout(r, 60));
      expect(done).toEqual([]);
      expect(logged[0]).toMatch(/run by process 1 on elsewhere; this process serves requests/);
      free = true;
      await until('both jobs to run', () => done.length === 2);
      expect(done.sort()).toEqual([left, waiting].sort());
    } finally {
      await worker.stop();
      db.close();
    }
  });
});

describe('a job whose lease cannot be renewed (the database unreachable from its worker)', () => {
  it('is stopped by its worker before another may claim it, taken over once the lease ends, and written once', async () => {
    const db = database();
    const LEASE = 400;
    // Two processes' queues on one database; A's connection "goes down" while it works.
    const a = new SqlJobQueue(new SqliteSql(db), { leaseMs: LEASE });
    const b = new SqlJobQueue(new SqliteSql(db), { leaseMs: LEASE });
    let down = false;
    const unreachable = () => Promise.reject(new Error('Connection terminated unexpectedly'));
    const queueA: JobQueue = {
      enqueue: (k, p) => a.enqueue(k, p),
      counts: () => a.counts(),
      claim: (kind) => (down ? unreachable() : a.claim(kind)),
      heartbeat: (id) => (down ? unreachable() : a.heartbeat(id)),
      complete: (id) => (down ? unreachable() : a.complete(id)),
      release: (id, o) => (down ? unreachable() : a.release(id, o)),
      requeueRunning: () => a.requeueRunning(),
      get: (id) => a.get(id),
    };
    // The job's results: step n written by whom, and when; a step is written once unless two workers overlap.
    const written: { step: number; by: string; at: number }[] = [];
    const handler = (by: string) => async (_job: Job, ctx: { shouldStop(): boolean }) => {
      for (let step = written.length; step < 60; step = written.length) {
        await new Promise((r) => setTimeout(r, 10));
        // The result is computed; it is stored only while the job is still ours (what generation does).
        if (ctx.shouldStop()) return 'interrupted' as const;
        written.push({ step, by, at: Date.now() });
      }
      return 'done' as const;
    };
    const logged: string[] = [];
    const workerA = new JobWorker(queueA, { work: handler('A') }, { pollMs: 5, heartbeatMs: LEASE / 4, jobLeaseMs: LEASE, log: (m) => logged.push(m) });
    const workerB = new JobWorker(b, { work: handler('B') }, { pollMs: 5, heartbeatMs: LEASE / 4, jobLeaseMs: LEASE });
    const id = await a.enqueue('work', {});
    workerA.start();
    try {
      await until('A to start the job', () => written.length >= 3);
      down = true;
      const downAt = Date.now();
      workerB.start();
      await until('the job to be finished', () => written.length >= 60, 10_000);
      const byA = written.filter((w) => w.by === 'A');
      const byB = written.filter((w) => w.by === 'B');
      // A stopped within half a lease of its last renewal; B took over only after the lease ended.
      expect(byB.length).toBeGreaterThan(0);
      expect(Math.max(...byA.map((w) => w.at))).toBeLessThan(Math.min(...byB.map((w) => w.at)));
      expect(Math.max(...byA.map((w) => w.at)) - downAt).toBeLessThan(LEASE);
      // Every step once: nothing written twice, nothing left out.
      expect(written.map((w) => w.step)).toEqual(Array.from({ length: 60 }, (_, i) => i));
      expect(logged.some((m) => /lease could not be renewed/.test(m))).toBe(true);
      const deadline = Date.now() + 2000;
      while ((await b.get(id))!.state !== 'done' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      expect(await b.get(id)).toMatchObject({ state: 'done', attempts: 2 });
    } finally {
      down = false;
      await workerA.stop();
      await workerB.stop();
      db.close();
    }
  });
});

describe('SqliteWorkerLease', () => {
  it('is held by one owner at a time, renewable, free after release or expiry', async () => {
    const db = database();
    let now = 1_000;
    const a = new SqliteWorkerLease(new SqliteSql(db), 1000, () => now);
    const b = new SqliteWorkerLease(new SqliteSql(db), 1000, () => now);
    expect(await a.tryAcquire()).toBe(true);
    expect(await b.tryAcquire()).toBe(false);
    expect(await b.holder()).toMatch(new RegExp(`^process ${process.pid} on `));
    now += 900;
    expect(await a.tryAcquire()).toBe(true); // renewed until 2900
    now += 900;
    expect(await b.tryAcquire()).toBe(false);
    now += 200;
    expect(await b.tryAcquire()).toBe(true); // a expired
    expect(await a.tryAcquire()).toBe(false);
    await b.release();
    expect(await a.tryAcquire()).toBe(true);
    db.close();
  });

  it('is free at once when its holder on this host is a process that no longer exists', async () => {
    const db = database();
    db.prepare('INSERT INTO worker_lease (id, host, pid, token, expires_at) VALUES (1, ?, ?, ?, ?)').run(
      hostname(),
      2 ** 22 + 12345, // above Linux's pid_max: never a live process
      'dead',
      Date.now() + 3_600_000,
    );
    expect(await new SqliteWorkerLease(new SqliteSql(db)).tryAcquire()).toBe(true);
    db.close();
  });
});
