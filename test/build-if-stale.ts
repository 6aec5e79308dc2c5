// Builds the add-in once before the tests that need its output (manifest URLs, bundle size, browser
// tests), unless dist/ is already newer than every source it is built from.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { DIST_DIR } from './build-output';

const INPUTS = ['src', 'assets', 'manifest.xml', 'webpack.config.js', 'package-lock.json'];
const STAMP = path.join(DIST_DIR, 'bundle-sizes.json');

function newestMtime(entry: string): number {
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, name)));
  return newest;
}

export function buildIsCurrent(): boolean {
  if (!existsSync(STAMP) || !existsSync(path.join(DIST_DIR, 'workbench.html'))) return false;
  const built = statSync(STAMP).mtimeMs;
  return INPUTS.filter((p) => existsSync(p)).every((p) => newestMtime(p) <= built);
}

/** Run by `npm test` before vitest (not as a vitest global setup, so a focused run stays fast). */
export default function setup(): void {
  if (buildIsCurrent()) return;
  execFileSync(process.execPath, ['node_modules/webpack/bin/webpack.js', '--mode', 'production', '--env', 'workbench'], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve('test/build-if-stale.ts')) setup();
