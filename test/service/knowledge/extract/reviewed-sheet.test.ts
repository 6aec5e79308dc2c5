import { describe, expect, it } from 'vitest';
import { strToU8 } from 'fflate';
import ExcelJS from 'exceljs';
import type { QuestionWithAnswers } from '../../../../src/api/schemas';
import { qaSheetCsv, qaSheetName, workbookStem } from '../../../../src/fill/qa-sheet';
import { reviewedAnswers, reviewedCells } from '../../../../src/fill/reviewed';
import { extractDocument } from '../../../../src/service/knowledge';
import { qaFromReviewedSheet } from '../../../../src/service/knowledge/extract/reviewed-sheet';
import { isReferenceSheet } from '../../../../src/service/knowledge/extract/questionnaire';

const TAB = 'HECVAT - Lite | Vendor Response';

function question(id: number, originalId: string, text: string, row: number): QuestionWithAnswers {
  return {
    id,
    original_id: originalId,
    original_question_text: text,
    tab_name: TAB,
    question_coordinate: `B${row}`,
    answer_slots: [
      { role: 'answer', header: 'Vendor Answers', coordinate: `C${row}`, type: 'list', allowed_values: ['Yes', 'No'] },
      { role: 'comment', header: 'Additional Information', coordinate: `D${row}` },
      { role: 'guidance', header: 'Guidance', coordinate: `E${row}`, is_blocked: true },
    ],
    answers: [],
  } as QuestionWithAnswers;
}

describe('the reviewed Q&A sheet', () => {
  const questions = [
    question(1, 'DOCU-01', 'Have you undergone a SSAE 18 / SOC 2 audit?', 10),
    question(2, 'DOCU-02', 'Do you conform with a specific industry standard security framework?', 11),
    question(3, 'DOCU-03', 'Can you provide overall system and/or application architecture diagrams?', 12),
  ];

  it('reads the answer cells as they are now: only answered questions, corrections counted, blocked cells never read', () => {
    const cells = reviewedCells(questions);
    expect(cells.map((c) => `${c.tab}!${c.address}`)).toEqual([`${TAB}!C10`, `${TAB}!D10`, `${TAB}!C11`, `${TAB}!D11`, `${TAB}!C12`, `${TAB}!D12`]);
    const values = ['Yes', 'Audited yearly, "Type II", by A-LIGN', 'No', '', '', 'A comment without an answer'];
    const reviewed = reviewedAnswers(questions, cells, values, new Set([`${TAB}!C11`]));
    expect(reviewed.entries.map((e) => [e.originalId, e.slots.map((s) => `${s.role}=${s.value}`), e.corrected])).toEqual([
      ['DOCU-01', ['answer=Yes', 'comment=Audited yearly, "Type II", by A-LIGN'], false],
      ['DOCU-02', ['answer=No'], true],
    ]);
    expect(reviewed).toMatchObject({ byTab: [{ tab: TAB, count: 2 }], corrected: 1, unanswered: 1 });
  });

  it('goes to the service as a CSV the library learns slot by slot, with tab, id and cell', async () => {
    const cells = reviewedCells(questions);
    const reviewed = reviewedAnswers(questions, cells, ['Yes', 'Audited yearly, "Type II",\nby A-LIGN', 'No', '', '', ''], new Set());
    const csv = qaSheetCsv(reviewed.entries);
    const name = qaSheetName('hecvat lite.xlsx');
    expect(name).toBe('hecvat lite (reviewed answers).csv');
    const doc = await extractDocument(strToU8(csv), name);
    expect(doc).toMatchObject({ file_format: 'excel', document_type: 'qna' });
    expect(doc.qa).toEqual([
      {
        question: 'Have you undergone a SSAE 18 / SOC 2 audit?',
        answer: 'Yes',
        slots: [
          { slot_key: 'answer', header: 'Vendor Answers', content: 'Yes' },
          { slot_key: 'comment', header: 'Additional Information', content: 'Audited yearly, "Type II",\nby A-LIGN' },
        ],
        original_id: 'DOCU-01',
        tab_name: TAB,
        location: `${TAB}!B10`,
      },
      {
        question: 'Do you conform with a specific industry standard security framework?',
        answer: 'No',
        slots: [{ slot_key: 'answer', header: 'Vendor Answers', content: 'No' }],
        original_id: 'DOCU-02',
        tab_name: TAB,
        location: `${TAB}!B11`,
      },
    ]);
  });

  it("stands for the workbook it came from, so it supersedes that workbook's earlier upload", () => {
    expect(workbookStem(qaSheetName('Vendor HECVAT.xlsx'))).toBe(workbookStem('Vendor HECVAT.xlsx'));
    expect(workbookStem('vendor hecvat (reviewed answers).CSV')).toBe('vendor hecvat');
  });

  it('learns no guidance an answer cell held, and is not taken for any other CSV', () => {
    const cells = reviewedCells(questions);
    const values = [
      'If the solution provider cannot provide a report, direct them to NIST.',
      'x',
      'Yes',
      'Please provide the direct URL to your privacy policy.',
      '',
      '',
    ];
    const csv = qaSheetCsv(reviewedAnswers(questions, cells, values, new Set()).entries);
    expect(qaFromReviewedSheet(strToU8(csv))!.map((p) => [p.original_id, p.slots.map((s) => s.slot_key)])).toEqual([['DOCU-02', ['answer']]]);
    expect(qaFromReviewedSheet(strToU8('ID,Question,Answer\nA-1,Do you?,Yes\n'))).toBeNull();
  });
});

describe('learning from a completed questionnaire', () => {
  it('recognises reference, guidance, scoring and instruction sheets by name', () => {
    for (const name of ['Analyst Reference', 'Instructions', 'Scoring', 'Guidance', 'Read Me', 'Evaluation']) expect(isReferenceSheet(name), name).toBe(true);
    for (const name of ['START HERE', 'HECVAT - Lite | Vendor Response', 'CAIQv4.0.3', 'Security']) expect(isReferenceSheet(name), name).toBe(false);
  });

  it('takes no entry from an analyst-reference sheet or from guidance text in an answer cell', async () => {
    const wb = new ExcelJS.Workbook();
    const answers = wb.addWorksheet('Vendor Response');
    answers.addRow(['ID', 'Question', 'Answer', 'Comments']);
    answers.addRow(['ENC-01', 'Can you accommodate encryption requirements using open standards?', 'Yes', 'TLS 1.2+ and AES-256']);
    answers.addRow(['PRV-01', 'Do you have a public privacy policy?', 'Please provide the direct URL to your privacy policy.', '']);
    answers.addRow(['PRV-02', 'Do you sell customer data?', 'No', 'Please provide the direct URL to your privacy policy.']);
    const reference = wb.addWorksheet('Analyst Reference');
    reference.addRow(['ID', 'Question', 'Answer', 'Comments']);
    reference.addRow([
      'ENC-01',
      'Can you accommodate encryption requirements using open standards?',
      'No',
      'If the solution provider cannot accommodate this, direct them to NIST.',
    ]);
    const doc = await extractDocument(new Uint8Array((await wb.xlsx.writeBuffer()) as ArrayBuffer), 'hecvat.xlsx');
    expect(doc.qa.map((q) => [q.tab_name, q.original_id, q.slots.map((s) => `${s.slot_key}=${s.content}`)])).toEqual([
      ['Vendor Response', 'ENC-01', ['answer=Yes', 'comment=TLS 1.2+ and AES-256']],
      ['Vendor Response', 'PRV-02', ['answer=No']],
    ]);
  });
});
