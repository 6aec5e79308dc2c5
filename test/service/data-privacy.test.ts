/**
 * What the service keeps on disk is this user's alone (data folder 700, database and uploaded files
 * 600), and a stored file name cannot disguise itself with bidirectional controls.
 */
import { readdirSync, rmSync, statSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, files, startService, waitForFile, type Service } from './helpers';

let parent: string;
let service: Service;

beforeAll(async () => {
  parent = mkdtempSync(join(tmpdir(), 'qfill-privacy-'));
  // A folder the service creates itself (nested, as `--data` may name one).
  service = await startService({ dataDir: join(parent, 'nested', 'data') });
});

afterAll(async () => {
  await service?.destroy();
  rmSync(parent, { recursive: true, force: true });
});

const mode = (path: string) => statSync(path).mode & 0o777;

describe('data on disk', () => {
  it('folder 700; database, its WAL and every uploaded file 600; names without bidi controls', async () => {
    const api = client(service, await service.key({ org: 'acme', user: 'alice', role: 'admin' }));
    const name = 'invoice\u202Etxt.exe\u2066\u200F.md';
    const up = await api.post('/api/v2/repository/files/', files([name, '# Encryption\n\nData is encrypted at rest with AES-256.\n', 'text/markdown']));
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    const list = await api.get('/api/v2/repository/files/');
    const stored = list.body.results[0];
    expect(stored.original_filename).toBe('invoicetxt.exe.md');
    await waitForFile(api, stored.id);

    expect(mode(service.dataDir)).toBe(0o700);
    expect(mode(join(parent, 'nested'))).toBe(0o700);
    expect(mode(join(service.dataDir, 'files'))).toBe(0o700);
    const onDisk = readdirSync(service.dataDir).filter((f) => f.startsWith('qfill.sqlite'));
    // On PostgreSQL the database is the server's: nothing of it in the data folder.
    if (service.storage.databaseUrl) expect(onDisk).toEqual([]);
    else expect(onDisk).toContain('qfill.sqlite-wal');
    for (const f of onDisk) expect([f, mode(join(service.dataDir, f))]).toEqual([f, 0o600]);
    const blobs = readdirSync(join(service.dataDir, 'files')).filter((f) => f !== 'incoming');
    expect(blobs.length).toBeGreaterThan(0);
    for (const f of blobs) expect([f, mode(join(service.dataDir, 'files', f))]).toEqual([f, 0o600]);
    expect(mode(join(service.dataDir, 'files', 'incoming'))).toBe(0o700);
  });
});
