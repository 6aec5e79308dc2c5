/**
 * `npm run bench -- --scale`: the knowledge base at 10,000, 100,000 and 1,000,000 synthetic passages
 * (drawn from the real corpus' vocabulary, see `buildSyntheticKb`), each size in its own process so its
 * peak RSS is its own: build time and passages/s, `answerChat` p50/p95, the CAIQ (261 questions)
 * detected and answered, peak RSS. Targets at 1,000,000 (issue 18): chat p95 < 50 ms, CAIQ < 5 s,
 * RSS < 1 GB, build < 100 s.
 *
 *   npx tsx bench/scale.ts [10000 100000 1000000]      (prints the markdown table)
 *   npx tsx bench/scale.ts --one 100000                (one size, JSON on the last line)
 */
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSyntheticKb, corpusVocabulary, fixturesDir, questionnaireRow, time } from './retrieval';
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

async function measureOne(passages: number): Promise<ScaleRow> {
  const vocabulary = await corpusVocabulary();
  const caiqBytes = new Uint8Array(readFileSync(join(fixturesDir, 'questionnaires', 'caiq-v4.0.3-blank.xlsx')));
  const caiq = await detectQuestionnaire(caiqBytes, 'caiq-v4.0.3-blank.xlsx');
  const sample = caiq.questions.map((q) => q.original_question_text).filter((_, i) => i % 3 === 0);

  const started = performance.now();
  const synthetic = await buildSyntheticKb(vocabulary, passages);
  const buildMs = performance.now() - started;
  try {
    const { kb, orgId } = synthetic;
    const chat = await time('chat', sample, (q) => kb.answerChat(orgId, q, [], {}));
    const questionnaire = await questionnaireRow(kb, orgId, caiqBytes, 'caiq');
    return {
      passages: synthetic.passages,
      build_s: Math.round(buildMs / 100) / 10,
      passages_per_s: Math.round(synthetic.passages / (buildMs / 1000)),
      chat_p50_ms: chat.p50_ms ?? 0,
      chat_p95_ms: chat.p95_ms ?? 0,
      caiq_questions: questionnaire.n,
      caiq_s: Math.round(questionnaire.total_ms / 100) / 10,
      peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
      load: Math.round(os.loadavg()[0]! * 10) / 10,
    };
  } finally {
    await synthetic.remove();
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
    if (child.status !== 0 || !last.startsWith('{')) throw new Error(`scale run at ${size} passages failed (exit ${child.status}): ${child.stdout.slice(-500)}`);
    const row = JSON.parse(last) as ScaleRow;
    log(JSON.stringify(row));
    return row;
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  if (args[0] === '--one') {
    measureOne(Number(args[1]))
      .then((row) => console.log(JSON.stringify(row)))
      .catch((error: Error) => {
        console.error(error.stack ?? error.message);
        process.exit(1);
      });
  } else {
    const sizes = args.length ? args.map(Number) : SCALE_SIZES;
    console.log(markdownTable(runScaleBench(sizes, (line) => console.error(line)), SCALE_COLUMNS));
  }
}
