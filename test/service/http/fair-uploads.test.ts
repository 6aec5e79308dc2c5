/**
 * Fair uploads over loopback: sixteen trickling uploads from one key delay neither a colleague's nor
 * another organisation's upload; a stalled or trickling body is closed with the reason and its partial
 * file removed; a burst of small uploads from one analyst is received, each in its turn, none refused.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../../src/service/admin';
import { buildApp, type BuiltApp } from '../../../src/service/app';
import { trickleUpload, type Trickle } from '../broken-uploads';
import { call, files, KB_TEXT, testStorage, waitFor } from '../helpers';

/** Small figures so the test takes seconds: the service's defaults are 4 / 16 / 64, 20 s idle, 1 KB/s after 30 s. */
const UPLOADS = { perKey: 4, perOrg: 8, total: 32, idleMs: 1500, minBytesPerSecond: 200, rateGraceMs: 3000 };

let storage: Awaited<ReturnType<typeof testStorage>>;
let built: BuiltApp;
let base: string;
const keys: Record<string, string> = {};
const trickles: Trickle[] = [];

beforeAll(async () => {
  storage = await testStorage();
  built = await buildApp({ ...storage, staticDir: null, startWorkers: false, uploads: UPLOADS });
  base = await built.app.listen({ port: 0, host: '127.0.0.1' });
  keys.alice = await createKey(storage, { org: 'acme', user: 'alice', role: 'admin' });
  keys.bob = await createKey(storage, { org: 'acme', user: 'bob', role: 'admin' });
  keys.carol = await createKey(storage, { org: 'globex', user: 'carol', role: 'admin' });
});

afterAll(async () => {
  for (const t of trickles) t.stop();
  await built?.close();
  await storage?.destroy();
});

const incoming = () => readdirSync(join(storage.dataDir, 'files', 'incoming'));
const upload = (key: string, name: string, content = KB_TEXT) => call(base, key, 'POST', '/api/v2/repository/files/', files([name, content]));

describe('uploads take turns fairly', () => {
  it("one key's sixteen trickling uploads delay neither a colleague nor another organisation", async () => {
    const mine = await Promise.all(Array.from({ length: 16 }, (_, i) => trickleUpload(base, keys.alice!, { everyMs: 100, bytes: 200, name: `slow-${i}.txt` })));
    trickles.push(...mine);
    // Four are being received (the key's share), twelve wait their turn: none is refused.
    await waitFor(
      'the key’s share being received',
      async () => incoming(),
      (names) => names.length === UPLOADS.perKey,
      5000,
    );
    expect(mine.filter((t) => /^HTTP\/1\.1 429/.test(t.reply()))).toEqual([]);

    const colleague = await upload(keys.bob!, 'colleague.txt');
    expect(colleague.status, JSON.stringify(colleague.body)).toBe(200);
    const otherOrg = await upload(keys.carol!, 'other.txt');
    expect(otherOrg.status, JSON.stringify(otherOrg.body)).toBe(200);
    for (const t of mine) t.stop();
    await waitFor(
      'every trickle’s partial file removed',
      async () => incoming(),
      (names) => names.length === 0,
      10_000,
    );
  });

  it('a body that stalls is closed with the reason and its partial file removed', async () => {
    const stalled = await trickleUpload(base, keys.bob!, { everyMs: 10, bytes: 1024, stallAfter: 1024, name: 'stalled.txt' });
    trickles.push(stalled);
    expect(await stalled.closedWithin(UPLOADS.idleMs + 4000)).toBe(true);
    expect(stalled.reply()).toMatch(/^HTTP\/1\.1 400/);
    expect(stalled.reply()).toContain('the upload was closed because nothing arrived for');
    await waitFor(
      'the partial file removed',
      async () => incoming(),
      (names) => names.length === 0,
      5000,
    );
  });

  it('a body that trickles below the minimum rate is closed after the grace period', async () => {
    const slow = await trickleUpload(base, keys.carol!, { everyMs: 100, bytes: 1, name: 'trickle.txt' });
    trickles.push(slow);
    expect(await slow.closedWithin(UPLOADS.rateGraceMs + 4000)).toBe(true);
    expect(slow.reply()).toMatch(/^HTTP\/1\.1 400/);
    expect(slow.reply()).toMatch(/bytes arrived in \d+ s \(at least 200 bytes a second are needed\)/);
  });

  it('a burst of 24 small uploads from one analyst is received, none refused', async () => {
    const content = `${KB_TEXT}\n${'Passwords are rotated and stored hashed. '.repeat(480)}`;
    const burst = await Promise.all(Array.from({ length: 24 }, (_, i) => upload(keys.alice!, `burst-${i}.txt`, `${content}\nFile ${i}.`)));
    expect(burst.map((r) => r.status)).toEqual(Array(24).fill(200));
  });
});
