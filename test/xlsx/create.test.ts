// createWorkbook: a new package the project's reader and a third party (ExcelJS) both read as written.
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { XlsxPackage } from '../../src/xlsx';
import { createWorkbook } from '../../src/xlsx/create';
import { activeSheetIndex, sheetContents } from '../../src/xlsx/sheet-contents';
import { cellFormats } from '../../src/xlsx/styles';

const book = () =>
  createWorkbook({
    sheets: [
      { name: 'Intro', cells: { A1: { value: 'Title', bold: true, size: 14 } } },
      {
        name: 'Q & A <1>',
        cells: {
          A1: { value: 'Section', bold: true, fill: '#DDEBF7' },
          B2: { value: 'Do you encrypt? <yes> & "no"', wrap: true },
          C2: 'Yes',
          D2: 42,
          E2: { value: true },
          C9: { formula: 'COUNTA(C2:C8)', value: 1 },
        },
        merges: ['A1:D1'],
        widths: { 2: 70 },
        lists: [{ sqref: 'C2:C8', source: 'Lists!$A$1:$A$2' }],
        frozenRows: 1,
      },
      { name: 'Lists', hidden: true, cells: { A1: 'Yes', A2: 'No' } },
    ],
    activeSheet: 1,
  });

describe('createWorkbook', () => {
  it('writes cells, styles, merges, dropdowns, hidden sheets and the active tab that src/xlsx reads back', () => {
    const pkg = XlsxPackage.open(book());
    expect(pkg.sheets.map((s) => [s.name, s.state])).toEqual([
      ['Intro', 'visible'],
      ['Q & A <1>', 'visible'],
      ['Lists', 'hidden'],
    ]);
    expect(pkg.sheets[activeSheetIndex(pkg)]!.name).toBe('Q & A <1>');
    const sheet = sheetContents(pkg, 'Q & A <1>');
    const at = (row: number, col: number) => sheet.cells.find((c) => c.row === row && c.column === col)!;
    expect([at(2, 2).value, at(2, 3).value, at(2, 4).value, at(2, 5).value]).toEqual(['Do you encrypt? <yes> & "no"', 'Yes', 42, true]);
    expect(at(9, 3)).toMatchObject({ formula: '=COUNTA(C2:C8)', value: 1 });
    expect(sheet.merges).toEqual([{ top: 1, left: 1, bottom: 1, right: 4 }]);
    expect(sheet.validations).toEqual([{ ranges: [{ top: 2, left: 3, bottom: 8, right: 3 }], type: 'list', formula1: 'Lists!$A$1:$A$2' }]);
    const formats = cellFormats(pkg.xmlText('xl/styles.xml'));
    expect(formats[at(1, 1).style]).toMatchObject({ fill: '#DDEBF7' });
    expect(pkg.cellStyles()[at(1, 1).style]!.bold).toBe(true);
    expect(at(2, 3).style).toBe(0);
  });

  it('opens in ExcelJS as written', async () => {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(book()) as never);
    const ws = wb.getWorksheet('Q & A <1>')!;
    expect(ws.getCell('B2').value).toBe('Do you encrypt? <yes> & "no"');
    expect(ws.getCell('C9').formula).toBe('COUNTA(C2:C8)');
    expect(ws.getCell('C5').dataValidation).toMatchObject({ type: 'list', formulae: ['Lists!$A$1:$A$2'] });
    expect(ws.getColumn(2).width).toBe(70);
    expect(wb.getWorksheet('Lists')!.state).toBe('hidden');
  });
});
