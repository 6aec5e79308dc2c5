/**
 * The API as one plugin under /api/v2 (src/service/routes/index.ts): its hooks (key, licence, quota)
 * cover every API path, known or not, and nothing else the server carries (the add-in's files).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, setOrg } from '../../../src/service/admin';
import { buildApp, type BuiltApp } from '../../../src/service/app';
import { call, expectError, testStorage } from '../helpers';

let storage: Awaited<ReturnType<typeof testStorage>>;
let built: BuiltApp;
let base: string;
let key: string;

beforeAll(async () => {
  storage = await testStorage();
  const dist = join(storage.dataDir, 'dist');
  mkdirSync(dist);
  writeFileSync(join(dist, 'taskpane.html'), '<!doctype html><title>pane</title>');
  built = await buildApp({ ...storage, staticDir: dist, startWorkers: false });
  base = await built.app.listen({ port: 0, host: '127.0.0.1' });
  key = await createKey(storage, { org: 'acme', user: 'alice' });
});

afterAll(async () => {
  await built?.close();
  await storage?.destroy();
});

describe('the /api/v2 plugin', () => {
  it('an unknown API path needs a key like a known one, then is a 404 naming it', async () => {
    expectError(await call(base, null, 'GET', '/api/v2/chat/nothing/'), 403, /authentication required/);
    expectError(await call(base, key, 'GET', '/api/v2/chat/nothing/'), 404, /^not found: GET \/api\/v2\/chat\/nothing\/$/);
    expectError(await call(base, key, 'DELETE', '/api/v2/chat/sessions/'), 404, /not found: DELETE/);
  });

  it("the add-in's files need no key and do not count against the quota", async () => {
    await setOrg(storage, { org: 'acme', quota: 2 });
    for (let i = 0; i < 4; i++) {
      const page = await fetch(`${base}/taskpane.html`);
      expect(page.status).toBe(200);
    }
    expect((await call(base, key, 'GET', '/api/v2/chat/sessions/')).status).toBe(200);
    expect((await call(base, key, 'GET', '/api/v2/chat/sessions/')).status).toBe(200);
    const third = await call(base, key, 'GET', '/api/v2/chat/sessions/');
    expectError(third, 429, /quota exceeded: 2 requests per minute/);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
