/**
 * SQLite beside PostgreSQL, end to end over HTTP: the fixtures knowledge base ingested, the CAIQ from
 * upload to `complete`, `POST /chat/ask/` latency, and asks per second from 8 concurrent clients against
 * 1, 2 and 4 `qfill serve` processes on one PostgreSQL database (SQLite: 1 process). PostgreSQL comes
 * from QFILL_BENCH_DATABASE_URL or QFILL_TEST_DATABASE_URL (a server the bench may create a database on),
 * else the local server. Needs ../shared/fixtures.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { ApiClient } from '../src/api/client';
import { createKey, type StorageTarget } from '../src/service/admin';
import { buildApp } from '../src/service/app';

export interface PostgresRow {
  backend: string;
  measure: string;
  n: number | string;
  p50_ms: number | string;
  p95_ms: number | string;
  total: string;
}

export const POSTGRES_COLUMNS: [keyof PostgresRow, string][] = [
  ['backend', 'backend'],
  ['measure', 'measure'],
  ['n', 'n'],
  ['p50_ms', 'p50 ms'],
  ['p95_ms', 'p95 ms'],
  ['total', 'total / rate'],
];

const FIXTURES = path.resolve(process.env.FIXTURES_DIR ?? '../shared/fixtures');
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const CLIENTS = 8;
const THROUGHPUT_MS = 8_000;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

const round = (ms: number) => Math.round(ms * 10) / 10;

async function serverUrl(): Promise<string> {
  const url = process.env.QFILL_BENCH_DATABASE_URL ?? process.env.QFILL_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(`the PostgreSQL bench needs a server: set QFILL_BENCH_DATABASE_URL (${url} is unreachable: ${(error as Error).message})`);
  } finally {
    await client.end().catch(() => undefined);
  }
  return url;
}

async function admin(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function serveProcess(args: string[]): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['bin/qfill.js', 'serve', '--http', '--port', '0', '--no-static', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /Listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve({ url: m[1]!, child });
    });
    child.on('exit', (code) => reject(new Error(`qfill serve exited with ${code}: ${err}`)));
  });
}

/** Asks per second from CLIENTS concurrent clients spread over `bases` for THROUGHPUT_MS. */
async function throughput(bases: string[], key: string, questions: string[]): Promise<{ rate: number; p50: number; p95: number; n: number }> {
  const clients = Array.from({ length: CLIENTS }, (_, i) => new ApiClient({ baseUrl: bases[i % bases.length]!, apiKey: key }));
  const deadline = performance.now() + THROUGHPUT_MS;
  const times: number[] = [];
  const started = performance.now();
  await Promise.all(
    clients.map(async (c, i) => {
      let q = i;
      while (performance.now() < deadline) {
        const t = performance.now();
        await c.ask({ question: questions[q++ % questions.length]!.slice(0, 4000) });
        times.push(performance.now() - t);
      }
    }),
  );
  const elapsed = performance.now() - started;
  times.sort((a, b) => a - b);
  return { rate: (times.length * 1000) / elapsed, p50: percentile(times, 50), p95: percentile(times, 95), n: times.length };
}

async function runBackend(backend: 'sqlite' | 'postgres', target: StorageTarget, log: (line: string) => void): Promise<{ rows: PostgresRow[]; key: string; questions: string[] }> {
  const opts = typeof target === 'string' ? { dataDir: target } : target;
  const built = await buildApp({ ...opts, staticDir: null, logger: false });
  const rows: PostgresRow[] = [];
  try {
    const base = await built.app.listen({ port: 0, host: '127.0.0.1' });
    const key = await createKey(target, { org: 'bench', user: 'bench', role: 'admin' });
    const client = new ApiClient({ baseUrl: base, apiKey: key });
    const kb = filesUnder(path.join(FIXTURES, 'kb'));
    log(`${backend}: ingesting ${kb.length} knowledge-base files…`);
    let t = performance.now();
    for (let i = 0; i < kb.length; i += 20) {
      await client.uploadRepositoryFiles(kb.slice(i, i + 20).map((f) => ({ name: path.basename(f), data: new Uint8Array(readFileSync(f)) })), { scope_includes_company: true });
    }
    for (;;) {
      const pending = (await client.listRepositoryFiles({ page_size: 1, status: 'processing' })).count + (await client.listRepositoryFiles({ page_size: 1, status: 'submitted' })).count;
      if (pending === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    rows.push({ backend, measure: 'ingest the fixtures knowledge base to ready', n: kb.length, p50_ms: '-', p95_ms: '-', total: `${Math.round(performance.now() - t)} ms` });

    log(`${backend}: filling the CAIQ…`);
    t = performance.now();
    const upload = await client.uploadQuestionnaires([{ name: 'caiq.xlsx', data: new Uint8Array(readFileSync(path.join(FIXTURES, 'questionnaires', 'caiq-v4.0.3-blank.xlsx'))) }]);
    const id = upload.questionnaire_ids[0]!;
    const progress = await client.pollAnswerProgress(id, { minIntervalMs: 50, maxIntervalMs: 100 });
    rows.push({ backend, measure: 'CAIQ upload → complete (extractive)', n: progress.answers_expected, p50_ms: '-', p95_ms: '-', total: `${Math.round(performance.now() - t)} ms` });

    const questions = (await client.getAnswers(id)).map((q) => q.original_question_text).slice(0, 200);
    const times: number[] = [];
    for (const q of questions) {
      const s = performance.now();
      await client.ask({ question: q.slice(0, 4000) });
      times.push(performance.now() - s);
    }
    times.sort((a, b) => a - b);
    rows.push({ backend, measure: 'POST /chat/ask/, fixtures KB, one client', n: times.length, p50_ms: round(percentile(times, 50)), p95_ms: round(percentile(times, 95)), total: `${Math.round(times.reduce((a, b) => a + b, 0))} ms` });
    return { rows, key, questions };
  } finally {
    await built.close();
  }
}

export async function runPostgresBench(log: (line: string) => void = () => {}): Promise<PostgresRow[]> {
  if (!existsSync(FIXTURES)) throw new Error(`${FIXTURES} is missing: the PostgreSQL bench needs ../shared/fixtures`);
  const server = await serverUrl();
  const name = `qf_bench_${randomBytes(4).toString('hex')}`;
  await admin(server, `CREATE DATABASE ${name}`);
  const dbUrl = new URL(server);
  dbUrl.pathname = `/${name}`;
  const sqliteDir = mkdtempSync(path.join(tmpdir(), 'qfill-bench-sqlite-'));
  const shared = mkdtempSync(path.join(tmpdir(), 'qfill-bench-pg-'));
  const children: ChildProcess[] = [];
  const rows: PostgresRow[] = [];
  try {
    const sqlite = await runBackend('sqlite', sqliteDir, log);
    rows.push(...sqlite.rows);
    const postgres = await runBackend('postgres', { dataDir: shared, databaseUrl: dbUrl.toString() }, log);
    rows.push(...postgres.rows);

    log('sqlite: throughput, 1 process…');
    const one = await serveProcess(['--data', sqliteDir]);
    children.push(one.child);
    let r = await throughput([one.url], sqlite.key, sqlite.questions);
    rows.push({ backend: 'sqlite', measure: `POST /chat/ask/ throughput, ${CLIENTS} clients, 1 process`, n: r.n, p50_ms: round(r.p50), p95_ms: round(r.p95), total: `${r.rate.toFixed(0)} asks/s` });
    one.child.kill('SIGTERM');

    for (const count of [1, 2, 4]) {
      log(`postgres: throughput, ${count} process(es)…`);
      const procs = await Promise.all(
        Array.from({ length: count }, () => serveProcess(['--data', mkdtempSync(path.join(tmpdir(), 'qfill-bench-local-')), '--files', shared, '--database', dbUrl.toString()])),
      );
      children.push(...procs.map((p) => p.child));
      r = await throughput(procs.map((p) => p.url), postgres.key, postgres.questions);
      rows.push({ backend: 'postgres', measure: `POST /chat/ask/ throughput, ${CLIENTS} clients, ${count} process${count > 1 ? 'es' : ''}`, n: r.n, p50_ms: round(r.p50), p95_ms: round(r.p95), total: `${r.rate.toFixed(0)} asks/s` });
      for (const p of procs) p.child.kill('SIGTERM');
      await new Promise((res) => setTimeout(res, 500));
    }
  } finally {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    await admin(server, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
    rmSync(sqliteDir, { recursive: true, force: true });
    rmSync(shared, { recursive: true, force: true });
  }
  return rows;
}
