/**
 * The service's own origin (src/service/http/origin.ts) over loopback: `next`/`previous` links never
 * copy the request's Host, a malformed Host is a 400, and CORS answers only our own origin and the
 * configured ones (never `null`, never any page on the web).
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../../src/service/admin';
import { buildApp, type BuiltApp } from '../../../src/service/app';
import { call, expectError, testStorage } from '../helpers';

let storage: Awaited<ReturnType<typeof testStorage>>;
let built: BuiltApp;
let base: string;
let port: number;
let key: string;

/** One raw request, so the Host header can be anything a client might send. */
function rawGet(path: string, headers: Record<string, string>): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: 'GET', headers, setHost: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  storage = await testStorage();
  built = await buildApp({ ...storage, staticDir: null, startWorkers: false, corsOrigins: ['https://addin.example.com'] });
  base = await built.app.listen({ port: 0, host: '127.0.0.1' });
  port = Number(new URL(base).port);
  key = await createKey(storage, { org: 'acme', user: 'alice' });
  for (let i = 0; i < 3; i++) await call(base, key, 'POST', '/api/v2/chat/sessions/', { title: `s${i}` });
});

afterAll(async () => {
  await built?.close();
  await storage?.destroy();
});

describe('next/previous links', () => {
  it('use the listening address, whatever Host the request carried', async () => {
    const res = await rawGet('/api/v2/chat/sessions/?page_size=1&page=2', { Host: 'evil.example', 'X-API-Key': key });
    expect(res.status).toBe(200);
    const page = JSON.parse(res.body) as { next: string; previous: string };
    expect(page.next).toBe(`http://127.0.0.1:${port}/api/v2/chat/sessions/?page_size=1&page=3`);
    expect(page.previous).toBe(`http://127.0.0.1:${port}/api/v2/chat/sessions/?page_size=1&page=1`);
  });

  it('keep `localhost` for a client that called the loopback address by that name', async () => {
    const res = await rawGet('/api/v2/chat/sessions/?page_size=1', { Host: `localhost:${port}`, 'X-API-Key': key });
    expect(JSON.parse(res.body).next).toBe(`http://localhost:${port}/api/v2/chat/sessions/?page_size=1&page=2`);
  });

  it('use the configured public URL when there is one', async () => {
    const dir = await testStorage();
    const other = await buildApp({ ...dir, staticDir: null, startWorkers: false, publicUrl: 'https://qfill.example.com/ignored/path' });
    try {
      const otherBase = await other.app.listen({ port: 0, host: '127.0.0.1' });
      const k = await createKey(dir, { org: 'acme', user: 'bob' });
      for (let i = 0; i < 2; i++) await call(otherBase, k, 'POST', '/api/v2/chat/sessions/', {});
      const res = await call(otherBase, k, 'GET', '/api/v2/chat/sessions/?page_size=1');
      expect(res.body.next).toBe('https://qfill.example.com/api/v2/chat/sessions/?page_size=1&page=2');
    } finally {
      await other.close();
      await dir.destroy();
    }
  });

  it.each(['a b', '[::1', '%zz'])('a malformed Host %j is a 400 naming the header', async (host) => {
    const res = await rawGet('/api/v2/chat/sessions/?page_size=1', { Host: host, 'X-API-Key': key });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual({ error: expect.stringContaining('Host') });
  });
});

describe('CORS', () => {
  const preflight = (origin: string) =>
    call(base, null, 'OPTIONS', '/api/v2/chat/ask/', undefined, {
      Origin: origin,
      'Access-Control-Request-Method': 'POST',
      'Access-Control-Request-Headers': 'x-api-key,content-type',
    });

  it('allows a configured origin, with the API key header', async () => {
    const res = await preflight('https://addin.example.com');
    expect(res.headers.get('access-control-allow-origin')).toBe('https://addin.example.com');
    expect(res.headers.get('access-control-allow-headers')).toMatch(/X-API-Key/i);
    const get = await call(base, key, 'GET', '/api/v2/chat/sessions/', undefined, { Origin: 'https://addin.example.com' });
    expect(get.headers.get('access-control-allow-origin')).toBe('https://addin.example.com');
  });

  it("allows the service's own origin", async () => {
    const res = await call(base, key, 'GET', '/api/v2/chat/sessions/', undefined, { Origin: `http://127.0.0.1:${port}` });
    expect(res.headers.get('access-control-allow-origin')).toBe(`http://127.0.0.1:${port}`);
  });

  it.each(['https://evil.example', 'null', 'https://addin.example.com.evil.example', `http://127.0.0.1:${1}`])('gives %s no CORS headers', async (origin) => {
    const res = await preflight(origin);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const get = await call(base, key, 'GET', '/api/v2/chat/sessions/', undefined, { Origin: origin });
    expect(get.status).toBe(200);
    expect(get.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('id lists', () => {
  it('more than 1000 offering ids is a 400 naming the field (JSON and form-encoded)', async () => {
    const json = await call(base, key, 'POST', '/api/v2/chat/ask/', {
      question: 'Is data encrypted?',
      offering_ids: Array.from({ length: 1001 }, (_, i) => i + 1),
    });
    expectError(json, 400, /offering_ids/);
    const form = new URLSearchParams({ question: 'Is data encrypted?' });
    for (let i = 0; i < 1500; i++) form.append(`offering_ids[${i}]`, String(i + 1));
    const res = await call(base, key, 'POST', '/api/v2/chat/ask/', form);
    expectError(res, 400, /offering_ids: .*1000/);
    // Far more fields than any valid form: refused by counting, before an object of 30,000 keys is built.
    for (let i = 1500; i < 30_000; i++) form.append(`offering_ids[${i}]`, String(i + 1));
    const flood = await call(base, key, 'POST', '/api/v2/chat/ask/', form);
    expectError(flood, 400, /more than 2050 fields/);
  });

  it('1000 unknown offering ids are looked up in one statement and refused as unknown', async () => {
    const res = await call(base, key, 'POST', '/api/v2/chat/ask/', {
      question: 'Is data encrypted?',
      offering_ids: Array.from({ length: 1000 }, (_, i) => i + 1),
    });
    expectError(res, 400, /offering_ids: unknown offering 1, 2, 3/);
  });
});
