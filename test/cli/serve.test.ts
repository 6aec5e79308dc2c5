import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '..', '..');
const children: ChildProcess[] = [];
const dirs: string[] = [];

function tempDir(prefix: string) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Starts `qfill serve` and resolves with the URL it prints. */
function startServe(args: string[], env: NodeJS.ProcessEnv = process.env) {
  const child = spawn(process.execPath, ['bin/qfill.js', 'serve', ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const url = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      stdout += d;
      const m = /Listening on (https?:\/\/[^\s]+)/.exec(stdout);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code} before listening: ${stderr}`)));
    setTimeout(() => reject(new Error(`serve did not print its URL in time; stdout: ${stdout}; stderr: ${stderr}`)), 90_000);
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, url, exited, output: () => ({ stdout, stderr }) };
}

function createKey(dataDir: string) {
  const r = spawnSync(process.execPath, ['bin/qfill.js', 'keys', 'create', '--data', dataDir, '--org', 'acme', '--user', 'alice'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout.trim();
}

describe('qfill serve', () => {
  it('serves plain HTTP with --http, prints its URL, answers, and stops cleanly on SIGTERM', async () => {
    const dataDir = tempDir('qfill-serve-');
    const key = createKey(dataDir);
    const server = startServe(['--http', '--port', '0', '--host', '127.0.0.1', '--data', dataDir]);
    const url = await server.url;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${url}/api/v2/chat/sessions/`, { headers: { 'X-API-Key': key } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ count: 0, results: [] });
    const denied = await fetch(`${url}/api/v2/chat/sessions/`);
    expect(denied.status).toBe(403);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(existsSync(join(dataDir, 'qfill.sqlite'))).toBe(true);
  });

  it('stops cleanly on SIGINT', async () => {
    const dataDir = tempDir('qfill-serve-');
    const server = startServe(['--http', '--port', '0', '--data', dataDir]);
    await server.url;
    server.child.kill('SIGINT');
    expect(await server.exited).toBe(0);
  });

  it('serves HTTPS by default with office-addin-dev-certs certificates generated when absent', async () => {
    const home = tempDir('qfill-home-');
    const dataDir = tempDir('qfill-serve-');
    const key = createKey(dataDir);
    const server = startServe(['--port', '0', '--data', dataDir], { ...process.env, HOME: home, USERPROFILE: home });
    const url = await server.url;
    expect(url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const caPath = join(home, '.office-addin-dev-certs', 'ca.crt');
    expect(existsSync(caPath)).toBe(true);
    expect(server.output().stderr).toMatch(/office-addin-dev-certs install/);
    const ca = readFileSync(caPath);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${url.replace('127.0.0.1', 'localhost')}/api/v2/chat/sessions/`, { ca, headers: { 'X-API-Key': key } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(200);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 120_000);

  it('refuses a port that is taken, with exit code 1', async () => {
    const dataDir = tempDir('qfill-serve-');
    const first = startServe(['--http', '--port', '0', '--data', dataDir]);
    const port = new URL(await first.url).port;
    const second = spawnSync(process.execPath, ['bin/qfill.js', 'serve', '--http', '--port', port, '--data', dataDir], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(second.status).toBe(1);
    expect(second.stderr).toMatch(/cannot listen/);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
  });
});
