// The demo questionnaire `npm start` seeds: written for this project, shaped like real ones (an
// instructions tab, a hidden lists tab feeding the dropdowns, section rows, an answer the analyst
// already typed, and a formula cell that must never be overwritten).
import { createWorkbook, type NewSheet } from '../xlsx/create';

export interface DemoQuestion {
  id: string;
  text: string;
}

export const DEMO_SECTIONS: { title: string; questions: DemoQuestion[] }[] = [
  {
    title: 'Governance and Compliance',
    questions: [
      { id: 'GOV-01', text: 'Do you maintain a written information security program?' },
      { id: 'GOV-02', text: 'Do you hold a current SOC 2 Type II report?' },
      { id: 'GOV-03', text: 'Do all employees complete security awareness training every year?' },
      { id: 'GOV-04', text: 'Is an independent penetration test performed at least annually?' },
    ],
  },
  {
    title: 'Access Control',
    questions: [
      { id: 'ACC-01', text: 'Is multi-factor authentication (MFA) required for access to production systems?' },
      { id: 'ACC-02', text: 'Can customers use SAML single sign-on (SSO) for their users?' },
      { id: 'ACC-03', text: 'How often is user access to production reviewed?' },
    ],
  },
  {
    title: 'Data Protection',
    questions: [
      { id: 'DAT-01', text: 'Is customer data encrypted in transit with TLS 1.2 or higher?' },
      { id: 'DAT-02', text: 'Is customer data encrypted at rest?' },
      { id: 'DAT-03', text: 'How long are backups retained?' },
      { id: 'DAT-04', text: 'Do you operate your own physical data center with biometric locks?' },
    ],
  },
  {
    title: 'Resilience',
    questions: [
      { id: 'RES-01', text: 'Do you have a documented incident response plan?' },
      { id: 'RES-02', text: 'What are your recovery time objective (RTO) and recovery point objective (RPO)?' },
      { id: 'RES-03', text: 'Is the disaster recovery plan tested at least annually?' },
    ],
  },
];

export const DEMO_TAB = 'Security Questionnaire';
/** The analyst already answered this one: a fill must leave it alone unless told to overwrite. */
export const DEMO_PREFILLED = { id: 'GOV-03', answer: 'Yes', comment: 'Tracked in our HR system.' };

export async function buildDemoQuestionnaire(): Promise<Uint8Array> {
  const intro: NewSheet = {
    name: 'Instructions',
    cells: {
      A1: { value: 'Vendor Security Questionnaire (demo)', bold: true, size: 14 },
      A3: 'Answer every question on the Security Questionnaire tab. Choose Yes, No or N/A and explain in Comments.',
    },
    widths: { 1: 100 },
  };
  const cells: NewSheet['cells'] = {
    A1: { value: 'Northwind Learning: vendor security questionnaire', bold: true, size: 13 },
    A3: { value: 'ID', bold: true },
    B3: { value: 'Question', bold: true },
    C3: { value: 'Answer', bold: true },
    D3: { value: 'Comments', bold: true },
  };
  const merges = ['A1:D1'];
  const answerCells: string[] = [];
  let row = 4;
  for (const section of DEMO_SECTIONS) {
    merges.push(`A${row}:D${row}`);
    cells[`A${row}`] = { value: section.title, bold: true, fill: '#DDEBF7' };
    row++;
    for (const q of section.questions) {
      cells[`A${row}`] = q.id;
      cells[`B${row}`] = { value: q.text, wrap: true };
      answerCells.push(`C${row}`);
      if (q.id === DEMO_PREFILLED.id) {
        cells[`C${row}`] = DEMO_PREFILLED.answer;
        cells[`D${row}`] = DEMO_PREFILLED.comment;
      }
      row++;
    }
  }
  row++;
  cells[`B${row}`] = 'Questions answered';
  cells[`C${row}`] = { formula: `COUNTA(C5:C${row - 2})`, value: 1 };
  const questionnaire: NewSheet = {
    name: DEMO_TAB,
    cells,
    merges,
    widths: { 1: 10, 2: 70, 3: 12, 4: 60 },
    lists: [{ sqref: answerCells.join(' '), source: 'Lists!$A$1:$A$3' }],
    frozenRows: 3,
  };
  const lists: NewSheet = { name: 'Lists', hidden: true, cells: { A1: 'Yes', A2: 'No', A3: 'N/A' } };
  // Opens on the questionnaire tab, as a vendor would send it.
  return createWorkbook({ sheets: [intro, questionnaire, lists], activeSheet: 1 });
}
