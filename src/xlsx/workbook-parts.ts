/**
 * Reading the workbook's map: which part is the workbook, its sheets by name and the part of each,
 * the styles and shared strings parts; plus the one edit made to workbook.xml (recalculate on open).
 */
import { attributeByLocalName, attributes, decodeEntities, elements, firstElement, firstStartTag, richText, startTags, tagEnd, textElements } from './xml';

export type SheetKind = 'worksheet' | 'chartsheet' | 'dialogsheet' | 'macrosheet' | 'other';

export interface SheetInfo {
  name: string;
  sheetId: number;
  kind: SheetKind;
  state: 'visible' | 'hidden' | 'veryHidden';
  /** Zip entry name of the sheet part, '' when the relationship is missing. */
  path: string;
}

export interface Relationship {
  id: string;
  type: string;
  target: string;
  external: boolean;
}

export function parseRelationships(xml: string): Relationship[] {
  const out: Relationship[] = [];
  for (const tag of startTags(xml, 'Relationship', undefined)) {
    const a = attributes(tag);
    out.push({
      id: a.get('Id') ?? '',
      type: a.get('Type') ?? '',
      target: a.get('Target') ?? '',
      external: a.get('TargetMode') === 'External',
    });
  }
  return out;
}

/** `_rels` part name for a part: `xl/workbook.xml` → `xl/_rels/workbook.xml.rels`. */
export function relsPathFor(part: string): string {
  const slash = part.lastIndexOf('/');
  return `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`;
}

/** Resolves a relationship target against the part that owns the relationship. */
export function resolveTarget(fromPart: string, target: string): string {
  const raw = target.startsWith('/') ? target.slice(1) : `${fromPart.slice(0, fromPart.lastIndexOf('/') + 1)}${target}`;
  const out: string[] = [];
  for (const seg of decodeURIComponentSafe(raw).split('/')) {
    if (seg === '..') out.pop();
    else if (seg !== '.' && seg !== '') out.push(seg);
  }
  return out.join('/');
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

const kindOf = (type: string): SheetKind => {
  const t = type.slice(type.lastIndexOf('/') + 1);
  return t === 'worksheet' || t === 'chartsheet' || t === 'dialogsheet' || t === 'macrosheet' ? t : 'other';
};

export function parseSheets(workbookXml: string, workbookPath: string, rels: Relationship[]): SheetInfo[] {
  const byId = new Map(rels.map((r) => [r.id, r]));
  const sheets: SheetInfo[] = [];
  for (const tag of startTags(workbookXml, 'sheet', undefined)) {
    const a = attributes(tag);
    const rel = byId.get(attributeByLocalName(new Map([...a].filter(([k]) => k !== 'sheetId')), 'id') ?? '');
    const state = a.get('state');
    sheets.push({
      name: a.get('name') ?? '',
      sheetId: Number(a.get('sheetId') ?? 0),
      kind: rel ? kindOf(rel.type) : 'other',
      state: state === 'hidden' || state === 'veryHidden' ? state : 'visible',
      path: rel && !rel.external ? resolveTarget(workbookPath, rel.target) : '',
    });
  }
  return sheets;
}

/** What readers need of one cellXfs entry. */
export interface CellStyle {
  /** Locks its cells when the sheet is protected (the default). */
  locked: boolean;
  bold: boolean;
  /** The number format shows a date or time. */
  isDate: boolean;
  /** Font and fill: cells that look alike share it, whatever their borders or alignment. */
  look: string;
}

const BUILTIN_DATE_FORMATS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 30, 36, 45, 46, 47, 50, 57]);

/**
 * A number format without `"quoted"`, `\\x` and `[bracketed]` parts, in one pass (a regex retries
 * from every unclosed `[`).
 */
function withoutLiterals(code: string): string {
  let out = '';
  let closedQuoteAfter = -2;
  let closedBracketAfter = -2;
  for (let i = 0; i < code.length; i++) {
    const c = code[i]!;
    if (c === '"' || c === '[') {
      const closer = c === '"' ? '"' : ']';
      let end = c === '"' ? closedQuoteAfter : closedBracketAfter;
      if (end !== -1 && end <= i) end = code.indexOf(closer, i + 1);
      if (c === '"') closedQuoteAfter = end;
      else closedBracketAfter = end;
      if (end > i) {
        i = end;
        continue;
      }
    } else if (c === '\\' && i + 1 < code.length && !/[\n\r\u2028\u2029]/.test(code[i + 1]!)) {
      i++;
      continue;
    }
    out += c;
  }
  return out;
}

function isDateFormatCode(code: string): boolean {
  // Drop quoted text, escapes and [colour]/[locale] parts, then look for day/month/year/hour tokens.
  const bare = withoutLiterals(code);
  return /[dmyhs]/i.test(bare) && !/^[#0.,%\s]*$/.test(bare) && !/General/i.test(bare);
}

/** The cellXfs entries of styles.xml, in index order. */
export function parseCellStyles(stylesXml: string): CellStyle[] {
  const customFormats = new Map<number, string>();
  for (const f of elements(stylesXml, 'numFmt')) customFormats.set(Number(f.attrs.get('numFmtId')), f.attrs.get('formatCode') ?? '');
  const bold = elements(firstElement(stylesXml, 'fonts')?.inner ?? '', 'font').map((f) => {
    const b = firstStartTag(f.inner, 'b', undefined, 'tag');
    if (b === null) return false;
    const v = attributes(b).get('val');
    return v === undefined || v === '1' || v === 'true';
  });
  return elements(firstElement(stylesXml, 'cellXfs')?.inner ?? '', 'xf').map((xf) => {
    const numFmtId = Number(xf.attrs.get('numFmtId') ?? 0);
    const protection = firstElement(xf.inner, 'protection');
    const locked = protection?.attrs.get('locked');
    const custom = customFormats.get(numFmtId);
    const fontId = Number(xf.attrs.get('fontId') ?? 0);
    return {
      locked: !(locked === '0' || locked === 'false'),
      bold: bold[fontId] ?? false,
      isDate: BUILTIN_DATE_FORMATS.has(numFmtId) || (custom !== undefined && isDateFormatCode(custom)),
      look: `${fontId}/${xf.attrs.get('fillId') ?? 0}`,
    };
  });
}

export interface DefinedName {
  name: string;
  /** Index into the workbook's `<sheet>` list when the name is local to a sheet. */
  localSheetId: number | null;
  formula: string;
}

export function parseDefinedNames(workbookXml: string): DefinedName[] {
  return elements(workbookXml, 'definedName').map((d) => ({
    name: d.attrs.get('name') ?? '',
    localSheetId: d.attrs.has('localSheetId') ? Number(d.attrs.get('localSheetId')) : null,
    formula: decodeEntities(d.inner).trim(),
  }));
}

/** Dates count from 1904 (old Mac workbooks) instead of 1900. */
export function usesDate1904(workbookXml: string): boolean {
  const v = firstElement(workbookXml, 'workbookPr')?.attrs.get('date1904');
  return v === '1' || v === 'true';
}

export function parseSharedStrings(xml: string): string[] {
  const prefix = /<([\w.-]+:)?sst[\s>]/.exec(xml)?.[1] ?? '';
  return textElements(xml, 'si', prefix).map((inner) => (inner ? richText(inner, prefix) : ''));
}

/** Sheet protection on: `<sheetProtection sheet="1">`. */
export function isSheetProtected(sheetXml: string, prefix: string): boolean {
  const tag = firstStartTag(sheetXml, 'sheetProtection', prefix, 'word');
  if (!tag) return false;
  const v = attributes(tag).get('sheet');
  return v === '1' || v === 'true';
}

export function parseMergeRefs(sheetXml: string, prefix: string): string[] {
  const out: string[] = [];
  for (const tag of startTags(sheetXml, 'mergeCell', prefix)) {
    const ref = attributes(tag).get('ref');
    if (ref) out.push(ref);
  }
  return out;
}

/** Ranges covered by array and data-table formulas: their non-anchor cells hold no `<f>` but are formula results. */
export function parseFormulaRanges(sheetXml: string, prefix: string): string[] {
  const out: string[] = [];
  for (const tag of startTags(sheetXml, 'f', prefix)) {
    const a = attributes(tag);
    const t = a.get('t');
    const ref = a.get('ref');
    if (ref && (t === 'array' || t === 'dataTable')) out.push(ref);
  }
  return out;
}

// Elements that follow calcPr in CT_Workbook, in schema order.
const AFTER_CALC_PR = [
  'oleSize',
  'customWorkbookViews',
  'pivotCaches',
  'smartTagPr',
  'smartTagTypes',
  'webPublishing',
  'fileRecoveryPr',
  'webPublishObjects',
  'extLst',
];

/** workbook.xml asking for a full recalculation when opened, so formulas reading the answers update. */
export function requestFullCalcOnLoad(workbookXml: string): string {
  const prefix = /<([\w.-]+:)?workbook[\s>]/.exec(workbookXml)?.[1] ?? '';
  const calc = new RegExp(`<${prefix}calcPr\\b`).exec(workbookXml);
  if (calc) {
    const end = tagEnd(workbookXml, calc.index);
    const tag = workbookXml.slice(calc.index, end);
    if (/\sfullCalcOnLoad\s*=/.test(tag)) {
      const fixed = tag.replace(/(\sfullCalcOnLoad\s*=\s*)("[^"]*"|'[^']*')/, '$1"1"');
      return workbookXml.slice(0, calc.index) + fixed + workbookXml.slice(end);
    }
    const insertAt = tag.endsWith('/>') ? end - 2 : end - 1;
    return `${workbookXml.slice(0, insertAt)} fullCalcOnLoad="1"${workbookXml.slice(insertAt)}`;
  }
  let at = -1;
  for (const name of AFTER_CALC_PR) {
    const m = new RegExp(`<${prefix}${name}[\\s>/]`).exec(workbookXml);
    if (m && (at < 0 || m.index < at)) at = m.index;
  }
  if (at < 0) at = workbookXml.lastIndexOf(`</${prefix}workbook>`);
  if (at < 0) throw new Error('workbook.xml has no closing </workbook>.');
  return `${workbookXml.slice(0, at)}<${prefix}calcPr fullCalcOnLoad="1"/>${workbookXml.slice(at)}`;
}
