import { describe, expect, it } from 'vitest';
import { shiftReference, singleCellReference } from '../../src/xlsx/formula-ref';

describe('singleCellReference: the one cell a formula shows', () => {
  it('reads a reference to another sheet, quoted or not, with or without $', () => {
    expect(singleCellReference("'START HERE'!C19")).toMatchObject({ sheet: 'START HERE', row: 19, column: 3, rowAbsolute: false, colAbsolute: false });
    expect(singleCellReference("'START HERE'!$C$19")).toMatchObject({ sheet: 'START HERE', row: 19, column: 3, rowAbsolute: true, colAbsolute: true });
    expect(singleCellReference('Lists!AB7')).toMatchObject({ sheet: 'Lists', row: 7, column: 28 });
    expect(singleCellReference("'Vendor''s Tab'!A1")).toMatchObject({ sheet: "Vendor's Tab", row: 1, column: 1 });
    expect(singleCellReference('C5')).toMatchObject({ sheet: null, row: 5, column: 3 });
  });

  it('reads a formula that only wraps that one cell (blank when empty, text join)', () => {
    expect(singleCellReference(`IF('START HERE'!C19="","",'START HERE'!$C$19)`)).toMatchObject({ sheet: 'START HERE', row: 19, column: 3 });
    expect(singleCellReference(`'START HERE'!C19&""`)).toMatchObject({ sheet: 'START HERE', row: 19 });
    expect(singleCellReference(`IF(ISBLANK(Intro!B4),"N/A C1",Intro!B4)`)).toMatchObject({ sheet: 'Intro', row: 4, column: 2 });
  });

  it('is null for formulas that compute from more than one cell, a range, a name or another workbook', () => {
    expect(singleCellReference(`IF(Questions!C2="Yes",1,0)`)).toMatchObject({ sheet: 'Questions', row: 2 });
    expect(singleCellReference(`IF(C5="Yes",'START HERE'!C19,"")`)).toBeNull();
    expect(singleCellReference('SUM(C2:C9)')).toBeNull();
    expect(singleCellReference('VendorName')).toBeNull();
    expect(singleCellReference('IF(VendorName="","",VendorName)')).toBeNull();
    expect(singleCellReference('[1]Sheet1!A1')).toBeNull();
    expect(singleCellReference('TODAY()')).toBeNull();
    expect(singleCellReference('"C19"')).toBeNull();
    expect(singleCellReference('LOG10(100)')).toBeNull();
  });

  it("shifts a shared formula's relative parts to its copy", () => {
    const first = singleCellReference("'START HERE'!C19")!;
    expect(shiftReference(first, 5, 3, 8, 3)).toMatchObject({ sheet: 'START HERE', row: 22, column: 3 });
    const fixedColumn = singleCellReference("'START HERE'!$C19")!;
    expect(shiftReference(fixedColumn, 5, 3, 6, 4)).toMatchObject({ row: 20, column: 3 });
    // Shifted left of column A: no cell.
    expect(shiftReference(singleCellReference('A$1')!, 5, 3, 9, 2)).toBeNull();
    expect(shiftReference(singleCellReference('B$1')!, 5, 3, 9, 2)).toMatchObject({ row: 1, column: 1 });
  });
});
