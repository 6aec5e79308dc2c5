// The built task pane in headless Chromium against the real local service: what only a browser can tell.
// Accessibility names (from Chromium's accessibility tree), keyboard-only use, the 300 px width, and the
// production bundle (dist/taskpane.html) following Office's theme and storing settings under the partition key.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { buildApp } from '../../src/service/app';
import { createKey } from '../../src/service/admin';
import { DIST_DIR } from '../build-output';
import { launchChromium } from '../browser';

const TABS = ['Fill', 'Chat', 'Library', 'Settings'] as const;

let browser: Browser;
let origin: string;
let key: string;
let dataDir: string;
let closeApp: () => Promise<void>;

beforeAll(async () => {
  for (const page of ['workbench.html', 'taskpane.html']) {
    if (!existsSync(path.join(DIST_DIR, page))) throw new Error(`dist/${page} is missing: build first (npx tsx test/build-if-stale.ts)`);
  }
  dataDir = mkdtempSync(path.join(tmpdir(), 'qfill-pane-browser-'));
  const built = await buildApp({ dataDir, staticDir: DIST_DIR, logger: false });
  origin = (await built.app.listen({ port: 0, host: '127.0.0.1' })).replace('127.0.0.1', 'localhost');
  closeApp = built.close;
  key = await createKey(dataDir, { org: 'pane', user: 'analyst', role: 'admin', name: 'pane browser tests' });
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await closeApp?.();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** Lines of an ARIA snapshot naming a control without an accessible name ("- button", "- textbox [disabled]"). */
function unnamedControls(snapshot: string): string[] {
  return snapshot.split('\n').filter((line) => /^\s*- (button|textbox|searchbox|checkbox|radio|combobox|tab|progressbar|log)(\s*\[[^\]]*\])*:?\s*$/.test(line));
}

async function focusedLabel(page: Page): Promise<string> {
  return page.evaluate(() => {
    const e = document.activeElement as HTMLElement | null;
    return e ? `${e.tagName.toLowerCase()}|${e.getAttribute('aria-label') ?? ''}|${e.getAttribute('name') ?? ''}` : '';
  });
}

/** Presses Tab until `match` says the focused element is the one wanted; fails if it is not reached. */
async function tabTo(page: Page, what: string, match: (focused: string) => boolean): Promise<void> {
  const seen: string[] = [];
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    const focused = await focusedLabel(page);
    if (match(focused)) return;
    seen.push(focused);
  }
  throw new Error(`Tab never reached ${what}; it went through: ${seen.join(' / ')}`);
}

async function workbenchAt300px(): Promise<{ page: Page; pane: Locator }> {
  const page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
  await page.goto(`${origin}/workbench.html`);
  await page.getByTestId('workbook-name').filter({ hasText: 'demo-questionnaire.xlsx' }).waitFor({ timeout: 30_000 });
  // Excel's narrowest task pane.
  await page.addStyleTag({ content: '.wb-pane { width: 300px !important; }' });
  return { page, pane: page.locator('.wb-pane') };
}

describe('the task pane in Chromium', () => {
  it('works from the keyboard alone at 300 px, every control named, nothing wider than the pane', async () => {
    const { page, pane } = await workbenchAt300px();
    try {
      // First run opens on Settings. Keyboard only: into the key field, type, Enter saves.
      await page.getByRole('tab', { name: 'Settings', exact: true }).focus();
      await tabTo(page, 'the API key field', (f) => f.endsWith('|api_key'));
      await page.keyboard.type(key);
      await page.keyboard.press('Enter');
      await pane.getByText('Settings saved.').waitFor({ timeout: 10_000 });

      // The tabs follow the WAI-ARIA pattern: arrows move between them, Home goes to the first.
      await page.getByRole('tab', { name: 'Settings', exact: true }).focus();
      await page.keyboard.press('Home');
      expect(await page.getByRole('tab', { name: 'Fill', exact: true }).getAttribute('aria-selected')).toBe('true');
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      expect(await page.getByRole('tab', { name: 'Library', exact: true }).getAttribute('aria-selected')).toBe('true');

      // The file picker is reachable, and its keyboard focus is visible on the button-like label.
      await tabTo(page, 'the file picker', (f) => f.includes('|Choose files to upload|'));
      const label = pane.locator('label', { has: page.getByLabel('Choose files to upload') });
      const outline = await label.evaluate((el) => {
        const style = getComputedStyle(el);
        return { style: style.outlineStyle, width: style.outlineWidth };
      });
      expect(outline).toEqual({ style: 'solid', width: '2px' });

      for (const name of TABS) {
        await page.getByRole('tab', { name, exact: true }).click();
        const snapshot = await pane.ariaSnapshot();
        expect(unnamedControls(snapshot), `${name}:\n${snapshot}`).toEqual([]);
        const widths = await pane.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
        expect(widths.scroll, `the ${name} tab is wider than 300 px`).toBeLessThanOrEqual(widths.client);
      }

      // The conversation is a live log named for screen readers.
      await page.getByRole('tab', { name: 'Chat', exact: true }).click();
      expect(await pane.getByRole('log', { name: 'Conversation' }).count()).toBe(1);
    } finally {
      await page.close();
    }
  });
});

/** A stand-in for office.js: Excel as the host, a partition key, a theme, document settings that record writes. */
function officeStub(theme: Record<string, unknown>): string {
  return `window.__settingsWrites = [];
window.Office = {
  HostType: { Excel: 'Excel' },
  context: {
    partitionKey: 'pk-test',
    officeTheme: ${JSON.stringify(theme)},
    document: { url: 'https://contoso.example/q.xlsx', settings: { set: (k) => window.__settingsWrites.push(k), saveAsync: () => window.__settingsWrites.push('saveAsync') } },
  },
  onReady(callback) { setTimeout(() => callback({ host: 'Excel', platform: 'PC' }), 0); return Promise.resolve({ host: 'Excel', platform: 'PC' }); },
};`;
}

async function productionPane(theme: Record<string, unknown>, colorScheme: 'light' | 'dark'): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 320, height: 800 }, colorScheme });
  await page.route('https://appsforoffice.microsoft.com/**', (route) =>
    route.fulfill({ status: 200, contentType: 'text/javascript', body: officeStub(theme) }),
  );
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${origin}/taskpane.html`);
  await page.getByRole('tablist', { name: 'Questionnaire Filler' }).waitFor({ timeout: 20_000 });
  expect(errors).toEqual([]);
  return page;
}

describe('the production task pane bundle under Office', () => {
  const rootLook = (page: Page) =>
    page.locator('.qf-root').evaluate((el) => ({ theme: el.getAttribute('data-theme'), background: getComputedStyle(el).backgroundColor }));

  it("follows Office's dark theme and its colours, even when the system is light", async () => {
    const page = await productionPane(
      {
        bodyBackgroundColor: '#1f1f1f',
        bodyForegroundColor: '#f0f0f0',
        controlBackgroundColor: '#333333',
        controlForegroundColor: '#ffffff',
        isDarkTheme: true,
      },
      'light',
    );
    try {
      expect(await rootLook(page)).toEqual({ theme: 'dark', background: 'rgb(31, 31, 31)' });
    } finally {
      await page.close();
    }
  });

  it('the workbench simulates Office themes: the pane and the workbench itself go dark, colourful or light without a reload', async () => {
    const page = await browser.newPage({ viewport: { width: 1000, height: 700 }, colorScheme: 'light' });
    try {
      await page.goto(`${origin}/workbench.html`);
      await page.getByTestId('workbook-name').filter({ hasText: 'demo-questionnaire.xlsx' }).waitFor({ timeout: 30_000 });
      await page.getByLabel('Service address (base URL)').fill('typed, not saved');
      const style = (selector: string, prop: string) =>
        page
          .locator(selector)
          .first()
          .evaluate((e, p) => getComputedStyle(e).getPropertyValue(p), prop);
      const data = (selector: string, name: string) => page.locator(selector).first().getAttribute(`data-${name}`);
      const look = async () => ({
        pane: `${await data('.qf-root', 'theme')}/${await data('.qf-root', 'office-theme')}`,
        paneBg: await style('.qf-root', 'background-color'),
        tabs: await style('.qf-tabs', 'background-color'),
        workbench: await data('.wb-root', 'theme'),
        grid: await style('.wb-root', 'background-color'),
      });
      expect(await look()).toMatchObject({ pane: 'light/light', workbench: 'light', grid: 'rgb(255, 255, 255)' });
      await page.getByTestId('office-theme').selectOption('black');
      expect(await look()).toMatchObject({ pane: 'dark/dark', paneBg: 'rgb(38, 38, 38)', workbench: 'dark', grid: 'rgb(31, 31, 31)' });
      await page.getByTestId('office-theme').selectOption('colorful');
      expect(await look()).toMatchObject({ pane: 'light/colorful', paneBg: 'rgb(243, 242, 241)', tabs: 'rgb(16, 124, 65)', workbench: 'light' });
      // The pane was re-themed, not restarted: what was typed is still there.
      expect(await page.getByLabel('Service address (base URL)').inputValue()).toBe('typed, not saved');
      // The choice survives a reload, as Office keeps its theme.
      await page.reload();
      await page.getByTestId('workbook-name').filter({ hasText: 'demo-questionnaire.xlsx' }).waitFor({ timeout: 30_000 });
      expect((await look()).pane).toBe('light/colorful');
      await page.getByTestId('office-theme').selectOption('system');
    } finally {
      await page.close();
    }
  });

  it("follows Office's light theme when the system is dark, and keeps the key under the partition key, never in the document", async () => {
    const page = await productionPane(
      { bodyBackgroundColor: '#ffffff', bodyForegroundColor: '#000000', controlBackgroundColor: '#ffffff', controlForegroundColor: '#000000' },
      'dark',
    );
    try {
      expect(await rootLook(page)).toEqual({ theme: 'light', background: 'rgb(255, 255, 255)' });
      // The default service is the page's own origin.
      expect(await page.getByLabel('Service address (base URL)').inputValue()).toBe(origin);
      await page.getByLabel('API key', { exact: true }).fill(key);
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText('Settings saved.').waitFor();
      await page.getByRole('button', { name: 'Test connection' }).click();
      await page.getByText(/the key was accepted/).waitFor({ timeout: 20_000 });
      const stored = await page.evaluate(() => ({
        partitioned: localStorage.getItem('pk-test/qfill.apiKey'),
        plain: localStorage.getItem('qfill.apiKey'),
        settingsWrites: (window as unknown as { __settingsWrites: string[] }).__settingsWrites,
      }));
      expect(stored).toEqual({ partitioned: key, plain: null, settingsWrites: [] });
    } finally {
      await page.close();
    }
  });
});
