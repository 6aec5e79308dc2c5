// Browser end-to-end: headless Chromium (Debian's) drives the real task pane inside the workbench against
// the real local service on loopback: key, library upload, fill, cells, undo, a real fixture, chat, 403.
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import ExcelJS from 'exceljs';
import { detectQuestionnaire } from '../../src/service/detect';
import { comparePackages } from '../../src/xlsx/compare';
import { DEMO_PREFILLED, DEMO_TAB } from '../../src/workbench/demo-questionnaire';
import { demoRow, openWorkbench, type WorkbenchSession } from './workbench-session';

const FIXTURES = path.resolve('../shared/fixtures');
const ARTIFACTS = path.resolve('test-artifacts');
const DEMO_KB = path.resolve('scripts/demo/kb');
const LIBRARY_FIXTURE = path.join(FIXTURES, 'questionnaires', 'hecvat-lite-3.04-canvas-catalog-completed.xlsx');
const FILL_FIXTURE = path.join(FIXTURES, 'questionnaires', 'hecvat-lite-3.04-canvas-studio-completed.xlsx');

type Snapshot = { sheets: { name: string; cells: Record<string, { value: unknown; formula: string | null }> }[] };

let browser: Browser;
let page: Page;
let baseUrl: string;
let key: string;
let session: WorkbenchSession | undefined;

async function cellText(sheet: string, address: string): Promise<string> {
  return page.evaluate(
    ([s, a]) => {
      const host = (window as unknown as { qfillWorkbench: { host: { getCell(s: string, a: string): { value: unknown } } } }).qfillWorkbench.host;
      const v = host.getCell(s, a).value;
      return v === null || v === undefined ? '' : String(v);
    },
    [sheet, address] as const,
  );
}

async function snapshot(): Promise<Snapshot> {
  return page.evaluate(() => (window as unknown as { qfillWorkbench: { host: { snapshot(): Snapshot } } }).qfillWorkbench.host.snapshot());
}

async function shot(name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
}

async function openTab(name: 'Fill' | 'Chat' | 'Library' | 'Settings'): Promise<void> {
  await page.getByRole('tab', { name, exact: true }).click();
}

async function openWorkbook(file: string): Promise<void> {
  await page.getByTestId('open-file').setInputFiles(file);
  await expect.poll(() => page.getByTestId('workbook-name').innerText(), { timeout: 30_000 }).toBe(path.basename(file));
}

async function saveKey(value: string): Promise<void> {
  await openTab('Settings');
  await page.getByLabel('API key', { exact: true }).fill(value);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
}

async function fillWorkbook(): Promise<void> {
  await openTab('Fill');
  await page.getByRole('button', { name: 'Fill this workbook' }).click();
  await page.getByRole('button', { name: 'Undo fill' }).waitFor({ timeout: 180_000 });
}

beforeAll(async () => {
  session = await openWorkbench({ org: 'e2e', keyName: 'browser tests', dataDirPrefix: 'qfill-e2e-' });
  ({ browser, page, baseUrl, key } = session);
}, 120_000);

afterAll(async () => {
  await session?.close();
});

describe('the task pane in the workbench, against the local service', () => {
  it('explains a refused key (403) in words', async () => {
    await saveKey('qf_not-a-real-key');
    await page.getByRole('button', { name: 'Test connection' }).click();
    await expect
      .poll(
        () =>
          page
            .locator('[role="alert"], [role="status"]')
            .allInnerTexts()
            .then((t) => t.join(' ')),
        { timeout: 20_000 },
      )
      .toMatch(/key|licen[cs]e/i);
    await shot('settings-403');
  });

  it('connects with a valid key', async () => {
    await saveKey(key);
    await page.getByRole('button', { name: 'Test connection' }).click();
    await expect
      .poll(
        () =>
          page
            .locator('[role="status"], [role="alert"]')
            .allInnerTexts()
            .then((t) => t.join(' ')),
        { timeout: 20_000 },
      )
      .toMatch(/connected|works|ok/i);
    await shot('settings');
  });

  it('uploads documents in the Library and shows them ready', async () => {
    await openTab('Library');
    const files = readdirSync(DEMO_KB).map((f) => path.join(DEMO_KB, f));
    await page.getByLabel('Choose files to upload').setInputFiles(files);
    await page.getByRole('button', { name: /^Upload/ }).click();
    const list = page.getByLabel('Library files');
    for (const f of files) await expect.poll(() => list.innerText(), { timeout: 60_000 }).toContain(path.basename(f));
    await expect.poll(async () => (await list.innerText()).match(/\bReady\b/gi)?.length ?? 0, { timeout: 90_000 }).toBeGreaterThanOrEqual(files.length);
    await shot('library');
  });

  it('fills the demo questionnaire, leaves typed answers and formulas alone, and undoes exactly', async () => {
    await page.getByTestId('open-file').waitFor({ state: 'attached' });
    const before = await snapshot();
    const formulaCells = before.sheets.flatMap((s) =>
      Object.entries(s.cells)
        .filter(([, c]) => c.formula)
        .map(([a, c]) => ({ sheet: s.name, a, formula: c.formula })),
    );
    expect(formulaCells.length).toBeGreaterThan(0);

    await fillWorkbook();
    await shot('fill');

    const tls = demoRow('DAT-01');
    expect(await cellText(DEMO_TAB, `C${tls}`)).toBe('Yes');
    expect(await cellText(DEMO_TAB, `D${tls}`)).toMatch(/TLS/);
    const mfa = demoRow('ACC-01');
    expect(await cellText(DEMO_TAB, `D${mfa}`)).toMatch(/multi-factor|MFA/i);
    // Nothing in the knowledge base says the company runs its own data center: never a confident Yes.
    expect(await cellText(DEMO_TAB, `C${demoRow('DAT-04')}`)).not.toBe('Yes');
    // What the analyst typed stays.
    const typed = demoRow(DEMO_PREFILLED.id);
    expect(await cellText(DEMO_TAB, `C${typed}`)).toBe(DEMO_PREFILLED.answer);
    expect(await cellText(DEMO_TAB, `D${typed}`)).toBe(DEMO_PREFILLED.comment);

    const after = await snapshot();
    for (const f of formulaCells) {
      const sheet = after.sheets.find((s) => s.name === f.sheet)!;
      expect(sheet.cells[f.a]?.formula).toBe(f.formula);
    }
    // Only the answer columns of question rows changed.
    const changed = diffCells(before, after);
    expect(changed.length).toBeGreaterThan(5);
    for (const c of changed) {
      expect(c.sheet).toBe(DEMO_TAB);
      expect(['C', 'D']).toContain(c.address.replace(/\d+/, ''));
    }

    // The filled workbook downloads as a real .xlsx with the answers, the typed cells and the formula.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download .xlsx' }).click()]);
    const saved = path.join(ARTIFACTS, download.suggestedFilename());
    mkdirSync(ARTIFACTS, { recursive: true });
    await download.saveAs(saved);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(readFileSync(saved) as never);
    const ws = book.getWorksheet(DEMO_TAB)!;
    expect(ws.getCell(`C${tls}`).value).toBe('Yes');
    expect(ws.getCell(`C${typed}`).value).toBe(DEMO_PREFILLED.answer);
    expect(formulaCells.filter((f) => f.sheet === DEMO_TAB).every((f) => (ws.getCell(f.a).formula ?? '') === f.formula!.replace(/^=/, ''))).toBe(true);
    // Written by src/xlsx in the browser: the opened file with only the answer cells (and their colours) changed.
    const opened = new Uint8Array(
      await page.evaluate(() => Array.from((window as unknown as { qfillWorkbench: { host: { fileBytes: Uint8Array } } }).qfillWorkbench.host.fileBytes)),
    );
    const diff = comparePackages(opened, new Uint8Array(readFileSync(saved)));
    // The fill's source notes come as the sheet's notes: its comments part, VML drawing and relationships.
    for (const part of diff.addedParts)
      expect(part).toMatch(/^xl\/comments\d+\.xml$|^xl\/drawings\/vmlDrawing\d+\.vml$|^xl\/worksheets\/_rels\/sheet2\.xml\.rels$/);
    expect(diff.removedParts).toEqual([]);
    expect(
      diff.changedParts.filter((p) => !['xl/workbook.xml', 'xl/styles.xml', '[Content_Types].xml', 'xl/worksheets/_rels/sheet2.xml.rels'].includes(p)),
    ).toEqual(['xl/worksheets/sheet2.xml']);
    expect(diff.sheetsChangedOutsideData.filter((p) => p !== 'xl/worksheets/sheet2.xml')).toEqual([]);
    expect(new Set(diff.cellChanges.map((c) => c.address.replace(/\d+/, '')))).toEqual(new Set(['C', 'D']));

    await page.getByRole('button', { name: 'Undo fill' }).click();
    await expect.poll(async () => diffCells(before, await snapshot()).length, { timeout: 30_000 }).toBe(0);
  });

  it('reviews an answer: clicking a question selects its cell and shows its evidence', async () => {
    await fillWorkbook();
    const review = page.getByLabel('Questions', { exact: true });
    await review.getByText('encrypted in transit', { exact: false }).first().click();
    await expect.poll(() => page.getByTestId('selection').innerText(), { timeout: 10_000 }).toMatch(new RegExp(`^${DEMO_TAB}!C${demoRow('DAT-01')}$`));
    const selectedQuestion = page.getByLabel('Selected question');
    await selectedQuestion.locator('summary').first().click();
    await expect.poll(() => selectedQuestion.innerText(), { timeout: 10_000 }).toMatch(/northwind-security-overview/i);
    await shot('review');
    await page.getByRole('button', { name: 'Undo fill' }).click();
  });

  it('fills a real questionnaire from a completed one in the library, without touching occupied cells', async () => {
    if (!existsSync(LIBRARY_FIXTURE) || !existsSync(FILL_FIXTURE)) {
      throw new Error(`The fixtures are missing (${FIXTURES}): this test needs ../shared/fixtures/questionnaires`);
    }
    // The library answer for each question id, from the completed workbook itself.
    const library = await detectQuestionnaire(new Uint8Array(readFileSync(LIBRARY_FIXTURE)), path.basename(LIBRARY_FIXTURE));
    const libraryAnswer = new Map(library.questions.map((q) => [q.original_id, q.answer_slots.find((s) => s.role === 'answer')?.value ?? null]));
    const target = await detectQuestionnaire(new Uint8Array(readFileSync(FILL_FIXTURE)), path.basename(FILL_FIXTURE));

    await openTab('Library');
    await page.getByLabel('Choose files to upload').setInputFiles(LIBRARY_FIXTURE);
    await page.getByRole('button', { name: /^Upload/ }).click();
    const list = page.getByLabel('Library files');
    await expect.poll(async () => /canvas-catalog[\s\S]*?Ready/i.test(await list.innerText()), { timeout: 120_000 }).toBe(true);

    await openWorkbook(FILL_FIXTURE);
    // Blank the answers of every other question, as if the analyst had not answered them yet.
    const blanked = target.questions.filter((q, i) => i % 2 === 0 && q.answer_slots.some((s) => s.role === 'answer' && !s.is_blocked && s.value));
    const kept = target.questions.filter((q, i) => i % 2 === 1 && q.answer_slots.some((s) => s.role === 'answer' && !s.is_blocked && s.value));
    await page.evaluate(
      (cells) => {
        const host = (window as unknown as { qfillWorkbench: { host: { setCell(s: string, a: string, c: object): void } } }).qfillWorkbench.host;
        for (const c of cells) host.setCell(c.tab, c.coordinate, { value: null });
      },
      blanked.map((q) => ({ tab: q.tab_name, coordinate: q.answer_slots.find((s) => s.role === 'answer')!.coordinate })),
    );
    const before = await snapshot();

    await fillWorkbook();
    await shot('fill-fixture');

    let agree = 0;
    for (const q of blanked) {
      const slot = q.answer_slots.find((s) => s.role === 'answer')!;
      const written = await cellText(q.tab_name, slot.coordinate);
      const expected = libraryAnswer.get(q.original_id);
      if (expected && written === expected) agree++;
    }
    // Reused answers come from the library workbook's own cells.
    expect(agree / blanked.length).toBeGreaterThanOrEqual(0.8);
    for (const q of kept) {
      const slot = q.answer_slots.find((s) => s.role === 'answer')!;
      const original = before.sheets.find((s) => s.name === q.tab_name)!.cells[slot.coordinate]?.value;
      expect(await cellText(q.tab_name, slot.coordinate)).toBe(String(original));
    }

    await page.getByRole('button', { name: 'Undo fill' }).click();
    await expect.poll(async () => diffCells(before, await snapshot()).length, { timeout: 30_000 }).toBe(0);
  });

  it('chats with sources, and a follow-up keeps the subject', async () => {
    await openTab('Chat');
    const keep = page.getByLabel(/keep (the )?conversation/i);
    await keep.check();
    const box = page.getByPlaceholder(/Ask the knowledge base/);
    await box.fill('Do you have an incident response plan?');
    await box.press('Enter');
    const conversation = page.getByLabel('Conversation', { exact: true });
    await expect.poll(() => conversation.innerText(), { timeout: 30_000 }).toMatch(/incident response plan/i);
    // Sources sit in a collapsed list: open it, as the analyst would.
    await conversation.locator('summary').first().click();
    // The library holds both the demo's documents and a completed HECVAT by now: the answer comes from one
    // coherent source (either), never a splice of both.
    await expect.poll(() => conversation.innerText(), { timeout: 30_000 }).toMatch(/northwind-continuity-and-incidents|hecvat-lite/i);
    await box.fill('How often is it tested?');
    await box.press('Enter');
    await expect.poll(() => conversation.innerText(), { timeout: 30_000 }).toMatch(/tabletop|every year/i);
    await shot('chat');
  });
});

function diffCells(a: Snapshot, b: Snapshot): { sheet: string; address: string }[] {
  const out: { sheet: string; address: string }[] = [];
  for (const sa of a.sheets) {
    const sb = b.sheets.find((s) => s.name === sa.name);
    if (!sb) {
      out.push({ sheet: sa.name, address: '*' });
      continue;
    }
    const keys = new Set([...Object.keys(sa.cells), ...Object.keys(sb.cells)]);
    for (const k of keys) {
      if (JSON.stringify(sa.cells[k] ?? null) !== JSON.stringify(sb.cells[k] ?? null)) out.push({ sheet: sa.name, address: k });
    }
  }
  return out;
}
