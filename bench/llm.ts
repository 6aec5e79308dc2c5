/**
 * The CAIQ (261 questions) generated through a language model: a loopback stub model answering every
 * request after 300 ms (test/service/llm/stub-model.ts), QFILL_LLM_CONCURRENCY=8, the fixtures knowledge
 * base ingested first. Time from upload to `complete` and requests made, with batching (the default) and
 * with one question per request, to show what batching saves. Needs ../shared/fixtures.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ApiClient } from '../src/api/client';
import { createKey } from '../src/service/admin';
import { buildApp } from '../src/service/app';
import { startStubModel } from '../test/service/llm/stub-model';

export interface LlmRow {
  measure: string;
  questions: number;
  by_model: number;
  requests: number;
  tokens: number;
  total_ms: number;
  budget: string;
}

export const LLM_COLUMNS: [keyof LlmRow, string][] = [
  ['measure', 'measure'],
  ['questions', 'questions'],
  ['by_model', 'answered by the model'],
  ['requests', 'requests'],
  ['tokens', 'tokens (stub: 500 a request)'],
  ['total_ms', 'upload → complete ms'],
  ['budget', 'target'],
];

const FIXTURES = path.resolve(process.env.FIXTURES_DIR ?? '../shared/fixtures');
const LATENCY_MS = 300;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : [full];
  });
}

async function until<T>(what: string, fn: () => Promise<T | null>, timeoutMs = 600_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== null) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function runLlmBench(log: (line: string) => void = () => {}): Promise<LlmRow[]> {
  if (!existsSync(FIXTURES)) throw new Error(`${FIXTURES} is missing: the language-model bench needs ../shared/fixtures`);
  const caiq = new Uint8Array(readFileSync(path.join(FIXTURES, 'questionnaires', 'caiq-v4.0.3-blank.xlsx')));
  const kb = files(path.join(FIXTURES, 'kb'));
  const rows: LlmRow[] = [];
  const saved = { ...process.env };
  const dataDir = mkdtempSync(path.join(tmpdir(), 'qfill-bench-llm-'));
  const stub = await startStubModel({ latencyMs: LATENCY_MS, tokensPerRequest: 500 });
  try {
    const key = await createKey(dataDir, { org: 'bench', user: 'bench', role: 'admin' });
    for (const [label, batch] of [
      ['batched (default: up to 8 questions of a section per request)', undefined],
      ['one question per request (QFILL_LLM_BATCH_QUESTIONS=1)', '1'],
    ] as const) {
      // The service reads its model configuration when it starts.
      Object.assign(process.env, { QFILL_LLM_BASE_URL: stub.url, QFILL_LLM_MODEL: 'stub-300ms', QFILL_LLM_CONCURRENCY: '8' });
      if (batch) process.env.QFILL_LLM_BATCH_QUESTIONS = batch;
      else delete process.env.QFILL_LLM_BATCH_QUESTIONS;
      const built = await buildApp({ dataDir, staticDir: null, logger: false });
      try {
        const base = await built.app.listen({ port: 0, host: '127.0.0.1' });
        const client = new ApiClient({ baseUrl: base, apiKey: key });
        if (rows.length === 0) {
          log(`ingesting ${kb.length} knowledge-base files…`);
          let accepted = 0;
          for (let i = 0; i < kb.length; i += 20) {
            const result = await client.uploadRepositoryFiles(
              kb.slice(i, i + 20).map((f) => ({ name: path.basename(f), data: new Uint8Array(readFileSync(f)) })),
              { scope_includes_company: true },
            );
            accepted += Math.min(20, kb.length - i) - (result.failed?.length ?? 0);
          }
          await until('ingestion', async () => {
            const seen: string[] = [];
            for await (const f of client.iterateRepositoryFiles({ page_size: 200 })) seen.push(f.status);
            return seen.length === accepted && seen.every((s) => s === 'ready' || s === 'failed') ? true : null;
          });
        }
        log(`CAIQ through the stub model, ${label}…`);
        const before = { requests: stub.received, tokens: stub.tokens };
        const t = performance.now();
        const upload = await client.uploadQuestionnaires([{ name: 'caiq.xlsx', data: caiq }]);
        const id = upload.questionnaire_ids[0]!;
        const progress = await client.pollAnswerProgress(id, { minIntervalMs: 50, maxIntervalMs: 100 });
        const totalMs = Math.round(performance.now() - t);
        const answers = await client.getAnswers(id);
        const byModel = answers.filter((q) => (q.answers[0]?.evaluation as { model?: string } | undefined)?.model === 'stub-300ms').length;
        const requests = stub.received - before.requests;
        rows.push({
          measure: `CAIQ, stub model ${LATENCY_MS} ms, concurrency 8, ${label}`,
          questions: progress.answers_expected,
          by_model: byModel,
          requests,
          tokens: stub.tokens - before.tokens,
          total_ms: totalMs,
          budget: batch ? '' : '< 15,000 ms; requests < questions',
        });
      } finally {
        await built.close();
      }
    }
  } finally {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
    await stub.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return rows;
}
