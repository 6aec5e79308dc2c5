import ExcelJS from 'exceljs';
import { afterEach, describe, expect, it } from 'vitest';
import { installExcelHost } from '../../../src/workbench/host';
import { hostToXlsx, loadXlsxIntoHost } from '../../../src/workbench/host/load-xlsx';

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
    expect(host.sheets.map((s) => [s.name, s.visibility])).toEqual([['Questions', 'Visible'], ['Lookup', 'Hidden']]);
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

  it('exports changed cells into the original file and keeps the rest', async () => {
    const host = await loadXlsxIntoHost(await sampleWorkbook());
    uninstall = installExcelHost(host);
    await Excel.run(async (context) => {
      context.workbook.worksheets.getItem('Questions').getRange('C2').values = [["'=1+1"]];
      await context.sync();
    });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await hostToXlsx(host)) as never);
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
