import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import ExcelJS from 'exceljs';
import { afterEach, describe, expect, it } from 'vitest';
import { readOpenWorkbook } from '../../../src/excel/read-file';
import { installExcelHost } from '../../../src/workbench/host';
import { hostToXlsx, loadXlsxIntoHost } from '../../../src/workbench/host/load-xlsx';
import { XlsxPackage } from '../../../src/xlsx';
import { comparePackages } from '../../../src/xlsx/compare';
import { sheetContents } from '../../../src/xlsx/sheet-contents';

const HECVAT = resolve(__dirname, '../../../../shared/fixtures/questionnaires/hecvat-full-2.11-portfolium-completed.xlsx');

let uninstall: (() => void) | null = null;
afterEach(() => {
  uninstall?.();
  uninstall = null;
});

async function sampleWorkbook(): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Questions');
  ws.getCell('A1').value = 'Id';
  ws.getCell('B1').value = 'Question';
  ws.getCell('C1').value = 'Answer';
  ws.getCell('A2').value = 'Q-1';
  ws.getCell('B2').value = { formula: 'Lookup!A1', result: 'Do you encrypt data?' } as ExcelJS.CellFormulaValue;
  ws.getCell('C2').protection = { locked: false };
  ws.getCell('C2').dataValidation = { type: 'list', allowBlank: true, formulae: ['"Yes,No,NA"'] };
  ws.getCell('C2').fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFEEF3F8' } };
  ws.getCell('D2').value = 42;
  ws.getCell('D2').numFmt = '0.00';
  ws.getCell('E2').value = 'has a note';
  ws.getCell('E2').note = 'Analyst note';
  ws.mergeCells('B4:D4');
  ws.getCell('B4').value = 'Section';
  await ws.protect('', { formatCells: false });
  const hidden = wb.addWorksheet('Lookup', { state: 'hidden' });
  hidden.getCell('A1').value = 'Do you encrypt data?';
  return new Uint8Array((await wb.xlsx.writeBuffer()) as ArrayBuffer);
}

describe('loadXlsxIntoHost', () => {
  it('loads values, cached formulas, formats, fills, locks, protection, merges, validations, notes, hidden sheets', async () => {
    const host = await loadXlsxIntoHost(await sampleWorkbook());
    const q = host.sheet('Questions');
    expect(host.sheets.map((s) => [s.name, s.visibility])).toEqual([
      ['Questions', 'Visible'],
      ['Lookup', 'Hidden'],
    ]);
    expect(q.protection).toMatchObject({ protected: true, allowFormatCells: false });
    expect(host.getCell('Questions', 'B2')).toMatchObject({ formula: '=Lookup!A1', value: 'Do you encrypt data?', locked: true });
    expect(host.getCell('Questions', 'C2')).toMatchObject({ value: null, locked: false, fill: '#EEF3F8' });
    expect(host.getCell('Questions', 'D2')).toMatchObject({ value: 42, numberFormat: '0.00' });
    expect(q.merges.map((m) => [m.top, m.left, m.rowCount, m.columnCount])).toEqual([[4, 2, 1, 3]]);
    expect(q.validations).toEqual([{ range: 'C2', type: 'list', source: 'Yes,No,NA' }]);
    expect(host.snapshot().sheets[0]!.notes).toEqual({ E2: 'Analyst note' });
  });

  it('serves the same bytes through getFileAsync and reads values through Office.js', async () => {
    const bytes = await sampleWorkbook();
    const host = await loadXlsxIntoHost(bytes);
    expect(host.fileBytes).toEqual(bytes);
    uninstall = installExcelHost(host);
    await Excel.run(async (context) => {
      const range = context.workbook.worksheets.getItem('Questions').getRange('B2:C2');
      range.load('values, formulas');
      range.dataValidation.load('rule');
      const c2 = context.workbook.worksheets.getItem('Questions').getRange('C2');
      c2.dataValidation.load('type, rule');
      await context.sync();
      expect(range.values).toEqual([['Do you encrypt data?', '']]);
      expect(range.formulas).toEqual([['=Lookup!A1', '']]);
      expect(c2.dataValidation.type).toBe('List');
      expect(c2.dataValidation.rule.list?.source).toBe('Yes,No,NA');
    });
  });

  it('serves the workbook as it is now through getFileAsync, as Excel does for a saved document', async () => {
    const host = await loadXlsxIntoHost(await sampleWorkbook());
    uninstall = installExcelHost(host);
    const before = await readOpenWorkbook({ sliceSize: 4096 });
    expect(sheetContents(XlsxPackage.open(before.bytes, 'before'), 'Questions').cells.find((c) => c.row === 2 && c.column === 3)?.value || null).toBeNull();
    await Excel.run(async (context) => {
      context.workbook.worksheets.getItem('Questions').getRange('C2').values = [['Yes']];
      await context.sync();
    });
    const after = await readOpenWorkbook({ sliceSize: 4096 });
    const c2 = sheetContents(XlsxPackage.open(after.bytes, 'after'), 'Questions').cells.find((c) => c.row === 2 && c.column === 3);
    expect(c2?.value).toBe('Yes');
    expect(host.stats.filesClosed).toBe(2);
  });

  it('exports changed cells into the original file and keeps the rest', async () => {
    const host = await loadXlsxIntoHost(await sampleWorkbook());
    uninstall = installExcelHost(host);
    await Excel.run(async (context) => {
      context.workbook.worksheets.getItem('Questions').getRange('C2').values = [["'=1+1"]];
      await context.sync();
    });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await hostToXlsx(host)).bytes as never);
    const ws = wb.getWorksheet('Questions')!;
    expect(ws.getCell('C2').value).toBe('=1+1');
    expect(ws.getCell('B2').formula).toBe('Lookup!A1');
    expect(ws.getCell('C2').dataValidation).toMatchObject({ type: 'list' });
    expect(wb.getWorksheet('Lookup')!.state).toBe('hidden');
  });

  it('rejects bytes that are not a workbook with a clear message', async () => {
    await expect(loadXlsxIntoHost(new TextEncoder().encode('not a zip'))).rejects.toThrow(/Could not read the workbook as \.xlsx/);
  });
});

describe('the workbench download (src/xlsx, lossless)', () => {
  it('keeps every part of a real questionnaire (chart, pivot table, x14 dropdowns) and changes only the edited cells', async () => {
    if (!existsSync(HECVAT)) throw new Error(`Fixture missing: ${HECVAT} (see ../shared/fixtures/README.md).`);
    const original = new Uint8Array(readFileSync(HECVAT));
    const parts = XlsxPackage.open(original).partNames();
    // What makes this file a test of losslessness: ExcelJS drops these.
    expect(parts.some((p) => p.startsWith('xl/charts/'))).toBe(true);
    expect(parts.some((p) => p.startsWith('xl/pivotTables/'))).toBe(true);
    const sheet = 'HECVAT - Full';
    const pkg = XlsxPackage.open(original);
    expect(pkg.xmlText(pkg.findSheet(sheet)!.path)).toContain('<x14:dataValidation ');
    const x14 = sheetContents(pkg, sheet).validations.length;
    expect(x14).toBeGreaterThan(0);

    const host = await loadXlsxIntoHost(original, { fileName: 'hecvat.xlsx' });
    expect(host.sheet(sheet).validations).toHaveLength(x14);
    uninstall = installExcelHost(host);
    const answerCell = host
      .sheet(sheet)
      .validations.find((v) => v.type === 'list')!
      .range.split(/[\s:]/)[0]!;
    // A comment cell outside every merged area (most of this sheet's D column is merged).
    const merged = (row: number) => host.sheet(sheet).merges.some((m) => row >= m.top && row < m.top + m.rowCount && 4 >= m.left && 4 < m.left + m.columnCount);
    let row = 20;
    while (merged(row) || host.getCell(sheet, `D${row}`).formula) row++;
    const note = `D${row}`;
    await Excel.run(async (context) => {
      const ws = context.workbook.worksheets.getItem(sheet);
      ws.getRange(answerCell).values = [['Yes']];
      ws.getRange(note).values = [['Answered in the workbench: 42% of it, with <tags> & quotes "here".']];
      ws.getRange(note).format.fill.color = '#C6EFCE';
      await context.sync();
    });

    const out = await hostToXlsx(host);
    expect(out.notCarried).toEqual([]);
    const sheetPath = pkg.findSheet(sheet)!.path;
    expect(out.changedParts.sort()).toEqual([sheetPath, 'xl/styles.xml', 'xl/workbook.xml'].sort());
    const diff = comparePackages(original, out.bytes);
    expect(diff.addedParts).toEqual([]);
    expect(diff.removedParts).toEqual([]);
    expect(diff.sameOrder).toBe(true);
    expect(diff.changedParts.sort()).toEqual([sheetPath, 'xl/styles.xml', 'xl/workbook.xml'].sort());
    expect(diff.sheetsChangedOutsideData).toEqual([]);
    expect(diff.cellChanges.map((c) => c.address).sort()).toEqual([answerCell, note].sort());

    // Read back: the values, the new fill, and everything else as it was.
    const back = await loadXlsxIntoHost(out.bytes);
    expect(back.getCell(sheet, answerCell).value).toBe('Yes');
    expect(back.getCell(sheet, note)).toMatchObject({ value: 'Answered in the workbench: 42% of it, with <tags> & quotes "here".', fill: '#C6EFCE' });
    expect(back.sheet(sheet).validations).toEqual(host.sheet(sheet).validations);
    const { cells: _a, ...restAfter } = back.snapshot().sheets.find((s) => s.name === sheet)!;
    const { cells: _b, ...restBefore } = host.snapshot().sheets.find((s) => s.name === sheet)!;
    expect(restAfter).toEqual(restBefore);
  });

  it("holds the fill's notes and comments as the file's notes, and everything else unchanged", async () => {
    if (!existsSync(HECVAT)) throw new Error(`Fixture missing: ${HECVAT} (see ../shared/fixtures/README.md).`);
    const original = new Uint8Array(readFileSync(HECVAT));
    const sheet = 'HECVAT - Full';
    const host = await loadXlsxIntoHost(original, { fileName: 'hecvat.xlsx' });
    const notesBefore = host.snapshot().sheets.find((s) => s.name === sheet)!.notes;
    uninstall = installExcelHost(host);
    const cells = ['E20', 'E21', 'E22', 'H30'];
    await Excel.run(async (context) => {
      const ws = context.workbook.worksheets.getItem(sheet);
      ws.notes.add(`${sheet}!${cells[0]}`, 'Source: security-overview.pdf, page 3\n"Data is encrypted at rest (AES-256)."');
      ws.notes.add(`${sheet}!${cells[1]}`, 'Source: backup-policy.docx & <runbook>');
      context.workbook.comments.add(`${sheet}!${cells[2]}`, 'A comment, where notes are not supported');
      ws.notes.add(`${sheet}!${cells[3]}`, 'Another');
      await context.sync();
    });
    const out = await hostToXlsx(host);
    expect(out.notCarried).toEqual([]);

    const back = await loadXlsxIntoHost(out.bytes);
    const notes = back.snapshot().sheets.find((s) => s.name === sheet)!.notes;
    expect(notes).toEqual({
      ...notesBefore,
      E20: 'Source: security-overview.pdf, page 3\n"Data is encrypted at rest (AES-256)."',
      E21: 'Source: backup-policy.docx & <runbook>',
      E22: 'A comment, where notes are not supported',
      H30: 'Another',
    });
    // Every cell, merge, dropdown and the other sheets as they were.
    const strip = (s: ReturnType<typeof host.snapshot>) => s.sheets.map(({ notes: _n, comments: _c, ...rest }) => rest);
    expect(strip(back.snapshot())).toEqual(strip(host.snapshot()));
    const diff = comparePackages(original, out.bytes);
    expect(diff.removedParts).toEqual([]);
    expect(diff.cellChanges).toEqual([]);
    const pkg = XlsxPackage.open(original);
    const sheetPath = pkg.findSheet(sheet)!.path;
    for (const part of diff.changedParts) expect(part === sheetPath || part === '[Content_Types].xml' || /comments|vmlDrawing|_rels\//.test(part)).toBe(true);
    for (const part of diff.addedParts) expect(part).toMatch(/comments\d+\.xml$|vmlDrawing\d+\.vml$|_rels\/sheet\d+\.xml\.rels$/);
    const after = XlsxPackage.open(out.bytes).xmlText(sheetPath);
    expect(after.replace(/<legacyDrawing [^>]*\/>/, '')).toBe(pkg.xmlText(sheetPath).replace(/<legacyDrawing [^>]*\/>/, ''));
  });

  it('a workbook not edited downloads as the file it was', async () => {
    const bytes = await sampleWorkbook();
    const out = await hostToXlsx(await loadXlsxIntoHost(bytes));
    expect(out.changedParts).toEqual([]);
    expect(Buffer.from(out.bytes).equals(Buffer.from(bytes))).toBe(true);
  });

  it('says what it cannot carry: edits of formula cells', async () => {
    const host = await loadXlsxIntoHost(await sampleWorkbook());
    host.setCell('Questions', 'B2', { formula: null, value: 'typed over' });
    const out = await hostToXlsx(host);
    expect(out.notCarried).toEqual(['1 edited formula cell (formulas are never overwritten)']);
    expect(out.changedParts).toEqual([]);
  });
});
