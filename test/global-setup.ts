// Builds the add-in once before the tests that need its output (manifest URLs, bundle size, browser
// tests). Set QFILL_SKIP_BUILD=1 to reuse an existing dist/ while iterating on other tests.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { DIST_DIR } from './build-output';

export default function setup(): void {
  if (process.env.QFILL_SKIP_BUILD === '1' && existsSync(DIST_DIR)) return;
  execFileSync(process.execPath, ['node_modules/webpack/bin/webpack.js', '--mode', 'production', '--env', 'workbench'], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}
