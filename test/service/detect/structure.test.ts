/** Sections (nested, numbered, title blocks, plain labels), answer columns left of the questions, hidden rows. */
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { detectQuestionnaire } from '../../../src/service/detect';
import { byId, slot, toBytes } from './helpers';

const paths = (d: Awaited<ReturnType<typeof detectQuestionnaire>>) => d.questions.map((q) => [q.original_id ?? q.original_question_text, q.section_path]);
const csv = (lines: string[], name = 'q.csv') => detectQuestionnaire(new TextEncoder().encode(lines.join('\n')), name);

function styleTitle(ws: ExcelJS.Worksheet, row: number, color: string): void {
  const cell = ws.getCell(row, 1);
  cell.font = { bold: true, size: 14 };
  cell.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: color } };
}

function styleSubtitle(ws: ExcelJS.Worksheet, row: number): void {
  ws.getCell(row, 1).font = { bold: true, italic: true };
}

describe('nested sections', () => {
  it('nests a subtitle row under the title row above it, and keeps siblings by their look', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Q');
    ws.addRow(['ID', 'Question', 'Answer', 'Comments']);
    ws.addRow(['Security Controls']); // 2: title
    ws.addRow(['Access Control']); // 3: subtitle
    ws.addRow(['AC-1', 'Is MFA enforced for administrators?', 'Yes', null]);
    ws.addRow(['AC-2', 'Are accounts reviewed quarterly?', null, null]);
    ws.addRow(['Encryption']); // 6: next subtitle
    ws.addRow(['EN-1', 'Is data encrypted at rest?', null, null]);
    ws.addRow(['Privacy']); // 8: next title
    ws.addRow(['Retention']); // 9: its subtitle
    ws.addRow(['PR-1', 'Do you delete data on request?', null, null]);
    for (const r of [2, 8]) styleTitle(ws, r, 'FFDDEEFF');
    for (const r of [3, 6, 9]) styleSubtitle(ws, r);
    const d = await detectQuestionnaire(await toBytes(wb), 'nested.xlsx');
    expect(paths(d)).toEqual([
      ['AC-1', ['Security Controls', 'Access Control']],
      ['AC-2', ['Security Controls', 'Access Control']],
      ['EN-1', ['Security Controls', 'Encryption']],
      ['PR-1', ['Privacy', 'Retention']],
    ]);
    expect(byId(d, 'AC-2')?.block).toBe(byId(d, 'AC-1')?.block);
    expect(byId(d, 'EN-1')?.block).not.toBe(byId(d, 'AC-1')?.block);
  });

  it('nests numbered headings by their numbering (1., 1.1, 2.)', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Q');
    ws.addRow(['ID', 'Question', 'Answer']);
    ws.addRow(['1. General']);
    ws.addRow(['1.1 Organisation']);
    ws.addRow(['G-1', 'Do you have a security team?', 'Yes']);
    ws.addRow(['1.2 Policies']);
    ws.addRow(['G-2', 'Is there a written security policy?', null]);
    ws.addRow(['2. Operations']);
    ws.addRow(['O-1', 'Are backups tested?', null]);
    // All headings look the same: only the numbers tell the levels apart.
    for (const r of [2, 3, 5, 7]) ws.getCell(r, 1).font = { bold: true };
    const d = await detectQuestionnaire(await toBytes(wb), 'numbered.xlsx');
    expect(paths(d)).toEqual([
      ['G-1', ['1. General', '1.1 Organisation']],
      ['G-2', ['1. General', '1.2 Policies']],
      ['O-1', ['2. Operations']],
    ]);
  });

  it('reads outline numbers in the id column as sections, not questions (1 / 1.1 / 1.1.1)', async () => {
    const d = await csv([
      'No.,Question,Answer',
      '1,General,',
      '1.1,Do you have an information security policy?,Yes',
      '1.2,Is the policy reviewed every year?,',
      '2,Access control,',
      '2.1,Passwords,',
      '2.1.1,Is a minimum password length enforced?,',
      '2.2,Is MFA required for remote access?,',
    ]);
    expect(paths(d)).toEqual([
      ['1.1', ['General']],
      ['1.2', ['General']],
      ['2.1.1', ['Access control', 'Passwords']],
      ['2.2', ['Access control']],
    ]);
  });

  it('keeps the title block above the first question out of section paths', async () => {
    // Title with a version stamp, a subtitle styled unlike any section, a lone first question, then sections.
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Assessment');
    ws.getRow(1).values = ['Vendor Assessment Tool', null, null, null, 'Version 2.0'];
    ws.getRow(2).values = ['Shared Assessments Working Group'];
    ws.getRow(3).values = ['DATE-01', 'Date', '2024-01-31'];
    ws.getRow(4).values = ['General Information'];
    ws.getRow(5).values = ['GNRL-01', 'Vendor Name', 'Acme'];
    ws.getRow(6).values = ['Documentation', null, 'Vendor Answers', 'Additional Information'];
    ws.getRow(7).values = ['DOCU-01', 'Have you undergone a SOC 2 audit?', 'Yes', null];
    ws.getRow(8).values = ['DOCU-02', 'Do you have a privacy policy?', 'Yes', null];
    ws.mergeCells('A1:D1');
    ws.mergeCells('A2:E2');
    ws.mergeCells('A4:B4');
    ws.mergeCells('A6:B6');
    styleTitle(ws, 1, 'FF003366');
    ws.getCell('A2').font = { bold: true, size: 12, color: { argb: 'FF666666' } };
    for (const r of [4, 6]) styleTitle(ws, r, 'FFCCCCCC');
    const d = await detectQuestionnaire(await toBytes(wb), 'titled.xlsx');
    expect(paths(d)).toEqual([
      ['DATE-01', []],
      ['GNRL-01', ['General Information']],
      ['DOCU-01', ['Documentation']],
      ['DOCU-02', ['Documentation']],
    ]);
  });
});

describe('plain label rows', () => {
  it('takes a short label followed by questions as a section in an unformatted CSV, and keeps label-style questions', async () => {
    const d = await csv([
      'Question,Answer',
      'Company name,Acme Ltd',
      'General',
      'Do you have a security team?,Yes',
      'Is there a written security policy?,',
      'Access',
      'Is MFA enforced?,',
      'Are accounts reviewed quarterly?,',
      'Number of employees,',
    ]);
    expect(paths(d)).toEqual([
      ['Company name', []],
      ['Do you have a security team?', ['General']],
      ['Is there a written security policy?', ['General']],
      ['Is MFA enforced?', ['Access']],
      ['Are accounts reviewed quarterly?', ['Access']],
      ['Number of employees', ['Access']],
    ]);
  });

  it('keeps a label row that has a dropdown answer cell as a question', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Q');
    ws.addRow(['Question', 'Answer']);
    ws.addRow(['Hosting model']);
    ws.addRow(['Do you host in the EU?']);
    ws.addRow(['Do you use subcontractors?']);
    for (const r of [2, 3, 4]) ws.getCell(`B${r}`).dataValidation = { type: 'list', formulae: ['"Yes,No,SaaS,On-premises"'] };
    const d = await detectQuestionnaire(await toBytes(wb), 'dropdown-label.xlsx');
    expect(d.questions.map((q) => q.original_question_text)).toEqual(['Hosting model', 'Do you host in the EU?', 'Do you use subcontractors?']);
    expect(d.questions.every((q) => q.section_path.length === 0)).toBe(true);
  });
});

describe('answer columns left of the questions', () => {
  it('finds slot columns named in the header row on either side of the question column', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Q');
    ws.addRow(['Response', 'ID', 'Question', 'Comments']);
    ws.addRow(['Yes', 'Q-1', 'Is data encrypted at rest?', 'AES-256']);
    ws.addRow([null, 'Q-2', 'Is data encrypted in transit?', null]);
    ws.getCell('A3').dataValidation = { type: 'list', formulae: ['"Yes,No"'] };
    const d = await detectQuestionnaire(await toBytes(wb), 'left.xlsx');
    expect(d.questions.map((q) => q.original_id)).toEqual(['Q-1', 'Q-2']);
    expect(byId(d, 'Q-1')?.answer_slots.map((s) => [s.role, s.header, s.coordinate, s.value])).toEqual([
      ['answer', 'Response', 'A2', 'Yes'],
      ['comment', 'Comments', 'D2', 'AES-256'],
    ]);
    expect(slot(byId(d, 'Q-2'), 'answer')).toMatchObject({ coordinate: 'A3', type: 'list', allowed_values: ['Yes', 'No'] });
  });

  it('takes a dropdown column left of the questions as the answer when there is no header row', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Q');
    ws.addRow([null, 'Do you have an incident response plan?']);
    ws.addRow([null, 'Is the plan tested every year?']);
    ws.addRow([null, 'Do you notify customers of breaches?']);
    for (const r of [1, 2, 3]) ws.getCell(`A${r}`).dataValidation = { type: 'list', formulae: ['"Yes,No"'] };
    const d = await detectQuestionnaire(await toBytes(wb), 'left-dropdown.xlsx');
    expect(d.questions.map((q) => slot(q, 'answer')?.coordinate)).toEqual(['A1', 'A2', 'A3']);
  });

  it('does not take a section title left of the questions for an answer column', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Q');
    ws.addRow([null, 'ID', 'Question', 'Answer']);
    ws.addRow(['Compliance', null, null, 'Vendor Answer']); // a section header row whose title names a slot kind
    ws.addRow([null, 'C-1', 'Do you hold ISO 27001?', 'Yes']);
    ws.addRow([null, 'C-2', 'Do you hold SOC 2?', null]);
    const d = await detectQuestionnaire(await toBytes(wb), 'title-left.xlsx');
    expect(byId(d, 'C-1')?.answer_slots.map((s) => [s.role, s.coordinate, s.value])).toEqual([['answer', 'D3', 'Yes']]);
    expect(byId(d, 'C-1')?.section_path).toEqual(['Compliance']);
  });
});

describe('hidden rows', () => {
  it('reports hidden question rows of a visible answer tab, and warns about them', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Answers');
    ws.addRow(['ID', 'Question', 'Answer']);
    ws.addRow(['Q-1', 'Do you store personal data?', 'Yes']);
    ws.addRow(['Q-2', 'If yes, where is it stored?', null]);
    ws.addRow(['Q-3', 'Do you have a DPO?', null]);
    ws.getRow(3).hidden = true;
    const d = await detectQuestionnaire(await toBytes(wb), 'hidden-rows.xlsx');
    expect(d.questions.map((q) => q.original_id)).toEqual(['Q-1', 'Q-2', 'Q-3']);
    expect(slot(byId(d, 'Q-2'), 'answer')).toMatchObject({ coordinate: 'C3', is_blocked: false });
    expect(d.warnings).toContain('Sheet "Answers" has 1 hidden question row (3); they are included: unhide them in Excel to review their answers.');
  });
});
