/**
 * PostgreSQL faults: unreachable at start (one clear line, exit 1), lost while serving (503 with
 * {"error"}, nothing half-stored, and the service answers again by itself once the database is back), and
 * lost to the process generating answers for longer than the job's lease (another finishes the job, each
 * question answered once).
 * The database "goes away" behind a TCP proxy we cut, so the real server stays up for everyone else.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createKey } from '../../src/service/admin';
import { buildApp, type BuiltApp } from '../../src/service/app';
import { queryDatabase } from './database';
import { call, expectError, files, KB_TEXT, questionnaireXlsx, waitFor, waitForFile } from './helpers';
import { createTestDatabase, type TestDatabase } from './postgres';

const ROOT = join(__dirname, '..', '..');
const dataDir = mkdtempSync(join(tmpdir(), 'qfill-pg-faults-'));
let db: TestDatabase | undefined;
let built: BuiltApp | undefined;
let proxy: Proxy | undefined;

afterAll(async () => {
  await built?.close();
  await proxy?.down();
  await db?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A TCP relay to the real server that can be cut and restored on the same port. */
class Proxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async up(): Promise<void> {
    this.server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
  }

  async down(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    if (this.server) await new Promise((resolve) => this.server!.close(resolve));
    this.server = null;
  }
}

it('exits 1 with one clear line when the database is unreachable at start', async () => {
  const child = spawn(
    process.execPath,
    ['bin/qfill.js', 'serve', '--http', '--port', '0', '--data', dataDir, '--database', 'postgres://postgres@127.0.0.1:1/qfill'],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  expect(code).toBe(1);
  const lines = stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^qfill: cannot open the service's storage: cannot connect to PostgreSQL at 127\.0\.0\.1:1\/qfill: /);
}, 60_000);
it('answers 503 while the database is gone, stores nothing half-way, and recovers by itself', async () => {
  db = await createTestDatabase();
  const real = new URL(db.url);
  proxy = new Proxy({ host: real.hostname, port: Number(real.port || 5432) });
  await proxy.up();
  const viaProxy = new URL(db.url);
  viaProxy.port = String(proxy.port);
  built = await buildApp({ dataDir, databaseUrl: viaProxy.toString(), staticDir: null, poolSize: 3 });
  const base = await built.app.listen({ port: 0, host: '127.0.0.1' });
  const key = await createKey({ dataDir, databaseUrl: db.url }, { org: 'acme', user: 'alice', role: 'admin' });
  const api = {
    get: (path: string) => call(base, key, 'GET', path),
    post: (path: string, body?: unknown) => call(base, key, 'POST', path, body),
  };
  const first = await api.post('/api/v2/repository/files/', files(['before.txt', KB_TEXT]));
  expect(first.status).toBe(200);
  expect((await waitForFile(api, first.body.file_ids[0])).body.status).toBe('ready');

  await proxy.down();
  const list = await api.get('/api/v2/repository/files/');
  expectError(list, 503, /database is unreachable/);
  const upload = await api.post('/api/v2/repository/files/', files(['during.txt', KB_TEXT]));
  expectError(upload, 503);
  expectError(await api.post('/api/v2/chat/ask/', { question: 'Is data encrypted at rest?' }), 503);
  // The refused upload left no bytes behind.
  expect(readdirSync(join(dataDir, 'files')).filter((n) => /^[a-f0-9]{32}/.test(n))).toHaveLength(1);

  await proxy.up();
  await waitFor(
    'the service to answer again',
    () => api.get('/api/v2/repository/files/'),
    (r) => r.status === 200,
    30_000,
  );
  const again = await api.post('/api/v2/repository/files/', files(['after.txt', KB_TEXT]));
  expect(again.status).toBe(200);
  expect((await waitForFile(api, again.body.file_ids[0])).body.status).toBe('ready');
  expect((await api.get('/api/v2/repository/files/')).body.count).toBe(2);
}, 120_000);

it('a database lost to the process generating answers: another process finishes the job after its lease, and nothing is answered twice', async () => {
  const outage = await createTestDatabase();
  const own = mkdtempSync(join(tmpdir(), 'qfill-pg-outage-'));
  const real = new URL(outage.url);
  const cut = new Proxy({ host: real.hostname, port: Number(real.port || 5432) });
  await cut.up();
  const viaProxy = new URL(outage.url);
  viaProxy.port = String(cut.port);
  const LEASE = 2000;
  // A works the queue through the proxy; B (no workers yet) serves requests on a direct connection.
  const a = await buildApp({ dataDir: own, databaseUrl: viaProxy.toString(), staticDir: null, poolSize: 3, jobLeaseMs: LEASE });
  const b = await buildApp({ dataDir: own, databaseUrl: outage.url, staticDir: null, poolSize: 3, startWorkers: false });
  let c: BuiltApp | undefined;
  try {
    const base = await b.app.listen({ port: 0, host: '127.0.0.1' });
    const key = await createKey({ dataDir: own, databaseUrl: outage.url }, { org: 'acme', user: 'alice', role: 'admin' });
    const api = { get: (path: string) => call(base, key, 'GET', path), post: (path: string, body?: unknown) => call(base, key, 'POST', path, body) };
    const kb = await api.post('/api/v2/repository/files/', files(['security.txt', KB_TEXT]));
    expect((await waitForFile(api, kb.body.file_ids[0])).body.status).toBe('ready');

    const COUNT = 600;
    const questions = Array.from({ length: COUNT }, (_, i) => [`Q-${i + 1}`, `Question ${i + 1}: is customer data of system ${i + 1} encrypted at rest?`]) as [
      string,
      string,
    ][];
    const up = await api.post('/api/v2/filler/questionnaires/', files(['big.xlsx', await questionnaireXlsx([{ name: 'Big', sections: [{ questions }] }])]));
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    const id = up.body.questionnaire_ids[0];
    const progress = () => api.get(`/api/v2/filler/questionnaires/${id}/answer-progress/`);
    await waitFor('A to answer', progress, (r) => r.body.answers_received > 0);

    // The database gone for A, longer than the job's lease; C starts working meanwhile.
    await cut.down();
    const cutAt = (await progress()).body.answers_received as number;
    expect(cutAt).toBeLessThan(COUNT);
    c = await buildApp({ dataDir: own, databaseUrl: outage.url, staticDir: null, poolSize: 3, jobLeaseMs: LEASE });
    const done = await waitFor('C to take the job over and finish it', progress, (r) => r.body.status === 'complete', 120_000);
    expect(done.body).toMatchObject({ answers_expected: COUNT, answers_received: COUNT });

    // A's database comes back: it must not add anything to a job that is no longer its own.
    await cut.up();
    await waitFor(
      'A to reach the database again',
      async () => (await a.app.inject({ method: 'GET', url: '/api/v2/repository/files/', headers: { 'X-API-Key': key } })).statusCode,
      (s) => s === 200,
      30_000,
    );
    await new Promise((r) => setTimeout(r, LEASE));
    const perQuestion = await queryDatabase<{ n: number }>({ databaseUrl: outage.url }, 'SELECT COUNT(*) AS n FROM answers GROUP BY question_id');
    expect(perQuestion).toHaveLength(COUNT);
    expect(perQuestion.filter((r) => r.n !== 1)).toEqual([]);
    const [job] = await queryDatabase<{ state: string; attempts: number }>(
      { databaseUrl: outage.url },
      "SELECT state, attempts FROM jobs WHERE kind = 'generate_answers'",
    );
    expect(job).toMatchObject({ state: 'done', attempts: 2 });
  } finally {
    await c?.close();
    await b.close();
    await a.close();
    await cut.down();
    await outage.drop();
    rmSync(own, { recursive: true, force: true });
  }
}, 240_000);
