/**
 * `npm run bench -- --scale`: the knowledge base at 10,000, 100,000 and 1,000,000 synthetic passages
 * (drawn from the real corpus' vocabulary, see `buildSyntheticKb`), each size in its own process so its
 * peak RSS is its own: build time and passages/s, `answerChat` p50/p95, the CAIQ (261 questions)
 * detected and answered, peak RSS. Targets at 1,000,000: chat p95 < 50 ms, CAIQ < 5 s,
 * RSS < 1 GB, build < 100 s.
 *
 * The build runs as the service ingests: documents are made and their index entries prepared (split,
 * tokenised, stemmed) in SCALE_WORKERS worker threads, as the service's reader workers prepare an
 * upload's, and written by the main thread.
 *
 *   npx tsx bench/scale.ts [10000 100000 1000000]      (prints the markdown table)
 *   npx tsx bench/scale.ts --one 100000                (one size, JSON on the last line)
 *     --workers N      preparing threads (default 2; 0: everything in the main thread)
 *     --keep DIR       move the built service data folder to DIR instead of deleting it (SQLite)
 *   npx tsx bench/scale.ts --reuse DIR                 (chat and CAIQ only, on a kept folder)
 *   npx tsx bench/scale.ts --vocabulary                (the corpus vocabulary as JSON: what --one reads)
 */
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSyntheticKb, corpusVocabulary, fixturesDir, questionnaireRow, time } from './retrieval';
import { KnowledgeBase } from '../src/service/knowledge';
import { openStorage } from '../src/service/storage/open';
import { detectQuestionnaire } from '../src/service/detect';
import { markdownTable } from './table';

export interface ScaleRow {
  passages: number;
  build_s: number;
  passages_per_s: number;
  chat_p50_ms: number;
  chat_p95_ms: number;
  caiq_questions: number;
  caiq_s: number;
  peak_rss_mb: number;
  /** The machine's 1-minute load average at the end: timings on 2 shared cores depend on it. */
  load: number;
}

export const SCALE_COLUMNS: [keyof ScaleRow, string][] = [
  ['passages', 'passages'],
  ['build_s', 'build s'],
  ['passages_per_s', 'passages/s'],
  ['chat_p50_ms', 'answerChat p50 ms'],
  ['chat_p95_ms', 'answerChat p95 ms'],
  ['caiq_questions', 'CAIQ questions'],
  ['caiq_s', 'CAIQ answered s'],
  ['peak_rss_mb', 'peak RSS MB'],
  ['load', 'load average'],
];

export const SCALE_SIZES = [10_000, 100_000, 1_000_000];
/** Threads preparing documents while the main thread writes (the service reads with two). */
export const SCALE_WORKERS = 2;

interface OneOptions {
  workers: number;
  keep: string | null;
}

async function caiqSample(): Promise<{ caiqBytes: Uint8Array; sample: string[] }> {
  const caiqBytes = new Uint8Array(readFileSync(join(fixturesDir, 'questionnaires', 'caiq-v4.0.3-blank.xlsx')));
  const caiq = await detectQuestionnaire(caiqBytes, 'caiq-v4.0.3-blank.xlsx');
  return { caiqBytes, sample: caiq.questions.map((q) => q.original_question_text).filter((_, i) => i % 3 === 0) };
}

/** Chat and the CAIQ answered on a built knowledge base: the query half of a row. */
async function measureQueries(kb: KnowledgeBase, orgId: number) {
  const { caiqBytes, sample } = await caiqSample();
  const chat = await time('chat', sample, (q) => kb.answerChat(orgId, q, [], {}));
  const questionnaire = await questionnaireRow(kb, orgId, caiqBytes, 'caiq');
  return {
    chat_p50_ms: chat.p50_ms ?? 0,
    chat_p95_ms: chat.p95_ms ?? 0,
    caiq_questions: questionnaire.n,
    caiq_s: Math.round(questionnaire.total_ms / 100) / 10,
  };
}

function machine() {
  return { peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024), load: Math.round(os.loadavg()[0]! * 10) / 10 };
}

/** CPU seconds of the calling thread (Linux: /proc/thread-self/stat), or null elsewhere. */
function threadCpuSeconds(): number | null {
  try {
    // Fields after the parenthesised command name: utime and stime are the 12th and 13th.
    const fields = readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/** Bytes this process has written so far: handed to write calls, and sent to the disk (Linux: /proc/self/io), or null elsewhere. */
function bytesWritten(): { handed: number; toDisk: number } | null {
  try {
    const io = Object.fromEntries(
      readFileSync('/proc/self/io', 'utf8')
        .trim()
        .split('\n')
        .map((line) => line.split(': ') as [string, string]),
    );
    return { handed: Number(io.wchar), toDisk: Number(io.write_bytes) };
  } catch {
    return null;
  }
}

function processCpuSeconds(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}

/**
 * The corpus' vocabulary, read in a child process: reading the fixtures' PDFs leaves pdf.js's heap behind
 * (about 400 MB of this process's RSS), which is the bench's setup, not the knowledge base it measures.
 */
function vocabularyFromChild(): string[] {
  const self = fileURLToPath(import.meta.url);
  const tsx = resolve(dirname(self), '..', 'node_modules', '.bin', 'tsx');
  const child = spawnSync(tsx, [self, '--vocabulary'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 26 });
  if (child.status !== 0) throw new Error(`reading the corpus' vocabulary failed (exit ${child.status})`);
  return JSON.parse(child.stdout.trim().split('\n').pop()!) as string[];
}

async function measureOne(passages: number, options: OneOptions): Promise<ScaleRow> {
  const vocabulary = vocabularyFromChild();
  const started = performance.now();
  const mainCpu = threadCpuSeconds();
  const processCpu = processCpuSeconds();
  const writtenBefore = bytesWritten();
  const synthetic = await buildSyntheticKb(vocabulary, passages, null, {
    workers: options.workers,
    // CPU beside wall time: on 2 shared cores the wall time depends on what else runs.
    onBuilt: (t) => {
      const main = mainCpu === null ? null : threadCpuSeconds()! - mainCpu;
      const all = processCpuSeconds() - processCpu;
      const written = bytesWritten();
      const kb = (bytes: number) => `${(bytes / passages / 1024).toFixed(1)} KB`;
      console.error(
        `built in ${Math.round(t.total_ms)} ms, ${Math.round(t.indexing_ms)} ms of it writing (indexDocument); ` +
          `CPU ${all.toFixed(1)} s (${Math.round((all * 1e6) / passages)} µs/passage), main thread ` +
          `${main === null ? '?' : `${main.toFixed(1)} s (${Math.round((main * 1e6) / passages)} µs/passage)`}; load ${os.loadavg()[0]!.toFixed(1)}` +
          (written && writtenBefore
            ? `; written a passage: ${kb(written.handed - writtenBefore.handed)} (to disk ${kb(written.toDisk - writtenBefore.toDisk)})`
            : ''),
      );
    },
  });
  const buildMs = performance.now() - started;
  try {
    const queries = await measureQueries(synthetic.kb, synthetic.orgId);
    return {
      passages: synthetic.passages,
      build_s: Math.round(buildMs / 100) / 10,
      passages_per_s: Math.round(synthetic.passages / (buildMs / 1000)),
      ...queries,
      ...machine(),
    };
  } finally {
    if (options.keep) {
      await synthetic.closeDatabase();
      rmSync(options.keep, { recursive: true, force: true });
      renameSync(synthetic.storage.dataDir, options.keep);
    } else await synthetic.remove();
  }
}

/** The query half of a row on a folder kept by `--keep` (build columns 0). */
async function measureReused(dataDir: string): Promise<ScaleRow> {
  const opened = await openStorage({ dataDir, databaseUrl: null });
  try {
    const orgId = (await opened.store.orgs.upsert('bench', {})).id;
    const index = opened.knowledgeIndex!;
    const passages = await index.orgRows('passages', orgId);
    return { passages, build_s: 0, passages_per_s: 0, ...(await measureQueries(new KnowledgeBase(index, {}), orgId)), ...machine() };
  } finally {
    await opened.store.close();
  }
}

/** Each size in a child process (its own peak RSS, nothing cached from a smaller run). */
export function runScaleBench(sizes = SCALE_SIZES, log: (line: string) => void = () => {}): ScaleRow[] {
  const self = fileURLToPath(import.meta.url);
  const tsx = resolve(dirname(self), '..', 'node_modules', '.bin', 'tsx');
  return sizes.map((size) => {
    log(`building ${size.toLocaleString('en')} passages ...`);
    const child = spawnSync(tsx, [self, '--one', String(size)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 24 });
    const last = child.stdout.trim().split('\n').pop() ?? '';
    if (child.status !== 0 || !last.startsWith('{'))
      throw new Error(`scale run at ${size} passages failed (exit ${child.status}): ${child.stdout.slice(-500)}`);
    const row = JSON.parse(last) as ScaleRow;
    log(JSON.stringify(row));
    return row;
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const flag = (name: string) => {
    const at = args.indexOf(name);
    return at >= 0 ? args[at + 1] : undefined;
  };
  const run =
    args[0] === '--vocabulary'
      ? () => corpusVocabulary()
      : args[0] === '--one'
        ? () => measureOne(Number(args[1]), { workers: Number(flag('--workers') ?? SCALE_WORKERS), keep: flag('--keep') ?? null })
        : args[0] === '--reuse'
          ? () => measureReused(args[1]!)
          : null;
  if (run) {
    run()
      .then((row) => console.log(JSON.stringify(row)))
      .catch((error: Error) => {
        console.error(error.stack ?? error.message);
        process.exit(1);
      });
  } else {
    const sizes = args.length ? args.map(Number) : SCALE_SIZES;
    console.log(
      markdownTable(
        runScaleBench(sizes, (line) => console.error(line)),
        SCALE_COLUMNS,
      ),
    );
  }
}
