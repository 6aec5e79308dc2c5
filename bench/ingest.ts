/**
 * `npm run bench -- "ingest while asking"` (opt-in): a `qfill serve` process ingests a 100 MB
 * batch of text documents (10 files of 10 MB, one upload request, synthetic passages from the real
 * corpus' vocabulary) while a client asks `POST /chat/ask/` back to back. Measured: chat latency idle and
 * during the ingestion (budget: p95 < 100 ms), the ingestion's passages/s through the service, and how
 * steadily each file's `processing_percent` moves (the longest time it stood still while processing).
 *
 *   npx tsx bench/ingest.ts [megabytes]      (default 100; prints the markdown table)
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createKey } from '../src/service/admin';
import { detectQuestionnaire } from '../src/service/detect';
import { startServer, type AttackRow, type Server } from './attack';
import { corpusVocabulary, fixturesDir } from './retrieval';
import { stateAt, syntheticDoc } from './synthetic';
import { markdownTable } from './table';
import { latencyStats } from './stats';

const MB = 1024 * 1024;
const FILES = 10;
/** Pause between two questions of the asking client (a person asks far less often). */
const ASK_GAP_MS = 20;
const PROGRESS_POLL_MS = 200;

/** A row as the attack bench prints it, without its verdict column. */
export type IngestRow = Omit<AttackRow, 'verdict'>;

export const INGEST_COLUMNS: [keyof IngestRow, string][] = [
  ['measure', 'measure'],
  ['n', 'n'],
  ['p50_ms', 'p50 ms'],
  ['p95_ms', 'p95 ms'],
  ['max_ms', 'max ms'],
  ['outcome', 'outcome'],
  ['budget', 'budget'],
];

/** Synthetic documents as plain text (`# ` headings, blank-line paragraphs), `bytes` long or a little more. */
export function syntheticText(vocabulary: string[], firstDoc: number, bytes: number): { text: string; docs: number } {
  const parts: string[] = [];
  let size = 0;
  let d = firstDoc;
  while (size < bytes) {
    for (const block of syntheticDoc(vocabulary, d, stateAt(d)).pages[0]!.blocks!) {
      const line = block.level > 0 ? `# ${block.text}\n\n` : `${block.text}\n\n`;
      parts.push(line);
      size += line.length;
    }
    d++;
  }
  return { text: parts.join(''), docs: d - firstDoc };
}

interface FileState {
  id: number;
  status: string;
  processing_percent: number;
  passage_count?: number | null;
}

async function api<T>(server: Server, key: string, path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(`${server.base}/api/v2${path}`, { ...init, headers: { 'X-API-Key': key, ...(init.headers ?? {}) } });
  const body = (await res.json()) as T & { error?: string };
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path} answered ${res.status}: ${body.error ?? ''}`);
  return body;
}

/**
 * The upload's form, its files encoded: made before the clock starts, since encoding 100 MB of text paused
 * this process (and so the asking client's clock) for about 300 ms, which is the bench's time, not the service's.
 */
function uploadForm(files: { name: string; text: string }[]): FormData {
  const data = new FormData();
  for (const f of files) data.append('files', new Blob([f.text], { type: 'text/plain' }), f.name);
  return data;
}

async function upload(server: Server, key: string, form: FormData): Promise<number[]> {
  return (await api<{ file_ids: number[] }>(server, key, '/repository/files/', { method: 'POST', body: form })).file_ids;
}

async function fileState(server: Server, key: string, id: number): Promise<FileState> {
  return api<FileState>(server, key, `/repository/files/${id}/`);
}

async function waitReady(server: Server, key: string, ids: number[]): Promise<FileState[]> {
  for (;;) {
    const states = await Promise.all(ids.map((id) => fileState(server, key, id)));
    if (states.every((s) => s.status === 'ready' || s.status === 'failed')) return states;
    await new Promise((r) => setTimeout(r, PROGRESS_POLL_MS));
  }
}

/** Asks the questions in turn, back to back, until stopped; each latency recorded. */
function asker(server: Server, key: string, questions: string[]) {
  const latencies: number[] = [];
  let running = true;
  const loop = (async () => {
    for (let i = 0; running; i++) {
      const t = performance.now();
      await api(server, key, '/chat/ask/', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ question: questions[i % questions.length] }),
      });
      latencies.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, ASK_GAP_MS));
    }
  })();
  return {
    async stop(): Promise<number[]> {
      running = false;
      await loop;
      return latencies;
    },
  };
}

export async function runIngestBench(megabytes = 100, log: (line: string) => void = () => {}): Promise<IngestRow[]> {
  const vocabulary = await corpusVocabulary();
  const caiq = await detectQuestionnaire(new Uint8Array(readFileSync(join(fixturesDir, 'questionnaires', 'caiq-v4.0.3-blank.xlsx'))), 'caiq.xlsx');
  const questions = caiq.questions.map((q) => q.original_question_text).filter((_, i) => i % 3 === 0);
  // Made before the server starts: the bench's own work must not compete with what it measures.
  const base = syntheticText(vocabulary, 0, 2 * MB);
  const batch: { name: string; text: string }[] = [];
  let next = base.docs;
  for (let f = 0; f < FILES; f++) {
    const made = syntheticText(vocabulary, next, (megabytes * MB) / FILES);
    next += made.docs;
    batch.push({ name: `library-${f}.txt`, text: made.text });
  }
  const batchMb = batch.reduce((n, f) => n + Buffer.byteLength(f.text), 0) / MB;

  const dataDir = mkdtempSync(join(os.tmpdir(), 'qfill-ingest-'));
  const key = await createKey(dataDir, { org: 'acme', user: 'alice', role: 'admin' });
  const server = await startServer(dataDir);
  try {
    const [baseState] = await waitReady(server, key, await upload(server, key, uploadForm([{ name: 'base.txt', text: base.text }])));
    log(`base document ready: ${baseState!.passage_count} passages`);

    const idle = asker(server, key, questions);
    await new Promise((r) => setTimeout(r, 5_000));
    const idleLatencies = await idle.stop();

    const form = uploadForm(batch);
    const during = asker(server, key, questions);
    const started = performance.now();
    const ids = await upload(server, key, form);
    const uploadedS = (performance.now() - started) / 1000;
    // Each file's percent over time: the longest stretch it stood still while processing.
    const last = new Map<number, { percent: number; at: number }>();
    let longestStill = 0;
    const seen = new Map<number, Set<number>>();
    let states: FileState[];
    for (;;) {
      states = await Promise.all(ids.map((id) => fileState(server, key, id)));
      const now = performance.now();
      for (const s of states) {
        if (s.status !== 'processing') {
          last.delete(s.id);
          continue;
        }
        (seen.get(s.id) ?? seen.set(s.id, new Set()).get(s.id)!).add(s.processing_percent);
        const before = last.get(s.id);
        if (!before || before.percent !== s.processing_percent) last.set(s.id, { percent: s.processing_percent, at: now });
        else longestStill = Math.max(longestStill, now - before.at);
      }
      if (states.every((s) => s.status === 'ready' || s.status === 'failed')) break;
      await new Promise((r) => setTimeout(r, PROGRESS_POLL_MS));
    }
    const ingestS = (performance.now() - started) / 1000;
    const duringLatencies = await during.stop();
    const passages = states.reduce((n, s) => n + (s.passage_count ?? 0), 0);
    const ready = states.filter((s) => s.status === 'ready').length;
    const steps = [...seen.values()].map((v) => v.size);
    const load = os.loadavg()[0]!.toFixed(1);
    log(`ingested ${passages} passages in ${ingestS.toFixed(1)} s (upload ${uploadedS.toFixed(1)} s), load ${load}`);
    return [
      { measure: `POST /chat/ask/, idle (${baseState!.passage_count} passages)`, ...latencyStats(idleLatencies), outcome: '', budget: '' },
      {
        measure: `POST /chat/ask/ while ${FILES} files of ${Math.round(batchMb / FILES)} MB (${Math.round(batchMb)} MB) are ingested`,
        ...latencyStats(duringLatencies),
        outcome: `load average ${load}`,
        budget: 'p95 < 100 ms',
      },
      {
        measure: `ingest ${Math.round(batchMb)} MB of text (${FILES} files, one upload) to ready`,
        n: passages,
        p50_ms: null,
        p95_ms: null,
        max_ms: null,
        outcome: `${ready}/${ids.length} ready in ${ingestS.toFixed(1)} s (upload ${uploadedS.toFixed(1)} s): ${Math.round(passages / ingestS).toLocaleString('en')} passages/s`,
        budget: '≥ 10,000 passages/s',
      },
      {
        measure: 'processing_percent of each file while it is processed',
        n: ids.length,
        p50_ms: null,
        p95_ms: null,
        max_ms: Math.round(longestStill),
        outcome: `${Math.min(...steps)}-${Math.max(...steps)} distinct values seen per file (polled every ${PROGRESS_POLL_MS} ms); longest without a change: ${(longestStill / 1000).toFixed(1)} s`,
        budget: 'moves steadily',
      },
    ];
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  runIngestBench(Number(process.argv[2] ?? 100), (line) => console.error(line))
    .then((rows) => console.log(markdownTable(rows, INGEST_COLUMNS)))
    .catch((error: Error) => {
      console.error(error.stack ?? error.message);
      process.exit(1);
    });
}
