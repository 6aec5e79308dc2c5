/** One generated workbook per trait real questionnaires have; each checks what the detector reports. */
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { detectQuestionnaire, DetectError } from '../../../src/service/detect';
import { addSimpleSheet, byId, patchParts, slot, toBytes } from './helpers';

const YES_NO = ['Yes', 'No', 'NA'];

describe('question text', () => {
  it('reads the cached value of a formula question cell', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = addSimpleSheet(wb, 'Questionnaire', []);
    ws.getCell('A2').value = 'SEC-01';
    ws.getCell('B2').value = { formula: 'Bank!A1', result: 'Do you encrypt data at rest?' };
    ws.getCell('A3').value = 'SEC-02';
    ws.getCell('B3').value = 'Do you encrypt data in transit?';
    const bank = wb.addWorksheet('Bank', { state: 'hidden' });
    bank.getCell('A1').value = 'Do you encrypt data at rest?';
    const d = await detectQuestionnaire(await toBytes(wb), 'formula.xlsx');
    expect(d.questions.map((q) => q.original_question_text)).toEqual(['Do you encrypt data at rest?', 'Do you encrypt data in transit?']);
    expect(d.questions[0]).toMatchObject({ original_id: 'SEC-01', question_coordinate: 'B2', row: 2, order: 1 });
    expect(d.tabs).toEqual(['Questionnaire']);
  });
});

describe('answer validations', () => {
  it('takes an inline list validation as the allowed values', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = addSimpleSheet(wb, 'Q', [
      ['1', 'Do you have an ISMS?', null, null],
      ['2', 'Is MFA enforced?', null, null],
    ]);
    ws.getCell('C2').dataValidation = { type: 'list', allowBlank: true, formulae: ['"Yes,No,NA"'] };
    const d = await detectQuestionnaire(await toBytes(wb), 'inline.xlsx');
    expect(slot(byId(d, '1'), 'answer')).toMatchObject({ coordinate: 'C2', type: 'list', allowed_values: YES_NO, value: null, is_blocked: false });
    expect(slot(byId(d, '2'), 'answer')).toMatchObject({ coordinate: 'C3', type: 'text' });
    expect(slot(byId(d, '2'), 'answer')?.allowed_values).toBeUndefined();
  });

  it('resolves a range on another sheet', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = addSimpleSheet(wb, 'Q', [['1', 'Do you have an ISMS?', null, null]]);
    const lists = wb.addWorksheet('Lists');
    YES_NO.forEach((v, i) => (lists.getCell(`A${i + 1}`).value = v));
    ws.getCell('C2').dataValidation = { type: 'list', formulae: ['Lists!$A$1:$A$3'] };
    const d = await detectQuestionnaire(await toBytes(wb), 'range.xlsx');
    expect(slot(d.questions[0], 'answer')).toMatchObject({ type: 'list', allowed_values: YES_NO });
  });

  it('resolves a named range that points into a hidden sheet', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = addSimpleSheet(wb, 'Q', [['1', 'Do you have an ISMS?', null, null]]);
    const values = wb.addWorksheet('Values', { state: 'veryHidden' });
    values.getCell('B4').value = 'Yes';
    values.getCell('B5').value = 'No';
    wb.definedNames.add("'Values'!$B$4:$B$5", 'YesNo');
    ws.getCell('C2').dataValidation = { type: 'list', formulae: ['YesNo'] };
    const d = await detectQuestionnaire(await toBytes(wb), 'named.xlsx');
    expect(slot(d.questions[0], 'answer')).toMatchObject({ type: 'list', allowed_values: ['Yes', 'No'] });
    expect(d.tabs).toEqual(['Q']);
  });

  it('reads validations from the x14 extension list, with several ranges in one sqref', async () => {
    const wb = new ExcelJS.Workbook();
    addSimpleSheet(wb, 'Q', [
      ['1', 'Do you have an ISMS?', null, null],
      ['2', 'Is MFA enforced?', null, null],
      ['3', 'Describe your backup strategy.', null, null],
      ['4', 'Do you log access?', null, null],
    ]);
    const lists = wb.addWorksheet('Lists', { state: 'hidden' });
    lists.getCell('A1').value = 'Compliant';
    lists.getCell('A2').value = 'Not compliant';
    const bytes = patchParts(await toBytes(wb), (parts) => {
      const ext =
        '<extLst><ext uri="{CCE6A557-97BC-4b89-ADB6-D9C93CAAB3DF}" xmlns:x14="http://schemas.microsoft.com/office/spreadsheetml/2009/9/main">' +
        '<x14:dataValidations count="1" xmlns:xm="http://schemas.microsoft.com/office/excel/2006/main">' +
        '<x14:dataValidation type="list" allowBlank="1"><x14:formula1><xm:f>Lists!$A$1:$A$2</xm:f></x14:formula1>' +
        '<xm:sqref>C2:C3 C5</xm:sqref></x14:dataValidation></x14:dataValidations></ext></extLst>';
      parts['xl/worksheets/sheet1.xml'] = parts['xl/worksheets/sheet1.xml'].replace('</worksheet>', `${ext}</worksheet>`);
    });
    const d = await detectQuestionnaire(bytes, 'x14.xlsx');
    for (const id of ['1', '2', '4']) {
      expect(slot(byId(d, id), 'answer')).toMatchObject({ type: 'list', allowed_values: ['Compliant', 'Not compliant'] });
    }
    expect(slot(byId(d, '3'), 'answer')?.type).toBe('text');
  });
});

describe('which sheets are questionnaires', () => {
  it('ignores a hidden lookup sheet that repeats the ids and questions', async () => {
    const wb = new ExcelJS.Workbook();
    const rows = [
      ['AC-01', 'Do you review access quarterly?', 'Yes', null],
      ['AC-02', 'Is MFA enforced for admins?', 'No', 'Planned'],
    ];
    addSimpleSheet(wb, 'Answers', rows);
    const lookup = addSimpleSheet(wb, 'Lookup', rows);
    lookup.state = 'hidden';
    const d = await detectQuestionnaire(await toBytes(wb), 'lookup.xlsx');
    expect(d.tabs).toEqual(['Answers']);
    expect(d.questions).toHaveLength(2);
    expect(d.warnings.join(' ')).toMatch(/Hidden sheets.*Lookup/);
  });

  it('ignores instructions and change-log sheets and finds several answer tabs in reading order', async () => {
    const wb = new ExcelJS.Workbook();
    const intro = wb.addWorksheet('Instructions');
    intro.getCell('A1').value = 'How to complete this questionnaire';
    intro.getCell('A2').value = 'Please answer every question in the answer tabs. Do you have questions? Ask your contact.';
    intro.getCell('A3').value = 'Select Yes or No in the Answer column and explain in Comments.';
    addSimpleSheet(wb, 'Security', [
      ['S-1', 'Do you run a vulnerability scanner?', null, null],
      ['S-2', 'Describe your patching cadence.', null, null],
    ]);
    addSimpleSheet(wb, 'Privacy', [
      ['P-1', 'Do you have a DPO?', null, null],
      ['P-2', 'Where is personal data stored?', null, null],
      ['P-3', 'Do you sell personal data?', null, null],
    ]);
    const log = wb.addWorksheet('Change Log');
    log.addRow(['Version', 'Date', 'Description of change']);
    log.addRow(['v1.0', '2024-01-01', 'Added privacy section.']);
    log.addRow(['v1.1', '2024-02-01', 'Fixed typos in security questions.']);
    const d = await detectQuestionnaire(await toBytes(wb), 'multi.xlsx');
    expect(d.tabs).toEqual(['Security', 'Privacy']);
    expect(d.questions.map((q) => [q.tab_name, q.original_id, q.order])).toEqual([
      ['Security', 'S-1', 1],
      ['Security', 'S-2', 2],
      ['Privacy', 'P-1', 3],
      ['Privacy', 'P-2', 4],
      ['Privacy', 'P-3', 5],
    ]);
    expect(new Set(d.questions.map((q) => q.block)).size).toBe(2);
    expect(d.language_sample).toContain('Do you have a DPO?');
  });

  it('skips a visible report sheet whose answer cells are formulas mirroring the questionnaire', async () => {
    const wb = new ExcelJS.Workbook();
    addSimpleSheet(wb, 'Vendor Response', [
      ['A-1', 'Do you have an incident response plan?', 'Yes', 'Tested yearly'],
      ['A-2', 'Do you carry cyber insurance?', 'No', null],
    ]);
    const report = wb.addWorksheet('Analyst Report');
    report.addRow(['ID', 'Question', 'Vendor Answer', 'Analyst Notes']);
    for (let r = 2; r <= 3; r++) {
      report.getCell(`A${r}`).value = { formula: `'Vendor Response'!A${r}`, result: `A-${r - 1}` };
      report.getCell(`B${r}`).value = { formula: `'Vendor Response'!B${r}`, result: 'Do you have an incident response plan?' };
      report.getCell(`C${r}`).value = { formula: `'Vendor Response'!C${r}`, result: 'Yes' };
    }
    const d = await detectQuestionnaire(await toBytes(wb), 'report.xlsx');
    expect(d.tabs).toEqual(['Vendor Response']);
    expect(d.warnings.join(' ')).toMatch(/Analyst Report.*formulas/);
  });
});

describe('sections and headers', () => {
  it('takes slot headers and the section name from section header rows between blocks', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Assessment');
    ws.addRow(['Vendor Assessment']);
    ws.addRow(['Company', null, 'Vendor Answers', 'Additional Information', 'Guidance']);
    ws.addRow(['COMP-01', 'Do you have a dedicated security team?', 'Yes', 'Five people', null]);
    ws.addRow(['COMP-02', 'Describe your ownership structure.', 'Private', null, null]);
    ws.addRow(['Data', null, null, 'Additional Information', 'Guidance']);
    ws.addRow(['DATA-01', 'Is data encrypted at rest?', null, null, null]);
    ws.mergeCells('A2:B2');
    ws.mergeCells('A5:B5');
    ws.getCell('E3').value = { formula: 'IF(C3="Yes","Describe the team","")', result: 'Describe the team' };
    ws.getCell('C6').dataValidation = { type: 'list', formulae: ['"Yes,No"'] };
    const d = await detectQuestionnaire(await toBytes(wb), 'sections.xlsx');
    expect(d.questions.map((q) => q.original_id)).toEqual(['COMP-01', 'COMP-02', 'DATA-01']);
    expect(byId(d, 'COMP-01')?.section_path).toEqual(['Company']);
    expect(byId(d, 'DATA-01')?.section_path).toEqual(['Data']);
    expect(byId(d, 'COMP-01')?.block).not.toBe(byId(d, 'DATA-01')?.block);
    expect(slot(byId(d, 'COMP-01'), 'answer')).toMatchObject({ header: 'Vendor Answers', coordinate: 'C3', value: 'Yes' });
    expect(slot(byId(d, 'COMP-01'), 'comment')).toMatchObject({ header: 'Additional Information', coordinate: 'D3', value: 'Five people', is_blocked: false });
    expect(slot(byId(d, 'COMP-01'), 'guidance')).toMatchObject({ coordinate: 'E3', is_blocked: true, value: 'Describe the team' });
    // The second header row lacks "Vendor Answers"; the dropdown in C still makes it the answer slot.
    expect(slot(byId(d, 'DATA-01'), 'answer')).toMatchObject({ coordinate: 'C6', type: 'list', header: 'Vendor Answers' });
    expect(slot(byId(d, 'DATA-01'), 'comment')?.coordinate).toBe('D6');
  });

  it('reports the top-left cell of a merged answer and drops the slots the merge swallows', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Q');
    ws.addRow(['ID', 'Question', 'Answer', 'Comments']);
    ws.addRow(['Organisation']);
    ws.addRow(['ORG-1', 'Describe your company.', 'We make widgets.', null]);
    ws.addRow(['ORG-2', 'Do you have an ISMS?', 'Yes', 'ISO 27001']);
    ws.mergeCells('A2:D2');
    ws.mergeCells('C3:D3');
    const d = await detectQuestionnaire(await toBytes(wb), 'merged.xlsx');
    expect(d.questions.map((q) => q.original_id)).toEqual(['ORG-1', 'ORG-2']);
    expect(byId(d, 'ORG-1')?.section_path).toEqual(['Organisation']);
    expect(byId(d, 'ORG-1')?.answer_slots.map((s) => [s.role, s.coordinate])).toEqual([['answer', 'C3']]);
    expect(byId(d, 'ORG-2')?.answer_slots.map((s) => [s.role, s.coordinate])).toEqual([
      ['answer', 'C4'],
      ['comment', 'D4'],
    ]);
  });

  it('blocks an answer cell covered by a merge that starts in the question cell', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Q');
    ws.addRow(['ID', 'Question', 'Answer', 'Comments']);
    ws.addRow(['1', 'Do you have an ISMS?', null, null]);
    ws.addRow(['2', 'Do you have a DPO?', null, null]);
    ws.mergeCells('B3:C3');
    const d = await detectQuestionnaire(await toBytes(wb), 'covered.xlsx');
    expect(slot(byId(d, '1'), 'answer')?.is_blocked).toBe(false);
    expect(slot(byId(d, '2'), 'answer')).toMatchObject({ is_blocked: true });
  });
});

describe('rows above the table header', () => {
  it('keeps id rows above an explicit header when their ids look like the table ids, not a version stamp', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Q');
    ws.addRow(['v2.1', 'Supplier questionnaire']);
    ws.addRow(['GEN-01', 'Company name', 'Acme Ltd']);
    ws.addRow(['GEN-02', 'Contact email', null]);
    ws.addRow(['ID', 'Question', 'Answer', 'Comments']);
    ws.addRow(['SEC-01', 'Do you have an ISMS?', 'Yes', null]);
    ws.addRow(['SEC-02', 'Is MFA enforced?', null, null]);
    const d = await detectQuestionnaire(await toBytes(wb), 'above.xlsx');
    expect(d.questions.map((q) => q.original_id)).toEqual(['GEN-01', 'GEN-02', 'SEC-01', 'SEC-02']);
    expect(slot(byId(d, 'GEN-01'), 'answer')).toMatchObject({ coordinate: 'C2', value: 'Acme Ltd' });
    expect(byId(d, 'GEN-01')?.block).not.toBe(byId(d, 'SEC-01')?.block);
  });
});

describe('blocked cells', () => {
  it('blocks locked cells on a protected sheet and leaves unlocked ones writable', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = addSimpleSheet(wb, 'Protected', [
      ['1', 'Do you have an ISMS?', null, null],
      ['2', 'Do you have a DPO?', null, null],
    ]);
    for (const a of ['C2', 'C3', 'D2']) ws.getCell(a).protection = { locked: false };
    await ws.protect('secret', { selectLockedCells: true, selectUnlockedCells: true });
    const d = await detectQuestionnaire(await toBytes(wb), 'protected.xlsx');
    expect(slot(byId(d, '1'), 'answer')?.is_blocked).toBe(false);
    expect(slot(byId(d, '1'), 'comment')?.is_blocked).toBe(false);
    expect(slot(byId(d, '2'), 'comment')?.is_blocked).toBe(true);
  });

  it('does not block locked cells when the sheet is not protected', async () => {
    const wb = new ExcelJS.Workbook();
    addSimpleSheet(wb, 'Open', [['1', 'Do you have an ISMS?', null, null]]);
    const d = await detectQuestionnaire(await toBytes(wb), 'open.xlsx');
    expect(d.questions[0].answer_slots.every((s) => s.is_blocked === false)).toBe(true);
  });

  it('blocks formula answer cells and keeps their cached value', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = addSimpleSheet(wb, 'Q', [
      ['1', 'Do you have an ISMS?', 'Yes', null],
      ['2', 'Is the ISMS certified?', null, null],
    ]);
    ws.getCell('C3').value = { formula: 'C2', result: 'Yes' };
    const d = await detectQuestionnaire(await toBytes(wb), 'formula-answer.xlsx');
    expect(slot(byId(d, '1'), 'answer')).toMatchObject({ is_blocked: false, value: 'Yes' });
    expect(slot(byId(d, '2'), 'answer')).toMatchObject({ is_blocked: true, value: 'Yes' });
  });
});

describe('simple layouts', () => {
  it('reads a Question/Answer sheet without ids, including label-style questions', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Sheet1');
    ws.addRow(['Question', 'Answer']);
    ws.addRow(['Company name', 'Acme']);
    ws.addRow(['Do you have a security policy?', null]);
    ws.addRow(['Number of employees', null]);
    const d = await detectQuestionnaire(await toBytes(wb), 'simple.xlsx');
    expect(d.questions.map((q) => [q.original_id, q.original_question_text, slot(q, 'answer')?.coordinate, slot(q, 'answer')?.value])).toEqual([
      [null, 'Company name', 'B2', 'Acme'],
      [null, 'Do you have a security policy?', 'B3', null],
      [null, 'Number of employees', 'B4', null],
    ]);
    expect(slot(d.questions[0], 'answer')?.header).toBe('Answer');
  });

  it('reads a Question/Response sheet with ids and a Notes column', async () => {
    const wb = new ExcelJS.Workbook();
    addSimpleSheet(
      wb,
      'Sheet1',
      [
        ['Q1', 'Is data encrypted at rest?', 'Yes', 'AES-256'],
        ['Q2', 'Is data encrypted in transit?', 'Yes', null],
      ],
      ['#', 'Question', 'Response', 'Notes'],
    );
    const d = await detectQuestionnaire(await toBytes(wb), 'response.xlsx');
    expect(d.questions.map((q) => q.original_id)).toEqual(['Q1', 'Q2']);
    expect(slot(byId(d, 'Q1'), 'answer')).toMatchObject({ header: 'Response', coordinate: 'C2', value: 'Yes' });
    expect(slot(byId(d, 'Q1'), 'comment')).toMatchObject({ header: 'Notes', coordinate: 'D2', value: 'AES-256' });
  });

  it('handles a layout nobody tuned for: ids in B, questions in C, Response header, sections as merged rows', async () => {
    const wb = new ExcelJS.Workbook();
    const cover = wb.addWorksheet('Cover');
    cover.getCell('B2').value = 'Supplier Security Review 2025';
    cover.getCell('B4').value = 'Thank you for completing this review.';
    const ws = wb.addWorksheet('Review');
    ws.getCell('B1').value = 'Supplier Security Review';
    ws.getRow(3).values = [null, 'Ref', 'Requirement', 'Response', 'Owner', 'Explanation'];
    ws.getRow(4).values = [null, 'Governance'];
    ws.mergeCells('B4:F4');
    ws.getRow(5).values = [null, 'GOV.1', 'Is there a board-approved security policy?', null, null, null];
    ws.getRow(6).values = [null, 'GOV.2', 'Name the person accountable for security', null, null, null];
    ws.getRow(7).values = [null, 'Note: answers are reviewed by procurement.'];
    ws.mergeCells('B7:F7');
    ws.getRow(8).values = [null, 'Operations'];
    ws.mergeCells('B8:F8');
    ws.getRow(9).values = [null, 'OPS.1', 'Are backups tested?', 'Yes', 'IT', 'Quarterly restore tests'];
    ws.getCell('D5').dataValidation = { type: 'list', formulae: ['"Yes,No,Partial"'] };
    const d = await detectQuestionnaire(await toBytes(wb), 'untuned.xlsx');
    expect(d.tabs).toEqual(['Review']);
    expect(d.questions.map((q) => [q.original_id, q.row, q.question_coordinate, q.section_path])).toEqual([
      ['GOV.1', 5, 'C5', ['Governance']],
      ['GOV.2', 6, 'C6', ['Governance']],
      ['OPS.1', 9, 'C9', ['Operations']],
    ]);
    const ops = byId(d, 'OPS.1');
    expect(ops?.answer_slots.map((s) => [s.role, s.header, s.coordinate, s.value])).toEqual([
      ['answer', 'Response', 'D9', 'Yes'],
      ['owner', 'Owner', 'E9', 'IT'],
      ['comment', 'Explanation', 'F9', 'Quarterly restore tests'],
    ]);
    expect(slot(byId(d, 'GOV.1'), 'answer')).toMatchObject({ type: 'list', allowed_values: ['Yes', 'No', 'Partial'] });
  });
});

describe('CSV', () => {
  it('reads a CSV as sheet 1 with quoted fields, embedded commas and line breaks', async () => {
    const csv = [
      'ID,Question,Answer,Comments',
      '1,"Do you encrypt data, at rest and in transit?",Yes,"AES-256, TLS 1.2+"',
      '2,"Describe your ""zero trust"" approach.",,',
      '3,"List your sub-processors.","AWS',
      'Google",',
    ].join('\r\n');
    const d = await detectQuestionnaire(new TextEncoder().encode(`\ufeff${csv}`), 'vendor-review.csv');
    expect(d.tabs).toEqual(['vendor-review']);
    expect(d.questions.map((q) => [q.original_id, q.original_question_text])).toEqual([
      ['1', 'Do you encrypt data, at rest and in transit?'],
      ['2', 'Describe your "zero trust" approach.'],
      ['3', 'List your sub-processors.'],
    ]);
    expect(slot(byId(d, '1'), 'comment')).toMatchObject({ coordinate: 'D2', value: 'AES-256, TLS 1.2+' });
    expect(slot(byId(d, '3'), 'answer')).toMatchObject({ coordinate: 'C4', value: 'AWS\r\nGoogle' });
    expect(slot(byId(d, '2'), 'answer')).toMatchObject({ coordinate: 'C3', value: null, type: 'text' });
  });

  it('reads a semicolon-separated CSV', async () => {
    const csv = 'Question;Response\nDo you have an ISMS?;Yes\nIs MFA enforced?;No\n';
    const d = await detectQuestionnaire(new TextEncoder().encode(csv), 'q.csv');
    expect(d.questions.map((q) => slot(q, 'answer')?.value)).toEqual(['Yes', 'No']);
  });

  it('explains what it looked for when a CSV has no question table', async () => {
    const csv = 'Name,Amount\nWidgets,12\nGadgets,7\n';
    await expect(detectQuestionnaire(new TextEncoder().encode(csv), 'sales.csv')).rejects.toThrow(/No questionnaire found.*column of questions/);
  });
});

describe('no question table', () => {
  it('throws a DetectError naming what it looked for', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Budget');
    ws.addRow(['Item', 'Cost']);
    ws.addRow(['Laptops', 12000]);
    const err = await detectQuestionnaire(await toBytes(wb), 'budget.xlsx').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DetectError);
    expect((err as Error).message).toMatch(/No questionnaire found in "budget.xlsx".*"Budget"/);
  });
});
