// @vitest-environment happy-dom
// @vitest-environment-options {"settings": {"fetch": {"disableSameOriginPolicy": true}}}
/**
 * A workbook's fill, review, resume and undo belong to it alone: two copies of one template (same name,
 * same sheets, same address) never share them; a saved-as copy of a filled workbook keeps its review
 * (it holds the answers) but not its undo. The real Excel adapter on the in-memory Excel host.
 */
import { fireEvent, screen, waitFor } from '@testing-library/preact';
import { beforeEach, describe, expect, it } from 'vitest';
import { createExcelWorkbook } from '../../src/excel';
import { WORKBOOK_ID_SETTING } from '../../src/excel/workbook';
import { STORAGE_KEYS } from '../../src/taskpane/settings-store';
import { installExcelHost } from '../../src/workbench/host/install';
import { loadXlsxIntoHost } from '../../src/workbench/host/load-xlsx';
import type { ExcelHost } from '../../src/workbench/host/host';
import { questionnaireXlsx } from '../service/helpers';
import { type FakeService, sampleQuestions } from './fake-service';
import { API_KEY, cleanup, renderApp, withFakeService } from './harness';
import { type MemoryWorkbook, memoryStorage } from './memory-workbook';

let fake: FakeService;
withFakeService((f) => (fake = f));
beforeEach(() => {
  fake.questions = sampleQuestions();
  fake.progress = { status: 'complete', answers_expected: 3, answers_received: 3, percent: 100 };
  fake.questionnaireId = 7;
  fake.warnings = [];
});

const TEMPLATE = questionnaireXlsx([
  {
    name: 'Security',
    sections: [
      {
        questions: [
          ['SEC-01', 'Is data encrypted at rest?'],
          ['SEC-02', 'Is MFA enforced for administrators?'],
        ],
      },
    ],
  },
  { name: 'Privacy', sections: [{ questions: [['PRI-01', 'Do you sell personal data?']] }] },
]);
const URL = 'https://contoso.example/Shared/hecvat.xlsx';

/** Opens the pane on `host` (the add-in's storage is shared, as in one Excel). */
async function openPane(host: ExcelHost, storage: ReturnType<typeof memoryStorage>): Promise<() => void> {
  const uninstall = installExcelHost(host);
  renderApp({ baseUrl: fake.origin, storage, workbook: createExcelWorkbook({ storage }) as unknown as MemoryWorkbook });
  return () => {
    cleanup();
    uninstall();
  };
}

describe('workbook identity', () => {
  it('gives a workbook its own id once, at its first upload; copies of the template open fresh', async () => {
    const storage = memoryStorage();
    storage.setItem(STORAGE_KEYS.apiKey, API_KEY);
    storage.setItem(STORAGE_KEYS.baseUrl, fake.origin);
    const first = await loadXlsxIntoHost(await TEMPLATE, { fileName: 'hecvat.xlsx', url: URL });
    let close = await openPane(first, storage);
    fireEvent.click(screen.getByRole('button', { name: 'Fill this workbook' }));
    await screen.findByText(/Wrote 2 cells/);
    expect(first.getCell('Security', 'C2').value).toBe('Yes, AES-256.');
    const id = first.settings.get(WORKBOOK_ID_SETTING);
    expect(typeof id).toBe('string');
    expect(first.stats.settingsWrites).toBe(1);
    // A second fill of the same workbook writes no setting.
    fireEvent.click(await screen.findByRole('button', { name: 'Fill this workbook' }));
    await screen.findByText(/Wrote 0 cells; skipped/);
    expect(first.stats.settingsWrites).toBe(1);
    close();

    // An untouched copy of the same template, same name and address: fresh, nothing to resume or undo.
    const copy = await loadXlsxIntoHost(await TEMPLATE, { fileName: 'hecvat.xlsx', url: URL });
    close = await openPane(copy, storage);
    await screen.findByRole('button', { name: 'Fill this workbook' });
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByText(/Answers were written into this workbook/)).toBeNull();
    expect(screen.queryByRole('button', { name: /Undo/ })).toBeNull();
    expect(screen.queryByRole('list', { name: 'Questions' })).toBeNull();
    expect(copy.stats.settingsWrites).toBe(0);
    close();

    // The filled workbook reopened: its review and its undo are still there.
    close = await openPane(first, storage);
    await screen.findByText(/Answers were written into this workbook on/);
    await screen.findByRole('button', { name: 'Undo fill' });
    close();

    // A saved-as copy of the filled workbook (its settings travel with it, its address does not): the review, not the undo.
    const savedAs = await loadXlsxIntoHost(await TEMPLATE, { fileName: 'hecvat-2026.xlsx', url: 'https://contoso.example/Shared/hecvat-2026.xlsx' });
    savedAs.settings.set(WORKBOOK_ID_SETTING, id);
    close = await openPane(savedAs, storage);
    await screen.findByText(/Answers were written into this workbook on/);
    await waitFor(() => expect(screen.getByRole('list', { name: 'Questions' })).toBeTruthy());
    expect(screen.queryByRole('button', { name: /Undo/ })).toBeNull();
    close();
  });
});
