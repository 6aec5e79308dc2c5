// `qfill fill --base https://localhost:3000` must work against `npm start`'s server, whose certificate is
// signed by the office-addin-dev-certs CA that Node's fetch does not trust by itself.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCertificates } from 'office-addin-dev-certs';
import { createTrustingFetch, devCaFetch } from '../../src/cli/trusted-fetch';

let dir: string;
let server: https.Server;
let url: string;
let ca: Buffer;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'qfill-ca-'));
  const files = { ca: path.join(dir, 'ca.crt'), cert: path.join(dir, 'localhost.crt'), key: path.join(dir, 'localhost.key') };
  await generateCertificates(files.ca, files.cert, files.key, 1);
  ca = readFileSync(files.ca);
  server = https.createServer({ cert: readFileSync(files.cert), key: readFileSync(files.key) }, (req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      res.writeHead(req.url === '/missing' ? 404 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ method: req.method, key: req.headers['x-api-key'] ?? null, body }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `https://localhost:${(server.address() as AddressInfo).port}`;
}, 60_000);

afterAll(() => {
  server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('fetch that trusts the development CA', () => {
  it('is needed: plain fetch refuses the development certificate', async () => {
    await expect(fetch(`${url}/`)).rejects.toThrow(/fetch failed/);
  });

  it('sends method, headers and body, and returns status and JSON', async () => {
    const f = createTrustingFetch(ca);
    const res = await f(`${url}/x`, { method: 'POST', headers: { 'X-API-Key': 'qf_abc' }, body: 'hello' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ method: 'POST', key: 'qf_abc', body: 'hello' });
    expect((await f(`${url}/missing`)).status).toBe(404);
  });

  it('fails like fetch when nothing listens, so the client reports it as unreachable', async () => {
    const f = createTrustingFetch(ca);
    await expect(f('https://127.0.0.1:1/')).rejects.toMatchObject({ name: 'TypeError', cause: { code: 'ECONNREFUSED' } });
  });

  it('is used only for https base URLs with a CA file present', () => {
    expect(devCaFetch('http://localhost:3000', path.join(dir, 'ca.crt'))).toBeUndefined();
    expect(devCaFetch('https://localhost:3000', path.join(dir, 'nope.crt'))).toBeUndefined();
    expect(typeof devCaFetch('https://localhost:3000', path.join(dir, 'ca.crt'))).toBe('function');
  });
});
