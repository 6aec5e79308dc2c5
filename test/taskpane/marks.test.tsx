// @vitest-environment happy-dom
// @vitest-environment-options {"settings": {"fetch": {"disableSameOriginPolicy": true}}}
/**
 * The whole task pane filling a CAIQ v3-like workbook whose answers are an "x" under Yes | No | Not
 * Applicable: the real Excel adapter on the in-memory Excel host, a v2 service on loopback whose
 * questions are the detector's reading of that workbook.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import type { QuestionWithAnswers } from '../../src/api/schemas';
import { createExcelWorkbook } from '../../src/excel';
import { detectQuestionnaire } from '../../src/service/detect';
import { STORAGE_KEYS } from '../../src/taskpane/settings-store';
import { installExcelHost } from '../../src/workbench/host/install';
import { loadXlsxIntoHost } from '../../src/workbench/host/load-xlsx';
import { caiqV3Workbook } from '../service/detect/helpers';
import type { FakeService } from './fake-service';
import { API_KEY, cleanup, renderApp, withFakeService } from './harness';
import { type MemoryWorkbook, memoryStorage } from './memory-workbook';

let fake: FakeService;
withFakeService((f) => (fake = f));

const NOW = '2025-01-01T00:00:00Z';
const TAB = 'CAIQ v3.0.1';

/** The detector's questions for `bytes`, each answered with its choice at high trust. */
async function answered(bytes: Uint8Array, choices: Record<string, string>): Promise<QuestionWithAnswers[]> {
  const detected = await detectQuestionnaire(bytes, 'caiq-v3.xlsx');
  return detected.questions.map((d, i) => ({
    id: i + 1,
    original_id: d.original_id ?? undefined,
    original_question_text: d.original_question_text,
    row: d.row,
    question_coordinate: d.question_coordinate,
    answer_slots: d.answer_slots,
    tab_name: d.tab_name,
    section_path: d.section_path,
    order: d.order,
    needs_filling: true,
    selected_answer_id: (i + 1) * 10,
    flagged_for_review: false,
    answers: [
      {
        id: (i + 1) * 10,
        text: choices[d.original_id!]!,
        evaluation: { score: 90, trust: 'high', reason: 'Grounded in two passages.' },
        status: 'draft',
        created_at: NOW,
        updated_at: NOW,
        source_evidence: [
          {
            id: i + 1,
            type: 'passage',
            content: 'Excerpt.',
            filename: 'sdlc.pdf',
            file_id: 3,
            page_number: 2,
            tab_name: d.tab_name,
            relevance_score: 0.8,
            rank: 1,
            created_at: NOW,
          },
        ],
      },
    ],
  })) as unknown as QuestionWithAnswers[];
}

describe('the task pane on an x-marked questionnaire', () => {
  it('marks the chosen columns, asks before clearing the vendor’s mark, and Undo fill puts it back', async () => {
    const bytes = await caiqV3Workbook({ 'AIS-01.1': 'Yes' });
    fake.questions = await answered(bytes, { 'AIS-01.1': 'No', 'AIS-01.2': 'Yes', 'AIS-02.1': 'Not Applicable', 'AIS-03.1': 'No' });
    fake.progress = { status: 'complete', answers_expected: 4, answers_received: 4, percent: 100 };
    fake.questionnaireId = 7;
    fake.warnings = [];
    const host = await loadXlsxIntoHost(bytes, { fileName: 'caiq-v3.xlsx', url: 'https://contoso.example/caiq-v3.xlsx' });
    const uninstall = installExcelHost(host);
    try {
      const before = host.snapshot();
      const storage = memoryStorage();
      storage.setItem(STORAGE_KEYS.apiKey, API_KEY);
      storage.setItem(STORAGE_KEYS.baseUrl, fake.origin);
      renderApp({ baseUrl: fake.origin, storage, workbook: createExcelWorkbook({ storage }) as unknown as MemoryWorkbook });
      fireEvent.click(screen.getByLabelText(/Overwrite cells that already hold a value/));
      fireEvent.click(screen.getByRole('button', { name: 'Fill this workbook' }));

      const confirm = await screen.findByRole('group', { name: 'Confirm overwrite' }, { timeout: 10_000 });
      expect(confirm.textContent).toContain('Overwrite will replace 1 existing value in this workbook.');
      expect(confirm.textContent).toContain(`${TAB}!F3 (AIS-01.1): “x” → “”`);
      expect(host.snapshot()).toEqual(before);
      fireEvent.click(within(confirm).getByRole('button', { name: 'Replace 1 value' }));
      await screen.findByText(/Wrote 5 cells/);
      const marks = (r: number) => ['F', 'G', 'H'].map((c) => host.getCell(TAB, `${c}${r}`).value ?? '');
      expect([marks(3), marks(4), marks(5), marks(6)]).toEqual([
        ['', 'x', ''],
        ['x', '', ''],
        ['', '', 'x'],
        ['', 'x', ''],
      ]);
      // The Notes beside the marks keep the vendor's text: the answer is the mark's.
      expect(host.getCell(TAB, 'I3').value).toBe('SDLC based on OWASP SAMM');

      const undo = screen.getByRole('button', { name: 'Undo fill' }) as HTMLButtonElement;
      await waitFor(() => expect(undo.disabled).toBe(false));
      fireEvent.click(undo);
      await screen.findByText(/Undone: 5 cells restored\./);
      expect(host.snapshot()).toEqual(before);
    } finally {
      cleanup(); // unmount while Excel still exists: unsubscribing from selection events calls it
      uninstall();
    }
  });
});
