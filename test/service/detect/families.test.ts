/**
 * Questionnaire families beyond question lists: requirement checklists (statements with a status),
 * a Statement of Applicability, withdrawn items, chapter rows, report sheets and pre-filled defaults.
 */
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { detectQuestionnaire } from '../../../src/service/detect';
import { byId, slot, toBytes } from './helpers';

/** One list validation over a range (one sqref, as templates have), which ExcelJS writes but does not type. */
function list(ws: ExcelJS.Worksheet, range: string, values: string): void {
  const sheet = ws as unknown as { dataValidations: { add(range: string, rule: ExcelJS.DataValidation): void } };
  sheet.dataValidations.add(range, { type: 'list', allowBlank: true, formulae: [`"${values}"`] });
}

describe('requirement checklists', () => {
  it('reads numbered statements with a status, a comment and chapter rows between them', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Checklist');
    ws.addRow(['Mobile App Security Requirements']);
    ws.addRow([]);
    ws.addRow(['ID', 'Detailed Verification Requirement', 'Level 1', 'Status', 'Comment']);
    ws.addRow(['V1', 'Architecture, design and threat modelling']);
    ws.addRow(['1.1', 'All app components are identified and known to be needed.', '✓', null, null]);
    ws.addRow(['1.2', 'Security controls are never enforced only on the client side.', '✓', null, null]);
    ws.addRow(['V2', 'Data Storage and Privacy']);
    ws.addRow(['2.1', 'No sensitive data is written to application logs.', '✓', null, 'Checked with logcat']);
    ws.addRow(['2.2', 'No sensitive data is shared with third parties.', '✓', null, null]);
    ws.addRow(['V3', 'Output encoding - This section was incorporated into V2']);
    list(ws, 'D5:D9', 'Pass,Fail,N/A');
    const d = await detectQuestionnaire(await toBytes(wb), 'checklist.xlsx');
    expect(d.questions.map((q) => [q.original_id, q.question_coordinate, q.section_path])).toEqual([
      ['1.1', 'B5', ['Architecture, design and threat modelling']],
      ['1.2', 'B6', ['Architecture, design and threat modelling']],
      ['2.1', 'B8', ['Data Storage and Privacy']],
      ['2.2', 'B9', ['Data Storage and Privacy']],
    ]);
    const q = byId(d, '2.1');
    expect(q?.answer_slots.map((s) => [s.role, s.header, s.coordinate])).toEqual([
      ['answer', 'Status', 'D8'],
      ['comment', 'Comment', 'E8'],
    ]);
    expect(slot(q, 'answer')).toMatchObject({ type: 'list', allowed_values: ['Pass', 'Fail', 'N/A'] });
    expect(slot(q, 'comment')?.value).toBe('Checked with logcat');
  });

  it('reads a Statement of Applicability: control statements with Applicable and Justification columns', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('SoA');
    ws.addRow(['Control', 'Control statement', 'Applicable (Yes/No)', 'Justification']);
    ws.addRow(['A.5.15', 'Rules to control physical and logical access to information shall be established.', null, null]);
    ws.addRow(['A.5.16', 'The full life cycle of identities shall be managed.', null, null]);
    ws.addRow(['A.5.17', 'Allocation and management of authentication information shall be controlled.', 'Yes', 'SSO with MFA']);
    list(ws, 'C2:C4', 'Yes,No');
    const d = await detectQuestionnaire(await toBytes(wb), 'soa.xlsx');
    expect(d.questions.map((q) => q.original_id)).toEqual(['A.5.15', 'A.5.16', 'A.5.17']);
    expect(byId(d, 'A.5.17')?.answer_slots.map((s) => [s.role, s.header, s.coordinate, s.value])).toEqual([
      ['answer', 'Applicable (Yes/No)', 'C4', 'Yes'],
      ['comment', 'Justification', 'D4', 'SSO with MFA'],
    ]);
  });

  it('leaves withdrawn controls out, and says so', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Controls');
    ws.addRow(['Control ID', 'Requirement', 'Implementation Status', 'Evidence']);
    ws.addRow(['AC-1', 'The organization develops and documents an access control policy.', null, null]);
    ws.addRow(['AC-2', 'The organization manages information system accounts.', null, null]);
    ws.addRow(['AC-13', '[Withdrawn: Incorporated into AC-2 and AU-6.]', null, null]);
    ws.addRow(['AC-3', 'The information system enforces approved authorizations for logical access.', null, null]);
    const d = await detectQuestionnaire(await toBytes(wb), 'controls.xlsx');
    expect(d.questions.map((q) => q.original_id)).toEqual(['AC-1', 'AC-2', 'AC-3']);
    expect(d.warnings.join(' ')).toMatch(/Controls.*1 withdrawn or deleted item is not a question/);
    expect(byId(d, 'AC-1')?.answer_slots.map((s) => [s.role, s.header])).toEqual([
      ['answer', 'Implementation Status'],
      ['comment', 'Evidence'],
    ]);
  });
});

describe('what is not a questionnaire', () => {
  it('skips a report sheet beside the questionnaire and names it in the warnings', async () => {
    const wb = new ExcelJS.Workbook();
    const q = wb.addWorksheet('Questions');
    q.addRow(['ID', 'Question', 'Answer']);
    q.addRow(['Q-1', 'Do you encrypt data at rest?', 'Yes']);
    q.addRow(['Q-2', 'Do you test backups?', 'No']);
    const r = wb.addWorksheet('Scorecard');
    r.addRow(['Practice', 'Score']);
    r.addRow([
      { formula: 'Questions!A2', result: 'Q-1' },
      { formula: 'IF(Questions!C2="Yes",1,0)', result: 1 },
    ]);
    r.addRow([
      { formula: 'Questions!A3', result: 'Q-2' },
      { formula: 'IF(Questions!C3="Yes",1,0)', result: 0 },
    ]);
    const d = await detectQuestionnaire(await toBytes(wb), 'with-report.xlsx');
    expect(d.tabs).toEqual(['Questions']);
    expect(d.warnings.join(' ')).toMatch(/Sheet "Scorecard" was skipped/);
  });

  it('reads rows of computed results as no questions, and profile questions above them as questions', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Benchmark');
    ws.addRow(['Field', 'Value', 'Description']);
    ws.addRow(['Type of Assessment', null, 'Choose the type of assessment']);
    ws.addRow(['Region', null, 'Select the best region']);
    ws.addRow(['Developers', null, 'How many developers work in the company?']);
    ws.addRow(['Composite Score', { formula: 'Scorecard!B2', result: 0 }, 'Automatic from the Scorecard Sheet']);
    ws.addRow(['Governance Score', { formula: 'Scorecard!B3', result: 0 }, 'Automatic from the Scorecard Sheet']);
    list(ws, 'B2:B4', 'A,B,C');
    const d = await detectQuestionnaire(await toBytes(wb), 'benchmark.xlsx');
    expect(d.questions.map((q) => [q.question_coordinate, slot(q, 'answer')?.coordinate])).toEqual([
      ['C2', 'B2'],
      ['C3', 'B3'],
      ['C4', 'B4'],
    ]);
  });

  it('reads one placeholder pre-filled in every answer cell of a blank template as no answer', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Checklist');
    ws.addRow(['ID', 'Requirement', 'Status', 'Comment']);
    ws.addRow(['8.1', 'The app detects, and responds to, the presence of a rooted device.', 'N/A', null]);
    ws.addRow(['8.2', 'The app prevents debugging and detects a debugger being attached.', 'N/A', null]);
    ws.addRow(['8.3', 'The app detects tampering with executable files and critical data.', null, null]);
    list(ws, 'C2:C4', 'Pass,Fail,N/A');
    const d = await detectQuestionnaire(await toBytes(wb), 'defaults.xlsx');
    for (const q of d.questions) expect(slot(q, 'answer')?.value).toBeNull();
    expect(slot(byId(d, '8.1'), 'answer')?.template_default).toBe('N/A');
    expect(d.warnings.join(' ')).toMatch(/every filled answer cell holds "N\/A"/);
  });

  it('keeps answers that differ, or a placeholder beside written comments, as the respondent’s', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Checklist');
    ws.addRow(['ID', 'Requirement', 'Status', 'Comment']);
    ws.addRow(['8.1', 'The app detects, and responds to, the presence of a rooted device.', 'N/A', 'Web only']);
    ws.addRow(['8.2', 'The app prevents debugging and detects a debugger being attached.', 'N/A', null]);
    const d = await detectQuestionnaire(await toBytes(wb), 'answered.xlsx');
    expect(slot(byId(d, '8.1'), 'answer')?.value).toBe('N/A');
    expect(slot(byId(d, '8.1'), 'answer')?.template_default).toBeUndefined();
  });
});

describe('the question cell', () => {
  it('takes the formula question beside hidden columns, with the ids of a hidden column, not the stream name before it', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Interview');
    ws.addRow([null, 'Stream', 'Level', 'Strategy & Metrics', null, 'Answer', null, 'Interview Notes']);
    const questions = [
      'Do you understand the risk appetite of the enterprise?',
      'Do you have a strategic plan for security?',
      'Do you review the plan every year?',
      'Do you use metrics to measure the security programme?',
    ];
    // Levels 1-3 repeat per stream: a visible column of numbers that names no question.
    questions.forEach((text, i) => {
      ws.addRow([
        `G-SM-A-${i + 1}`,
        { formula: 'Lookups!B2', result: 'Create and Promote' },
        String((i % 3) + 1),
        { formula: `Lookups!C${i + 2}`, result: text },
        'N',
        null,
        0,
        null,
      ]);
      ws.addRow([null, null, null, { formula: `Lookups!D${i + 2}`, result: 'You capture the risk appetite of the leaders and review it yearly.' }]);
    });
    for (const c of [1, 5, 7]) ws.getColumn(c).hidden = true;
    list(ws, 'F2:F9', 'No,Yes for some,Yes for most');
    const d = await detectQuestionnaire(await toBytes(wb), 'interview.xlsx');
    expect(d.questions.map((q) => [q.original_id, q.question_coordinate, q.original_question_text])).toEqual(
      questions.map((text, i) => [`G-SM-A-${i + 1}`, `D${2 + 2 * i}`, text]),
    );
    expect(d.questions[0]!.answer_slots.map((s) => [s.role, s.header, s.coordinate])).toEqual([
      ['answer', 'Answer', 'F2'],
      ['comment', 'Interview Notes', 'H2'],
    ]);
  });
});

describe('slot headers', () => {
  it('names dropdown columns found without a header row by the text the sheet writes above them', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Assessment');
    ws.addRow([null, null, 'Method', 'Dispostion']);
    ws.addRow(['1', 'Do you review access rights every quarter?', null, null]);
    ws.addRow(['2', 'Do you keep an inventory of assets?', null, null]);
    ws.addRow(['3', 'Do you scan for vulnerabilities weekly?', null, null]);
    list(ws, 'C2:C4', 'Interview,Document');
    list(ws, 'D2:D4', 'Met,Not met');
    const d = await detectQuestionnaire(await toBytes(wb), 'assessment.xlsx');
    expect(d.questions[0]!.answer_slots.map((s) => s.header)).toEqual(['Method', 'Dispostion']);
  });
});

describe('statements without ids', () => {
  it('reads a column headed as control statements, with its status and evidence columns', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Controls');
    ws.addRow(['Domain', 'Control statement', 'Compliant', 'Evidence']);
    ws.addRow(['Access', 'Access to systems is granted on the principle of least privilege.', null, null]);
    ws.addRow(['Access', 'Privileged accounts use multi-factor authentication.', 'Yes', 'Okta policy export']);
    ws.addRow(['Backup', 'Backups are encrypted and restored in a test every quarter.', null, null]);
    const d = await detectQuestionnaire(await toBytes(wb), 'statements.xlsx');
    expect(d.questions.map((q) => [q.original_id, q.question_coordinate])).toEqual([
      [null, 'B2'],
      [null, 'B3'],
      [null, 'B4'],
    ]);
    expect(d.questions[1]!.answer_slots.map((s) => [s.role, s.header, s.value])).toEqual([
      ['answer', 'Compliant', 'Yes'],
      ['comment', 'Evidence', 'Okta policy export'],
    ]);
  });
});
