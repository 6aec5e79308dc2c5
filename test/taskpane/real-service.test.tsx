// @vitest-environment happy-dom
// @vitest-environment-options {"settings": {"fetch": {"disableSameOriginPolicy": true}}}
/**
 * The task pane against the real local knowledge service (SQLite in a temp folder, real ingestion,
 * detection and answering) over loopback HTTP: the happy path of each pane end to end.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createExcelWorkbook } from '../../src/excel';
import { installExcelHost } from '../../src/workbench/host/install';
import { loadXlsxIntoHost } from '../../src/workbench/host/load-xlsx';
import { KB_TEXT, questionnaireXlsx, SECURITY_SHEET, startService, type Service } from '../service/helpers';
import { cleanup, renderApp } from './harness';
import { MemoryWorkbook, memoryStorage } from './memory-workbook';
import { STORAGE_KEYS } from '../../src/taskpane/settings-store';

let service: Service;
let key: string;
let readOnlyKey: string;

beforeAll(async () => {
  service = await startService();
  key = await service.key({ org: 'acme', user: 'alice' });
  readOnlyKey = await service.key({ org: 'acme', user: 'bob', readOnly: true });
});
afterAll(() => service.destroy());
afterEach(cleanup);

const origin = () => service.base.replace(/\/$/, '');

describe('task pane on the real local service', () => {
  it('Library: uploads a document and shows it processed to ready', async () => {
    renderApp({ baseUrl: origin(), apiKey: key, initialTab: 'library' });
    await screen.findByText(/^No documents yet\. Upload your policies/);
    const doc = new File([KB_TEXT], 'security-overview.txt', { type: 'text/plain' });
    fireEvent.change(screen.getByLabelText('Choose files to upload'), { target: { files: [doc] } });
    fireEvent.input(screen.getByLabelText('Tags (comma-separated)'), { target: { value: 'security' } });
    fireEvent.click(screen.getByRole('button', { name: 'Upload 1 file' }));
    await screen.findByText('Uploaded 1 file; processing has started.', {}, { timeout: 10_000 });
    const list = screen.getByRole('list', { name: 'Files' });
    await waitFor(() => expect(within(list).getByText('security-overview.txt').closest('li')!.textContent).toMatch(/ready/i), { timeout: 30_000 });
    expect(within(list).getByText('security-overview.txt').closest('li')!.textContent).toContain('#security');
    // The upload's note follows its file: no "processing has started" once it is ready.
    await screen.findByText('Uploaded 1 file: it is ready.', {}, { timeout: 10_000 });
    expect(screen.queryByText(/processing has started/)).toBeNull();
  });

  it('Chat: answers from the library with its sources', async () => {
    renderApp({ baseUrl: origin(), apiKey: key, initialTab: 'chat' });
    const box = screen.getByLabelText('Question') as HTMLTextAreaElement;
    fireEvent.input(box, { target: { value: 'Is customer data encrypted at rest?' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    const log = screen.getByLabelText('Conversation');
    await waitFor(() => expect(log.querySelector('.qf-bubble-assistant')).not.toBeNull(), { timeout: 15_000 });
    expect(log.querySelector('.qf-bubble-assistant .qf-answer')!.textContent).toMatch(/AES-256/);
    expect(log.querySelector('details')!.textContent).toContain('security-overview.txt');
  });

  it('Fill: uploads the workbook, waits for the answers, writes them into their cells, and undoes', async () => {
    const bytes = await questionnaireXlsx([SECURITY_SHEET]);
    const workbook = new MemoryWorkbook(['Security'], 'real-doc', bytes);
    renderApp({ baseUrl: origin(), apiKey: key, workbook });
    fireEvent.click(screen.getByRole('button', { name: 'Fill this workbook' }));
    await screen.findByText(/Wrote \d+ cells?/, {}, { timeout: 30_000 });
    // Row 1 headers, 2 section "Access Control", 3-4 AC-1/AC-2, 5 section "Encryption", 6 EN-1; answers in C.
    expect(String(workbook.value('Security', 'C3'))).toMatch(/multi-factor/i);
    expect(String(workbook.value('Security', 'C6'))).toMatch(/AES-256/);
    const headline = screen.getByLabelText('Where the review stands').textContent!;
    const [answered, drafts, untouched] = [...headline.matchAll(/(\d+) (?:answered|drafts?|untouched)/g)].map((m) => Number(m[1]));
    expect(answered! + drafts! + untouched!).toBe(4);

    // Review: the question behind a selected cell, and back.
    workbook.userSelects({ tab: 'Security', address: 'C6' });
    const card = await screen.findByRole('article', { name: 'Selected question' });
    expect(card.textContent).toContain('Is customer data encrypted at rest?');
    expect(card.textContent).toContain('security-overview.txt');

    const undo = screen.getByRole('button', { name: 'Undo fill' }) as HTMLButtonElement;
    await waitFor(() => expect(undo.disabled).toBe(false));
    fireEvent.click(undo);
    await screen.findByText(/Undone: \d+ cells? restored\./);
    expect(workbook.value('Security', 'C3')).toBeUndefined();
  });

  it('Fill with the real Excel adapter on the in-memory Excel host: cells, selection, pane reopened, undo', async () => {
    const bytes = await questionnaireXlsx([SECURITY_SHEET]);
    const host = await loadXlsxIntoHost(bytes, { fileName: 'vendor.xlsx', url: 'https://contoso.example/vendor.xlsx' });
    const uninstall = installExcelHost(host);
    try {
      const storage = memoryStorage();
      storage.setItem(STORAGE_KEYS.apiKey, key);
      storage.setItem(STORAGE_KEYS.baseUrl, origin());
      const workbook = createExcelWorkbook({ storage });
      renderApp({ baseUrl: origin(), storage, workbook: workbook as unknown as MemoryWorkbook });
      fireEvent.click(screen.getByRole('button', { name: 'Fill this workbook' }));
      await screen.findByText(/Wrote \d+ cells?/, {}, { timeout: 30_000 });
      expect(String(host.getCell('Security', 'C3').value)).toMatch(/multi-factor/i);
      expect(String(host.getCell('Security', 'C6').value)).toMatch(/AES-256/);

      // Clicking a question selects its cell in the sheet.
      const list = screen.getByRole('list', { name: 'Questions' });
      fireEvent.click(within(list).getByText(/Is customer data encrypted at rest\?/));
      await waitFor(() => expect(host.selection()).toEqual({ sheet: 'Security', address: 'C6' }));
      // Selecting a cell in the sheet brings up its question.
      host.userSelect('Security', 'B3');
      await waitFor(() =>
        expect(screen.getByRole('article', { name: 'Selected question' }).textContent).toContain('Do you enforce multi-factor authentication'),
      );

      // Reopened pane: the answers come back for review and Undo still works.
      cleanup();
      renderApp({ baseUrl: origin(), storage, workbook: createExcelWorkbook({ storage }) as unknown as MemoryWorkbook });
      await screen.findByText(/Answers were written into this workbook on/);
      const undo = (await screen.findByRole('button', { name: 'Undo fill' })) as HTMLButtonElement;
      await waitFor(() => expect(undo.disabled).toBe(false));
      fireEvent.click(undo);
      await screen.findByText(/Undone: \d+ cells? restored\./);
      expect(host.getCell('Security', 'C3').value ?? '').toBe('');
    } finally {
      cleanup(); // unmount while Excel still exists: unsubscribing from selection events calls it
      uninstall();
    }
  });

  it('Fill, correct, save to library, refill: the second fill carries the correction', async () => {
    const bytes = await questionnaireXlsx([SECURITY_SHEET]);
    const corrected = 'Yes: hardware security keys for every administrator, reviewed by the security team.';
    const fillIn = async (url: string) => {
      const host = await loadXlsxIntoHost(bytes, { fileName: 'hecvat-review.xlsx', url });
      const uninstall = installExcelHost(host);
      const storage = memoryStorage();
      storage.setItem(STORAGE_KEYS.apiKey, key);
      storage.setItem(STORAGE_KEYS.baseUrl, origin());
      renderApp({ baseUrl: origin(), storage, workbook: createExcelWorkbook({ storage }) as unknown as MemoryWorkbook });
      fireEvent.click(screen.getByRole('button', { name: 'Fill this workbook' }));
      await screen.findByText(/Wrote \d+ cells?/, {}, { timeout: 30_000 });
      return { host, uninstall };
    };

    const first = await fillIn('https://contoso.example/reviewed/hecvat-review.xlsx');
    try {
      expect(String(first.host.getCell('Security', 'C3').value)).toMatch(/multi-factor/i);
      // The analyst corrects an answer in the sheet, then saves what they reviewed.
      await Excel.run(async (context) => {
        context.workbook.worksheets.getItem('Security').getRange('C3').values = [[corrected]];
        await context.sync();
      });
      fireEvent.click(await screen.findByRole('button', { name: 'Save to library' }));
      const confirm = await screen.findByRole('group', { name: 'Confirm save' }, { timeout: 10_000 });
      expect(confirm.textContent).toMatch(/The library will learn \d+ answers? from 'Security', 1 corrected by you\./);
      fireEvent.click(within(confirm).getByRole('button', { name: /^Learn \d+ answers?$/ }));
      await screen.findByText(/Saved \d+ answers? to your library as hecvat-review \(reviewed answers\)\.csv/, {}, { timeout: 10_000 });
    } finally {
      cleanup();
      first.uninstall();
    }
    await waitFor(
      async () => {
        const res = await fetch(`${origin()}/api/v2/repository/files/?search=reviewed`, { headers: { 'X-API-Key': key } });
        const body = (await res.json()) as { results: { original_filename?: string; filename?: string; status: string }[] };
        expect(body.results.map((f) => f.status)).toEqual(['ready']);
      },
      { timeout: 30_000, interval: 200 },
    );

    // A fresh copy of the same questionnaire: the library answers it with the correction.
    const second = await fillIn('https://contoso.example/fresh/hecvat-review.xlsx');
    try {
      expect(second.host.getCell('Security', 'C3').value).toBe(corrected);
    } finally {
      cleanup();
      second.uninstall();
    }
  }, 90_000);

  it('Settings and uploads: a read-only key tests fine but its upload is refused and uploads get disabled', async () => {
    renderApp({ baseUrl: origin(), apiKey: readOnlyKey, initialTab: 'settings' });
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    await screen.findByText(/the key was accepted/, {}, { timeout: 10_000 });
    fireEvent.click(screen.getByRole('tab', { name: 'Library' }));
    fireEvent.change(screen.getByLabelText('Choose files to upload'), { target: { files: [new File(['x'], 'x.txt', { type: 'text/plain' })] } });
    fireEvent.click(screen.getByRole('button', { name: 'Upload 1 file' }));
    const alert = await screen.findByRole('alert', {}, { timeout: 10_000 });
    expect(alert.textContent).toMatch(/403/);
    expect((screen.getByRole('button', { name: 'Upload 1 file' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('tab', { name: 'Fill' }));
    expect((screen.getByRole('button', { name: 'Fill this workbook' }) as HTMLButtonElement).disabled).toBe(true);
    // Our service says why: the key is read-only, and Settings shows it as such.
    fireEvent.click(screen.getByRole('tab', { name: 'Settings' }));
    expect(screen.getByText('Read-only key')).toBeTruthy();
  });

  it('Library on our service: finds the delete extension, replaces a same-named file, deletes one, and chat stops citing it', async () => {
    const own = await service.key({ org: 'northwind-trial', user: 'ann' });
    renderApp({ baseUrl: origin(), apiKey: own, initialTab: 'library' });
    await screen.findByText(/^No documents yet/);
    const upload = async (text: string) => {
      fireEvent.change(screen.getByLabelText('Choose files to upload'), { target: { files: [new File([text], 'vault.txt', { type: 'text/plain' })] } });
      fireEvent.click(screen.getByRole('button', { name: 'Upload 1 file' }));
    };
    const list = () => screen.getByRole('list', { name: 'Files' });
    const ready = () =>
      waitFor(
        () =>
          expect(
            within(list())
              .getAllByText('vault.txt')
              .every((n) => /Ready/.test(n.closest('li')!.textContent!)),
          ).toBe(true),
        { timeout: 30_000 },
      );
    await upload('Backups are sealed in the zircon vault every night.');
    await screen.findByText('Uploaded 1 file; processing has started.', {}, { timeout: 10_000 });
    await ready();
    await upload('Backups are sealed in the basalt vault every hour.');
    fireEvent.click(within(await screen.findByRole('alertdialog', {}, { timeout: 10_000 })).getByRole('button', { name: 'Replace' }));
    await screen.findByText(/Replaced vault\.txt: the old copy is removed\./, {}, { timeout: 10_000 });
    await waitFor(() => expect(within(list()).getAllByText('vault.txt')).toHaveLength(1), { timeout: 10_000 });
    await ready();

    fireEvent.click(within(list()).getByRole('button', { name: 'Delete vault.txt' }));
    fireEvent.click(within(list()).getByRole('button', { name: 'Delete' }));
    await screen.findByText('Deleted vault.txt.', {}, { timeout: 10_000 });
    expect(screen.queryByRole('alert')).toBeNull();
    await screen.findByText(/^No documents yet/, {}, { timeout: 10_000 });
    const res = await fetch(`${origin()}/api/v2/chat/ask/`, {
      method: 'POST',
      headers: { 'X-API-Key': own, 'Content-Type': 'application/json' },
      body: JSON.stringify({ question: 'Which vault seals the backups?' }),
    });
    expect(JSON.stringify(await res.json())).not.toMatch(/zircon|basalt/);
  });
});
