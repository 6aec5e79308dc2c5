/**
 * A workbook built the way HECVAT 4 is (made here, not copied from a real one): a START HERE tab whose
 * questions other tabs repeat by formula (question and answer cells both formulas, the answer
 * `=IF('START HERE'!C4="","",'START HERE'!C4)`), tabs of their own questions with Yes/No lists, and an
 * Analyst Reference sheet whose guidance for the institution's reviewers sits beside formula copies of
 * the vendor's answers.
 */
import { createWorkbook, type NewCell, type NewSheet } from '../../../src/xlsx/create';

type Row = [id: string, question: string, list?: boolean];

export const START_HERE: Row[] = [
  ['GNRL-01', 'Solution Provider Name'],
  ['GNRL-02', 'Solution Name'],
  ['GNRL-03', 'Solution Version'],
  ['GNRL-04', 'Solution Provider Contact Name'],
  ['GNRL-05', 'Solution Provider Contact Email'],
  ['GNRL-06', 'Does the solution have a mobile application?', true],
  ['GNRL-07', 'Will the solution store institutional data?', true],
  ['GNRL-08', 'Does the solution process protected health information (PHI)?', true],
  ['GNRL-09', 'Does the solution process payment card data?', true],
  ['GNRL-10', 'Is the solution hosted by a third party?', true],
];

/**
 * Per tab: the START HERE questions it repeats (by id), then its own questions. Only questions are
 * repeated here: a repeated label ("Solution Name" beside a formula) reads as a computed row, no question.
 */
export const TABS: { name: string; mirrors: string[]; own: Row[] }[] = [
  {
    name: 'Organization',
    mirrors: ['GNRL-10', 'GNRL-09'],
    own: [
      ['COMP-03', 'Do you have a dedicated information security staff?', true],
      ['COMP-04', 'Do you have a documented information security policy?', true],
      ['COMP-05', 'Is your information security policy reviewed at least annually?', true],
      ['COMP-06', 'Do you perform background checks on employees?', true],
      ['COMP-07', 'Do you carry cyber-liability insurance?', true],
      ['COMP-08', 'Have you had a data breach in the last three years?', true],
    ],
  },
  {
    name: 'Application',
    mirrors: ['GNRL-06', 'GNRL-07'],
    own: [
      ['APPL-04', 'Is customer data encrypted at rest?', true],
      ['APPL-05', 'Do you support single sign-on with SAML?', true],
      ['APPL-06', 'Do you enforce multi-factor authentication for administrators?', true],
      ['APPL-07', 'Do you perform penetration tests at least annually?', true],
      ['APPL-08', 'Do you review user access rights quarterly?', true],
      ['APPL-09', 'Which TLS versions do you support for data in transit?'],
    ],
  },
  {
    name: 'Data Privacy',
    mirrors: ['GNRL-08', 'GNRL-09'],
    own: [
      ['DATA-03', 'Will institutional data be stored outside the United States?', true],
      ['DATA-04', 'Do you sell or share institutional data with third parties?', true],
      ['DATA-05', 'Do you have a documented data retention policy?', true],
      ['DATA-06', 'Are backups encrypted?', true],
    ],
  },
];

/** How many questions the workbook asks (every row of every questionnaire tab) and how many repeat START HERE. */
export const HECVAT4_LIKE = {
  questions: START_HERE.length + TABS.reduce((n, t) => n + t.mirrors.length + t.own.length, 0),
  mirrors: TABS.reduce((n, t) => n + t.mirrors.length, 0),
};

const HEADER = ['ID', 'Question', 'Answer', 'Additional Information'];
const header = (): Record<string, NewCell> => Object.fromEntries(HEADER.map((h, i) => [`${'ABCD'[i]}1`, { value: h, bold: true }]));
/** START HERE's row of a question (header on row 1). */
export const startHereRow = (id: string) => START_HERE.findIndex(([x]) => x === id) + 2;

/**
 * The workbook; `answers` fills START HERE's answer cells (by question id), and the mirrors' cached
 * values follow them, as Excel's would.
 */
export function hecvat4LikeWorkbook(answers: Record<string, string> = {}): Uint8Array {
  const sheets: NewSheet[] = [];
  const start: NewSheet = { name: 'START HERE', cells: header(), lists: [], widths: { 2: 60, 3: 30, 4: 40 } };
  START_HERE.forEach(([id, question, list], i) => {
    const r = i + 2;
    start.cells[`A${r}`] = id;
    start.cells[`B${r}`] = question;
    if (answers[id] !== undefined) start.cells[`C${r}`] = answers[id]!;
    if (list) start.lists!.push({ sqref: `C${r}`, source: '"Yes,No"' });
  });
  sheets.push(start);
  const reference: NewSheet = { name: 'Analyst Reference', cells: { A1: 'ID', B1: 'Question', C1: 'Vendor Answer', D1: 'Analyst Guidance' } };
  let refRow = 2;
  for (const tab of TABS) {
    const sheet: NewSheet = { name: tab.name, cells: header(), lists: [], widths: { 2: 60, 3: 30, 4: 40 } };
    let r = 2;
    for (const id of tab.mirrors) {
      const from = startHereRow(id);
      const [, question] = START_HERE[from - 2]!;
      sheet.cells[`A${r}`] = `${tab.name.slice(0, 4).toUpperCase()}-${String(r - 1).padStart(2, '0')}`;
      sheet.cells[`B${r}`] = { formula: `'START HERE'!B${from}`, value: question };
      sheet.cells[`C${r}`] = { formula: `IF('START HERE'!C${from}="","",'START HERE'!C${from})`, value: answers[id] ?? '' };
      sheet.cells[`D${r}`] = { formula: `IF('START HERE'!D${from}="","",'START HERE'!D${from})`, value: '' };
      r++;
    }
    for (const [id, question, list] of tab.own) {
      sheet.cells[`A${r}`] = id;
      sheet.cells[`B${r}`] = question;
      if (list) sheet.lists!.push({ sqref: `C${r}`, source: '"Yes,No"' });
      reference.cells[`A${refRow}`] = id;
      reference.cells[`B${refRow}`] = { formula: `'${tab.name}'!B${r}`, value: question };
      reference.cells[`C${refRow}`] = { formula: `'${tab.name}'!C${r}`, value: '' };
      reference.cells[`D${refRow}`] =
        `If the solution provider cannot answer "${question}" with Yes, direct them to NIST SP 800-53 and ask for a remediation plan.`;
      refRow++;
      r++;
    }
    sheets.push(sheet);
  }
  sheets.push(reference);
  return createWorkbook({ sheets });
}
