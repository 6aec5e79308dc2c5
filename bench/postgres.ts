/**
 * SQLite beside PostgreSQL, end to end over HTTP: the fixtures knowledge base ingested, the CAIQ from
 * upload to `complete`, `POST /chat/ask/` latency (the fixtures KB, and a synthetic 100,000-passage one
 * built from the fixtures' vocabulary: minutes; `--no-synthetic` skips it), and asks per second from 8 concurrent clients against
 * 1, 2 and 4 `qfill serve` processes on one PostgreSQL database (SQLite: 1 process). PostgreSQL comes
 * from QFILL_BENCH_DATABASE_URL or QFILL_TEST_DATABASE_URL (a server the bench may create a database on),
 * else the local server. Needs ../shared/fixtures.
 *
 * `--synthetic-database URL` keeps the PostgreSQL synthetic knowledge base in that database (built there
 * when it is empty, never dropped), so a re-measurement skips the minutes of building it;
 * `--synthetic-only` measures only that row. The load average is logged beside every measurement: the
 * machine is shared, and a timing without it means little.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { ApiClient } from '../src/api/client';
import { createKey } from '../src/service/admin';
import { buildApp } from '../src/service/app';
import type { StorageOptions } from '../src/service/storage/open';
import { FIXTURES, fixturesEndToEnd, type EndToEndSize } from './end-to-end';
import { percentile, round } from './stats';
import { buildSyntheticKb, chatOverHttp, corpusVocabulary, type SyntheticKb } from './retrieval';

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

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const CLIENTS = 8;

/** How much the bench does: the full run, or the quick one (`--quick`: seconds, for CI on a fresh setup). */
interface Size {
  /** The size for the latency target (ask p95 < 50 ms); `--no-synthetic` leaves these rows out. */
  syntheticPassages: number;
  throughputMs: number;
  processes: number[];
  endToEnd: EndToEndSize;
}

const FULL: Size = { syntheticPassages: 100_000, throughputMs: 8_000, processes: [1, 2, 4], endToEnd: {} };
export const QUICK: Size = { syntheticPassages: 2_000, throughputMs: 1_000, processes: [1, 2], endToEnd: { kbFiles: 12, asks: 20 } };

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

/** One statement on a server as its administrator (creating or dropping a bench's database). */
export async function admin(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function serveProcess(args: string[]): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['bin/qfill.js', 'serve', '--http', '--port', '0', '--no-static', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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

/** Asks per second from CLIENTS concurrent clients spread over `bases` for `ms`. */
async function throughput(bases: string[], key: string, questions: string[], ms: number): Promise<{ rate: number; p50: number; p95: number; n: number }> {
  const clients = Array.from({ length: CLIENTS }, (_, i) => new ApiClient({ baseUrl: bases[i % bases.length]!, apiKey: key }));
  const deadline = performance.now() + ms;
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

async function runBackend(
  backend: 'sqlite' | 'postgres',
  target: StorageOptions,
  size: EndToEndSize,
  log: (line: string) => void,
): Promise<{ rows: PostgresRow[]; key: string; questions: string[] }> {
  const built = await buildApp({ ...target, staticDir: null, logger: false });
  try {
    const base = await built.app.listen({ port: 0, host: '127.0.0.1' });
    const key = await createKey(target, { org: 'bench', user: 'bench', role: 'admin' });
    log(`${backend}: fixtures run starting (${load()})`);
    const { ingest, caiq, asks } = await fixturesEndToEnd(
      new ApiClient({ baseUrl: base, apiKey: key }),
      (line) => log(`${backend}: ${line} (${load()})`),
      size,
    );
    log(`${backend}: fixtures run done (${load()})`);
    const t = asks.times;
    return {
      key,
      questions: asks.questions,
      rows: [
        { backend, measure: 'ingest the fixtures knowledge base to ready', n: ingest.files, p50_ms: '-', p95_ms: '-', total: `${ingest.ms} ms` },
        { backend, measure: 'CAIQ upload → complete (extractive)', n: caiq.questions, p50_ms: '-', p95_ms: '-', total: `${caiq.ms} ms` },
        {
          backend,
          measure: 'POST /chat/ask/, fixtures KB, one client',
          n: t.length,
          p50_ms: round(percentile(t, 50)),
          p95_ms: round(percentile(t, 95)),
          total: `${Math.round(t.reduce((a, b) => a + b, 0))} ms`,
        },
      ],
    };
  } finally {
    await built.close();
  }
}

function load(): string {
  return `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(', ')}`;
}

/**
 * Passages a previous run left in the database `url`; 0 in a fresh database. Two statements: PostgreSQL
 * resolves every relation of a statement before it evaluates any WHERE, so a guard in the same statement
 * cannot keep it from reading a table that does not exist yet.
 */
export async function passagesIn(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const table = await client.query<{ name: string | null }>("SELECT to_regclass('kb_counts')::text AS name");
    if (!table.rows[0]?.name) return 0;
    const { rows } = await client.query<{ n: string | null }>("SELECT SUM(rows) AS n FROM kb_counts WHERE kind = 'passages'");
    return Number(rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

/** The synthetic knowledge base a previous run left in `url` (organisation "bench"), or null when it is empty. */
async function existingSynthetic(url: string): Promise<SyntheticKb | null> {
  const passages = await passagesIn(url);
  if (passages === 0) return null;
  const storage: StorageOptions = { dataDir: mkdtempSync(path.join(tmpdir(), 'qfill-bench-service-')), databaseUrl: url };
  const apiKey = await createKey(storage, { org: 'bench', user: 'bench', role: 'admin' });
  const remove = async () => rmSync(storage.dataDir, { recursive: true, force: true });
  return { storage, apiKey, orgId: 0, passages, kb: null as never, closeDatabase: async () => undefined, remove };
}

/** `POST /chat/ask/` on a synthetic knowledge base of `passages` (SQLite, or in the database `databaseUrl`), one client. */
async function syntheticRow(
  backend: 'sqlite' | 'postgres',
  vocabulary: string[],
  passages: number,
  questions: string[],
  databaseUrl: string | null,
  log: (line: string) => void,
): Promise<PostgresRow> {
  let synthetic = databaseUrl ? await existingSynthetic(databaseUrl) : null;
  if (synthetic)
    log(`${backend}: reusing the synthetic ${synthetic.passages.toLocaleString('en')}-passage knowledge base in ${new URL(databaseUrl!).pathname}`);
  else {
    log(`${backend}: building a synthetic ${passages.toLocaleString('en')}-passage knowledge base (${load()})…`);
    const started = performance.now();
    synthetic = await buildSyntheticKb(vocabulary, passages, databaseUrl);
    log(`${backend}: built in ${Math.round((performance.now() - started) / 1000)} s (${load()})`);
  }
  try {
    log(`${backend}: asking (${load()})…`);
    const row = await chatOverHttp(synthetic, questions);
    log(`${backend}: asked, p50 ${row.p50_ms} ms, p95 ${row.p95_ms} ms (${load()})`);
    return {
      backend,
      measure: `POST /chat/ask/, synthetic KB (${synthetic.passages.toLocaleString('en')} passages), one client`,
      n: row.n,
      p50_ms: row.p50_ms ?? '-',
      p95_ms: row.p95_ms ?? '-',
      total: `${Math.round(row.total_ms)} ms`,
    };
  } finally {
    await synthetic.remove();
  }
}

function argument(name: string): string | null {
  const i = process.argv.indexOf(name);
  if (i < 0) return null;
  const value = process.argv[i + 1];
  if (!value || value.startsWith('--')) throw new Error(`${name} needs a value`);
  return value;
}

/** Questions for the synthetic rows when the fixtures' run is skipped: the CAIQ's, as that run asks them. */
async function caiqQuestions(): Promise<string[]> {
  const { detectQuestionnaire } = await import('../src/service/detect');
  const { readFileSync } = await import('node:fs');
  const file = path.join(FIXTURES, 'questionnaires', 'caiq-v4.0.3-blank.xlsx');
  return (await detectQuestionnaire(new Uint8Array(readFileSync(file)), 'caiq.xlsx')).questions.map((q) => q.original_question_text).slice(0, 200);
}

export async function runPostgresBench(log: (line: string) => void = () => {}, size: Size = FULL): Promise<PostgresRow[]> {
  if (!existsSync(FIXTURES)) throw new Error(`${FIXTURES} is missing: the PostgreSQL bench needs ../shared/fixtures`);
  const keptSynthetic = argument('--synthetic-database');
  if (process.argv.includes('--synthetic-only')) {
    if (!keptSynthetic) throw new Error('--synthetic-only needs --synthetic-database URL');
    return [await syntheticRow('postgres', await corpusVocabulary(), size.syntheticPassages, await caiqQuestions(), keptSynthetic, log)];
  }
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
    const sqlite = await runBackend('sqlite', { dataDir: sqliteDir }, size.endToEnd, log);
    rows.push(...sqlite.rows);
    const postgres = await runBackend('postgres', { dataDir: shared, databaseUrl: dbUrl.toString() }, size.endToEnd, log);
    rows.push(...postgres.rows);

    if (!process.argv.includes('--no-synthetic')) {
      const vocabulary = await corpusVocabulary();
      rows.push(await syntheticRow('sqlite', vocabulary, size.syntheticPassages, postgres.questions, null, log));
      if (keptSynthetic) rows.push(await syntheticRow('postgres', vocabulary, size.syntheticPassages, postgres.questions, keptSynthetic, log));
      else {
        const syntheticDb = `${name}_synthetic`;
        await admin(server, `CREATE DATABASE ${syntheticDb}`);
        try {
          const url = new URL(server);
          url.pathname = `/${syntheticDb}`;
          rows.push(await syntheticRow('postgres', vocabulary, size.syntheticPassages, postgres.questions, url.toString(), log));
        } finally {
          await admin(server, `DROP DATABASE IF EXISTS ${syntheticDb} WITH (FORCE)`).catch(() => undefined);
        }
      }
    }

    log('sqlite: throughput, 1 process…');
    const one = await serveProcess(['--data', sqliteDir]);
    children.push(one.child);
    let r = await throughput([one.url], sqlite.key, sqlite.questions, size.throughputMs);
    log(`sqlite: ${r.rate.toFixed(0)} asks/s (${load()})`);
    rows.push({
      backend: 'sqlite',
      measure: `POST /chat/ask/ throughput, ${CLIENTS} clients, 1 process`,
      n: r.n,
      p50_ms: round(r.p50),
      p95_ms: round(r.p95),
      total: `${r.rate.toFixed(0)} asks/s`,
    });
    one.child.kill('SIGTERM');

    for (const count of size.processes) {
      log(`postgres: throughput, ${count} process(es)…`);
      const procs = await Promise.all(
        Array.from({ length: count }, () =>
          serveProcess(['--data', mkdtempSync(path.join(tmpdir(), 'qfill-bench-local-')), '--files', shared, '--database', dbUrl.toString()]),
        ),
      );
      children.push(...procs.map((p) => p.child));
      r = await throughput(
        procs.map((p) => p.url),
        postgres.key,
        postgres.questions,
        size.throughputMs,
      );
      log(`postgres: ${r.rate.toFixed(0)} asks/s with ${count} (${load()})`);
      rows.push({
        backend: 'postgres',
        measure: `POST /chat/ask/ throughput, ${CLIENTS} clients, ${count} process${count > 1 ? 'es' : ''}`,
        n: r.n,
        p50_ms: round(r.p50),
        p95_ms: round(r.p95),
        total: `${r.rate.toFixed(0)} asks/s`,
      });
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
