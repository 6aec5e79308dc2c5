import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { XlsxPackage, isXlsxError, sniffSpreadsheet } from '../../src/xlsx';
import { comparePackages } from '../../src/xlsx/compare';
import { readZip } from '../../src/xlsx/zip';
import { FAKE_VBA, X14_VALIDATION, asXlsm, oleFile, partText, patchZip, smallWorkbook, withX14Validation } from './helpers';

async function readBack(bytes: Uint8Array) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(Buffer.from(bytes) as unknown as ArrayBuffer);
  return wb;
}

function rawRecord(bytes: Uint8Array, name: string): Uint8Array {
  const z = readZip(bytes);
  const e = z.byName.get(name)!;
  // The stored record runs to the next entry's local header, or to the central directory.
  const later = z.entries.filter((x) => x.localHeaderOffset > e.localHeaderOffset).map((x) => x.localHeaderOffset);
  const end = Math.min(...later, ...z.entries.map((x) => x.centralStart));
  return bytes.subarray(e.localHeaderOffset, end);
}

describe('XlsxPackage.readCells', () => {
  it('reads shared strings, numbers, formulas (cached values), empty and missing cells', async () => {
    const pkg = XlsxPackage.open(await smallWorkbook());
    expect(pkg.worksheetNames()).toEqual(['Questions', 'Lists']);
    const cells = pkg.readCells('Questions', ['A2', 'B5', 'C2', 'C3', 'E2', 'Z99', 'not-an-address']);
    expect(cells.get('A2')).toMatchObject({ value: 'Q-1', hasFormula: false, locked: false });
    expect(cells.get('B5')).toMatchObject({ value: 'From a formula', hasFormula: true });
    expect(cells.get('E2')).toMatchObject({ value: 0, hasFormula: true });
    expect(cells.get('C2')).toMatchObject({ value: null, hasFormula: false });
    expect(cells.get('C2')!.style).toBeGreaterThan(0);
    expect(cells.get('C3')).toMatchObject({ value: 'Yes' });
    expect(cells.get('Z99')).toMatchObject({ value: null, hasFormula: false });
    expect(cells.has('not-an-address')).toBe(false);
  });

  it('finds sheets case-insensitively and reports merged areas by their anchor', async () => {
    const pkg = XlsxPackage.open(await smallWorkbook());
    expect(pkg.findSheet('questions')?.name).toBe('Questions');
    expect(pkg.anchorOf('Questions', 'E6')).toBe('D5');
    expect(pkg.readCells('Questions', ['E6']).get('E6')!.mergedInto).toBe('D5');
    expect(pkg.readCells('Questions', ['D5']).get('D5')!.mergedInto).toBeNull();
  });

  it('reports locked cells only on protected sheets, honouring unlocked styles', async () => {
    const bytes = await smallWorkbook((wb) => {
      const ws = wb.getWorksheet('Questions')!;
      ws.getCell('C2').protection = { locked: false };
      void ws.protect('', {});
    });
    const pkg = XlsxPackage.open(bytes);
    expect(pkg.isProtected('Questions')).toBe(true);
    const cells = pkg.readCells('Questions', ['C2', 'B2', 'Q40']);
    expect(cells.get('C2')!.locked).toBe(false);
    expect(cells.get('B2')!.locked).toBe(true);
    expect(cells.get('Q40')!.locked).toBe(true);
    expect(
      XlsxPackage.open(await smallWorkbook())
        .readCells('Questions', ['B2'])
        .get('B2')!.locked,
    ).toBe(false);
  });

  it('reads inline strings, rich text without phonetic runs, booleans and _xHHHH_ escapes', async () => {
    const bytes = patchZip(await smallWorkbook(), {
      'xl/worksheets/sheet1.xml': (x) =>
        x.replace(
          /<row r="5"[^>]*>/,
          (row) =>
            row +
            '<c r="F5" t="inlineStr"><is><r><t>Rich </t></r><r><rPr><b/></rPr><t>text</t></r><rPh sb="0" eb="1"><t>PHON</t></rPh></is></c>' +
            '<c r="G5" t="b"><v>1</v></c><c r="H5" t="inlineStr"><is><t>a_x000D_b &amp; c</t></is></c>',
        ),
    });
    const cells = XlsxPackage.open(bytes).readCells('Questions', ['F5', 'G5', 'H5']);
    expect(cells.get('F5')!.value).toBe('Rich text');
    expect(cells.get('G5')!.value).toBe(true);
    expect(cells.get('H5')!.value).toBe('a\rb & c');
  });

  it('treats every cell of an array formula range as a formula', async () => {
    const bytes = patchZip(await smallWorkbook(), {
      'xl/worksheets/sheet1.xml': (x) =>
        x.replace(/<row r="5"[^>]*>/, (row) => `${row}<c r="G5"><f t="array" ref="G5:H5">A2:B2</f><v>0</v></c><c r="H5"><v>1</v></c>`),
    });
    const pkg = XlsxPackage.open(bytes);
    expect(pkg.readCells('Questions', ['H5']).get('H5')!.hasFormula).toBe(true);
    expect(() => pkg.applyWrites([{ tab: 'Questions', address: 'H5', value: 'x' }])).toThrow(/Refusing to write H5.*formula/);
  });
});

describe('XlsxPackage.applyWrites', () => {
  it('writes text into existing, missing-cell and missing-row positions, keeping styles and order', async () => {
    const input = await smallWorkbook();
    const pkg = XlsxPackage.open(input);
    const styleC2 = pkg.readCells('Questions', ['C2']).get('C2')!.style;
    const { bytes, changedParts } = pkg.applyWrites([
      { tab: 'Questions', address: 'C2', value: 'Yes' }, // existing empty styled cell
      { tab: 'Questions', address: 'D3', value: 'At row end' }, // new cell at row end
      { tab: 'Questions', address: 'D2', value: 'Between cells' }, // between C2 and E2
      { tab: 'Questions', address: 'C4', value: 'New row between rows' }, // row 4 does not exist
      { tab: 'Questions', address: 'C5', value: 'Before D5 in an existing row' },
      { tab: 'Questions', address: 'B40', value: 'After the last row' },
    ]);
    expect(changedParts.sort()).toEqual(['xl/workbook.xml', 'xl/worksheets/sheet1.xml']);
    const after = XlsxPackage.open(bytes);
    const cells = after.readCells('Questions', ['C2', 'D2', 'D3', 'C4', 'C5', 'B40']);
    expect(cells.get('C2')).toMatchObject({ value: 'Yes', style: styleC2 });
    expect(cells.get('D3')!.value).toBe('At row end');
    expect(cells.get('D2')!.value).toBe('Between cells');
    expect(cells.get('C4')!.value).toBe('New row between rows');
    expect(cells.get('C5')!.value).toBe('Before D5 in an existing row');
    expect(cells.get('B40')!.value).toBe('After the last row');
    const xml = partText(bytes, 'xl/worksheets/sheet1.xml');
    expect(xml.indexOf('<row r="3"')).toBeLessThan(xml.indexOf('<row r="4"'));
    expect(xml.indexOf('<row r="4"')).toBeLessThan(xml.indexOf('<row r="5"'));
    expect(xml.indexOf('r="B5"')).toBeLessThan(xml.indexOf('r="C5"'));
    expect(xml.indexOf('r="C2"')).toBeLessThan(xml.indexOf('r="D2"'));
    expect(xml.indexOf('r="D2"')).toBeLessThan(xml.indexOf('r="E2"'));
    // An independent reader sees the same values and the kept fill.
    const wb = await readBack(bytes);
    const ws = wb.getWorksheet('Questions')!;
    expect(ws.getCell('C2').value).toBe('Yes');
    expect((ws.getCell('C2').fill as ExcelJS.FillPattern).fgColor?.argb).toBe('FFFFFF00');
    expect(ws.getCell('B40').value).toBe('After the last row');
  });

  it('keeps every other part byte-identical, compressed bytes included, in the same order', async () => {
    const input = withX14Validation(await smallWorkbook());
    const { bytes } = XlsxPackage.open(input).applyWrites([{ tab: 'Questions', address: 'C2', value: 'No' }]);
    const diff = comparePackages(input, bytes);
    expect(diff.changedParts.sort()).toEqual(['xl/workbook.xml', 'xl/worksheets/sheet1.xml']);
    expect(diff.addedParts).toEqual([]);
    expect(diff.removedParts).toEqual([]);
    expect(diff.sameOrder).toBe(true);
    expect(diff.sheetsChangedOutsideData).toEqual([]);
    expect(diff.cellChanges.map((c) => c.address)).toEqual(['C2']);
    expect(partText(bytes, 'xl/worksheets/sheet1.xml')).toContain(X14_VALIDATION);
    for (const name of ['xl/styles.xml', 'xl/worksheets/sheet2.xml', '[Content_Types].xml']) {
      expect(Buffer.from(rawRecord(bytes, name)).equals(Buffer.from(rawRecord(input, name)))).toBe(true);
    }
  });

  it('keeps the VBA project of an .xlsm byte for byte', async () => {
    const input = asXlsm(await smallWorkbook());
    const { bytes } = XlsxPackage.open(input, 'macro.xlsm').applyWrites([{ tab: 'Questions', address: 'C2', value: 'Yes' }]);
    const diff = comparePackages(input, bytes);
    expect(diff.changedParts.sort()).toEqual(['xl/workbook.xml', 'xl/worksheets/sheet1.xml']);
    expect(Buffer.from(XlsxPackage.open(bytes).part('xl/vbaProject.bin')).equals(Buffer.from(FAKE_VBA))).toBe(true);
  });

  it('asks for a full recalculation on open, adding or updating calcPr', async () => {
    const input = await smallWorkbook();
    const { bytes } = XlsxPackage.open(input).applyWrites([{ tab: 'Questions', address: 'C2', value: 'No' }]);
    const wbXml = partText(bytes, 'xl/workbook.xml');
    expect(wbXml.match(/<calcPr[^>]*>/g)).toHaveLength(1);
    expect(wbXml).toMatch(/<calcPr[^>]*fullCalcOnLoad="1"/);
    const noCalc = patchZip(input, { 'xl/workbook.xml': (x) => x.replace(/<calcPr[^>]*\/>/, '') });
    const out = partText(XlsxPackage.open(noCalc).applyWrites([{ tab: 'Questions', address: 'C2', value: 'No' }]).bytes, 'xl/workbook.xml');
    expect(out).toMatch(/<\/definedNames>|<\/sheets><calcPr fullCalcOnLoad="1"\/>/);
    expect(out).toContain('<calcPr fullCalcOnLoad="1"/>');
  });

  it('escapes XML and Excel specials and never writes a formula', async () => {
    const values = {
      C2: `<b> & "quoted" 'single'`,
      D2: '=HYPERLINK("http://evil","x")',
      C3: '+1',
      D3: '-2',
      C4: '@SUM(A1)',
      D4: 'literal _x0041_ stays',
      C6: 'line one\r\nline two\nline three',
      F6: 'Ünïcödé ✓ 日本語 😀',
      C7: 'bell\u0007char',
      D7: '  padded  ',
    };
    const writes = Object.entries(values).map(([address, value]) => ({ tab: 'Questions', address, value }));
    const { bytes } = XlsxPackage.open(await smallWorkbook()).applyWrites(writes);
    const cells = XlsxPackage.open(bytes).readCells('Questions', Object.keys(values));
    for (const [address, value] of Object.entries(values)) {
      expect(cells.get(address)!.hasFormula).toBe(false);
      expect(cells.get(address)!.value).toBe(value.replace(/\r\n/g, '\n'));
    }
    const xml = partText(bytes, 'xl/worksheets/sheet1.xml');
    expect(xml).not.toMatch(/<f>[^<]*HYPERLINK/);
    const wb = await readBack(bytes);
    const ws = wb.getWorksheet('Questions')!;
    expect(ws.getCell('D2').value).toBe('=HYPERLINK("http://evil","x")');
    expect(ws.getCell('F6').value).toBe('Ünïcödé ✓ 日本語 😀');
  });

  it("truncates text over Excel's 32,767-character limit and says so", async () => {
    const long = 'x'.repeat(40_000);
    const { bytes, notes } = XlsxPackage.open(await smallWorkbook()).applyWrites([{ tab: 'Questions', address: 'C2', value: long }]);
    const value = XlsxPackage.open(bytes).readCells('Questions', ['C2']).get('C2')!.value as string;
    expect(value.length).toBe(32_767);
    expect(value.endsWith('…')).toBe(true);
    expect(notes).toEqual([{ tab: 'Questions', address: 'C2', note: expect.stringContaining('truncated') }]);
  });

  it('refuses to write a formula cell, an unknown sheet or a bad address, producing nothing', async () => {
    const pkg = XlsxPackage.open(await smallWorkbook());
    expect(() => pkg.applyWrites([{ tab: 'Questions', address: 'E2', value: 'x' }])).toThrow(/formula/);
    expect(() => pkg.applyWrites([{ tab: 'Nope', address: 'A1', value: 'x' }])).toThrow(/no worksheet named "Nope"/);
    expect(() => pkg.applyWrites([{ tab: 'Questions', address: 'A1:B2', value: 'x' }])).toThrow(/not a cell address/);
  });

  it('returns the input unchanged when there is nothing to write', async () => {
    const input = await smallWorkbook();
    const { bytes, changedParts } = XlsxPackage.open(input).applyWrites([]);
    expect(changedParts).toEqual([]);
    expect(Buffer.from(bytes).equals(Buffer.from(input))).toBe(true);
  });

  it('clears a value and keeps the style when asked to blank a cell', async () => {
    const pkg = XlsxPackage.open(await smallWorkbook());
    const style = pkg.readCells('Questions', ['C3']).get('C3')!.style;
    const { bytes } = pkg.applyWrites(
      [
        { tab: 'Questions', address: 'C3', value: null },
        { tab: 'Questions', address: 'Q77', value: null },
      ],
      { fullCalcOnLoad: false },
    );
    const after = XlsxPackage.open(bytes);
    expect(after.readCells('Questions', ['C3']).get('C3')).toMatchObject({ value: null, style });
    expect(comparePackages(pkg.zip.bytes, bytes).changedParts).toEqual(['xl/worksheets/sheet1.xml']);
  });

  it('gives a new cell the style of its formatted column', async () => {
    const bytes = await smallWorkbook((wb) => {
      wb.getWorksheet('Questions')!.getColumn('F').fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FF00FF00' } };
    });
    const pkg = XlsxPackage.open(bytes);
    const colStyle = pkg.readCells('Questions', ['F30']).get('F30')!.style;
    expect(colStyle).toBeGreaterThan(0);
    const out = XlsxPackage.open(pkg.applyWrites([{ tab: 'Questions', address: 'F30', value: 'green' }]).bytes);
    expect(out.readCells('Questions', ['F30']).get('F30')).toMatchObject({ value: 'green', style: colStyle });
  });

  it('handles namespace-prefixed sheets, an empty <sheetData/> and rows and cells without r', async () => {
    const input = patchZip(await smallWorkbook(), {
      'xl/worksheets/sheet1.xml': (x) =>
        x
          .replace(/<(\/?)([a-zA-Z]+)([\s>/])/g, (m, slash: string, name: string, after: string) => (name === 'xml' ? m : `<${slash}x:${name}${after}`))
          .replace('xmlns="', 'xmlns:x="'),
      'xl/worksheets/sheet2.xml': (x) => x.replace(/<sheetData>[\s\S]*<\/sheetData>/, '<sheetData/>'),
    });
    const pkg = XlsxPackage.open(input);
    expect(pkg.readCells('Questions', ['B2']).get('B2')!.value).toBe('Do you encrypt data at rest?');
    const { bytes } = pkg.applyWrites([
      { tab: 'Questions', address: 'C2', value: 'prefixed' },
      { tab: 'Lists', address: 'B3', value: 'into empty sheetData' },
    ]);
    const out = XlsxPackage.open(bytes);
    expect(out.readCells('Questions', ['C2']).get('C2')!.value).toBe('prefixed');
    expect(partText(bytes, 'xl/worksheets/sheet1.xml')).toContain('<x:c r="C2"');
    expect(out.readCells('Lists', ['B3']).get('B3')!.value).toBe('into empty sheetData');

    const implicit = patchZip(await smallWorkbook(), {
      'xl/worksheets/sheet2.xml': (x) =>
        x.replace(
          /<sheetData>[\s\S]*<\/sheetData>/,
          '<sheetData><row><c t="inlineStr"><is><t>a1</t></is></c><c t="inlineStr"><is><t>b1</t></is></c></row><row><c><v>2</v></c></row></sheetData>',
        ),
    });
    const p2 = XlsxPackage.open(implicit);
    expect(p2.readCells('Lists', ['B1', 'A2']).get('B1')!.value).toBe('b1');
    const out2 = XlsxPackage.open(
      p2.applyWrites([
        { tab: 'Lists', address: 'A1', value: 'new a1' },
        { tab: 'Lists', address: 'A4', value: 'a4' },
      ]).bytes,
    );
    const c = out2.readCells('Lists', ['A1', 'B1', 'A2', 'A4']);
    expect([c.get('A1')!.value, c.get('B1')!.value, c.get('A2')!.value, c.get('A4')!.value]).toEqual(['new a1', 'b1', 2, 'a4']);
  });
});

describe('bad input', () => {
  const code = (fn: () => unknown) => {
    try {
      fn();
    } catch (e) {
      if (isXlsxError(e)) return [e.code, e.message];
      throw e;
    }
    throw new Error('expected an XlsxError');
  };

  it('names each kind of wrong file', async () => {
    expect(code(() => XlsxPackage.open(new TextEncoder().encode('%PDF-1.7 ...'), 'a.pdf'))).toEqual([
      'not_zip',
      'a.pdf is not an .xlsx file (not a zip archive) (it is a PDF).',
    ]);
    expect(code(() => XlsxPackage.open(new Uint8Array(), 'e.xlsx'))[0]).toBe('not_zip');
    const { zipSync, strToU8 } = await import('fflate');
    const docx = zipSync({
      '[Content_Types].xml': strToU8('<Types/>'),
      '_rels/.rels': strToU8(
        '<Relationships><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
      ),
      'word/document.xml': strToU8('<w:document/>'),
    });
    expect(code(() => XlsxPackage.open(docx, 'd.xlsx'))).toEqual([
      'not_workbook',
      'd.xlsx is a zip archive but not an Excel workbook (it is a Word document).',
    ]);
    expect(code(() => XlsxPackage.open(zipSync({ 'hello.txt': strToU8('hi') }), 'z.xlsx'))[0]).toBe('not_workbook');
  });

  it('recognises encrypted workbooks and legacy .xls by their OLE container', () => {
    const [c1, m1] = code(() => XlsxPackage.open(oleFile('EncryptionInfo'), 'secret.xlsx'));
    expect(c1).toBe('encrypted');
    expect(m1).toMatch(/^secret.xlsx is a password-protected \(encrypted\) workbook/);
    const [c2, m2] = code(() => XlsxPackage.open(oleFile('Workbook'), 'old.xls'));
    expect(c2).toBe('legacy_xls');
    expect(m2).toMatch(/legacy Excel 97-2003 file \(\.xls\)/);
  });

  it('refuses zip bombs from declared sizes and from lying sizes', async () => {
    const { zipSync } = await import('fflate');
    const input = await smallWorkbook();
    const files = (await import('fflate')).unzipSync(input);
    files['xl/media/zeros.bin'] = new Uint8Array(64 * 1024 * 1024);
    const bomb = zipSync(files, { level: 9 });
    const [c1, m1] = code(() => XlsxPackage.open(bomb, 'bomb.xlsx'));
    expect(c1).toBe('zip_bomb');
    expect(m1).toMatch(/^bomb\.xlsx was refused as a possible zip bomb: part xl\/media\/zeros\.bin would inflate \d+ times/);

    // An entry that declares 100 bytes but inflates to megabytes.
    const liar = zipSync({ ...(await import('fflate')).unzipSync(input), 'xl/worksheets/sheet1.xml': new Uint8Array(4 * 1024 * 1024).fill(32) }, { level: 9 });
    const z = readZip(liar);
    const e = z.byName.get('xl/worksheets/sheet1.xml')!;
    const patched = liar.slice();
    const setU32 = (p: number, v: number) => new DataView(patched.buffer).setUint32(p, v, true);
    setU32(e.centralStart + 24, 100);
    setU32(e.localHeaderOffset + 22, 100);
    const pkg = XlsxPackage.open(patched, 'liar.xlsx');
    const [c2] = code(() => pkg.readCells('Questions', ['A1']));
    expect(c2).toBe('zip_bomb');
  });

  it('sniffs CSV only when a .csv/.tsv name allows it, and refuses other text the same way', () => {
    const text = new TextEncoder().encode('Question,Answer\nDo you?,Yes\n');
    expect(sniffSpreadsheet(text, '"q.csv"', { csvName: 'q.csv' })).toBe('csv');
    expect(sniffSpreadsheet(text, '"q.tsv"', { csvName: 'Q.TSV' })).toBe('csv');
    expect(code(() => sniffSpreadsheet(text, '"q.txt"', { csvName: 'q.txt' }))).toEqual([
      'not_zip',
      '"q.txt" is not an .xlsx file (not a zip archive) nor a .csv file. Upload the questionnaire as .xlsx or .csv.',
    ]);
    expect(code(() => XlsxPackage.open(text, 'q.csv'))).toEqual(['not_zip', 'q.csv is not an .xlsx file (not a zip archive).']);
    expect(code(() => sniffSpreadsheet(new Uint8Array(), 'e.csv', { csvName: 'e.csv' }))).toEqual([
      'not_zip',
      'e.csv is empty (0 bytes), not an .xlsx file or a CSV file.',
    ]);
  });

  it('reports a truncated archive as damaged', async () => {
    const input = await smallWorkbook();
    const [c] = code(() => XlsxPackage.open(input.subarray(0, input.length - 200), 'cut.xlsx'));
    expect(c).toBe('corrupt');
  });
});
