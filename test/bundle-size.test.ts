// The task pane ships to every analyst's Excel: its JavaScript stays under 60 KB gzipped (without
// office.js), the production task pane bundle carries none of the workbench, and neither carries ExcelJS.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIST_DIR } from './build-output';

interface BundleRow {
  name: string;
  raw: number;
  gz: number;
}

function rows(): BundleRow[] {
  const file = path.join(DIST_DIR, 'bundle-sizes.json');
  if (!existsSync(file)) throw new Error(`${file} is missing: run the build first (npm test does)`);
  return JSON.parse(readFileSync(file, 'utf8')) as BundleRow[];
}

describe('task pane bundle', () => {
  it('is under 60 KB gzipped', () => {
    const taskpane = rows().find((r) => r.name === 'taskpane');
    expect(taskpane, 'taskpane entry').toBeTruthy();
    expect(taskpane!.gz).toBeGreaterThan(5 * 1024);
    expect(taskpane!.gz).toBeLessThan(60 * 1024);
  });

  it('contains neither the in-memory Excel host nor ExcelJS', () => {
    const file = readdirSync(DIST_DIR).find((f) => /^taskpane\.[0-9a-f]+\.js$/.test(f));
    expect(file).toBeTruthy();
    const code = readFileSync(path.join(DIST_DIR, file!), 'utf8');
    expect(code).not.toMatch(/RequestPayloadSizeLimitExceeded.*simulat|exceljs|ExcelJS/);
    expect(code).not.toContain('workbench://');
  });

  it('the workbench reads and writes workbooks through src/xlsx alone: no ExcelJS in it either', () => {
    const file = readdirSync(DIST_DIR).find((f) => /^workbench\.[0-9a-f]+\.js$/.test(f));
    expect(file).toBeTruthy();
    expect(readFileSync(path.join(DIST_DIR, file!), 'utf8')).not.toMatch(/exceljs/i);
  });

  it('loads office.js in the task pane page and never in the workbench', () => {
    expect(readFileSync(path.join(DIST_DIR, 'taskpane.html'), 'utf8')).toContain('appsforoffice.microsoft.com/lib/1/hosted/office.js');
    expect(readFileSync(path.join(DIST_DIR, 'workbench.html'), 'utf8')).not.toContain('appsforoffice');
  });
});
