/** The PostgreSQL backend's own guarantees: migrations once under a lock, jobs claimed once, leases, shared quota. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { openStorage } from '../../../src/service/storage/open';
import { StorageUnavailable } from '../../../src/service/storage/errors';
import type { Store } from '../../../src/service/storage/types';
import { createTestDatabase, type TestDatabase } from '../postgres';

let db: TestDatabase;
const dir = mkdtempSync(join(tmpdir(), 'qfill-pg-'));
const stores: Store[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
});

afterAll(async () => {
  for (const s of stores) await s.close().catch(() => undefined);
  await db?.drop();
  rmSync(dir, { recursive: true, force: true });
});

async function open(opts: { jobLeaseMs?: number } = {}): Promise<Store> {
  const { store } = await openStorage({ dataDir: dir, databaseUrl: db.url, poolSize: 4, ...opts });
  stores.push(store);
  return store;
}

describe('PostgreSQL storage', () => {
  it('migrates once when several processes start together on an empty database', async () => {
    const opened = await Promise.all([open(), open(), open()]);
    expect(opened.every((s) => s.backend === 'postgres')).toBe(true);
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const rows = (await client.query('SELECT version, COUNT(*)::int AS n FROM schema_migrations GROUP BY version')).rows;
    await client.end();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.n === 1)).toBe(true);
  });

  it('commits a unit of work with its job, and rolls back both together', async () => {
    const store = await open();
    const org = await store.orgs.upsert('uow', {});
    await expect(
      store.unitOfWork(async (tx) => {
        await tx.teams.upsert(org.id, 'lost');
        await tx.jobs.enqueue('uow_test', { lost: true });
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await store.unitOfWork(async (tx) => {
      await tx.teams.upsert(org.id, 'kept');
      await tx.jobs.enqueue('uow_test', { kept: true });
    });
    const job = await store.jobs.claim('uow_test');
    expect(job?.payload).toEqual({ kept: true });
    expect(await store.jobs.claim('uow_test')).toBeNull();
  });

  it('gives each job to one worker, and a job whose worker stopped renewing its lease to another', async () => {
    // A lease long enough that no claim expires while 24 claims race on a loaded machine.
    const first = await open({ jobLeaseMs: 120_000 });
    const second = await open({ jobLeaseMs: 120_000 });
    const ids = await Promise.all(Array.from({ length: 20 }, (_, i) => first.jobs.enqueue('claim_test', { i })));
    const claimed = (await Promise.all(Array.from({ length: 24 }, (_, i) => (i % 2 ? first : second).jobs.claim('claim_test')))).filter((j) => j !== null);
    expect(claimed.map((j) => j!.id).sort((x, y) => x - y)).toEqual([...ids].sort((x, y) => x - y));

    const a = await open({ jobLeaseMs: 300 });
    const b = await open({ jobLeaseMs: 300 });

    const id = await a.jobs.enqueue('lease_test', {});
    const mine = await a.jobs.claim('lease_test');
    expect(mine?.id).toBe(id);
    expect(await b.jobs.claim('lease_test')).toBeNull();
    expect(await a.jobs.heartbeat(id)).toBe(true);
    await new Promise((r) => setTimeout(r, 400)); // a stops renewing (as if killed)
    const taken = await b.jobs.claim('lease_test');
    expect(taken).toMatchObject({ id, attempts: 2 });
    expect(await a.jobs.heartbeat(id)).toBe(false);
    await a.jobs.complete(id); // too late: not a's any more
    expect((await b.jobs.get(id))?.state).toBe('running');
    await b.jobs.complete(id);
    expect((await b.jobs.get(id))?.state).toBe('done');
  });

  it('counts the quota in the database, across processes', async () => {
    const a = await open();
    const b = await open();
    const org = await a.orgs.upsert('quota', { quota_per_minute: 3 });
    const decisions = [];
    for (let i = 0; i < 5; i++) decisions.push(await (i % 2 ? a : b).quota.hit(org.id, 3));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false, false]);
    expect(decisions[4]!.retryAfterSeconds).toBeGreaterThan(0);
  });

  it('says the database is unreachable at start, and names it', async () => {
    await expect(openStorage({ dataDir: dir, databaseUrl: 'postgres://postgres@127.0.0.1:1/nothing' })).rejects.toThrow(
      /cannot connect to PostgreSQL at 127\.0\.0\.1:1\/nothing/,
    );
    await expect(openStorage({ dataDir: dir, databaseUrl: 'postgres://postgres@127.0.0.1:1/nothing' })).rejects.toBeInstanceOf(StorageUnavailable);
  });
});
