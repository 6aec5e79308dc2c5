/** `qfill serve` as a child process on loopback, for tests that need real separate service processes. */
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface ServeProcess {
  url: string;
  pid: number;
  child: ChildProcess;
  /** SIGTERM, resolved when it has exited (SIGKILL after `graceMs`). */
  stop(graceMs?: number): Promise<void>;
}

/** Starts `qfill serve --http --port 0 --no-static …args` and resolves once it listens. */
export function spawnServe(args: string[], env: Record<string, string> = {}): Promise<ServeProcess> {
  const child = spawn(process.execPath, ['bin/qfill.js', 'serve', '--http', '--port', '0', '--no-static', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (graceMs = 10_000) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      stdout += d;
      const m = /Listening on (http:\/\/\S+)/.exec(stdout);
      if (m) resolve({ url: m[1]!, pid: child.pid!, child, stop });
    });
    child.on('exit', (code) => reject(new Error(`qfill serve exited with ${code} before listening: ${stderr}`)));
  });
}
