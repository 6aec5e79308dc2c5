import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/service/app';

const ROOT = join(__dirname, '..', '..');
const dataDir = mkdtempSync(join(tmpdir(), 'qfill-cli-'));

function qfill(...args: string[]) {
  const r = spawnSync(process.execPath, ['bin/qfill.js', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('qfill keys create / orgs set', () => {
  it('prints the key alone on stdout, and the key works', async () => {
    const r = qfill('keys', 'create', '--data', dataDir, '--org', 'acme', '--user', 'alice', '--role', 'admin', '--name', 'laptop');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^qf_[A-Za-z0-9_-]+\n$/);
    const key = r.stdout.trim();

    const ro = qfill('keys', 'create', '--data', dataDir, '--org', 'acme', '--user', 'reader', '--read-only');
    expect(ro.code).toBe(0);
    const roKey = ro.stdout.trim();
    expect(roKey).not.toBe(key);

    const built = await buildApp({ dataDir, staticDir: null, startWorkers: false });
    try {
      const base = await built.app.listen({ port: 0, host: '127.0.0.1' });
      expect((await fetch(`${base}/api/v2/chat/sessions/`, { headers: { 'X-API-Key': key } })).status).toBe(200);
      const form = new FormData();
      form.append('files', new Blob(['x']), 'a.txt');
      const denied = await fetch(`${base}/api/v2/repository/files/`, { method: 'POST', headers: { 'X-API-Key': roKey }, body: form });
      expect(denied.status).toBe(403);

      // orgs set takes effect on a running service.
      const off = qfill('orgs', 'set', '--data', dataDir, '--org', 'acme', '--license', 'inactive');
      expect(off.code, off.stderr).toBe(0);
      expect(off.stdout).toMatch(/license inactive/);
      expect((await fetch(`${base}/api/v2/chat/sessions/`, { headers: { 'X-API-Key': key } })).status).toBe(403);
      const on = qfill('orgs', 'set', '--data', dataDir, '--org', 'acme', '--license', 'active', '--quota', '100', '--upload-requires-manager', 'true');
      expect(on.code, on.stderr).toBe(0);
      expect(on.stdout).toMatch(/quota 100 requests\/minute, upload requires manager true/);
      expect((await fetch(`${base}/api/v2/chat/sessions/`, { headers: { 'X-API-Key': key } })).status).toBe(200);
    } finally {
      await built.close();
    }
  });

  it('rejects unknown flags, commands and bad values with one line and exit code 2', () => {
    const cases = [
      ['keys', 'create', '--data', dataDir, '--org', 'a', '--user', 'b', '--colour', 'red'],
      ['keys', 'create', '--data', dataDir, '--org', 'a'],
      ['keys', 'create', '--data', dataDir, '--org', 'a', '--user', 'b', '--role', 'king'],
      ['keys', 'delete'],
      ['orgs', 'set', '--data', dataDir, '--org', 'a', '--license', 'maybe'],
      ['orgs', 'set', '--data', dataDir, '--org', 'a', '--quota', 'many'],
      ['orgs', 'set', '--data', dataDir, '--org', 'a', '--upload-requires-manager', 'yes'],
      ['offerings', 'create', '--data', dataDir, '--org', 'a', '--name', 'n'.repeat(201)],
      ['launch'],
      ['serve', '--port', 'eighty'],
      [],
    ];
    for (const args of cases) {
      const r = qfill(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout, args.join(' ')).toBe('');
      if (args.length > 0) expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(r.stderr).toMatch(/qfill|Usage/);
    }
  });

  it('prints help', () => {
    const r = qfill('--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/qfill <command>/);
    expect(r.stdout).toMatch(/keys create/);
    expect(r.stdout).toMatch(/serve/);
  });
});
