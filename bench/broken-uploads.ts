/**
 * The broken-off upload soak, longer than the test's: a `qfill serve` process on SQLite and one on
 * PostgreSQL each take thousands of uploads broken off in five ways, interleaved with ordinary requests.
 * A row says how many, how the ordinary requests were answered, and whether the process stayed up with
 * no partial file and no slot lost.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKey } from '../src/service/admin';
import { DEFAULT_UPLOAD_LIMITS } from '../src/service/http/multipart';
import { holdUploads, soakBrokenUploads } from '../test/service/broken-uploads';
import { createTestDatabase, type TestDatabase } from '../test/service/postgres';
import { spawnServe } from '../test/service/serve-process';

export const BROKEN_UPLOAD_COLUMNS: [string, string][] = [
  ['backend', 'backend'],
  ['broken', 'broken-off uploads'],
  ['ordinary', 'ordinary requests (200 / 429 / other)'],
  ['seconds', 's'],
  ['up', 'process up'],
  ['partial', 'partial files left'],
  ['slots', 'slots free after'],
];

export async function runBrokenUploadBench(count = 3000, log: (line: string) => void = () => undefined): Promise<object[]> {
  process.env.QFILL_TEST_DATABASE_URL ??= process.env.QFILL_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const rows: object[] = [];
  for (const backend of ['sqlite', 'postgres'] as const) {
    const filesDir = mkdtempSync(join(tmpdir(), 'qfill-bench-broken-'));
    const localDir = mkdtempSync(join(tmpdir(), 'qfill-bench-broken-local-'));
    let database: TestDatabase | null = null;
    try {
      if (backend === 'postgres') database = await createTestDatabase();
      const serve = await spawnServe(database ? ['--data', localDir, '--files', filesDir, '--database', database.url] : ['--data', filesDir]);
      try {
        const key = await createKey({ dataDir: filesDir, databaseUrl: database?.url ?? null }, { org: 'acme', user: 'alice', role: 'admin' });
        log(`${backend}: ${count} broken-off uploads`);
        const result = await soakBrokenUploads({ url: serve.url, key, count, seed: Date.now() % 1e9 });
        // A request's waiting file goes when its response closes; give the last ones a moment.
        const incoming = join(filesDir, 'files', 'incoming');
        for (let waited = 0; waited < 10_000 && readdirSync(incoming).length > 0; waited += 200) await new Promise((r) => setTimeout(r, 200));
        const partial = readdirSync(incoming).length;
        if (partial) log(`${backend}: left in incoming: ${readdirSync(incoming).join(', ')}`);
        // Slots free: of as many uploads as a key may send at once, how many are being received together.
        const { perKey } = DEFAULT_UPLOAD_LIMITS;
        const held = await holdUploads(serve.url, key, perKey);
        const free = readdirSync(incoming).length;
        await held.finish();
        const tally = (code: string) => result.ordinary.filter((a) => a === code).length;
        rows.push({
          backend: backend === 'sqlite' ? 'SQLite' : 'PostgreSQL',
          broken: result.broken,
          ordinary: `${tally('200')} / ${tally('429')} / ${result.ordinary.length - tally('200') - tally('429')}`,
          seconds: (result.ms / 1000).toFixed(1),
          up: serve.child.exitCode === null ? 'yes' : 'NO',
          partial,
          slots: `${free} of ${perKey}`,
        });
      } finally {
        await serve.stop();
      }
    } finally {
      await database?.drop();
      rmSync(filesDir, { recursive: true, force: true });
      rmSync(localDir, { recursive: true, force: true });
    }
  }
  return rows;
}
