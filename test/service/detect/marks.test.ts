/** Answers given by an "x" under one of several choice columns (CAIQ v3 style), read as mark slots. */
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { detectQuestionnaire } from '../../../src/service/detect';
import { byId, toBytes } from './helpers';

/** A CAIQ v3.0.1-like sheet: "Consensus Assessment Answers" merged over Yes | No | Not Applicable, Notes beside. */
export async function caiqV3Workbook(marks: Record<string, string> = {}): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('CAIQ v3.0.1');
  ws.addRow(['Control Domain', 'Control ID', 'Question ID', 'Control Specification', 'Consensus Assessment Questions', 'Consensus Assessment Answers', null, null, 'Notes']);
  ws.addRow([null, null, null, null, null, 'Yes', 'No', 'Not Applicable', null]);
  ws.mergeCells('F1:H1');
  const rows: [string, string, string][] = [
    ['AIS-01', 'AIS-01.1', 'Do you use industry standards to build in security for your Systems/Software Development Lifecycle?'],
    ['AIS-01', 'AIS-01.2', 'Do you use an automated source code analysis tool to detect security defects in code prior to production?'],
    ['AIS-02', 'AIS-02.1', 'Are all identified security, contractual, and regulatory requirements for customer access addressed?'],
    ['AIS-03', 'AIS-03.1', 'Are data input and output integrity routines implemented for application interfaces and databases?'],
  ];
  rows.forEach(([control, id, question], i) => {
    const r = ws.addRow(['Application & Interface Security', control, id, 'Applications and programming interfaces shall be designed per standards.', question, null, null, null, null]);
    for (const [col, choice] of [[6, 'Yes'], [7, 'No'], [8, 'Not Applicable']] as const) {
      if (marks[id] === choice) r.getCell(col).value = 'x';
    }
    if (i === 0 && marks[id]) r.getCell(9).value = 'SDLC based on OWASP SAMM';
  });
  return toBytes(wb);
}

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
      expect(s).toMatchObject({ mark: 'x', mark_group: 'answer', allowed_values: ['Yes', 'No', 'Not Applicable'], is_blocked: false, value: null });
    }
  });

  it('reads a marked workbook’s choice as the answer, on the group’s first slot', async () => {
    const d = await detectQuestionnaire(await caiqV3Workbook({ 'AIS-01.1': 'Yes', 'AIS-01.2': 'Not Applicable', 'AIS-02.1': 'No' }), 'caiq-v3-done.xlsx');
    const answer = (id: string) => byId(d, id)!.answer_slots.filter((s) => s.type === 'mark').map((s) => s.value);
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
