/**
 * `npm run bench -- --scale --database URL|sqlite [--passages N]`: a knowledge base at scale built as a
 * user builds it, through the API of a `qfill serve` process: synthetic text files (the real corpus'
 * vocabulary, see ./synthetic.ts) uploaded to `POST /repository/files/` into a fresh PostgreSQL database
 * (created on the server URL names, dropped afterwards) or a fresh SQLite data folder (`sqlite`), then
 * measured: upload to every file ready, `POST /chat/ask/` p50/p95 (the CAIQ's every third question, one
 * client), the CAIQ from upload to `complete`, and the server's peak RSS. Targets at 1,000,000 passages:
 * ready < 200 s, ask p95 < 50 ms, CAIQ < 5 s, RSS < 1 GB.
 *
 * The files are written to a temporary folder before the server starts, so making them costs the
 * service nothing; the load average is printed beside every row (the machine is shared).
 *
 *   npx tsx bench/scale-api.ts --database URL|sqlite [--passages N ...]
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, openAsBlob, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ApiClient } from '../src/api/client';
import { createKey } from '../src/service/admin';
import { detectQuestionnaire } from '../src/service/detect';
import { memoryOf, startServer } from './attack';
import { admin } from './postgres';
import { syntheticText } from './ingest';
import { corpusVocabulary, fixturesDir } from './retrieval';
import { percentile, round } from './stats';
import { markdownTable } from './table';

export interface ApiScaleRow {
  backend: string;
  passages: number;
  ready_s: number;
  passages_per_s: number;
  ask_p50_ms: number;
  ask_p95_ms: number;
  caiq_s: number;
  peak_rss_mb: number;
  load: string;
}

export const API_SCALE_COLUMNS: [keyof ApiScaleRow, string][] = [
  ['backend', 'backend'],
  ['passages', 'passages'],
  ['ready_s', 'upload to ready s'],
  ['passages_per_s', 'passages/s'],
  ['ask_p50_ms', 'ask p50 ms'],
  ['ask_p95_ms', 'ask p95 ms'],
  ['caiq_s', 'CAIQ upload to complete s'],
  ['peak_rss_mb', 'server peak RSS MB'],
  ['load', 'load average (during, after)'],
];

const MB = 1024 * 1024;
/** Bytes of text a passage of the synthetic documents makes, about (100 MB of them made 77,000 passages). */
const BYTES_PER_PASSAGE = 1_362;
const FILE_MB = 5;
const FILES_PER_REQUEST = 20;
const POLL_MS = 1_000;

/** Text files of `passages` passages or a little more in `dir`, FILE_MB each; their paths. */
function writeFiles(vocabulary: string[], passages: number, dir: string): string[] {
  const total = passages * BYTES_PER_PASSAGE;
  const paths: string[] = [];
  let doc = 0;
  for (let written = 0; written < total; ) {
    const made = syntheticText(vocabulary, doc, Math.min(FILE_MB * MB, total - written));
    const path = join(dir, `library-${paths.length}.txt`);
    writeFileSync(path, made.text);
    paths.push(path);
    doc += made.docs;
    written += Buffer.byteLength(made.text);
  }
  return paths;
}

async function call<T>(base: string, key: string, path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(`${base}/api/v2${path}`, { ...init, headers: { 'X-API-Key': key, ...(init.headers ?? {}) } });
  const body = (await res.json()) as T & { error?: string };
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path} answered ${res.status}: ${body.error ?? ''}`);
  return body;
}

interface FileState {
  id: number;
  status: string;
  passage_count?: number | null;
  error?: string | null;
}

async function uploadAll(base: string, key: string, paths: string[]): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < paths.length; i += FILES_PER_REQUEST) {
    const form = new FormData();
    for (const path of paths.slice(i, i + FILES_PER_REQUEST)) form.append('files', await openAsBlob(path, { type: 'text/plain' }), path.split('/').pop()!);
    ids.push(...(await call<{ file_ids: number[] }>(base, key, '/repository/files/', { method: 'POST', body: form })).file_ids);
  }
  return ids;
}

/** Every file's state, from the paginated list (one request a page rather than one a file). */
async function waitReady(api: ApiClient, count: number, log: (line: string) => void): Promise<FileState[]> {
  let reported = -1;
  for (;;) {
    const states: FileState[] = [];
    for await (const f of api.iterateRepositoryFiles({ page_size: 200 })) states.push(f as FileState);
    const done = states.filter((s) => s.status === 'ready' || s.status === 'failed');
    if (done.length === count) return states;
    if (done.length !== reported && done.length % 20 === 0) log(`${done.length}/${count} files done (load ${os.loadavg()[0]!.toFixed(1)})`);
    reported = done.length;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/** One size on one backend, in a fresh database or data folder. */
export async function measureApiScale(database: string, passages: number, log: (line: string) => void = () => {}): Promise<ApiScaleRow> {
  const backend = database === 'sqlite' ? 'sqlite' : 'postgres';
  const vocabulary = await corpusVocabulary();
  const caiqBytes = new Uint8Array(readFileSync(join(fixturesDir, 'questionnaires', 'caiq-v4.0.3-blank.xlsx')));
  const questions = (await detectQuestionnaire(caiqBytes, 'caiq.xlsx')).questions.map((q) => q.original_question_text).filter((_, i) => i % 3 === 0);
  const filesDir = mkdtempSync(join(os.tmpdir(), 'qfill-scale-files-'));
  const dataDir = mkdtempSync(join(os.tmpdir(), 'qfill-scale-data-'));
  let dbUrl: string | null = null;
  let dropDb = async () => undefined as void;
  try {
    log(`${backend}: writing ${passages.toLocaleString('en')} passages of text files…`);
    const paths = writeFiles(vocabulary, passages, filesDir);
    if (backend === 'postgres') {
      const name = `qf_scale_${randomBytes(4).toString('hex')}`;
      await admin(database, `CREATE DATABASE ${name}`);
      const url = new URL(database);
      url.pathname = `/${name}`;
      dbUrl = url.toString();
      dropDb = () => admin(database, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
    }
    const key = await createKey({ dataDir, databaseUrl: dbUrl }, { org: 'bench', user: 'bench', role: 'admin' });
    // A reading budget the machine's load cannot trip (a 5 MB file took over 60 s to read at load 30):
    // the bench measures throughput, not the budget.
    const server = await startServer(dataDir, dbUrl ? ['--database', dbUrl] : [], { QFILL_READ_TIMEOUT_SECONDS: '900' });
    try {
      log(`${backend}: uploading ${paths.length} files (load ${os.loadavg()[0]!.toFixed(1)})…`);
      const started = performance.now();
      const ids = await uploadAll(server.base, key, paths);
      log(`${backend}: uploaded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      const api = new ApiClient({ baseUrl: server.base, apiKey: key });
      const states = await waitReady(api, ids.length, (line) => log(`${backend}: ${line}`));
      const readyS = (performance.now() - started) / 1000;
      const loadDuring = os.loadavg()[0]!;
      const failed = states.filter((s) => s.status !== 'ready');
      if (failed.length) throw new Error(`${failed.length} files failed: ${failed[0]!.error}`);
      const count = states.reduce((n, s) => n + (s.passage_count ?? 0), 0);
      log(`${backend}: ${count.toLocaleString('en')} passages ready in ${readyS.toFixed(1)} s; asking…`);

      const times: number[] = [];
      for (const q of questions) {
        const t = performance.now();
        await api.ask({ question: q });
        times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      log(`${backend}: ask p50 ${round(percentile(times, 50))} ms, p95 ${round(percentile(times, 95))} ms; the CAIQ…`);

      const caiqStarted = performance.now();
      const upload = await api.uploadQuestionnaires([{ name: 'caiq-v4.0.3-blank.xlsx', data: caiqBytes }]);
      const id = upload.questionnaire_ids[0];
      if (id === undefined) throw new Error('the CAIQ was not accepted as a questionnaire');
      await api.pollAnswerProgress(id, { signal: AbortSignal.timeout(300_000), minIntervalMs: 100, maxIntervalMs: 250 });
      const caiqS = (performance.now() - caiqStarted) / 1000;
      return {
        backend,
        passages: count,
        ready_s: Math.round(readyS * 10) / 10,
        passages_per_s: Math.round(count / readyS),
        ask_p50_ms: round(percentile(times, 50)),
        ask_p95_ms: round(percentile(times, 95)),
        caiq_s: Math.round(caiqS * 10) / 10,
        peak_rss_mb: memoryOf(server.pid).peakMb,
        load: `${loadDuring.toFixed(1)}, ${os.loadavg()[0]!.toFixed(1)}`,
      };
    } finally {
      await server.stop();
    }
  } finally {
    await dropDb();
    rmSync(filesDir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function runApiScaleBench(database: string, sizes: number[], log: (line: string) => void = () => {}): Promise<ApiScaleRow[]> {
  const rows: ApiScaleRow[] = [];
  for (const size of sizes) {
    const row = await measureApiScale(database, size, log);
    log(JSON.stringify(row));
    rows.push(row);
  }
  return rows;
}

/** `--database` and `--passages` from the command line (sizes default to a million). */
export function apiScaleArgs(args: string[]): { database: string; sizes: number[] } | null {
  const at = args.indexOf('--database');
  if (at < 0) return null;
  const database = args[at + 1];
  if (!database || database.startsWith('--')) throw new Error('--database needs a PostgreSQL server URL (a database is created on it) or "sqlite"');
  const from = args.indexOf('--passages');
  const sizes =
    from < 0
      ? [1_000_000]
      : args
          .slice(from + 1)
          .filter((a) => /^\d+$/.test(a))
          .map(Number);
  return { database, sizes };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const parsed = apiScaleArgs(process.argv.slice(2));
  if (!parsed) {
    console.error('usage: npx tsx bench/scale-api.ts --database URL|sqlite [--passages N ...]');
    process.exit(2);
  }
  runApiScaleBench(parsed.database, parsed.sizes, (line) => console.error(line))
    .then((rows) => console.log(markdownTable(rows, API_SCALE_COLUMNS)))
    .catch((error: Error) => {
      console.error(error.stack ?? error.message);
      process.exit(1);
    });
}
