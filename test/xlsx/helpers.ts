/**
 * Test workbooks: small ones built with ExcelJS and patched at the XML level (what ExcelJS cannot
 * write: x14 validations, inline strings, prefixes...), and the real fixtures with their completed
 * answers blanked by the same surgery the writer uses.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { blankCells, XlsxPackage } from '../../src/xlsx';

const here = dirname(fileURLToPath(import.meta.url));
export const FIXTURES_DIR = resolve(here, '../../../shared/fixtures/questionnaires');

/** Fails loudly (never skips) when the shared fixtures are not beside the project. */
export function fixturePath(file: string): string {
  if (!existsSync(FIXTURES_DIR)) {
    throw new Error(`The shared fixtures folder ${FIXTURES_DIR} is missing: these tests need ../shared/fixtures beside the project.`);
  }
  const p = join(FIXTURES_DIR, file);
  if (!existsSync(p)) throw new Error(`Fixture ${p} is missing.`);
  return p;
}

export interface FixtureInfo {
  file: string;
  answerTab: string;
  completed: boolean;
  /** Columns of the answer slots (per the fixtures README). */
  answerColumns: string[];
}

export const FIXTURES: FixtureInfo[] = [
  { file: 'caiq-v4.0.3-blank.xlsx', answerTab: 'CAIQv4.0.3', completed: false, answerColumns: ['C', 'D'] },
  { file: 'hecvat-lite-3.04-canvas-catalog-completed.xlsx', answerTab: 'HECVAT - Lite | Vendor Response', completed: true, answerColumns: ['C', 'D'] },
  { file: 'hecvat-lite-3.04-canvas-studio-completed.xlsx', answerTab: 'HECVAT - Lite | Vendor Response', completed: true, answerColumns: ['C', 'D'] },
  { file: 'k12cvat-lite-4.1-canvas-lms-completed.xlsx', answerTab: 'CoSN K-12CVAT', completed: true, answerColumns: ['C', 'D'] },
  { file: 'hecvat-full-2.11-portfolium-completed.xlsx', answerTab: 'HECVAT - Full', completed: true, answerColumns: ['C', 'D'] },
];

const QUESTION_ID_RE = /^[A-Z][A-Za-z0-9&]{1,9}-\d{1,3}(\.\d{1,2})?$/;

/** Rows of the answer tab whose column A holds a question id, with their ids. */
export function questionRows(pkg: XlsxPackage, tab: string, maxRow = 1500): { row: number; id: string }[] {
  const addresses = Array.from({ length: maxRow }, (_, i) => `A${i + 1}`);
  const cells = pkg.readCells(tab, addresses);
  const out: { row: number; id: string }[] = [];
  for (const [address, cell] of cells) {
    const text = typeof cell.value === 'string' ? cell.value.trim() : '';
    if (QUESTION_ID_RE.test(text)) out.push({ row: Number(address.slice(1)), id: text });
  }
  return out.sort((a, b) => a.row - b.row);
}

/** Answer cells (non-formula, not inside a merge) of the question rows. */
export function answerCells(pkg: XlsxPackage, fx: FixtureInfo): string[] {
  const rows = questionRows(pkg, fx.answerTab);
  const addresses = rows.flatMap(({ row }) => fx.answerColumns.map((c) => `${c}${row}`));
  const cells = pkg.readCells(fx.answerTab, addresses);
  return addresses.filter((a) => !cells.get(a)!.hasFormula && cells.get(a)!.mergedInto === null);
}

/** A completed fixture with its answer cells emptied (styles kept), by the writer's own surgery. */
export function blankFixture(fx: FixtureInfo): Uint8Array {
  const bytes = new Uint8Array(readFileSync(fixturePath(fx.file)));
  if (!fx.completed) return bytes;
  const pkg = XlsxPackage.open(bytes, fx.file);
  return blankCells(
    bytes,
    answerCells(pkg, fx).map((address) => ({ tab: fx.answerTab, address })),
  );
}

/** A small workbook from ExcelJS: a styled answer sheet, a lookup sheet, a formula, merges. */
export async function smallWorkbook(build?: (wb: ExcelJS.Workbook) => void): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Questions');
  ws.getCell('A1').value = 'Id';
  ws.getCell('B1').value = 'Question';
  ws.getCell('C1').value = 'Answer';
  ws.getCell('D1').value = 'Notes';
  ws.getCell('A2').value = 'Q-1';
  ws.getCell('B2').value = 'Do you encrypt data at rest?';
  ws.getCell('C2').fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFFFFF00' } };
  ws.getCell('C2').value = null;
  ws.getCell('A3').value = 'Q-2';
  ws.getCell('B3').value = 'Do you have MFA?';
  ws.getCell('C3').value = 'Yes';
  ws.getCell('C3').font = { bold: true };
  ws.getCell('A5').value = 'Q-3';
  ws.getCell('B5').value = { formula: 'Lists!A1', result: 'From a formula' };
  ws.getCell('E2').value = { formula: 'IF(C2="Yes",1,0)', result: 0 };
  ws.mergeCells('D5:E6');
  const lists = wb.addWorksheet('Lists');
  lists.getCell('A1').value = 'Yes';
  lists.getCell('A2').value = 'No';
  build?.(wb);
  return new Uint8Array(await wb.xlsx.writeBuffer());
}

/** Replaces text in a part of a zip (for patches ExcelJS cannot make); re-zips with fflate. */
export function patchZip(bytes: Uint8Array, edits: Record<string, (xml: string) => string>, extra: Record<string, string> = {}): Uint8Array {
  const files = unzipSync(bytes);
  for (const [name, edit] of Object.entries(edits)) {
    if (!files[name]) throw new Error(`patchZip: no ${name}`);
    files[name] = strToU8(edit(strFromU8(files[name]!)));
  }
  for (const [name, text] of Object.entries(extra)) files[name] = strToU8(text);
  return zipSync(files);
}

/** An OLE compound file (the container of .xls and of encrypted workbooks) naming one stream. */
export function oleFile(stream: string): Uint8Array {
  const b = new Uint8Array(4096);
  b.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
  // Directory entries store stream names in UTF-16LE.
  for (let i = 0; i < stream.length; i++) b[2048 + i * 2] = stream.charCodeAt(i);
  return b;
}

/** The same workbook as a macro-enabled .xlsm with a (fake, deterministic) VBA project part. */
export const FAKE_VBA = new Uint8Array(5000).map((_, i) => (i * 7919) & 0xff);
export function asXlsm(bytes: Uint8Array): Uint8Array {
  const files = unzipSync(bytes);
  files['[Content_Types].xml'] = strToU8(
    strFromU8(files['[Content_Types].xml']!)
      .replace('spreadsheetml.sheet.main+xml', 'ms-excel.sheet.macroEnabled.main+xml')
      .replace('</Types>', '<Default Extension="bin" ContentType="application/vnd.ms-office.vbaProject"/></Types>'),
  );
  files['xl/vbaProject.bin'] = FAKE_VBA;
  return zipSync(files);
}

export function partText(bytes: Uint8Array, name: string): string {
  const pkg = XlsxPackage.open(bytes);
  return strFromU8(pkg.part(name));
}

/** x14 cross-sheet list validation on C2:C10, as Excel writes it, inserted before </worksheet>. */
export const X14_VALIDATION =
  '<extLst><ext uri="{CCE6A557-97BC-4b89-ADB6-D9C93CAAB3DF}" xmlns:x14="http://schemas.microsoft.com/office/spreadsheetml/2009/9/main">' +
  '<x14:dataValidations count="1" xmlns:xm="http://schemas.microsoft.com/office/excel/2006/main">' +
  '<x14:dataValidation type="list" allowBlank="1" showInputMessage="1" showErrorMessage="1">' +
  '<x14:formula1><xm:f>Lists!$A$1:$A$2</xm:f></x14:formula1><xm:sqref>C2:C10</xm:sqref>' +
  '</x14:dataValidation></x14:dataValidations></ext></extLst>';

export function withX14Validation(bytes: Uint8Array): Uint8Array {
  return patchZip(bytes, {
    'xl/worksheets/sheet1.xml': (x) => x.replace('</worksheet>', `${X14_VALIDATION}</worksheet>`),
  });
}

export const SECURITY_QUESTIONS = [
  ['SEC-01', 'Do you encrypt customer data at rest?'],
  ['SEC-02', 'Do you require multi-factor authentication for administrators?'],
  ['SEC-03', 'Is the answer to SEC-01 the same for backups?'],
  ['SEC-04', 'Do you perform annual penetration tests?'],
  ['SEC-05', 'Do you have a documented incident response plan?'],
];
export const PRIVACY_QUESTIONS = [
  ['PRV-01', 'Do you sell customer personal data to third parties?'],
  ['PRV-02', 'Is customer data encrypted at rest as stated in SEC-01?'],
  ['PRV-03', 'Do you have a data protection officer?'],
  ['PRV-04', 'Do you honour data subject deletion requests?'],
];

/**
 * A protected, multi-tab questionnaire whose answer column holds formula cells (mirrors of other
 * answers) and a locked cell: the fill must leave those untouched.
 * Formula cells: Security!C4 (=C2), Privacy!C3 (=Security!C2). Locked: Privacy!D5.
 */
export async function protectedMultiTabWorkbook(): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  const build = (name: string, questions: string[][], formulas: Record<string, string>, locked: string[]) => {
    const ws = wb.addWorksheet(name);
    ws.columns = [{ width: 10 }, { width: 60 }, { width: 12 }, { width: 40 }];
    ws.addRow(['Question ID', 'Question', 'Answer', 'Comments']).font = { bold: true };
    questions.forEach(([id, text], i) => {
      const r = i + 2;
      ws.getCell(`A${r}`).value = id;
      ws.getCell(`B${r}`).value = text;
      for (const col of ['C', 'D']) {
        const cell = ws.getCell(`${col}${r}`);
        cell.protection = { locked: locked.includes(`${col}${r}`) };
        cell.border = { bottom: { style: 'thin' } };
        cell.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFFFF2CC' } };
      }
      ws.getCell(`C${r}`).dataValidation = { type: 'list', allowBlank: true, formulae: ['"Yes,No,N/A"'] };
    });
    for (const [address, formula] of Object.entries(formulas)) ws.getCell(address).value = { formula, result: '' };
    void ws.protect('', { selectLockedCells: true, selectUnlockedCells: true });
    return ws;
  };
  build('Security', SECURITY_QUESTIONS, { C4: 'C2' }, []);
  build('Privacy', PRIVACY_QUESTIONS, { C3: 'Security!C2' }, ['D5']);
  return new Uint8Array(await wb.xlsx.writeBuffer());
}

/** The answer library for the small questionnaire: a completed Q&A sheet. */
export async function smallAnswerLibrary(): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Answers');
  ws.addRow(['Question ID', 'Question', 'Answer', 'Comments']);
  const answers: Record<string, [string, string]> = {
    'SEC-01': ['Yes', 'AES-256 encryption at rest for all customer data.'],
    'SEC-02': ['Yes', 'Administrators must use hardware-backed MFA.'],
    'SEC-03': ['Yes', 'Backups are encrypted the same way.'],
    'SEC-04': ['Yes', 'An external firm tests every year.'],
    'SEC-05': ['Yes', 'The incident response plan is reviewed annually.'],
    'PRV-01': ['No', 'We never sell personal data.'],
    'PRV-02': ['Yes', 'Yes, AES-256 at rest.'],
    'PRV-03': ['Yes', 'Our DPO can be reached at dpo@example.com.'],
    'PRV-04': ['Yes', 'Deletion requests are honoured within 30 days.'],
  };
  for (const [id, text] of [...SECURITY_QUESTIONS, ...PRIVACY_QUESTIONS]) ws.addRow([id, text, ...answers[id!]!]);
  return new Uint8Array(await wb.xlsx.writeBuffer());
}
