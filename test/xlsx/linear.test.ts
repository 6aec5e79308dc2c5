/**
 * The XML scanning of src/xlsx stays linear on hostile parts: each input below is a few kilobytes
 * zipped and took the earlier lazy regexes from seconds to minutes (every unclosed tag rescanned the
 * rest of the part). Each call runs in a worker with a budget far below what the old code needed.
 */
import { describe, expect, it } from 'vitest';
import { withinBudget } from '../budget';

const BUDGET_MS = 2_000;
const N = 50_000;

describe('src/xlsx scanning is linear in hostile input', () => {
  it('elements(): 50,000 unclosed <dataValidation> tags, then one closed one', async () => {
    const xml = `<dataValidations>${'<dataValidation type="list" sqref="A1">'.repeat(N)}<x:dataValidation sqref="B2"/></dataValidations>`;
    const found = await withinBudget<string[]>(
      'src/xlsx/xml.ts',
      '(m, xml) => m.elements(xml, "dataValidation").map((e) => e.attrs.get("sqref"))',
      [xml],
      BUDGET_MS,
    );
    expect(found).toEqual(['B2']);
  });

  it('parseSharedStrings(): 50,000 unclosed <si>, and a <si> holding 50,000 unclosed <t>', async () => {
    const unclosedSi = `<sst><si><t>first</t></si>${'<si>'.repeat(N)}</sst>`;
    expect(await withinBudget('src/xlsx/workbook-parts.ts', '(m, xml) => m.parseSharedStrings(xml)', [unclosedSi], BUDGET_MS)).toEqual(['first']);
    const unclosedT = `<sst><si>${'<t>'.repeat(N)}</si><si><t>two</t></si></sst>`;
    expect(await withinBudget('src/xlsx/workbook-parts.ts', '(m, xml) => m.parseSharedStrings(xml)', [unclosedT], BUDGET_MS)).toEqual(['', 'two']);
  });

  it('richText(): 50,000 unclosed phonetic runs', async () => {
    const xml = `${'<rPh sb="0">'.repeat(N)}<t>kept</t>`;
    expect(await withinBudget('src/xlsx/xml.ts', '(m, xml) => m.richText(xml, "")', [xml], BUDGET_MS)).toBe('kept');
  });

  it('attributes(): a 200,000-character attribute name without a value', async () => {
    const tag = `<c ${'a'.repeat(200_000)} r="A1">`;
    expect(await withinBudget('src/xlsx/xml.ts', '(m, tag) => m.attributes(tag).get("r")', [tag], BUDGET_MS)).toBe('A1');
  });

  it('start tags without a closing ">": relationships, merges, columns, protection, bold fonts', async () => {
    const many = (tag: string) => `${tag} `.repeat(N);
    const results = await withinBudget<unknown[]>(
      ['src/xlsx/workbook-parts.ts', 'src/xlsx/sheet-scan.ts'],
      `([p, s], parts, sheet, cols, styles) =>
        [p.parseRelationships(parts).length, p.parseMergeRefs(sheet, '').length, p.isSheetProtected(sheet, ''), s.parseColumns(cols, '').length, p.parseCellStyles(styles).length]`,
      [
        many('<Relationship'),
        many('<mergeCell') + many('<sheetProtection'),
        `<cols>${many('<col')}</cols>`,
        `<fonts><font>${many('<b')}</font></fonts><cellXfs><xf fontId="0"/></cellXfs>`,
      ],
      BUDGET_MS,
    );
    expect(results).toEqual([0, 0, false, 0, 1]);
  });

  it('number formats: 50,000 unclosed "[" in a formatCode', async () => {
    const styles = `<numFmts><numFmt numFmtId="164" formatCode="${'['.repeat(N)}yyyy"/></numFmts><cellXfs><xf numFmtId="164"/></cellXfs>`;
    const s = await withinBudget<{ isDate: boolean }[]>('src/xlsx/workbook-parts.ts', '(m, xml) => m.parseCellStyles(xml)', [styles], BUDGET_MS);
    expect(s.map((x) => x.isDate)).toEqual([true]);
  });
});
