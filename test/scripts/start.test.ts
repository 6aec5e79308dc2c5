// `npm start` as a newcomer meets it: it serves the add-in and the API on one origin, seeds a demo
// organisation, key, knowledge base and questionnaire, stops cleanly on Ctrl-C, and a second start reuses
// the data (same key, nothing uploaded twice).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DIST_DIR } from '../build-output';

const dataDir = mkdtempSync(path.join(tmpdir(), 'qfill-start-'));
let firstKey = '';
let firstOwnKey = '';

interface Started {
  child: ChildProcess;
  url: string;
  key: string;
  ownKey: string;
  output: () => string;
}

async function start(): Promise<Started> {
  if (!existsSync(path.join(DIST_DIR, 'workbench.html'))) throw new Error('dist/ is missing: npm test builds it first');
  const child = spawn(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'scripts/start.ts', '--http'], {
    env: { ...process.env, QFILL_SKIP_BUILD: '1', QFILL_DATA: dataDir, PORT: '0', QFILL_NO_SIDELOAD: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const deadline = Date.now() + 60_000;
  while (!/Press Ctrl-C to stop/.test(out)) {
    if (child.exitCode !== null) throw new Error(`npm start exited early:\n${out}`);
    if (Date.now() > deadline) throw new Error(`npm start did not come up:\n${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const url = /running at (\S+)/.exec(out)?.[1];
  const key = /Demo API key[^:]*: (qf_\S+)/.exec(out)?.[1];
  const ownKey = /Your API key[^:]*: (qf_\S+)/.exec(out)?.[1];
  if (!url || !key || !ownKey) throw new Error(`npm start printed no URL or keys:\n${out}`);
  return { child, url, key, ownKey, output: () => out };
}

async function stop(s: Started): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => s.child.once('exit', (code) => resolve(code)));
  s.child.kill('SIGINT');
  return exited;
}

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('npm start', () => {
  it('serves the workbench and the API on one origin with a seeded demo, and stops on Ctrl-C', async () => {
    const s = await start();
    firstKey = s.key;
    firstOwnKey = s.ownKey;
    try {
      expect(s.output()).toMatch(/workbench\.html/);
      const page = await fetch(`${s.url}/workbench.html`);
      expect(page.status).toBe(200);
      expect(await page.text()).toMatch(/id="?workbench"?/);
      expect((await fetch(`${s.url}/taskpane.html`)).status).toBe(200);

      const files = await fetch(`${s.url}/api/v2/repository/files/?search=northwind`, { headers: { 'X-API-Key': s.key } });
      expect(files.status).toBe(200);
      const body = (await files.json()) as { count: number };
      expect(body.count).toBe(2);
      expect(existsSync(path.join(dataDir, 'demo', 'demo-questionnaire.xlsx'))).toBe(true);
      // The analyst's own key is another organisation: an empty library, and the demo documents never answer for it.
      expect(s.ownKey).not.toBe(s.key);
      const own = await fetch(`${s.url}/api/v2/repository/files/`, { headers: { 'X-API-Key': s.ownKey } });
      expect(own.status).toBe(200);
      expect(((await own.json()) as { count: number }).count).toBe(0);
      const asked = await fetch(`${s.url}/api/v2/chat/ask/`, {
        method: 'POST',
        headers: { 'X-API-Key': s.ownKey, 'Content-Type': 'application/json' },
        body: JSON.stringify({ question: 'Does Northwind encrypt data at rest?' }),
      });
      expect(asked.status).toBe(200);
      expect(JSON.stringify(await asked.json())).not.toMatch(/northwind-/i);
    } finally {
      expect(await stop(s)).toBe(0);
    }
  }, 120_000);

  it('reuses the data on a second start: same key, nothing seeded twice', async () => {
    const s = await start();
    expect(firstKey).toMatch(/^qf_/);
    expect(s.key).toBe(firstKey);
    expect(s.ownKey).toBe(firstOwnKey);
    try {
      const res = await fetch(`${s.url}/api/v2/repository/files/`, { headers: { 'X-API-Key': s.key } });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { count: number };
      expect(body.count).toBe(2);
    } finally {
      expect(await stop(s)).toBe(0);
    }
  }, 120_000);
});
