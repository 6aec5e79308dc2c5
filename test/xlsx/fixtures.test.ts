/**
 * The writer on the real questionnaires: blank the completed ones, write every answer cell, and
 * check that nothing else in the package moved.
 */
import { describe, expect, it } from 'vitest';
import { XlsxPackage } from '../../src/xlsx';
import { comparePackages } from '../../src/xlsx/compare';
import { FIXTURES, answerCells, blankFixture, partText } from './helpers';

describe.each(FIXTURES)('writing every answer cell of $file', (fx) => {
  it('changes only those cells, keeps their styles, and leaves every other part byte-identical', () => {
    const input = blankFixture(fx);
    const pkg = XlsxPackage.open(input, fx.file);
    const targets = answerCells(pkg, fx);
    expect(targets.length).toBeGreaterThan(50);
    const before = pkg.readCells(fx.answerTab, targets);
    const sheetPath = pkg.findSheet(fx.answerTab)!.path;
    const writes = targets.map((address, i) => ({ tab: fx.answerTab, address, value: i % 2 ? `Note <${i}> & "more"\nsecond line` : 'Yes' }));

    const { bytes } = pkg.applyWrites(writes);
    const diff = comparePackages(input, bytes);
    expect(diff.changedParts.sort()).toEqual([pkg.workbookPath, sheetPath].sort());
    expect(diff.addedParts).toEqual([]);
    expect(diff.removedParts).toEqual([]);
    expect(diff.sameOrder).toBe(true);
    // Validations (x14 included), merges, conditional formats, protection, views: all outside sheetData.
    expect(diff.sheetsChangedOutsideData).toEqual([]);
    expect(diff.rowAttributeChanges).toEqual([]);
    expect(diff.cellChanges.map((c) => c.address).sort()).toEqual([...targets].sort());
    for (const change of diff.cellChanges) {
      expect(change.formulaBefore || change.formulaAfter).toBe(false);
      expect(change.styleAfter).toBe(change.styleBefore ?? (before.get(change.address)!.style ? String(before.get(change.address)!.style) : null));
    }
    // workbook.xml: only the recalculation request differs (defined names, views, protection kept).
    const strip = (x: string) => x.replace(/ fullCalcOnLoad="1"/, '').replace('<calcPr/>', '');
    expect(strip(partText(bytes, pkg.workbookPath))).toBe(strip(partText(input, pkg.workbookPath)));

    const after = XlsxPackage.open(bytes).readCells(fx.answerTab, targets);
    writes.forEach((w) => expect(after.get(w.address)!.value).toBe(w.value));
  });
});
