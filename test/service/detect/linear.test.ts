/**
 * Hostile worksheets read in linear time: 20,000 `<col min="1" max="16384">` (each once expanded to
 * 16,384 columns) and 50,000 unclosed `<dataValidation>` tags (a lazy regex rescanning the rest of the
 * sheet for each), each 5-8 KB zipped. Run in a worker with a budget far below what the old code took.
 */
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { spreadColumns } from '../../../src/service/detect/workbook';
import { withinBudget } from '../../budget';
import { addSimpleSheet, patchParts, toBytes } from './helpers';

const BUDGET_MS = 3_000;

async function sheetWith(insertBeforeSheetData: string, append = ''): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  addSimpleSheet(wb, 'Security', [['S-1', 'Is data encrypted at rest?', null, null]]);
  return patchParts(await toBytes(wb), (parts) => {
    const name = 'xl/worksheets/sheet1.xml';
    parts[name] = parts[name]!.replace(/<cols>[\s\S]*?<\/cols>/, '')
      .replace('<sheetData', `${insertBeforeSheetData}<sheetData`)
      .replace('</worksheet>', `${append}</worksheet>`);
  });
}

const GRID_PROBE = `(m, bytes) => {
  const wb = m.readWorkbook(bytes, 'hostile.xlsx');
  const g = wb.grid(wb.sheets[0]);
  return { hidden: g.hiddenCols.size, styled: g.colStyles.size, style: g.colStyles.get(16384), validations: g.validations.length };
}`;

describe('detect/workbook.ts on hostile sheets', () => {
  it('20,000 full-width <col> ranges: each column given once, the last range wins', async () => {
    const cols = `<cols>${'<col min="1" max="16384" width="0" style="1"/>'.repeat(19_999)}<col min="1" max="16384" style="2"/></cols>`;
    const grid = await withinBudget('src/service/detect/workbook.ts', GRID_PROBE, [await sheetWith(cols)], BUDGET_MS);
    expect(grid).toEqual({ hidden: 16_384, styled: 16_384, style: 2, validations: 0 });
  });

  it('50,000 unclosed <dataValidation> after the sheet data', async () => {
    const tags = `<dataValidations count="1"><dataValidation type="list" sqref="C2"><formula1>"Yes,No"</formula1></dataValidation>${'<dataValidation type="list" sqref="C2">'.repeat(50_000)}</dataValidations>`;
    const bytes = await sheetWith('', '');
    const hostile = patchParts(bytes, (parts) => {
      const name = 'xl/worksheets/sheet1.xml';
      parts[name] = parts[name]!.replace('</sheetData>', `</sheetData>${tags}`);
    });
    const grid = await withinBudget<{ validations: number }>('src/service/detect/workbook.ts', GRID_PROBE, [hostile], BUDGET_MS);
    // The closed one is read; the unclosed ones are not validations.
    expect(grid.validations).toBe(1);
  });

  it('spreadColumns(): the last range covering a column wins; bad ranges name no column', () => {
    const r = (min: number, max: number, id: string) => ({ min, max, id });
    const spread = spreadColumns(
      [r(1, 3, 'a'), r(2, 2, 'b'), r(NaN, 4, 'nan'), r(1.5, 4, 'frac'), r(5, 4, 'empty'), r(0, 1, 'zero'), r(16_000, 99_999, 'wide')],
      16_384,
    );
    expect(
      [...spread]
        .filter(([c]) => c < 10)
        .sort((x, y) => x[0] - y[0])
        .map(([c, v]) => `${c}${v.id}`),
    ).toEqual(['1zero', '2b', '3a']);
    expect(spread.get(16_384)?.id).toBe('wide');
    expect(spread.size).toBe(3 + 385);
  });
});
