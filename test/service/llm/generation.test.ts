import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { call, client, files, KB_TEXT, questionnaireXlsx, startService, uploadKnowledge, waitFor, waitForComplete, type Service } from '../helpers';
import { startStubModel, type StubModel } from './stub-model';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const TOPICS = [
  'encryption at rest',
  'multi-factor authentication for administrators',
  'backup retention',
  'quarterly access reviews',
  'TLS versions in transit',
];
const question = (i: number): [string, string] => [`Q-${i}`, `Question ${i}: how do you handle ${TOPICS[i % TOPICS.length]} (control ${i})?`];

let stub: StubModel | null = null;
let service: Service | null = null;
const children: ChildProcess[] = [];
const dirs: string[] = [];
const saved = { ...process.env };

afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await service?.destroy();
  service = null;
  await stub?.close();
  stub = null;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  for (const k of Object.keys(process.env)) if (k.startsWith('QFILL_LLM_')) delete process.env[k];
  Object.assign(process.env, saved);
});

interface StoredAnswer {
  text: string;
  evaluation: { reason: string; model?: string; llm_usage?: { requests: number; tokens: number; questions: number } };
  slot_responses: { slot_key: string; content: string }[];
}
interface StoredQuestion {
  original_question_text: string;
  flagged_for_review: boolean;
  answers: StoredAnswer[];
}

describe('generation through a language model', () => {
  it('sends a section in batches, fewer requests than questions, and counts requests and tokens in the stats', async () => {
    stub = await startStubModel({ tokensPerRequest: 250 });
    Object.assign(process.env, { QFILL_LLM_BASE_URL: stub.url, QFILL_LLM_MODEL: 'stub-llm', QFILL_LLM_CONCURRENCY: '3', QFILL_LLM_BATCH_QUESTIONS: '4' });
    service = await startService();
    const api = client(service, await service.key({ org: 'acme', user: 'alice' }));
    await uploadKnowledge(api);
    const questions = Array.from({ length: 20 }, (_, i) => question(i + 1));
    const up = await api.post('/api/v2/filler/questionnaires/', files(['q.xlsx', await questionnaireXlsx([{ name: 'Security', sections: [{ questions }] }])]));
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    const id = up.body.questionnaire_ids[0] as number;
    await waitForComplete(api, id);

    const answers = (await api.get(`/api/v2/filler/questionnaires/${id}/answers/`)).body as StoredQuestion[];
    const byModel = answers.filter((q) => q.answers[0]?.evaluation.model === 'stub-llm');
    expect(byModel.length).toBeGreaterThan(10);
    expect(stub.received).toBeLessThan(byModel.length);
    expect(stub.received).toBeGreaterThanOrEqual(Math.ceil(byModel.length / 4));
    expect([...stub.asked.values()].every((n) => n === 1)).toBe(true);
    expect(answers.every((q) => q.answers.length === 1)).toBe(true);

    const stats = (await api.get(`/api/v2/filler/questionnaires/${id}/`)).body.stats;
    expect(stats).toMatchObject({ llm_requests: stub.received, llm_tokens: stub.received * 250 });
    // The engine, for the pane.
    const ext = (await api.get('/api/v2/extensions/')).body;
    expect(ext.answering).toMatchObject({ engine: 'llm', model: 'stub-llm', concurrency: 3 });
  }, 60_000);

  it('stops asking the model when the questionnaire budget is spent: the rest are extractive, flagged, with the reason', async () => {
    stub = await startStubModel({ tokensPerRequest: 1000 });
    // Room for the first batches only (a batch's estimate is ~1,000-2,000 tokens).
    Object.assign(process.env, {
      QFILL_LLM_BASE_URL: stub.url,
      QFILL_LLM_MODEL: 'stub-llm',
      QFILL_LLM_CONCURRENCY: '1',
      QFILL_LLM_BATCH_QUESTIONS: '2',
      QFILL_LLM_TOKEN_BUDGET: '3000',
    });
    service = await startService();
    const api = client(service, await service.key({ org: 'acme', user: 'alice' }));
    await uploadKnowledge(api);
    const questions = Array.from({ length: 20 }, (_, i) => question(i + 1));
    const up = await api.post('/api/v2/filler/questionnaires/', files(['q.xlsx', await questionnaireXlsx([{ name: 'Security', sections: [{ questions }] }])]));
    const id = up.body.questionnaire_ids[0] as number;
    await waitForComplete(api, id);

    const answers = (await api.get(`/api/v2/filler/questionnaires/${id}/answers/`)).body as StoredQuestion[];
    const overBudget = answers.filter((q) =>
      /token budget of 3000 tokens per questionnaire \(QFILL_LLM_TOKEN_BUDGET\) is spent/.test(q.answers[0]!.evaluation.reason),
    );
    expect(stub.received).toBeGreaterThan(0);
    expect(stub.tokens).toBeLessThanOrEqual(3000);
    expect(overBudget.length).toBeGreaterThan(5);
    expect(overBudget.every((q) => q.flagged_for_review)).toBe(true);
    expect((await api.get(`/api/v2/filler/questionnaires/${id}/`)).body.stats).toMatchObject({ llm_tokens: stub.tokens, llm_requests: stub.received });
  }, 60_000);

  it('a `qfill serve` killed mid-way resumes: no question answered twice, none lost, only the batches in flight asked again', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'qfill-llm-resume-'));
    dirs.push(dataDir);
    const made = spawnSync(process.execPath, ['bin/qfill.js', 'keys', 'create', '--data', dataDir, '--org', 'acme', '--user', 'alice'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(made.status, made.stderr).toBe(0);
    const key = made.stdout.trim();
    // Three requests answered, then every request held: the service is killed with two batches in flight.
    stub = await startStubModel({ holdAfter: 3, tokensPerRequest: 100 });
    const env = { ...process.env, QFILL_LLM_BASE_URL: stub.url, QFILL_LLM_MODEL: 'stub-llm', QFILL_LLM_CONCURRENCY: '2', QFILL_LLM_BATCH_QUESTIONS: '4' };

    const serve = async () => {
      const child = spawn(process.execPath, ['bin/qfill.js', 'serve', '--http', '--port', '0', '--data', dataDir], {
        cwd: ROOT,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(child);
      let out = '';
      let err = '';
      child.stderr!.on('data', (d) => (err += d));
      const base = await new Promise<string>((resolve, reject) => {
        child.stdout!.on('data', (d) => {
          out += d;
          const m = /Listening on (http:\/\/[^\s]+)/.exec(out);
          if (m) resolve(m[1]!);
        });
        child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${err}`)));
      });
      return { child, api: { get: (p: string) => call(base, key, 'GET', p), post: (p: string, b?: unknown) => call(base, key, 'POST', p, b) } };
    };

    const first = await serve();
    const kb = await first.api.post('/api/v2/repository/files/', files(['security.txt', KB_TEXT, 'text/plain']));
    await waitFor(
      'the knowledge file',
      () => first.api.get(`/api/v2/repository/files/${kb.body.file_ids[0]}/`),
      (r) => r.body.status === 'ready',
    );
    const questions = Array.from({ length: 40 }, (_, i) => question(i + 1));
    const up = await first.api.post(
      '/api/v2/filler/questionnaires/',
      files(['q.xlsx', await questionnaireXlsx([{ name: 'Security', sections: [{ questions }] }])]),
    );
    const id = up.body.questionnaire_ids[0] as number;
    // Two held requests = both concurrency slots taken, so the three answered batches are stored.
    await waitFor(
      'two requests in flight',
      async () => stub!.held.length,
      (n) => n >= 2,
    );
    const before = (await first.api.get(`/api/v2/filler/questionnaires/${id}/answer-progress/`)).body;
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    const answeredBefore = new Set(stub.answered);
    const inFlight = new Set(stub.held.flat());
    expect(before.status).toBe('generating');
    expect(answeredBefore.size).toBe(12);
    stub.release();

    const second = await serve();
    await waitFor(
      'generation to complete',
      () => second.api.get(`/api/v2/filler/questionnaires/${id}/answer-progress/`),
      (r) => r.body.status === 'complete',
      90_000,
    );
    const answers = (await second.api.get(`/api/v2/filler/questionnaires/${id}/answers/`)).body as StoredQuestion[];
    expect(answers).toHaveLength(40);
    // None lost, none answered twice.
    expect(answers.every((q) => q.answers.length === 1)).toBe(true);
    // Nothing whose reply arrived before the kill was asked again; only what was in flight was.
    for (const text of answeredBefore) expect(stub.asked.get(text), text).toBe(1);
    const askedTwice = [...stub.asked].filter(([, n]) => n > 1).map(([text]) => text);
    expect(askedTwice.length).toBeGreaterThan(0);
    expect(askedTwice.every((text) => inFlight.has(text))).toBe(true);
    expect([...stub.asked.values()].every((n) => n <= 2)).toBe(true);
    // The stats count the requests whose answers were stored (the two lost in flight left no trace).
    const stats = (await second.api.get(`/api/v2/filler/questionnaires/${id}/`)).body.stats;
    expect(stats).toMatchObject({ llm_requests: stub.replies, llm_tokens: stub.replies * 100 });
    second.child.kill('SIGTERM');
  }, 150_000);
});
