import { describe, expect, it } from 'vitest';
import { blankCells, XlsxPackage } from '../../src/xlsx';
import { comparePackages } from '../../src/xlsx/compare';
import { smallWorkbook } from './helpers';

describe('blankCells', () => {
  it('empties the cells, keeps their style, leaves formula cells and every other part alone', async () => {
    const bytes = await smallWorkbook();
    const blanked = blankCells(bytes, [
      { tab: 'Questions', address: '$C$3' },
      { tab: 'Questions', address: 'E2' }, // a formula: left alone
    ]);
    const before = XlsxPackage.open(bytes).readCells('Questions', ['C3', 'E2']);
    const after = XlsxPackage.open(blanked).readCells('Questions', ['C3', 'E2']);
    expect(before.get('C3')!.value).toBe('Yes');
    expect(after.get('C3')!.value).toBeNull();
    expect(after.get('C3')!.style).toBe(before.get('C3')!.style);
    expect(after.get('E2')!.hasFormula).toBe(true);
    const diff = comparePackages(bytes, blanked);
    expect(diff.changedParts).toEqual([XlsxPackage.open(bytes).findSheet('Questions')!.path]);
    expect(diff.cellChanges.map((c) => c.address)).toEqual(['C3']);
  });

  it('names a missing sheet', async () => {
    const bytes = await smallWorkbook();
    expect(() => blankCells(bytes, [{ tab: 'Nope', address: 'A1' }])).toThrow('sheet "Nope" not found in the workbook');
  });
});
