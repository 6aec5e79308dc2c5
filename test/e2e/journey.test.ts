// A first-time analyst, end to end in headless Chromium: the task pane in the workbench against the real
// local service. From a key to a reviewed CAIQ saved to the library, with no dead end: every step leaves
// a next action on screen. Screenshots go to test-artifacts/ (the README's come from here: docs/screenshots).
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { openWorkbench, type WorkbenchSession } from './workbench-session';

const FIXTURES = path.resolve('../shared/fixtures');
const CAIQ = path.join(FIXTURES, 'questionnaires', 'caiq-v4.0.3-blank.xlsx');
const KB = path.join(FIXTURES, 'kb', 'instructure');
const DOCUMENTS = ['Instructure Security Overview.pdf', 'Canvas LMS Architecture.pdf', 'Instructure Business Continuity & Disaster Recovery.pdf'].map((f) =>
  path.join(KB, f),
);
const ARTIFACTS = path.resolve('test-artifacts');

let browser: Browser;
let page: Page;
let baseUrl: string;
let key: string;
let session: WorkbenchSession | undefined;
/** The answer corrected in the review: the refill must bring it back. */
let correction: { tab: string; address: string; value: string } | null = null;

async function shot(name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `journey-${name}.png`) });
}

const pane = () => page.locator('.qf-root');
const paneText = () => pane().innerText();

beforeAll(async () => {
  for (const f of [CAIQ, ...DOCUMENTS]) if (!existsSync(f)) throw new Error(`${f} is missing: this journey needs ../shared/fixtures`);
  session = await openWorkbench({ org: 'journey', keyName: 'first-time analyst', dataDirPrefix: 'qfill-journey-' });
  ({ browser, page, baseUrl, key } = session);
}, 120_000);

afterAll(async () => {
  await session?.close();
});

describe('a first-time analyst, from the key to a reviewed and saved CAIQ', () => {
  it('is asked for a key first, saves it and is told it works', async () => {
    // No key yet: the pane opens on Settings, and Fill says where to go.
    await expect.poll(() => page.getByRole('tab', { name: 'Settings', exact: true }).getAttribute('aria-selected')).toBe('true');
    await page.getByLabel('API key', { exact: true }).fill(key);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('button', { name: 'Test connection' }).click();
    await expect.poll(() => paneText(), { timeout: 20_000 }).toMatch(/connected|works|ok/i);
    expect(await page.locator('[role="alert"]').count()).toBe(0);
    await shot('1-settings');
  }, 60_000);

  it('is told the library is empty, and uploads documents until they are Ready', async () => {
    await page.getByRole('tab', { name: 'Fill', exact: true }).click();
    await expect.poll(() => paneText(), { timeout: 20_000 }).toMatch(/library has no documents yet/i);
    await page.getByRole('button', { name: 'Open Library' }).click(); // the way out of the empty state
    await page.getByLabel('Choose files to upload').setInputFiles(DOCUMENTS);
    await page.getByRole('button', { name: /^Upload/ }).click();
    const list = page.getByLabel('Library files');
    await expect
      .poll(async () => (await list.innerText()).match(/\bReady\b/g)?.length ?? 0, { timeout: 240_000, interval: 1000 })
      .toBeGreaterThanOrEqual(DOCUMENTS.length);
    await shot('2-library');
  }, 300_000);

  it('opens the CAIQ and fills it: a report, the review headline and a next step', async () => {
    await page.getByTestId('open-file').setInputFiles(CAIQ);
    await expect.poll(() => page.getByTestId('workbook-name').innerText(), { timeout: 30_000 }).toBe(path.basename(CAIQ));
    await page.getByRole('tab', { name: 'Fill', exact: true }).click();
    await page.getByRole('button', { name: 'Fill this workbook' }).click();
    const report = page.getByRole('region', { name: 'Fill report' });
    await report.waitFor({ timeout: 240_000 });
    await expect.poll(() => report.innerText()).toMatch(/Wrote \d+ cells?; skipped \d+/);
    const headline = await page.getByLabel('Where the review stands').innerText();
    const [answered, drafts, untouched] = [...headline.matchAll(/(\d+) (?:answered|drafts?|untouched)/g)].map((m) => Number(m[1]));
    expect(answered! + drafts! + untouched!).toBe(261);
    expect(answered).toBeGreaterThan(0);
    // Not a dead end: the review's next step is on screen and enabled.
    expect(await page.getByRole('button', { name: 'Next needing review (Alt+N)' }).isEnabled()).toBe(true);
    expect(await page.locator('[role="alert"]').count()).toBe(0);
    await page
      .getByRole('tablist', { name: 'Sheets' })
      .getByRole('tab', { name: /CAIQv4\.0\.3/ })
      .click();
    await shot('3-fill'); // the report and the review's headline, beside the filled sheet
    // The answers in their cells: the first question of the list takes the sheet there.
    await page.getByLabel('Questions', { exact: true }).getByRole('button').first().click();
    await expect.poll(() => page.getByTestId('selection').innerText(), { timeout: 10_000 }).toMatch(/^CAIQv4\.0\.3!/);
  }, 300_000);

  it('reviews from the keyboard alone: Alt+N from one question needing review to the next, a correction typed and written', async () => {
    const card = page.getByLabel('Selected question');
    const needsReview = /Needs review\.|No answer was generated/;
    await page.keyboard.press('Alt+n');
    await card.waitFor({ timeout: 10_000 });
    await expect.poll(() => card.innerText(), { timeout: 10_000 }).toMatch(needsReview);
    const first = await card.innerText();
    await page.keyboard.press('Alt+n');
    await expect.poll(() => card.innerText(), { timeout: 10_000 }).not.toBe(first);
    expect(await card.innerText()).toMatch(needsReview);
    // The cell the pane selected is the question's answer cell, shown in the workbench.
    await expect.poll(() => page.getByTestId('selection').innerText(), { timeout: 10_000 }).toMatch(/!\w+\d+$/);
    // ...scrolled fully into view, below the sheet's sticky column headers.
    await expect
      .poll(() =>
        page.evaluate(() => {
          const cell = document.querySelector('.wb-selected')!.getBoundingClientRect();
          const head = document.querySelector('.wb-grid th')!.getBoundingClientRect();
          const box = document.querySelector('.wb-scroll')!.getBoundingClientRect();
          return cell.top >= head.bottom - 1 && cell.bottom <= box.bottom + 1;
        }),
      )
      .toBe(true);
    // Keyboard only: Alt+N left the focus on the question; Tab to its correction, type, Tab to Write, Enter.
    const focused = () => page.evaluate(() => ({ tag: document.activeElement?.tagName ?? '', text: document.activeElement?.textContent ?? '' }));
    const tabUntil = async (want: (f: { tag: string; text: string }) => boolean) => {
      for (let i = 0; i < 40 && !want(await focused()); i++) await page.keyboard.press('Tab');
      expect(want(await focused())).toBe(true);
    };
    await tabUntil((f) => f.tag === 'TEXTAREA' || f.tag === 'SELECT');
    const fieldValue = () => page.evaluate(() => (document.activeElement as HTMLSelectElement | HTMLTextAreaElement).value);
    const suggested = await fieldValue();
    if ((await focused()).tag === 'SELECT') await page.keyboard.press('ArrowDown');
    else {
      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.type('Yes. Reviewed by the security team.');
    }
    const chosen = await fieldValue();
    expect(chosen).not.toBe(suggested);
    await tabUntil((f) => f.tag === 'BUTTON' && /^Write to /.test(f.text));
    await page.keyboard.press('Enter');
    await expect.poll(() => card.innerText(), { timeout: 20_000 }).toMatch(/Written to /);
    const where = /Written to (.+?)!([A-Z]+[0-9]+)/.exec(await card.innerText());
    if (where) correction = { tab: where[1]!, address: where[2]!, value: chosen };
    await expect.poll(() => page.getByLabel('Questions', { exact: true }).innerText()).toMatch(/corrected/);
    await shot('4-review');
    // And on to the next question needing review, still from the keyboard.
    const corrected = await card.innerText();
    await page.keyboard.press('Alt+n');
    await expect.poll(() => card.innerText(), { timeout: 10_000 }).not.toBe(corrected);
    expect(await card.innerText()).toMatch(needsReview);
  }, 90_000);

  it('saves what was reviewed: says what the library will learn, asks, and the saved answers are processed like any document', async () => {
    await page.getByRole('button', { name: 'Save to library' }).click();
    const confirm = page.getByRole('group', { name: 'Confirm save' });
    await expect.poll(() => confirm.innerText(), { timeout: 30_000 }).toMatch(/The library will learn \d+ answers? from 'CAIQv4\.0\.3', 1 corrected by you\./);
    await confirm.getByRole('button', { name: /^Learn \d+ answers?$/ }).click();
    await expect.poll(() => paneText(), { timeout: 60_000 }).toMatch(/Saved \d+ answers? to your library as caiq-v4\.0\.3-blank \(reviewed answers\)\.csv/);
    await shot('5-saved');
    await page.getByRole('tab', { name: 'Library', exact: true }).click();
    await expect.poll(() => page.getByLabel('Library files').innerText(), { timeout: 60_000 }).toMatch(/caiq-v4\.0\.3-blank \(reviewed answers\)\.csv/);
  }, 120_000);

  it('opens a fresh copy of the CAIQ: it opens fresh, and its fill brings the correction back', async () => {
    expect(correction, 'the review step wrote a correction').not.toBeNull();
    await expect
      .poll(
        async () => {
          const res = await fetch(`${baseUrl}/api/v2/repository/files/?search=reviewed`, { headers: { 'X-API-Key': key } });
          return ((await res.json()) as { results: { status: string }[] }).results.map((f) => f.status).join();
        },
        { timeout: 120_000, interval: 1000 },
      )
      .toBe('ready');
    await page.getByTestId('open-file').setInputFiles(CAIQ);
    await page.getByRole('tab', { name: 'Fill', exact: true }).click();
    // Another copy of the same template shares nothing with the filled one.
    await expect.poll(() => paneText(), { timeout: 30_000 }).not.toMatch(/Answers were written into this workbook/);
    expect(await page.getByRole('button', { name: /Undo/ }).count()).toBe(0);
    await page.getByRole('button', { name: 'Fill this workbook' }).click();
    await expect.poll(() => page.getByRole('region', { name: 'Fill report' }).innerText(), { timeout: 240_000, interval: 1000 }).toMatch(/Wrote \d+ cells?/);
    const { tab, address, value } = correction!;
    const now = await page.evaluate(
      ([t, a]) =>
        String(
          (window as unknown as { qfillWorkbench: { host: { getCell(t: string, a: string): { value: unknown } } } }).qfillWorkbench.host.getCell(t!, a!)
            .value ?? '',
        ),
      [tab, address],
    );
    expect(now).toBe(value);
    await shot('6-refilled');
  }, 300_000);

  it('asks the library a question in Chat and gets an answer with its sources', async () => {
    await page.getByRole('tab', { name: 'Chat', exact: true }).click();
    const box = page.getByPlaceholder(/Ask the knowledge base/);
    await box.fill('Is customer data encrypted at rest?');
    await box.press('Enter');
    const conversation = page.getByLabel('Conversation', { exact: true });
    await expect.poll(() => conversation.innerText(), { timeout: 60_000 }).toMatch(/encrypt/i);
    await conversation.locator('summary').first().click();
    await shot('7-chat');
  }, 90_000);
});
