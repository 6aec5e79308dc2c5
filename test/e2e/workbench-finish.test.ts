// The workbench as a place an analyst can finish in, in headless Chromium against the real local service:
// fill the demo questionnaire, type into the grid and see it, download and find the fill's source notes in the
// file (with everything typed), reload the page and find the workbook as it was (and no key in what is kept).
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TAB } from '../../src/workbench/demo-questionnaire';
import { demoRow, openWorkbench, type WorkbenchSession } from './workbench-session';

const ARTIFACTS = path.resolve('test-artifacts');
const DEMO_KB = path.resolve('scripts/demo/kb');

let page: Page;
let key: string;
let session: WorkbenchSession | undefined;

type HostView = {
  getCell(s: string, a: string): { value: unknown };
  snapshot(): { sheets: { name: string; notes: Record<string, string> }[] };
};

async function cellValue(address: string): Promise<unknown> {
  return page.evaluate(([a, tab]) => (window as unknown as { qfillWorkbench: { host: HostView } }).qfillWorkbench.host.getCell(tab, a).value, [
    address,
    DEMO_TAB,
  ] as const);
}

async function notes(): Promise<Record<string, string>> {
  return page.evaluate(
    (tab) => (window as unknown as { qfillWorkbench: { host: HostView } }).qfillWorkbench.host.snapshot().sheets.find((s) => s.name === tab)!.notes,
    DEMO_TAB,
  );
}

async function shot(name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `workbench-${name}.png`) });
}

beforeAll(async () => {
  session = await openWorkbench({ org: 'finish', keyName: 'workbench finish', dataDirPrefix: 'qfill-finish-' });
  ({ page, key } = session);
}, 120_000);

afterAll(async () => {
  await session?.close();
});

describe('the workbench, a place to finish in', () => {
  let typedAt = '';
  let notesAfterFill: Record<string, string> = {};

  it('fills the demo questionnaire with its source notes', async () => {
    await page.getByRole('tab', { name: 'Settings', exact: true }).click();
    await page.getByLabel('API key', { exact: true }).fill(key);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('tab', { name: 'Library', exact: true }).click();
    const files = readdirSync(DEMO_KB).map((f) => path.join(DEMO_KB, f));
    await page.getByLabel('Choose files to upload').setInputFiles(files);
    await page.getByRole('button', { name: /^Upload/ }).click();
    const list = page.getByLabel('Library files');
    await expect.poll(async () => (await list.innerText()).match(/\bReady\b/gi)?.length ?? 0, { timeout: 120_000 }).toBeGreaterThanOrEqual(files.length);
    await page.getByRole('tab', { name: 'Fill', exact: true }).click();
    await page.getByRole('button', { name: 'Fill this workbook' }).click();
    await page.getByRole('button', { name: 'Undo fill' }).waitFor({ timeout: 180_000 });
    notesAfterFill = await notes();
    expect(Object.keys(notesAfterFill).length).toBeGreaterThan(3);
  }, 300_000);

  it('types into the grid and sees it, in the cell and the formula bar; Ctrl+Z undoes its own typing', async () => {
    typedAt = `D${demoRow('DAT-04')}`;
    await page.locator(`[data-cell="${typedAt}"]`).click();
    await page.keyboard.type('Checked by the analyst: we use AWS');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator(`[data-cell="${typedAt}"]`).innerText()).toContain('Checked by the analyst: we use AWS');
    expect(await cellValue(typedAt)).toBe('Checked by the analyst: we use AWS');
    // Enter moved down, as in Excel (onto the next section's title, a merged row: its first cell); the formula bar follows the selection.
    await expect.poll(() => page.getByTestId('selection').innerText()).toMatch(new RegExp(`!(A|D)${demoRow('DAT-04') + 1}$`));
    await page.locator(`[data-cell="${typedAt}"]`).click();
    await expect.poll(() => page.getByTestId('formula-bar').innerText()).toBe('Checked by the analyst: we use AWS');

    // Ctrl+Z undoes the analyst's own typing; typing again brings it back.
    const undoneAt = `E${demoRow('DAT-04')}`;
    await page.locator(`[data-cell="${undoneAt}"]`).click();
    await page.keyboard.type('a slip');
    await page.keyboard.press('Enter');
    expect(await cellValue(undoneAt)).toBe('a slip');
    await page.keyboard.press('Control+z');
    await expect.poll(() => cellValue(undoneAt)).toBeNull();
    expect(await cellValue(typedAt)).toBe('Checked by the analyst: we use AWS');
    await shot('typed');
  });

  it('downloads the workbook and finds the notes in the file, with the answers and the typing', async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download .xlsx' }).click()]);
    const saved = path.join(ARTIFACTS, `finish-${download.suggestedFilename()}`);
    mkdirSync(ARTIFACTS, { recursive: true });
    await download.saveAs(saved);
    expect(await page.getByTestId('workbook-name').innerText()).toBe('demo-questionnaire.xlsx'); // nothing "downloaded without"
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(readFileSync(saved) as never);
    const ws = book.getWorksheet(DEMO_TAB)!;
    expect(ws.getCell(typedAt).value).toBe('Checked by the analyst: we use AWS');
    let found = 0;
    for (const [address, text] of Object.entries(notesAfterFill)) {
      const note = ws.getCell(address).note as string | { texts?: { text: string }[] } | undefined;
      const read = typeof note === 'string' ? note : (note?.texts ?? []).map((t) => t.text).join('');
      if (read === text) found++;
    }
    expect(found).toBe(Object.keys(notesAfterFill).length);
  });

  it('reloads the page and finds the workbook as it was, and no API key in what the page kept', async () => {
    await expect.poll(() => page.getByTestId('kept').getAttribute('data-state'), { timeout: 10_000 }).toBe('kept');
    await page.reload();
    await page.getByTestId('workbook-name').filter({ hasText: 'demo-questionnaire.xlsx' }).waitFor({ timeout: 30_000 });
    await expect.poll(() => cellValue(typedAt), { timeout: 10_000 }).toBe('Checked by the analyst: we use AWS');
    expect(await notes()).toEqual(notesAfterFill);
    expect(await cellValue(`C${demoRow('DAT-01')}`)).toBe('Yes');
    await expect.poll(() => page.locator(`[data-cell="${typedAt}"]`).innerText()).toContain('Checked by the analyst');
    // The fill can still be undone after the reload: its snapshot is keyed by the same document.
    await page.getByRole('tab', { name: 'Fill', exact: true }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Undo fill' }).count(), { timeout: 20_000 }).toBeGreaterThan(0);

    const kept = await page.evaluate(
      () =>
        new Promise<string>((resolve, reject) => {
          const open = indexedDB.open('qfill-workbench');
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const store = open.result.transaction('workbooks').objectStore('workbooks');
            const file = store.get('file');
            const state = store.get('state');
            state.onsuccess = () => resolve(JSON.stringify({ file: { ...file.result, original: undefined }, state: state.result }));
            state.onerror = () => reject(state.error);
          };
        }),
    );
    expect(kept).toContain('Checked by the analyst');
    expect(kept).not.toContain(key);
    await shot('reloaded');
  });
});
