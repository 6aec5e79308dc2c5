import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { strToU8 } from 'fflate';
import { ExtractError, extractDocument } from '../../../src/service/knowledge';
import { csvToGrid } from '../../../src/service/detect/csv';
import { qaFromGrid } from '../../../src/service/knowledge/extract/qa-table';
import { splitIntoPassages } from '../../../src/service/knowledge/passages';
import { buildDocx, fixture } from './helpers';

describe('extractDocument', () => {
  it('reads a real PDF page by page with real page numbers and heading trails', async () => {
    const doc = await extractDocument(fixture('kb/instructure/Instructure Security Overview.pdf'), 'Instructure Security Overview.pdf');
    expect(doc.file_format).toBe('pdf');
    expect(doc.document_type).toBe('documentation');
    expect(doc.pages.length).toBe(24);
    expect(doc.pages.map((p) => p.page_number)).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
    const page6 = doc.pages[5]!;
    expect(page6.text).toContain('background checks on all employees');
    // Running footers ("April 2024 6") are not content.
    expect(page6.text).not.toMatch(/April 2024 6/);

    const passages = splitIntoPassages(doc);
    const background = passages.find((p) => p.content.includes('performs background checks on all employees'));
    expect(background?.page_number).toBe(6);
    expect(background?.context_header).toBe('SECURITY OVERVIEW > Layered Security > Background Checks');
    expect(background?.section_path.at(-1)).toBe('Background Checks');
  });

  it('classifies a SOC report PDF as a security certificate', async () => {
    const doc = await extractDocument(fixture('kb/instructure/Canvas LMS SOC 3.pdf'), 'Canvas LMS SOC 3.pdf');
    expect(doc.document_type).toBe('security_certificate');
    expect(doc.pages.length).toBeGreaterThan(5);
  });

  it('turns Markdown headings into the heading trail and drops YAML front matter', async () => {
    const md = [
      '---',
      'title: Security Overview',
      'owner: ciso',
      '---',
      '# Data Protection',
      '',
      '## Encryption',
      '',
      'Customer data is encrypted at rest with AES-256 and',
      'in transit with TLS 1.2 or higher.',
    ].join('\n');
    const doc = await extractDocument(strToU8(md), 'security.md');
    expect(doc.file_format).toBe('txt');
    expect(doc.title).toBe('Security Overview');
    expect(doc.pages[0]!.text).not.toContain('owner: ciso');
    const [passage] = splitIntoPassages(doc);
    expect(passage!.content).toBe('Customer data is encrypted at rest with AES-256 and in transit with TLS 1.2 or higher.');
    expect(passage!.context_header).toBe('Security Overview > Data Protection > Encryption');
  });

  it('strips bare front matter closed by --- (comply style) from a real policy', async () => {
    const doc = await extractDocument(fixture('kb/policies/comply/policies/access.md'), 'access.md');
    expect(doc.title).toBe('Access Onboarding and Termination Policy');
    expect(doc.pages[0]!.text).not.toMatch(/majorRevisions|acronym:/);
    expect(splitIntoPassages(doc)[0]!.context_header).toBe('Access Onboarding and Termination Policy > Purpose and Scope');
  });

  it('reads HTML text and headings, skipping scripts and styles', async () => {
    const html = `<html><head><title>Trust Center</title><style>p{color:red}</style></head><body>
      <h1>Security</h1><script>var secret = 1;</script>
      <h2>Access Control</h2><p>All administrative access requires multi-factor authentication &amp; a VPN.</p>
      <ul><li>Access is reviewed quarterly by system owners.</li></ul></body></html>`;
    const doc = await extractDocument(strToU8(html), 'trust.html');
    expect(doc.file_format).toBe('html');
    expect(doc.pages[0]!.text).not.toContain('secret');
    const [passage] = splitIntoPassages(doc);
    expect(passage!.context_header).toBe('Trust Center > Security > Access Control');
    expect(passage!.content).toContain('multi-factor authentication & a VPN');
    expect(passage!.content).toContain('reviewed quarterly');
  });

  it('reads a Word document with its headings', async () => {
    const bytes = buildDocx([
      { style: 'Heading1', text: 'Business Continuity' },
      { style: 'Heading2', text: 'Backups' },
      { text: 'Backups are taken daily and retained for thirty days in a second region.' },
    ]);
    const doc = await extractDocument(bytes, 'bcp.docx');
    expect(doc.file_format).toBe('docx');
    const [passage] = splitIntoPassages(doc);
    expect(passage!.context_header).toBe('Business Continuity > Backups');
    expect(passage!.content).toContain('Backups are taken daily');
  });

  it('reads plain text, finding title-like lines as headings', async () => {
    const doc = await extractDocument(fixture('kb/instructure/Canvas Catalog Architecture.txt'), 'Canvas Catalog Architecture.txt');
    expect(doc.file_format).toBe('txt');
    const passages = splitIntoPassages(doc);
    const regions = passages.find((p) => p.content.includes('two Amazon Web Services (AWS) regions'));
    expect(regions?.context_header).toBe('Hosting Regions');
  });

  it('reads a CSV of Question,Answer pairs as answer-library entries keeping every slot', async () => {
    const csv =
      'ID,Question,Answer,Comments\nAC-1,"Do you support single sign-on (SSO)?",Yes,"SAML 2.0, via Okta or Azure AD"\nAC-2,Do you store passwords in plain text?,No,\n';
    const doc = await extractDocument(strToU8(csv), 'library.csv');
    expect(doc).toMatchObject({ file_format: 'excel', document_type: 'qna', pages: [] });
    expect(doc.qa).toHaveLength(2);
    expect(doc.qa[0]).toMatchObject({
      question: 'Do you support single sign-on (SSO)?',
      answer: 'Yes',
      original_id: 'AC-1',
      slots: [
        { slot_key: 'answer', header: 'Answer', content: 'Yes' },
        { slot_key: 'comment', header: 'Comments', content: 'SAML 2.0, via Okta or Azure AD' },
      ],
    });
    expect(doc.qa[1]!.slots).toEqual([{ slot_key: 'answer', header: 'Answer', content: 'No' }]);
  });

  it('reads an xlsx Q&A sheet (with a formula question) as answer-library entries', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Library');
    sheet.addRow(['Question', 'Response', 'Notes']);
    sheet.addRow(['Is customer data encrypted at rest?', 'Yes', 'AES-256 on all volumes']);
    sheet.getCell('A3').value = { formula: '"Do you run "&"penetration tests?"', result: 'Do you run penetration tests?' };
    sheet.getCell('B3').value = 'Yes';
    const bytes = new Uint8Array(await workbook.xlsx.writeBuffer());
    const doc = await extractDocument(bytes, 'library.xlsx');
    expect(doc.document_type).toBe('qna');
    expect(doc.qa.map((q) => [q.question, q.answer, q.tab_name])).toEqual([
      ['Is customer data encrypted at rest?', 'Yes', 'Library'],
      ['Do you run penetration tests?', 'Yes', 'Library'],
    ]);
    expect(doc.qa[0]!.slots[1]).toEqual({ slot_key: 'comment', header: 'Notes', content: 'AES-256 on all volumes' });
  });

  it("turns a real completed questionnaire into library entries keeping each answer slot, not the template's guidance", async () => {
    const doc = await extractDocument(fixture('questionnaires/hecvat-lite-3.04-canvas-catalog-completed.xlsx'), 'catalog.xlsx');
    expect(doc).toMatchObject({ file_format: 'excel', document_type: 'qna', pages: [] });
    // 94 questions; COMP-07 has no vendor answer, only the template's guidance: it is no library entry.
    expect(doc.qa).toHaveLength(93);
    expect(doc.qa.find((q) => q.original_id === 'COMP-07')).toBeUndefined();
    const soc2 = doc.qa.find((q) => q.original_id === 'DOCU-01')!;
    expect(soc2).toMatchObject({
      question: 'Have you undergone a SSAE 18 / SOC 2 audit?',
      answer: 'Yes',
      tab_name: 'HECVAT - Lite | Vendor Response',
      location: 'HECVAT - Lite | Vendor Response!B32',
    });
    expect(soc2.slots.map((s) => [s.slot_key, s.header])).toEqual([
      ['answer', 'Vendor Answers'],
      ['comment', 'Additional Information'],
    ]);
    expect(soc2.slots[1]!.content).toMatch(/^Canvas Catalog is SOC 2 audited/);
    // The Guidance column is a formula into the template's hidden sheet: EDUCAUSE's words, not the vendor's.
    expect(doc.qa.some((q) => q.slots.some((s) => s.slot_key === 'guidance'))).toBe(false);
  });

  it('keeps short field prompts such as a bare "Date" row of a CSV answer library', async () => {
    const csv = 'ID,Question,Answer,Comments\nG-1,Date,2024-03-01,\nAC-1,Do you support single sign-on (SSO)?,Yes,SAML 2.0\n';
    const doc = await extractDocument(strToU8(csv), 'library.csv');
    expect(doc.qa.map((q) => [q.original_id, q.question, q.answer])).toEqual([
      ['G-1', 'Date', '2024-03-01'],
      ['AC-1', 'Do you support single sign-on (SSO)?', 'Yes'],
    ]);
    // The plain Q&A-table reader (sheets the questionnaire detector does not take) keeps it too.
    const grid = csvToGrid(strToU8('Question;Response\nDate;2024-03-01\nURL;https://trust.example.com\n-;x\n'), 'table.csv');
    expect(qaFromGrid(grid, (a) => `T!${a}`).map((q) => [q.question, q.answer, q.location])).toEqual([
      ['Date', '2024-03-01', 'T!A2'],
      ['URL', 'https://trust.example.com', 'T!A3'],
    ]);
  });

  it('does not take a blank questionnaire\'s merged banner rows ("End of Standard") for answers', async () => {
    await expect(extractDocument(fixture('questionnaires/caiq-v4.0.3-blank.xlsx'), 'caiq-blank.xlsx')).rejects.toThrow(
      /caiq-blank\.xlsx: no answered questions found/,
    );
  });

  it("reads Windows-1252 text (Excel's and Notepad's default on Windows) without losing accents", async () => {
    const bytes = new Uint8Array([
      ...strToU8('Donn'),
      0xe9,
      ...strToU8('es chiffr'),
      0xe9,
      ...strToU8('es au repos avec AES-256, caf'),
      0xe9,
      ...strToU8(' ouvert.'),
    ]);
    const doc = await extractDocument(bytes, 'securite.txt');
    expect(doc.pages[0]!.text).toBe('Données chiffrées au repos avec AES-256, café ouvert.');
  });

  it('rejects files it cannot read with a reason naming the file', async () => {
    // An Excel 97-2003 file renamed to .xlsx: the xlsx layer names what it really is.
    const ole = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0]);
    await expect(extractDocument(ole, 'old.xlsx')).rejects.toThrow(/old\.xlsx is a legacy Excel 97-2003 file/);
    await expect(extractDocument(strToU8('just text'), 'fake.xlsx')).rejects.toThrow(/fake\.xlsx is not an \.xlsx file/);
    await expect(extractDocument(strToU8('   \n\n  '), 'blank.txt')).rejects.toThrow(/no text could be extracted from blank\.txt/);
    await expect(extractDocument(new Uint8Array(0), 'zero.pdf')).rejects.toThrow(ExtractError);
    await expect(extractDocument(strToU8('not a pdf at all'), 'fake.pdf')).rejects.toThrow(/fake\.pdf is not a valid PDF/);
    await expect(extractDocument(strToU8('%PDF-1.4 garbage'), 'broken.pdf')).rejects.toThrow(/broken\.pdf is not a readable PDF/);
    await expect(extractDocument(strToU8('hello'), 'slides.ppt')).rejects.toThrow(/\.ppt files are not supported/);
    await expect(extractDocument(strToU8('hello'), 'notes.docx')).rejects.toThrow(/not a valid \.docx/);
    await expect(extractDocument(strToU8('a,b\n1,2\n'), 'numbers.csv')).rejects.toThrow(/"Question" column/);
  });
});
