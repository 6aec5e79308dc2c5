// An analyst keeps the answer library, end to end in headless Chromium: the task pane in the workbench
// against the real local service. Two past questionnaires disagree; in Library > Answers the analyst finds
// the conflict, settles it, edits one entry, gives it an owner, adds one by hand and approves it, replays the
// library on its past questionnaires ("How good is the library for us?"), then fills a questionnaire and sees
// the settled and added answers written with high trust. The pane calls only what the service announces: no
// response of the service during the run is a 4xx or 5xx. Screenshots go to test-artifacts/ (the README's
// come from here: answers-2-settled, -3-edited, -5-replay and -6-filled are docs/screenshots/answers-settled,
// -entry, -replay and -filled).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createWorkbook } from '../../src/xlsx/create';
import { openWorkbench, type WorkbenchSession } from './workbench-session';

const ARTIFACTS = path.resolve('test-artifacts');
const PT = 'Do you perform annual penetration tests?';
const EN = 'Is customer data encrypted at rest?';
const BB = 'Do you run a bug bounty programme?';
const MFA = 'Is multi-factor authentication required for remote access?';

let page: Page;
let key: string;
let session: WorkbenchSession | undefined;
let dir: string;
/** Responses of the service that were errors ("404 GET /api/v2/…"): the journey expects none. */
const refused: string[] = [];

/** A completed questionnaire: ID | Question | Answer | Additional Information. */
function answered(name: string, rows: [id: string, question: string, answer: string, comment: string][]): string {
  const cells: Record<string, string> = { A1: 'ID', B1: 'Question', C1: 'Answer', D1: 'Additional Information' };
  rows.forEach(([id, q, a, c], i) => Object.assign(cells, { [`A${i + 2}`]: id, [`B${i + 2}`]: q, [`C${i + 2}`]: a, [`D${i + 2}`]: c }));
  const file = path.join(dir, name);
  writeFileSync(file, createWorkbook({ sheets: [{ name: 'Answers', cells }] }));
  return file;
}

/** The questionnaire to fill: its Answer column a Yes/No list. */
function blank(name: string, rows: [id: string, question: string][]): string {
  const cells: Record<string, string> = { A1: 'ID', B1: 'Question', C1: 'Answer', D1: 'Comments' };
  rows.forEach(([id, q], i) => Object.assign(cells, { [`A${i + 2}`]: id, [`B${i + 2}`]: q }));
  const file = path.join(dir, name);
  writeFileSync(file, createWorkbook({ sheets: [{ name: 'Answers', cells, lists: [{ sqref: `C2:C${rows.length + 1}`, source: '"Yes,No"' }] }] }));
  return file;
}

async function shot(name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `answers-${name}.png`) });
}

const pane = () => page.locator('.qf-root');
const cell = (tab: string, address: string) =>
  page.evaluate(
    ([t, a]) =>
      String(
        (window as unknown as { qfillWorkbench: { host: { getCell(t: string, a: string): { value: unknown } } } }).qfillWorkbench.host.getCell(t!, a!).value ??
          '',
      ),
    [tab, address],
  );

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'qfill-answers-journey-files-'));
  session = await openWorkbench({ org: 'librarian', keyName: 'analyst keeping the library', dataDirPrefix: 'qfill-answers-journey-' });
  ({ page, key } = session);
  const service = new URL(session.baseUrl).origin;
  page.on('response', (r) => {
    const url = new URL(r.url());
    if (url.origin === service && r.status() >= 400) refused.push(`${r.status()} ${r.request().method()} ${url.pathname}${url.search}`);
  });
}, 120_000);

afterAll(async () => {
  await session?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('an analyst keeps the answer library, and the next fill follows it', () => {
  it('connects and uploads three past questionnaires, two of which disagree', async () => {
    await page.getByLabel('API key', { exact: true }).fill(key);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('tab', { name: 'Library', exact: true }).click();
    const files = [
      answered('hecvat-2021.xlsx', [
        ['PT-01', PT, 'No', 'Vulnerability scans only.'],
        ['EN-01', EN, 'Yes', 'AES-256.'],
      ]),
      answered('hecvat-2024.xlsx', [
        ['PT-01', PT, 'Yes', 'Yearly, by an outside firm.'],
        ['AC-01', MFA, 'Yes', 'For every account.'],
      ]),
      answered('sig-lite-2025.xlsx', [
        ['AC-01', MFA, 'Yes', 'For every account, with hardware keys for administrators.'],
        ['BC-01', 'Is the business continuity plan tested at least annually?', 'Yes', 'Tabletop exercise each spring.'],
      ]),
    ];
    await page.getByLabel('Choose files to upload').setInputFiles(files);
    await page.getByRole('button', { name: /^Upload/ }).click();
    const list = page.getByLabel('Library files');
    await expect.poll(async () => (await list.innerText()).match(/\bReady\b/g)?.length ?? 0, { timeout: 120_000, interval: 500 }).toBe(3);
  }, 180_000);

  it('finds the conflict in Answers and settles it with "Use this answer"', async () => {
    await page.getByRole('button', { name: 'Answers', exact: true }).click();
    const list = page.getByRole('listbox', { name: 'Answers' });
    await expect.poll(async () => (await list.innerText()).match(/Conflict/g)?.length ?? 0, { timeout: 30_000 }).toBe(2);
    await page.getByLabel('Filter answers', { exact: true }).selectOption('conflicts');
    const group = page.getByRole('group', { name: PT });
    await group.waitFor({ timeout: 30_000 });
    // Every control of the view has a name a screen reader can say.
    const snapshot = await pane().ariaSnapshot();
    const unnamed = snapshot
      .split('\n')
      .filter((line) => /^\s*- (button|textbox|searchbox|checkbox|combobox|listbox|option|group)(\s*\[[^\]]*\])*:?\s*$/.test(line));
    expect(unnamed, snapshot).toEqual([]);
    await shot('1-conflict');
    await group.locator('.qf-card', { hasText: 'hecvat-2024.xlsx' }).getByRole('button', { name: 'Use this answer' }).click();
    await expect.poll(() => pane().innerText(), { timeout: 30_000 }).toMatch(/Settled "Do you perform annual penetration tests\?"/);
    expect(await group.getByRole('button', { name: 'Use this answer' }).count()).toBe(0);
    await shot('2-settled');
  }, 90_000);

  it('edits one entry (a new version) from the keyboard-friendly list, and adds one by hand', async () => {
    await page.getByLabel('Filter answers', { exact: true }).selectOption('');
    await page.getByLabel('Search answers').fill('encrypted at rest');
    const list = page.getByRole('listbox', { name: 'Answers' });
    await expect.poll(() => list.getByRole('option').count(), { timeout: 30_000 }).toBe(1);
    await list.focus();
    await page.keyboard.press('Enter');
    const entry = page.getByRole('region', { name: 'Answer library entry' });
    await entry.getByRole('heading', { name: new RegExp(EN.replace('?', '\\?')) }).waitFor({ timeout: 30_000 });
    await entry.getByRole('button', { name: 'Edit' }).click();
    const comment = entry.locator('textarea').nth(1);
    await comment.fill('AES-256, with keys held in a managed KMS.');
    await entry.getByRole('button', { name: 'Save as a new version' }).click();
    await expect.poll(() => entry.innerText(), { timeout: 30_000 }).toMatch(/Saved as version 2/);
    await entry.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => entry.innerText(), { timeout: 30_000 }).toMatch(/Approved by analyst: fills use it with high trust/);
    await entry.getByRole('button', { name: 'Owner and review…' }).click();
    const review = entry.getByRole('form', { name: 'Owner and review' });
    await review.getByLabel(/^Owner/).fill('analyst');
    await review.getByLabel(/^Review every/).fill('6');
    await review.getByRole('button', { name: 'Save owner and review' }).click();
    await expect.poll(() => entry.innerText(), { timeout: 30_000 }).toMatch(/Owned by analyst; reviewed every 6 months/);
    await shot('3-edited');
    await entry.getByRole('button', { name: 'Back to the list' }).click();

    await page.getByText('Add an answer by hand').click();
    const add = page.getByRole('form', { name: 'Add an answer' });
    await add.getByLabel('Question').fill(BB);
    await add.getByLabel('Answer', { exact: true }).fill('Yes');
    await add.getByLabel('Comment (optional)').fill('Run with a public programme since 2023.');
    await add.getByRole('button', { name: 'Add to the library' }).click();
    const added = page.getByRole('region', { name: 'Answer library entry' });
    await added.getByRole('heading', { name: BB }).waitFor({ timeout: 30_000 });
    await added.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => added.innerText(), { timeout: 30_000 }).toMatch(/Approved by analyst/);
    expect(await added.innerText()).toMatch(/Source\s*Added by hand/);
    await shot('4-added');
    expect(await page.locator('[role="alert"]').count()).toBe(0);
  }, 120_000);

  it('replays the library on its past questionnaires: agreement and coverage in "How good is the library for us?"', async () => {
    await page.getByRole('region', { name: 'Answer library entry' }).getByRole('button', { name: 'Back to the list' }).click();
    await page.getByLabel('Search answers').fill('');
    const card = page.getByRole('region', { name: 'How good is the library for us?' });
    await expect.poll(() => card.innerText(), { timeout: 30_000 }).toMatch(/Not measured yet/);
    await card.getByRole('button', { name: 'Run', exact: true }).click();
    await expect.poll(() => card.innerText(), { timeout: 120_000, interval: 500 }).toMatch(/Agreement \d+\.\d% · coverage \d+\.\d%/);
    expect(await card.innerText()).toMatch(/3 questionnaires, \d{4}-\d{2}-\d{2} by analyst/);
    await card.getByText(/^Trend, answers that differed, gaps/).click();
    await card.getByText(/^Answered otherwise \(1\)/).click();
    expect(await card.getByRole('list', { name: 'Answered otherwise' }).innerText()).toMatch(/hecvat-2021\.xlsx: No · library: Yes/);
    await card.scrollIntoViewIfNeeded();
    await shot('5-replay');
  }, 180_000);

  it('fills a questionnaire: the settled and the added answers are written with high trust, the edit with its new comment', async () => {
    const questionnaire = blank('vendor-review-2026.xlsx', [
      ['Q1', PT],
      ['Q2', BB],
      ['Q3', EN],
    ]);
    await page.getByTestId('open-file').setInputFiles(questionnaire);
    await expect.poll(() => page.getByTestId('workbook-name').innerText(), { timeout: 30_000 }).toBe('vendor-review-2026.xlsx');
    await page.getByRole('tab', { name: 'Fill', exact: true }).click();
    await page.getByRole('button', { name: 'Fill this workbook' }).click();
    const report = page.getByRole('region', { name: 'Fill report' });
    await report.waitFor({ timeout: 180_000 });
    await expect.poll(() => report.innerText()).toMatch(/Wrote \d+ cells?/);
    expect(await cell('Answers', 'C2')).toBe('Yes'); // the settled answer, not 2021's "No"
    expect(await cell('Answers', 'C3')).toBe('Yes'); // the one added by hand
    expect(await cell('Answers', 'C4')).toBe('Yes');
    expect(await cell('Answers', 'D4')).toMatch(/managed KMS/); // the edit's new version
    const questions = page.getByLabel('Questions', { exact: true });
    for (const q of [PT, BB]) {
      const row = questions.getByRole('button', { name: new RegExp(q.replace('?', '\\?')) });
      expect(await row.locator('.qf-badge').first().getAttribute('class')).toContain('qf-trust-high');
      expect(await row.innerText()).not.toMatch(/· review/);
    }
    await shot('6-filled');
    expect(refused).toEqual([]);
  }, 240_000);
});
