/** Answers given by an "x" under one of several choice columns (CAIQ v3 style), read as mark slots. */
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { detectQuestionnaire } from '../../../src/service/detect';
import { byId, caiqV3Workbook, toBytes } from './helpers';

describe('x-marked answers', () => {
  it('reports one mark slot per choice column with the sheet’s headers, and the comment beside', async () => {
    const d = await detectQuestionnaire(await caiqV3Workbook(), 'caiq-v3.xlsx');
    expect(d.questions.map((q) => [q.original_id, q.question_coordinate])).toEqual([
      ['AIS-01.1', 'E3'],
      ['AIS-01.2', 'E4'],
      ['AIS-02.1', 'E5'],
      ['AIS-03.1', 'E6'],
    ]);
    const slots = byId(d, 'AIS-01.2')!.answer_slots;
    expect(slots.map((s) => [s.role, s.header, s.coordinate, s.type])).toEqual([
      ['answer', 'Yes', 'F4', 'mark'],
      ['answer_no', 'No', 'G4', 'mark'],
      ['answer_not_applicable', 'Not Applicable', 'H4', 'mark'],
      ['comment', 'Notes', 'I4', 'text'],
    ]);
    for (const s of slots.slice(0, 3)) {
      expect(s).toMatchObject({ mark: 'x', mark_group: 'answer', allowed_values: ['Yes', 'No', 'Not Applicable'], is_blocked: true, value: null });
    }
  });

  it('reads a marked workbook’s choice as the answer, on the group’s first slot', async () => {
    const d = await detectQuestionnaire(await caiqV3Workbook({ 'AIS-01.1': 'Yes', 'AIS-01.2': 'Not Applicable', 'AIS-02.1': 'No' }), 'caiq-v3-done.xlsx');
    const answer = (id: string) =>
      byId(d, id)!
        .answer_slots.filter((s) => s.type === 'mark')
        .map((s) => s.value);
    expect(answer('AIS-01.1')).toEqual(['Yes', null, null]);
    expect(answer('AIS-01.2')).toEqual(['Not Applicable', null, null]);
    expect(answer('AIS-02.1')).toEqual(['No', null, null]);
    expect(answer('AIS-03.1')).toEqual([null, null, null]);
  });

  it('keeps a Yes/No column with a dropdown a list slot, not marks', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Q');
    ws.addRow(['ID', 'Question', 'Yes', 'No', 'Notes']);
    ws.addRow(['Q-1', 'Do you encrypt backups?', 'Encrypted with AES-256', null, null]);
    ws.addRow(['Q-2', 'Do you test restores?', null, null, null]);
    const d = await detectQuestionnaire(await toBytes(wb), 'not-marks.xlsx');
    expect(d.questions[0]!.answer_slots.some((s) => s.type === 'mark')).toBe(false);
  });
});
