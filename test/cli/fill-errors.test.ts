/**
 * Service failures end a fill with exit code 1, the service's own message, and no output file:
 * a refused key (403), a quota that stays exhausted (429 after retries), an unreachable address,
 * and answers that do not arrive within --timeout.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../src/service/admin';
import { protectedMultiTabWorkbook } from '../xlsx/helpers';
import { type LocalService, runFillCaptured, startLocalService, tempDir } from '../xlsx/service-helpers';

let service: LocalService;
let dir: string;
let input: string;

/** A loopback server answering every request with the given handler. */
async function stubServer(handler: Parameters<typeof createServer>[1]): Promise<{ base: string; server: Server; hits: () => number }> {
  let hits = 0;
  const server = createServer((req, res) => {
    hits++;
    handler!(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, hits: () => hits };
}

beforeAll(async () => {
  service = await startLocalService();
  dir = tempDir();
  input = join(dir, 'questionnaire.xlsx');
  writeFileSync(input, await protectedMultiTabWorkbook());
});

afterAll(async () => {
  await service?.close();
});

describe('qfill fill when the service fails', () => {
  it('403: an unknown key gets exit 1 and the service message', async () => {
    const out = join(dir, 'a.xlsx');
    const run = await runFillCaptured([input, '--out', out, '--base', service.base, '--key', 'qf_not-a-real-key']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/403/);
    expect(run.stderr).toContain('invalid API key');
    expect(existsSync(out)).toBe(false);
  });

  it('403: a read-only key cannot upload', async () => {
    const key = await createKey(service.dataDir, { org: 'acme', user: 'reader', readOnly: true });
    const out = join(dir, 'b.xlsx');
    const run = await runFillCaptured([input, '--out', out], { QFILL_BASE_URL: service.base, QFILL_API_KEY: key });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/read-only/);
    expect(existsSync(out)).toBe(false);
  });

  it('429 after retries: exit 1 with the quota message', async () => {
    const stub = await stubServer((_req, res) => {
      res.writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': '0' });
      res.end(JSON.stringify({ error: 'Quota exceeded for organization acme' }));
    });
    try {
      const out = join(dir, 'c.xlsx');
      const run = await runFillCaptured([input, '--out', out, '--base', stub.base, '--key', 'qf_x']);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/429/);
      expect(run.stderr).toContain('Quota exceeded for organization acme');
      expect(stub.hits()).toBeGreaterThan(1); // it retried before giving up
      // Each wait was said, in the service's own words.
      expect(run.stderr).toContain('qfill: Quota exceeded for organization acme. Waiting 1 s, then retrying automatically.');
      expect(existsSync(out)).toBe(false);
    } finally {
      stub.server.close();
    }
  });

  it('unreachable: exit 1, says so and how to start the local service', async () => {
    const stub = await stubServer(() => undefined);
    const base = stub.base;
    await new Promise((r) => stub.server.close(r)); // nothing listens there any more
    const out = join(dir, 'd.xlsx');
    const run = await runFillCaptured([input, '--out', out, '--base', base, '--key', 'qf_x']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`Is the service running at ${base}/api/v2/?`);
    expect(run.stderr).toMatch(/npx qfill serve --http/);
    expect(existsSync(out)).toBe(false);
  });

  it('--timeout: exit 1 when the answers are not ready in time', async () => {
    const stub = await stubServer((req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      if (req.method === 'POST') res.end(JSON.stringify({ file_ids: [1], questionnaire_ids: [7] }));
      else res.end(JSON.stringify({ status: 'generating', answers_expected: 10, answers_received: 1, percent: 10 }));
    });
    try {
      const out = join(dir, 'e.xlsx');
      const run = await runFillCaptured([input, '--out', out, '--base', stub.base, '--key', 'qf_x', '--timeout', '1.5']);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/not ready within 1\.5 s; nothing was written/);
      expect(run.stderr).toContain('Answers 1/10 (generating)');
      expect(existsSync(out)).toBe(false);
    } finally {
      stub.server.close();
    }
  });
});
