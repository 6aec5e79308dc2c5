/**
 * Which service instance this process is, across restarts: the one that serves from this local data folder on
 * this host. A restarted instance knows the jobs it was running when it died as its own and takes them back at
 * once, instead of waiting for their lease to run out as another process must. A lock file in the folder keeps
 * two live processes on one folder from both claiming the identity; the second runs without one.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';

/** Lock files held by this process (two services in one process, as tests run them, are two instances). */
const held = new Set<string>();

export interface Instance {
  /** Stable for this host and folder. */
  id: string;
  release(): Promise<void>;
}

export function claimInstance(dataDir: string): Instance | null {
  const folder = resolve(dataDir);
  const lock = join(folder, 'instance.lock');
  if (held.has(lock)) return null;
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  try {
    writeFileSync(lock, String(process.pid), { flag: 'wx', mode: 0o600 });
  } catch {
    // Left by a process that died, or held by one that lives.
    const pid = Number(readFileSync(lock, 'utf8').trim());
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && processIsAlive(pid)) return null;
    writeFileSync(lock, String(process.pid), { mode: 0o600 });
  }
  held.add(lock);
  return {
    id: createHash('sha256').update(`${hostname()}\n${folder}`).digest('hex').slice(0, 16),
    async release() {
      if (!held.delete(lock)) return;
      try {
        if (readFileSync(lock, 'utf8').trim() === String(process.pid)) unlinkSync(lock);
      } catch {
        // Already gone.
      }
    },
  };
}

export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, run by another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
