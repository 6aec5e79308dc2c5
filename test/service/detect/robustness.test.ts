/** Bad input gets a DetectError with a reason a person can act on, before anything large is inflated. */
import ExcelJS from 'exceljs';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { detectQuestionnaire, DetectError } from '../../../src/service/detect';
import { DEFAULT_ZIP_LIMITS } from '../../../src/xlsx';
import { addSimpleSheet, toBytes } from './helpers';

async function rejection(bytes: Uint8Array, filename: string): Promise<DetectError> {
  const err = await detectQuestionnaire(bytes, filename).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(DetectError);
  return err as DetectError;
}

/** Rewrites the declared uncompressed size of every entry (local headers and central directory). */
function declareUncompressedSize(zip: Uint8Array, size: number): Uint8Array {
  const out = zip.slice();
  const view = new DataView(out.buffer);
  for (let i = 0; i + 4 <= out.length; i++) {
    const sig = view.getUint32(i, true);
    if (sig === 0x04034b50) view.setUint32(i + 22, size, true);
    if (sig === 0x02014b50) view.setUint32(i + 24, size, true);
  }
  return out;
}

function oleFile(streamNames: string[]): Uint8Array {
  const magic = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
  const bytes = new Uint8Array(4096);
  bytes.set(magic, 0);
  let offset = 1024;
  for (const name of streamNames) {
    for (let i = 0; i < name.length; i++) bytes[offset + i * 2] = name.charCodeAt(i);
    offset += 128;
  }
  return bytes;
}

describe('refused files', () => {
  it('refuses a zip whose central directory declares more than the size cap, as a zip bomb', async () => {
    // Two stored 1 MB parts, each declaring 3/4 of the cap: the ratio stays moderate, the total exceeds the cap.
    const part = new Uint8Array(1024 * 1024);
    const zip = zipSync({ 'xl/a.xml': part, 'xl/b.xml': part }, { level: 0 });
    const declared = Math.ceil(DEFAULT_ZIP_LIMITS.maxTotalUncompressed * 0.75);
    const err = await rejection(declareUncompressedSize(zip, declared), 'bomb.xlsx');
    expect(err.message).toBe('"bomb.xlsx" was refused as a possible zip bomb: its parts would inflate to more than 256.0 MiB.');
  });

  it('refuses a part that would inflate at an extreme ratio, as a zip bomb', async () => {
    const zip = zipSync({ '[Content_Types].xml': new Uint8Array(16), 'xl/worksheets/sheet1.xml': new Uint8Array(30 * 1024 * 1024) }, { level: 9 });
    expect(zip.length).toBeLessThan(200 * 1024);
    const err = await rejection(zip, 'ratio.xlsx');
    expect(err.message).toMatch(/^"ratio.xlsx" was refused as a possible zip bomb: part xl\/worksheets\/sheet1\.xml would inflate \d+ times/);
  });

  it('refuses a truncated workbook as damaged', async () => {
    const wb = new ExcelJS.Workbook();
    addSimpleSheet(wb, 'Q', [['1', 'Do you have an ISMS?', null, null]]);
    const bytes = await toBytes(wb);
    const err = await rejection(bytes.slice(0, Math.floor(bytes.length / 2)), 'cut.xlsx');
    expect(err.message).toMatch(/^"cut.xlsx" is damaged: not a readable zip archive/);
  });

  it('refuses a zip that is not a workbook', async () => {
    const zip = zipSync({ 'word/document.xml': new TextEncoder().encode('<w:document/>') });
    const err = await rejection(zip, 'letter.xlsx');
    expect(err.message).toMatch(/^"letter.xlsx" is a zip archive but not an Excel workbook/);
  });

  it('refuses a legacy .xls file and says how to convert it', async () => {
    const err = await rejection(oleFile(['Workbook', 'SummaryInformation']), 'old.xls');
    expect(err.message).toMatch(/^"old.xls" is a legacy Excel 97-2003 file \(\.xls\).*save it as an Excel Workbook \(\.xlsx\)/i);
  });

  it('refuses an encrypted (password-protected) workbook and says how to remove the password', async () => {
    const err = await rejection(oleFile(['EncryptionInfo', 'EncryptedPackage']), 'secret.xlsx');
    expect(err.message).toMatch(/^"secret.xlsx" is a password-protected \(encrypted\) workbook.*remove the password/);
  });

  it('refuses a file that is neither xlsx nor csv', async () => {
    const err = await rejection(new TextEncoder().encode('%PDF-1.7\n...'), 'policy.pdf');
    expect(err.message).toBe('"policy.pdf" is not an .xlsx file (not a zip archive) (it is a PDF) nor a .csv file. Upload the questionnaire as .xlsx or .csv.');
  });

  it('refuses an empty file', async () => {
    const err = await rejection(new Uint8Array(0), 'empty.xlsx');
    expect(err.message).toMatch(/^"empty.xlsx" is empty \(0 bytes\)/);
  });

  it('refuses a workbook without a question table and names the sheets it looked at', async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('Notes').getCell('A1').value = 'Meeting notes from Tuesday.';
    const err = await rejection(await toBytes(wb), 'notes.xlsx');
    expect(err.message).toMatch(/No questionnaire found in "notes.xlsx"\. Looked on every visible sheet for a column of questions.*"Notes"/);
  });
});

describe('size', () => {
  it('reads a large generated questionnaire completely', async () => {
    const wb = new ExcelJS.Workbook();
    const rows: string[][] = [];
    for (let i = 1; i <= 5000; i++)
      rows.push([`Q-${i}`, `Do you meet requirement number ${i} of the security baseline?`, i % 2 ? 'Yes' : 'No', 'x'.repeat(200)]);
    addSimpleSheet(wb, 'Big', rows);
    const d = await detectQuestionnaire(await toBytes(wb), 'big.xlsx');
    expect(d.questions).toHaveLength(5000);
    expect(d.questions[4999]).toMatchObject({ original_id: 'Q-5000', row: 5001, order: 5000 });
  });
});
