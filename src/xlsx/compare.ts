/**
 * The damage check: what differs between a workbook and its filled copy, part by part and, inside
 * changed worksheets, cell by cell. Used by the tests and by `npm run eval:fill`.
 */
import { XlsxPackage } from './package';
import { attributes, decodeXmlPart, rootPrefix } from './xml';
import { layoutSheet, rowCells } from './sheet-scan';

export interface CellChange {
  tab: string;
  address: string;
  before: string | null;
  after: string | null;
  /** The `s` attribute before and after (null when absent). */
  styleBefore: string | null;
  styleAfter: string | null;
  formulaBefore: boolean;
  formulaAfter: boolean;
}

export interface PackageDiff {
  /** Parts whose uncompressed bytes differ. */
  changedParts: string[];
  addedParts: string[];
  removedParts: string[];
  /** Entry order identical. */
  sameOrder: boolean;
  /** Changed worksheet parts whose text outside `<sheetData>` differs (validations, merges, formats...). */
  sheetsChangedOutsideData: string[];
  cellChanges: CellChange[];
  /** Rows whose own attributes changed (height, style...), as "tab!row". */
  rowAttributeChanges: string[];
}

const equalBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((v, i) => v === b[i]);

interface SheetCells {
  cells: Map<string, string>;
  rows: Map<number, string>;
  outside: string;
}

function sheetCells(xml: string, part: string): SheetCells {
  const prefix = rootPrefix(xml, 'worksheet');
  const layout = layoutSheet(xml, prefix, part);
  const cells = new Map<string, string>();
  const rows = new Map<number, string>();
  for (const row of layout.rows) {
    rows.set(row.r, xml.slice(row.start, row.openEnd).replace(/\s*\/?>$/, ''));
    for (const c of rowCells(xml, row, prefix, part)) cells.set(c.address, xml.slice(c.start, c.end));
  }
  const dataEnd = layout.dataClose < 0 ? layout.dataOpenEnd : layout.dataClose;
  const outside = xml.slice(0, layout.dataStart) + xml.slice(dataEnd).replace(/^<\/[\w.:-]*sheetData>/, '');
  return { cells, rows, outside };
}

const styleOf = (el: string | undefined) => (el ? (attributes(el.slice(0, el.indexOf('>') + 1)).get('s') ?? null) : null);
const hasFormula = (el: string | undefined) => (el ? /<(?:[\w.-]+:)?f[\s>/]/.test(el) : false);

export function comparePackages(beforeBytes: Uint8Array, afterBytes: Uint8Array): PackageDiff {
  const before = XlsxPackage.open(beforeBytes, 'The original');
  const after = XlsxPackage.open(afterBytes, 'The filled copy');
  const a = before.partNames();
  const b = after.partNames();
  const bSet = new Set(b);
  const aSet = new Set(a);
  const diff: PackageDiff = {
    changedParts: [],
    addedParts: b.filter((n) => !aSet.has(n)),
    removedParts: a.filter((n) => !bSet.has(n)),
    sameOrder: a.length === b.length && a.every((n, i) => n === b[i]),
    sheetsChangedOutsideData: [],
    cellChanges: [],
    rowAttributeChanges: [],
  };
  const sheetByPath = new Map(before.sheets.filter((s) => s.kind === 'worksheet').map((s) => [s.path, s.name]));
  for (const name of a) {
    if (!bSet.has(name)) continue;
    const x = before.part(name);
    const y = after.part(name);
    if (equalBytes(x, y)) continue;
    diff.changedParts.push(name);
    const tab = sheetByPath.get(name);
    if (tab === undefined) continue;
    const s1 = sheetCells(decodeXmlPart(x, name), name);
    const s2 = sheetCells(decodeXmlPart(y, name), name);
    if (s1.outside !== s2.outside) diff.sheetsChangedOutsideData.push(name);
    for (const [r, attrs] of s1.rows) {
      const other = s2.rows.get(r);
      if (other !== undefined && other !== attrs) diff.rowAttributeChanges.push(`${tab}!${r}`);
    }
    for (const address of new Set([...s1.cells.keys(), ...s2.cells.keys()])) {
      const c1 = s1.cells.get(address);
      const c2 = s2.cells.get(address);
      if (c1 === c2) continue;
      diff.cellChanges.push({
        tab,
        address,
        before: c1 ?? null,
        after: c2 ?? null,
        styleBefore: styleOf(c1),
        styleAfter: styleOf(c2),
        formulaBefore: hasFormula(c1),
        formulaAfter: hasFormula(c2),
      });
    }
  }
  return diff;
}
