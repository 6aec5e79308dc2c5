/**
 * Retrieval and answering speed, in process: the whole real knowledge base (../shared/fixtures/kb) and
 * a synthetic 10,000-passage one, timing `search`, `answerChat` and a CAIQ-sized batch of
 * `answerQuestion` calls (extractive). Budgets from DESIGN.md: chat p95 < 50 ms on 10,000 passages,
 * 261 questions < 5 s.
 *
 *   npx tsx bench/retrieval.ts        (also part of npm run bench via runRetrievalBench)
 */
import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { detectQuestionnaire } from '../src/service/detect';
import { extractDocument, KnowledgeBase, type ExtractedDocument } from '../src/service/knowledge';

export interface Row {
  name: string;
  n: number;
  p50_ms: number;
  p95_ms: number;
  total_ms: number;
  budget: string;
  ok: boolean | null;
}

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const fixturesDir = resolve(process.env.FIXTURES_DIR ?? join(root, '..', 'shared', 'fixtures'));

function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? listFiles(full) : [full];
  });
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function time(name: string, inputs: string[], fn: (input: string) => unknown, budget = '', budgetMs?: number): Promise<Row> {
  const samples: number[] = [];
  const started = performance.now();
  for (const input of inputs) {
    const t0 = performance.now();
    await fn(input);
    samples.push(performance.now() - t0);
  }
  const total = performance.now() - started;
  samples.sort((a, b) => a - b);
  const p95 = percentile(samples, 95);
  return {
    name,
    n: inputs.length,
    p50_ms: round(percentile(samples, 50)),
    p95_ms: round(p95),
    total_ms: round(total),
    budget,
    ok: budgetMs === undefined ? null : p95 < budgetMs,
  };
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

/** Deterministic pseudo-random numbers, so runs compare. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** 10,000 passages of ~180 words drawn from the real corpus' vocabulary with its word frequencies. */
function syntheticDocs(vocabulary: string[], passages: number, perDoc: number): ExtractedDocument[] {
  const random = rng(42);
  const docs: ExtractedDocument[] = [];
  for (let d = 0; d < passages / perDoc; d++) {
    const blocks = [] as { level: number; text: string }[];
    for (let p = 0; p < perDoc; p++) {
      blocks.push({ level: 1, text: `Section ${d}.${p} ${vocabulary[Math.floor(random() * vocabulary.length)]}` });
      const words: string[] = [];
      for (let w = 0; w < 180; w++) words.push(vocabulary[Math.floor(random() * vocabulary.length)]!);
      blocks.push({ level: 0, text: `${words.join(' ')}.` });
    }
    docs.push({ file_format: 'txt', document_type: 'documentation', qa: [], pages: [{ page_number: 1, text: '', blocks }] });
  }
  return docs;
}

export async function runRetrievalBench(log: (line: string) => void = () => {}): Promise<Row[]> {
  if (!existsSync(join(fixturesDir, 'kb'))) {
    throw new Error(`Fixtures not found at ${fixturesDir}/kb. They live beside the project in ../shared/fixtures (set FIXTURES_DIR to override).`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'qfill-bench-'));
  const db = new Database(join(dir, 'kb.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  const kb = new KnowledgeBase(db, {});
  const rows: Row[] = [];
  try {
    // ---- The real knowledge base (org 1).
    const files = listFiles(join(fixturesDir, 'kb')).filter((f) => /\.(pdf|md|txt|html|docx|csv|xlsx)$/i.test(f));
    const vocabulary: string[] = [];
    let passageCount = 0;
    const ingestStart = performance.now();
    for (const [i, file] of files.entries()) {
      const doc = await extractDocument(new Uint8Array(readFileSync(file)), file.split('/').pop()!);
      const counts = await kb.indexDocument(
        { org_id: 1, file_id: i + 1, filename: file.split('/').pop()!, offering_ids: [], scope_includes_company: true, use_as_source: true },
        doc,
      );
      passageCount += counts.passage_count;
      for (const page of doc.pages) vocabulary.push(...(page.text.match(/[A-Za-z][A-Za-z-]{2,}/g) ?? []));
    }
    log(`real KB: ${files.length} files, ${passageCount} passages, ingested in ${Math.round(performance.now() - ingestStart)} ms`);

    const questionnaire = join(fixturesDir, 'questionnaires', 'caiq-v4.0.3-blank.xlsx');
    const caiq = await detectQuestionnaire(new Uint8Array(readFileSync(questionnaire)), 'caiq-v4.0.3-blank.xlsx');
    const questions = caiq.questions.map((q) => q.original_question_text);
    const sample = questions.filter((_, i) => i % 3 === 0);

    rows.push(await time(`search, real KB (${passageCount} passages)`, sample, (q) => kb.search(1, q, {}, 10)));
    rows.push(await time(`answerChat, real KB (${passageCount} passages)`, sample, (q) => kb.answerChat(1, q, [], {}), 'p95 < 50 ms', 50));
    const caiqRow = await time(`answerQuestion x${caiq.questions.length} (CAIQ, extractive), real KB`, questions, (q) => {
      const detected = caiq.questions.find((d) => d.original_question_text === q)!;
      return kb.answerQuestion(1, { text: q, original_id: detected.original_id, answer_slots: detected.answer_slots }, {});
    });
    caiqRow.budget = 'total < 5000 ms';
    caiqRow.ok = caiqRow.total_ms < 5000;
    rows.push(caiqRow);

    // ---- A synthetic 10,000-passage knowledge base (org 2).
    const synthStart = performance.now();
    const docs = syntheticDocs(vocabulary, 10_000, 100);
    let synthPassages = 0;
    for (const [i, doc] of docs.entries()) {
      const counts = await kb.indexDocument(
        { org_id: 2, file_id: 10_000 + i, filename: `synthetic-${i}.txt`, offering_ids: [], scope_includes_company: true, use_as_source: true },
        doc,
      );
      synthPassages += counts.passage_count;
    }
    log(`synthetic KB: ${synthPassages} passages, indexed in ${Math.round(performance.now() - synthStart)} ms`);
    rows.push(await time(`search, synthetic KB (${synthPassages} passages)`, sample, (q) => kb.search(2, q, {}, 10)));
    rows.push(await time(`answerChat, synthetic KB (${synthPassages} passages)`, sample, (q) => kb.answerChat(2, q, [], {}), 'p95 < 50 ms', 50));
    const synthCaiq = await time(`answerQuestion x${questions.length}, synthetic KB`, questions, (q) =>
      kb.answerQuestion(2, { text: q, answer_slots: caiq.questions[0]!.answer_slots }, {}),
    );
    synthCaiq.budget = 'total < 5000 ms';
    synthCaiq.ok = synthCaiq.total_ms < 5000;
    rows.push(synthCaiq);
    return rows;
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function printRows(rows: Row[]): void {
  console.table(
    rows.map((r) => ({
      measure: r.name,
      n: r.n,
      'p50 ms': r.p50_ms,
      'p95 ms': r.p95_ms,
      'total ms': r.total_ms,
      budget: r.budget,
      ok: r.ok === null ? '' : r.ok ? 'yes' : 'NO',
    })),
  );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  runRetrievalBench((line) => console.log(line))
    .then(printRows)
    .catch((error: Error) => {
      console.error(error.message);
      process.exit(1);
    });
}
