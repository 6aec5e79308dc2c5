/** The add-in files at `/` beside the API, and CORS for add-ins served from another origin. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createKey } from '../../src/service/admin';
import { testStorage } from './helpers';
import { buildApp, type BuiltApp } from '../../src/service/app';

let built: BuiltApp;
let base: string;
let key: string;
let storage: Awaited<ReturnType<typeof testStorage>>;
const distDir = mkdtempSync(join(tmpdir(), 'qfill-dist-'));

beforeAll(async () => {
  writeFileSync(join(distDir, 'taskpane.html'), '<!doctype html><title>Task pane</title>');
  writeFileSync(join(distDir, 'taskpane.js'), 'console.log("pane")');
  storage = await testStorage();
  key = await createKey(storage, { org: 'acme', user: 'alice' });
  built = await buildApp({ ...storage, staticDir: distDir, startWorkers: false, corsOrigins: ['https://addin.example.com'] });
  base = await built.app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await built.close();
  await storage.destroy();
  rmSync(distDir, { recursive: true, force: true });
});

it('serves the built add-in without a key', async () => {
  const page = await fetch(`${base}/taskpane.html`);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toMatch(/text\/html/);
  expect(await page.text()).toMatch(/Task pane/);
  expect((await fetch(`${base}/taskpane.js`)).status).toBe(200);
  const root = await fetch(`${base}/`);
  expect(root.status).toBe(200);
  expect(await root.text()).toMatch(/Task pane/);
});

it('keeps JSON errors for missing files and API paths', async () => {
  const missing = await fetch(`${base}/nope.js`);
  expect(missing.status).toBe(404);
  expect(await missing.json()).toEqual({ error: 'not found: GET /nope.js' });
  const api = await fetch(`${base}/api/v2/unknown/`, { headers: { 'X-API-Key': key } });
  expect(api.status).toBe(404);
  expect(await api.json()).toEqual({ error: 'not found: GET /api/v2/unknown/' });
  // Traversal out of the static folder is not served.
  const traversal = await fetch(`${base}/..%2f..%2fetc%2fpasswd`);
  expect(traversal.status).toBe(404);
});

it('answers CORS preflights of a configured origin without a key and allows the API key header', async () => {
  const res = await fetch(`${base}/api/v2/chat/ask/`, {
    method: 'OPTIONS',
    headers: {
      Origin: 'https://addin.example.com',
      'Access-Control-Request-Method': 'POST',
      'Access-Control-Request-Headers': 'content-type,x-api-key',
    },
  });
  expect(res.status).toBe(204);
  expect(res.headers.get('access-control-allow-origin')).toBe('https://addin.example.com');
  expect(res.headers.get('access-control-allow-headers')!.toLowerCase()).toContain('x-api-key');
  const actual = await fetch(`${base}/api/v2/chat/sessions/`, { headers: { Origin: 'https://addin.example.com', 'X-API-Key': key } });
  expect(actual.status).toBe(200);
  expect(actual.headers.get('access-control-allow-origin')).toBe('https://addin.example.com');
});
