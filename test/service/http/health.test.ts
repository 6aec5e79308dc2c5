/**
 * Operating the service: liveness and readiness without a key, Prometheus metrics for admin keys (or open
 * when chosen), a request id on every response and in the access log.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../../src/service/admin';
import { buildApp, type BuiltApp } from '../../../src/service/app';
import { call, files, KB_TEXT, testStorage, waitFor } from '../helpers';
import { spawnServe } from '../serve-process';

let storage: Awaited<ReturnType<typeof testStorage>>;
let built: BuiltApp;
let base: string;
let admin: string;
let member: string;

beforeAll(async () => {
  storage = await testStorage();
  built = await buildApp({ ...storage, staticDir: null });
  base = await built.app.listen({ port: 0, host: '127.0.0.1' });
  admin = await createKey(storage, { org: 'acme', user: 'alice', role: 'admin' });
  member = await createKey(storage, { org: 'acme', user: 'bob', role: 'member' });
});

afterAll(async () => {
  await built?.close();
  await storage?.destroy();
});

const metrics = (key: string | null) => fetch(`${base}/metrics`, { headers: key ? { 'x-api-key': key } : {} });

/** The value of one sample line of the exposition, or null. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | null {
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const m = /^([a-z_]+)(\{[^}]*\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return null;
}

describe('health', () => {
  it('GET /healthz and /readyz answer without a key and without data', async () => {
    const live = await fetch(`${base}/healthz`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', worker: 'running' } });
  });

  it('/readyz is 503, saying which check failed, when the job worker is not running', async () => {
    const s = await testStorage();
    const app = await buildApp({ ...s, staticDir: null, startWorkers: false });
    try {
      const url = await app.app.listen({ port: 0, host: '127.0.0.1' });
      const res = await fetch(`${url}/readyz`);
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ status: 'not ready', checks: { database: 'ok', worker: 'stopped' } });
    } finally {
      await app.close();
      await s.destroy();
    }
  });
});

describe('metrics', () => {
  it('needs an admin key: none and a member key are refused with the reason', async () => {
    const none = await metrics(null);
    expect(none.status).toBe(403);
    expect((await none.json()).error).toMatch(/metrics need an admin API key/);
    expect((await metrics(member)).status).toBe(403);
  });

  it('counts requests by route, files and passages indexed, jobs by state, and uploads being received', async () => {
    const upload = await call(base, admin, 'POST', '/api/v2/repository/files/', files(['policy.txt', KB_TEXT]));
    expect(upload.status).toBe(200);
    const id = upload.body.file_ids[0] as number;
    await waitFor(
      'the file indexed',
      () => call(base, admin, 'GET', `/api/v2/repository/files/${id}/`),
      (r) => r.body.status === 'ready',
    );

    const res = await metrics(admin);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(sample(text, 'qfill_http_request_duration_seconds_count', { method: 'POST', route: '/api/v2/repository/files/', status: '200' })).toBe(1);
    expect(
      sample(text, 'qfill_http_request_duration_seconds_count', { method: 'GET', route: '/api/v2/repository/files/:id/', status: '200' }),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'qfill_files_processed_total', { outcome: 'ready' })).toBe(1);
    expect(sample(text, 'qfill_passages_indexed_total')).toBeGreaterThan(0);
    expect(sample(text, 'qfill_jobs', { kind: 'ingest_file', state: 'done' })).toBe(1);
    expect(sample(text, 'qfill_uploads_receiving')).toBe(0);
    expect(text).toContain('# TYPE qfill_answers_total counter');
    expect(text).toContain('# TYPE qfill_model_tokens_total counter');
  });
});

describe('request ids', () => {
  it('every response carries one, errors included; a plain id sent by the caller is kept', async () => {
    const ok = await fetch(`${base}/healthz`);
    expect(ok.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const refused = await fetch(`${base}/api/v2/repository/files/`);
    expect(refused.status).toBe(403);
    expect(refused.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const traced = await fetch(`${base}/healthz`, { headers: { 'x-request-id': 'lb-1234.abc' } });
    expect(traced.headers.get('x-request-id')).toBe('lb-1234.abc');
    const odd = await fetch(`${base}/healthz`, { headers: { 'x-request-id': 'a b <script>' } });
    expect(odd.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('qfill serve --log-requests logs each request with its id; --metrics opens /metrics without a key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'qfill-log-'));
    const serve = await spawnServe(['--data', dir, '--log-requests', '--metrics']);
    let stdout = '';
    serve.child.stdout!.on('data', (d) => (stdout += d));
    try {
      const res = await fetch(`${serve.url}/metrics`, { headers: { 'x-request-id': 'scrape-1' } });
      expect(res.status).toBe(200);
      await waitFor(
        'the access log line of the answer',
        async () => stdout,
        (out) => /"reqId":"scrape-1".*"statusCode":200/.test(out),
        5000,
      ).catch(() => undefined);
      expect(stdout).toMatch(/"reqId":"scrape-1".*"url":"\/metrics"/);
      expect(stdout).toMatch(/"reqId":"scrape-1".*"statusCode":200/);
    } finally {
      await serve.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
