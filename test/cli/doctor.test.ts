import { afterEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { doctor } from '../../src/cli/doctor';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Loopback OpenAI-compatible stubs, each behaving one way. */
type Behaviour = (req: IncomingMessage, body: Record<string, unknown>, res: ServerResponse) => void;
const servers: Server[] = [];
const seen: { url: string; headers: IncomingMessage['headers']; body: Record<string, unknown> }[] = [];

async function stub(behave: Behaviour): Promise<string> {
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const body = JSON.parse(raw || '{}') as Record<string, unknown>;
      seen.push({ url: req.url ?? '', headers: req.headers, body });
      behave(req, body, res);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function json(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}
const chat = (content: string, model = 'served-model') => ({ model, choices: [{ message: { role: 'assistant', content } }], usage: { total_tokens: 31 } });

const good: Behaviour = (req, body, res) => {
  if (req.url?.includes('/embeddings')) return json(res, 200, { data: [{ index: 0, embedding: [0.1, 0.2, 0.3] }] });
  json(res, 200, chat('{"answer": "Yes"}', String(body.model)));
};
const noJsonSchema: Behaviour = (_req, body, res) => {
  if (body.response_format) return json(res, 400, { error: { message: "Unsupported parameter: 'response_format' of type json_schema" } });
  json(res, 200, chat('Sure: {"answer": "Yes"}'));
};
const unauthorised: Behaviour = (_req, _body, res) => json(res, 401, { error: { message: 'Incorrect API key provided' } });

afterEach(async () => {
  seen.length = 0;
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
});

const text = (r: { lines: string[] }) => r.lines.join('\n');

describe('qfill doctor', () => {
  it('names a bad setting instead of checking an endpoint with a default in its place', async () => {
    const r = await doctor({ QFILL_LLM_BASE_URL: 'http://127.0.0.1:9/v1', QFILL_LLM_MODEL: 'm', QFILL_LLM_TIMEOUT_SECONDS: 'soon' });
    expect(r.ok).toBe(false);
    expect(text(r)).toMatch(/^Configuration: QFILL_LLM_TIMEOUT_SECONDS is "soon", but it expects a number of seconds above 0/m);
    expect(text(r)).toMatch(/Verdict: the service cannot use this configuration/);
  });

  it('reports a good endpoint: model, structured output supported, latency, exit 0', async () => {
    const base = await stub(good);
    const r = await doctor({ QFILL_LLM_BASE_URL: `${base}/v1`, QFILL_LLM_MODEL: 'gpt-test', QFILL_LLM_API_KEY: 'sk-1' });
    expect(r.ok).toBe(true);
    expect(text(r)).toMatch(/model served: gpt-test/);
    expect(text(r)).toMatch(/structured output: supported/);
    expect(text(r)).toMatch(/latency: \d+ ms/);
    expect(text(r)).toMatch(/valid JSON with an allowed value/);
    expect(seen[0]!.url).toBe('/v1/chat/completions');
    expect(seen[0]!.headers.authorization).toBe('Bearer sk-1');
    expect((seen[0]!.body.response_format as { type: string }).type).toBe('json_schema');
  });

  it('says the key was refused on a 401, once (no retries), exit 1', async () => {
    const base = await stub(unauthorised);
    const r = await doctor({ QFILL_LLM_BASE_URL: `${base}/v1`, QFILL_LLM_MODEL: 'gpt-test', QFILL_LLM_API_KEY: 'wrong' });
    expect(r.ok).toBe(false);
    expect(text(r)).toMatch(/key was refused \(HTTP 401: Incorrect API key provided\); check QFILL_LLM_API_KEY/);
    expect(seen).toHaveLength(1);
  });

  it('says a server without json_schema gets JSON-only prompts, and still passes', async () => {
    const base = await stub(noJsonSchema);
    const r = await doctor({ QFILL_LLM_BASE_URL: `${base}/v1`, QFILL_LLM_MODEL: 'llama3' });
    expect(r.ok).toBe(true);
    expect(text(r)).toMatch(/structured output: NOT supported/);
    expect(text(r)).toMatch(/valid JSON with an allowed value/);
    expect(seen.map((s) => 'response_format' in s.body)).toEqual([true, false]);
  });

  it('says an unreachable endpoint did not answer, exit 1', async () => {
    const base = await stub(good);
    await new Promise<void>((resolve) => servers.pop()!.close(() => resolve()));
    const r = await doctor({ QFILL_LLM_BASE_URL: `${base}/v1`, QFILL_LLM_MODEL: 'gpt-test' });
    expect(r.ok).toBe(false);
    expect(text(r)).toMatch(/not usable: the language model endpoint did not answer: .*ECONNREFUSED/);
  });

  it('checks an Azure deployment with api-version and api-key, and the embeddings endpoint', async () => {
    const base = await stub(good);
    const r = await doctor({
      QFILL_LLM_BASE_URL: `${base}/openai/deployments/gpt-4o`,
      QFILL_LLM_MODEL: 'gpt-4o',
      QFILL_LLM_API_KEY: 'azure-key',
      QFILL_LLM_API_VERSION: '2024-06-01',
      QFILL_EMBEDDINGS_BASE_URL: `${base}/openai/deployments/embed`,
      QFILL_EMBEDDINGS_MODEL: 'text-embedding-3-small',
      QFILL_EMBEDDINGS_API_KEY: 'azure-key',
    });
    expect(r.ok).toBe(true);
    expect(text(r)).toMatch(/Azure OpenAI deployment/);
    expect(text(r)).toMatch(/Embeddings: .*\n {2}reachable; 3 dimensions/);
    expect(seen.map((s) => s.url)).toEqual([
      '/openai/deployments/gpt-4o/chat/completions?api-version=2024-06-01',
      '/openai/deployments/embed/embeddings?api-version=2024-06-01',
    ]);
    expect(seen.every((s) => s.headers['api-key'] === 'azure-key')).toBe(true);
  });

  it('without a model configured, says answers are extractive and exits 0', async () => {
    const r = await doctor({});
    expect(r.ok).toBe(true);
    expect(text(r)).toMatch(/none configured .* answers are extractive/);
  });

  it('runs as `qfill doctor` with no build step, exit code 1 for a refused key', async () => {
    const base = await stub(unauthorised);
    const env = { ...process.env, QFILL_LLM_BASE_URL: `${base}/v1`, QFILL_LLM_MODEL: 'gpt-test', QFILL_LLM_API_KEY: 'wrong' };
    const child = spawn(process.execPath, ['bin/qfill.js', 'doctor'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(out).toMatch(/key was refused/);
  }, 60_000);
});
