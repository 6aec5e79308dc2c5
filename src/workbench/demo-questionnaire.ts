// The demo questionnaire `npm start` seeds: written for this project, shaped like real ones (an
// instructions tab, a hidden lists tab feeding the dropdowns, section rows, an answer the analyst
// already typed, and a formula cell that must never be overwritten).
import ExcelJS from 'exceljs';

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
  const wb = new ExcelJS.Workbook();
  wb.creator = 'Questionnaire Filler demo';
  // Opens on the questionnaire tab, as a vendor would send it.
  wb.views = [{ x: 0, y: 0, width: 20000, height: 12000, firstSheet: 0, activeTab: 1, visibility: 'visible' }];

  const intro = wb.addWorksheet('Instructions');
  intro.getCell('A1').value = 'Vendor Security Questionnaire (demo)';
  intro.getCell('A1').font = { bold: true, size: 14 };
  intro.getCell('A3').value = 'Answer every question on the Security Questionnaire tab. Choose Yes, No or N/A and explain in Comments.';
  intro.getColumn(1).width = 100;

  const sheet = wb.addWorksheet(DEMO_TAB, { views: [{ state: 'frozen', ySplit: 3 }] });
  const lists = wb.addWorksheet('Lists', { state: 'hidden' });
  ['Yes', 'No', 'N/A'].forEach((v, i) => (lists.getCell(`A${i + 1}`).value = v));

  sheet.mergeCells('A1:D1');
  sheet.getCell('A1').value = 'Northwind Learning: vendor security questionnaire';
  sheet.getCell('A1').font = { bold: true, size: 13 };
  const header = sheet.getRow(3);
  header.values = ['ID', 'Question', 'Answer', 'Comments'];
  header.font = { bold: true };
  sheet.getColumn(1).width = 10;
  sheet.getColumn(2).width = 70;
  sheet.getColumn(3).width = 12;
  sheet.getColumn(4).width = 60;

  let row = 4;
  for (const section of DEMO_SECTIONS) {
    sheet.mergeCells(`A${row}:D${row}`);
    sheet.getCell(`A${row}`).value = section.title;
    sheet.getCell(`A${row}`).font = { bold: true };
    sheet.getCell(`A${row}`).fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFDDEBF7' } };
    row++;
    for (const q of section.questions) {
      sheet.getCell(`A${row}`).value = q.id;
      sheet.getCell(`B${row}`).value = q.text;
      sheet.getCell(`B${row}`).alignment = { wrapText: true };
      sheet.getCell(`C${row}`).dataValidation = { type: 'list', allowBlank: true, formulae: ['Lists!$A$1:$A$3'] };
      if (q.id === DEMO_PREFILLED.id) {
        sheet.getCell(`C${row}`).value = DEMO_PREFILLED.answer;
        sheet.getCell(`D${row}`).value = DEMO_PREFILLED.comment;
      }
      row++;
    }
  }
  row++;
  sheet.getCell(`B${row}`).value = 'Questions answered';
  sheet.getCell(`C${row}`).value = { formula: `COUNTA(C5:C${row - 2})`, result: 1 };

  return new Uint8Array(await wb.xlsx.writeBuffer());
}
