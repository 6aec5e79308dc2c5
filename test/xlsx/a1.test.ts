import { describe, expect, it } from 'vitest';
import { columnToLetters, lettersToColumn, normaliseAddress, parseA1, parseA1Range, toA1, toA1Range, quoteSheetName } from '../../src/xlsx/a1';

describe('A1 helpers', () => {
  it('converts columns both ways at the edges', () => {
    const table: [number, string][] = [
      [1, 'A'],
      [26, 'Z'],
      [27, 'AA'],
      [52, 'AZ'],
      [53, 'BA'],
      [702, 'ZZ'],
      [703, 'AAA'],
      [16384, 'XFD'],
    ];
    for (const [n, letters] of table) {
      expect(columnToLetters(n)).toBe(letters);
      expect(lettersToColumn(letters)).toBe(n);
      expect(lettersToColumn(letters.toLowerCase())).toBe(n);
    }
    expect(lettersToColumn('XFE')).toBeNull();
    expect(lettersToColumn('A1')).toBeNull();
    expect(() => columnToLetters(0)).toThrow(/column number 0/);
  });

  it('parses plain, absolute, sheet-qualified and range references (top-left of a range)', () => {
    expect(parseA1('C5')).toEqual({ sheet: null, row: 5, column: 3 });
    expect(parseA1('$C$5')).toEqual({ sheet: null, row: 5, column: 3 });
    expect(parseA1('Sheet1!$C$5')).toEqual({ sheet: 'Sheet1', row: 5, column: 3 });
    expect(parseA1("'My ''Big'' Sheet'!c5")).toEqual({ sheet: "My 'Big' Sheet", row: 5, column: 3 });
    expect(parseA1('C5:D5')).toEqual({ sheet: null, row: 5, column: 3 });
    expect(parseA1('D7:C5')).toEqual({ sheet: null, row: 5, column: 3 });
    expect(parseA1('HECVAT - Lite | Vendor Response!C24')).toEqual({ sheet: 'HECVAT - Lite | Vendor Response', row: 24, column: 3 });
  });

  it('rejects what is not an A1 cell', () => {
    for (const bad of ['', 'C', '5', 'R1C1', 'YesNo', 'C0', 'XFE1', 'C1048577', 'C5:D5:E5', 'A1B2']) expect(parseA1(bad), bad).toBeNull();
  });

  it('normalises and formats', () => {
    expect(normaliseAddress('Sheet!$c$5:d9')).toBe('C5');
    expect(toA1(263, 3)).toBe('C263');
    expect(toA1Range(3, 3, 261, 2)).toBe('C3:D263');
    expect(toA1Range(3, 3, 1, 1)).toBe('C3');
    expect(parseA1Range('B2:D4')).toEqual({ sheet: null, top: 2, left: 2, rowCount: 3, columnCount: 3 });
    expect(quoteSheetName('Sheet1')).toBe('Sheet1');
    expect(quoteSheetName('My Sheet')).toBe("'My Sheet'");
    expect(quoteSheetName("Bob's")).toBe("'Bob''s'");
    expect(quoteSheetName('AB12')).toBe("'AB12'");
  });
});
