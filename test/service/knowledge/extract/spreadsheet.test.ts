/** A workbook uploaded to the repository is read once: its answered questions and its top rows from the one reading. */
import { describe, expect, it, vi } from 'vitest';
import * as workbookModule from '../../../../src/service/detect/workbook';
import { qaFromQuestionnaire } from '../../../../src/service/knowledge/extract/questionnaire';
import { xlsxQa } from '../../../../src/service/knowledge/extract/spreadsheet';
import { caiqV3Workbook } from '../../detect/helpers';

vi.mock('../../../../src/service/detect/workbook', async (original) => {
  const actual = await original<typeof import('../../../../src/service/detect/workbook')>();
  return { ...actual, readWorkbook: vi.fn(actual.readWorkbook) };
});

describe('xlsxQa', () => {
  it('detects the questionnaire in the workbook it has read: one parse, the same entries as detecting from the bytes', async () => {
    const bytes = await caiqV3Workbook({ 'AIS-01.1': 'Yes', 'AIS-02.1': 'Not Applicable' });
    const read = vi.mocked(workbookModule.readWorkbook);
    read.mockClear();
    const { qa, topText } = await xlsxQa(bytes, 'caiq-v3-done.xlsx');
    expect(read).toHaveBeenCalledTimes(1);
    expect(qa.map((p) => [p.original_id, p.answer])).toEqual([
      ['AIS-01.1', 'Yes'],
      ['AIS-02.1', 'Not Applicable'],
    ]);
    expect(topText).not.toBe('');
    read.mockClear();
    expect(await qaFromQuestionnaire(bytes, 'caiq-v3-done.xlsx')).toEqual(qa);
    expect(read).toHaveBeenCalledTimes(1);
  });
});
