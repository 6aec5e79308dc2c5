/**
 * No client can end the service: against a real `qfill serve` process, on SQLite and on PostgreSQL,
 * uploads broken off in every way at seeded random offsets, interleaved with ordinary requests. The
 * process stays up, every ordinary request is answered, no partial file is left and no upload slot leaks.
 * A longer soak of the same runs in `npm run bench -- "broken-off uploads"`.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createKey } from '../../src/service/admin';
import { DEFAULT_UPLOAD_LIMITS } from '../../src/service/http/multipart';
import { DiskBlobStore } from '../../src/service/files/blobstore';
import { BREAK_KINDS, holdUploads, soakBrokenUploads } from './broken-uploads';
import { waitFor } from './helpers';
import { createTestDatabase, type TestDatabase } from './postgres';
import { spawnServe, type ServeProcess } from './serve-process';

const SEED = Number(process.env.QFILL_TEST_SEED ?? 20261126);
const BROKEN = 240;

const cleanup: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

interface Running {
  serve: ServeProcess;
  key: string;
  incomingDir: string;
  stderr: () => string;
}

async function start(backend: 'sqlite' | 'postgres'): Promise<Running> {
  const filesDir = mkdtempSync(join(tmpdir(), 'qfill-broken-'));
  cleanup.push(() => rmSync(filesDir, { recursive: true, force: true }));
  let database: TestDatabase | null = null;
  if (backend === 'postgres') {
    database = await createTestDatabase();
    cleanup.push(() => database!.drop());
  }
  const localDir = mkdtempSync(join(tmpdir(), 'qfill-broken-local-'));
  cleanup.push(() => rmSync(localDir, { recursive: true, force: true }));
  const args = database ? ['--data', localDir, '--files', filesDir, '--database', database.url] : ['--data', filesDir];
  const serve = await spawnServe(args);
  cleanup.push(() => serve.stop());
  let stderr = '';
  serve.child.stderr!.on('data', (d) => (stderr += d));
  const key = await createKey({ dataDir: filesDir, databaseUrl: database?.url ?? null }, { org: 'acme', user: 'alice', role: 'admin' });
  return { serve, key, incomingDir: join(filesDir, 'files', 'incoming'), stderr: () => stderr };
}

describe.each(['sqlite', 'postgres'] as const)('uploads broken off, on %s', (backend) => {
  it(`stays up through ${BROKEN} broken-off uploads: every ordinary request answered, no partial file, no slot leaked`, async () => {
    const s = await start(backend);
    const result = await soakBrokenUploads({ url: s.serve.url, key: s.key, count: BROKEN, seed: SEED, maxMs: 120_000 });

    expect(s.serve.child.exitCode, `the service exited (seed ${SEED}):\n${s.stderr().slice(-3000)}`).toBeNull();
    expect(s.stderr()).not.toMatch(/Unhandled|uncaught|ERR_STREAM_DESTROYED/i);
    expect(result.broken, `only ${result.broken} broken uploads within the time bound`).toBeGreaterThanOrEqual(BROKEN / 2);
    for (const kind of BREAK_KINDS) expect(result.byKind[kind], kind).toBeGreaterThan(0);
    // Ordinary requests are answered, never dropped; an upload may be told to wait its turn (429), never lost.
    expect(
      result.ordinary.filter((a) => a !== '200' && a !== '429'),
      result.ordinary.join(', '),
    ).toEqual([]);
    expect(result.ordinary.filter((a) => a === '200').length).toBeGreaterThan(result.ordinary.length / 2);

    // Every broken request's waiting file is removed once the request has ended.
    await waitFor(
      'no partial upload left',
      async () => readdirSync(s.incomingDir),
      (names) => names.length === 0,
      15_000,
    );

    // Every slot was given back: as many uploads as a key may send at once are all received together (each
    // has its waiting file), none told to wait.
    const { perKey } = DEFAULT_UPLOAD_LIMITS;
    const held = await holdUploads(s.serve.url, s.key, perKey);
    expect(held.refused).toEqual(Array(perKey).fill(false));
    await waitFor(
      'every held upload being received',
      async () => readdirSync(s.incomingDir),
      (names) => names.length === perKey,
      10_000,
    );
    expect(await held.finish()).toEqual(Array(perKey).fill(200));
    expect(s.serve.child.exitCode).toBeNull();
  });
});

describe('receiving a file', () => {
  it('a body that fails while a write is in flight rejects the request only, and removes the partial file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'qfill-receive-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const store = new DiskBlobStore(dir);
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      // The first chunk's write is still in flight when the body fails: the exact moment that ended the process.
      async function* body() {
        await new Promise((r) => setTimeout(r, 20));
        yield new Uint8Array(1000);
        throw new Error('client went away');
      }
      await expect(store.receive(body())).rejects.toThrow('client went away');
      await new Promise((r) => setTimeout(r, 200));
      expect(uncaught).toEqual([]);
      expect(readdirSync(join(dir, 'files', 'incoming'))).toEqual([]);
    } finally {
      process.off('uncaughtException', onUncaught);
    }
  });
});
