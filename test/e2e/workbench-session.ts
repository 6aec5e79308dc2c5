/** The browser tests' common start: a local service serving the built workbench, a key, and Chromium on its page. */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { buildApp } from '../../src/service/app';
import { createKey } from '../../src/service/admin';
import { DIST_DIR } from '../build-output';
import { launchChromium } from '../browser';
import { DEMO_SECTIONS } from '../../src/workbench/demo-questionnaire';

export interface WorkbenchSession {
  browser: Browser;
  page: Page;
  baseUrl: string;
  key: string;
  close(): Promise<void>;
}

export async function openWorkbench(opts: { org: string; keyName: string; dataDirPrefix: string }): Promise<WorkbenchSession> {
  if (!existsSync(path.join(DIST_DIR, 'workbench.html'))) throw new Error('dist/workbench.html is missing: build first (npm test runs the build)');
  const dataDir = mkdtempSync(path.join(tmpdir(), opts.dataDirPrefix));
  const built = await buildApp({ dataDir, staticDir: DIST_DIR, logger: false });
  // localhost, not 127.0.0.1: the pane treats a plain-http loopback name as local (no consent asked).
  const baseUrl = (await built.app.listen({ port: 0, host: '127.0.0.1' })).replace('127.0.0.1', 'localhost');
  const key = await createKey(dataDir, { org: opts.org, user: 'analyst', role: 'admin', name: opts.keyName });
  const browser = await launchChromium();
  const close = async () => {
    await browser.close();
    await built.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${baseUrl}/workbench.html`);
  await page.getByTestId('workbook-name').filter({ hasText: 'demo-questionnaire.xlsx' }).waitFor({ timeout: 30_000 });
  if (errors.length) {
    await close();
    throw new Error(`The workbench raised errors while loading: ${errors.join('; ')}`);
  }
  return { browser, page, baseUrl, key, close };
}

/** The row of a demo question: header on row 3, each section one title row followed by its questions. */
export function demoRow(id: string): number {
  let row = 4;
  for (const section of DEMO_SECTIONS) {
    row++;
    for (const q of section.questions) {
      if (q.id === id) return row;
      row++;
    }
  }
  throw new Error(`no demo question ${id}`);
}
