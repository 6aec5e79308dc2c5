/**
 * Reads an xlsx package straight from its XML: sheet list and states, defined names, shared strings,
 * styles (protection, bold, date formats), and per sheet the cells (cached formula values), merges,
 * data validations (including the x14 extension list that most libraries drop), protection and
 * hidden rows/columns. Sheets are parsed on first use.
 */
import { openPackage } from './archive';
import { emptyGrid, lettersToCol, parseRangeRef, parseSqref, setCell, type SheetGrid, type SheetState } from './grid';
import { DetectError } from './types';
import { attrs, decodeXml, elements, firstElement, runText, stripBom } from './xml';

export interface SheetInfo {
  name: string;
  state: SheetState;
  /** 0-based position in the workbook (the index `localSheetId` refers to). */
  index: number;
  path: string;
}

export interface DefinedName {
  name: string;
  localSheetId: number | null;
  formula: string;
}

export interface StyleInfo {
  locked: boolean;
  bold: boolean;
  isDate: boolean;
}

export interface Workbook {
  sheets: SheetInfo[];
  definedNames: DefinedName[];
  styles: StyleInfo[];
  grid(sheet: SheetInfo): SheetGrid;
  sheetByName(name: string): SheetInfo | undefined;
}

const SKIPPED_DIRS = /^(xl\/(media|drawings|charts|pivotCache|pivotTables|printerSettings|externalLinks|embeddings|ctrlProps|activeX|diagrams|slicers|slicerCaches|timelines|queryTables|model|richData)\/|customXml\/|docProps\/)/;

export function readWorkbook(bytes: Uint8Array, filename: string): Workbook {
  const pkg = openPackage(bytes, filename, (name) => /\.(xml|rels)$/i.test(name) && !SKIPPED_DIRS.test(name));
  const rootRels = pkg.text('_rels/.rels');
  let workbookPath = 'xl/workbook.xml';
  if (rootRels) {
    const rel = elements(rootRels, 'Relationship').find((r) => /\/officeDocument$/.test(r.attrs.Type ?? ''));
    if (rel?.attrs.Target) workbookPath = rel.attrs.Target.replace(/^\//, '');
  }
  const workbookXml = pkg.text(workbookPath);
  if (!workbookXml) {
    if (pkg.names.some((n) => /workbook\.bin$/i.test(n))) {
      throw new DetectError(
        `"${filename}" is a binary Excel workbook (.xlsb), which is not supported. Save it as .xlsx and upload it again.`,
      );
    }
    throw new DetectError(
      `"${filename}" is a zip archive but not an Excel workbook: it has no workbook part (${workbookPath}). ` +
        'Upload the questionnaire as .xlsx or .csv.',
    );
  }
  const baseDir = workbookPath.includes('/') ? workbookPath.slice(0, workbookPath.lastIndexOf('/') + 1) : '';
  const relsPath = `${baseDir}_rels/${workbookPath.slice(baseDir.length)}.rels`;
  const relsXml = pkg.text(relsPath) ?? '';
  const targets = new Map<string, { target: string; type: string }>();
  for (const r of elements(relsXml, 'Relationship')) {
    const t = r.attrs.Target ?? '';
    const resolved = t.startsWith('/') ? t.slice(1) : normalise(baseDir + t);
    targets.set(r.attrs.Id ?? '', { target: resolved, type: r.attrs.Type ?? '' });
  }
  const relOfType = (suffix: string) => [...targets.values()].find((t) => t.type.endsWith(suffix))?.target;

  const workbookPr = /<workbookPr\b[^>]*>/.exec(workbookXml)?.[0] ?? '';
  const date1904 = /date1904\s*=\s*["'](1|true)["']/.test(workbookPr);
  const sheets: SheetInfo[] = [];
  elements(workbookXml, 'sheet').forEach((s, index) => {
    const rid = s.attrs['r:id'] ?? Object.entries(s.attrs).find(([k]) => k.endsWith(':id'))?.[1] ?? '';
    const rel = targets.get(rid);
    const state = (s.attrs.state === 'hidden' || s.attrs.state === 'veryHidden' ? s.attrs.state : 'visible') as SheetState;
    if (!rel || !/\/worksheet$/.test(rel.type)) {
      // Chart sheets and dialog sheets keep their index (localSheetId counts them) but hold no cells.
      sheets.push({ name: s.attrs.name ?? `Sheet${index + 1}`, state, index, path: '' });
      return;
    }
    sheets.push({ name: s.attrs.name ?? `Sheet${index + 1}`, state, index, path: rel.target });
  });
  const definedNames: DefinedName[] = elements(workbookXml, 'definedName').map((d) => ({
    name: d.attrs.name ?? '',
    localSheetId: d.attrs.localSheetId !== undefined ? Number(d.attrs.localSheetId) : null,
    formula: decodeXml(d.inner).trim(),
  }));

  const sharedStringsPath = relOfType('/sharedStrings') ?? `${baseDir}sharedStrings.xml`;
  const sharedStrings = elements(pkg.text(sharedStringsPath) ?? '', 'si').map((si) => runText(si.inner));
  const styles = readStyles(pkg.text(relOfType('/styles') ?? `${baseDir}styles.xml`) ?? '');

  const cache = new Map<string, SheetGrid>();
  return {
    sheets: sheets.filter((s) => s.path !== ''),
    definedNames,
    styles,
    sheetByName(name: string) {
      const lower = name.toLowerCase();
      return sheets.find((s) => s.path !== '' && s.name.toLowerCase() === lower);
    },
    grid(sheet: SheetInfo) {
      let g = cache.get(sheet.name);
      if (!g) {
        const xml = pkg.text(sheet.path);
        g = xml ? parseSheet(stripBom(xml), sheet, sharedStrings, styles, date1904) : emptyGrid(sheet.name, sheet.state);
        cache.set(sheet.name, g);
      }
      return g;
    },
  };
}

function normalise(path: string): string {
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '..') out.pop();
    else if (part !== '.' && part !== '') out.push(part);
  }
  return out.join('/');
}

const BUILTIN_DATE_FORMATS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 30, 36, 45, 46, 47, 50, 57]);

function isDateFormatCode(code: string): boolean {
  // Drop quoted text, escapes and [colour]/[locale] parts, then look for day/month/year/hour tokens.
  const bare = code.replace(/"[^"]*"|\\.|\[[^\]]*\]/g, '');
  return /[dmyhs]/i.test(bare) && !/^[#0.,%\s]*$/.test(bare) && !/General/i.test(bare);
}

function readStyles(xml: string): StyleInfo[] {
  const customFormats = new Map<number, string>();
  for (const f of elements(xml, 'numFmt')) customFormats.set(Number(f.attrs.numFmtId), f.attrs.formatCode ?? '');
  const fontsBlock = firstElement(xml, 'fonts')?.inner ?? '';
  const bold = elements(fontsBlock, 'font').map((f) => {
    const b = /<b(\s[^>]*)?\/?>/.exec(f.inner);
    if (!b) return false;
    const v = attrs(b[1] ?? '').val;
    return v === undefined || v === '1' || v === 'true';
  });
  const xfBlock = firstElement(xml, 'cellXfs')?.inner ?? '';
  return elements(xfBlock, 'xf').map((xf) => {
    const numFmtId = Number(xf.attrs.numFmtId ?? 0);
    const prot = /<protection\b([^>]*)>/.exec(xf.inner);
    const lockedAttr = prot ? attrs(prot[1]).locked : undefined;
    const custom = customFormats.get(numFmtId);
    return {
      locked: !(lockedAttr === '0' || lockedAttr === 'false'),
      bold: bold[Number(xf.attrs.fontId ?? 0)] ?? false,
      isDate: BUILTIN_DATE_FORMATS.has(numFmtId) || (custom !== undefined && isDateFormatCode(custom)),
    };
  });
}

function serialToDate(serial: number, date1904: boolean): string {
  const epoch = date1904 ? Date.UTC(1904, 0, 1) : Date.UTC(1899, 11, 30);
  const d = new Date(epoch + Math.round(serial * 86400000));
  const iso = d.toISOString();
  return Number.isInteger(serial) ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
}

const ROW_RE = /<row\b([^>]*?)(?:\/>|>([\s\S]*?)<\/row>)/g;
const CELL_RE = /<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g;
const V_RE = /<v(?:\s[^>]*)?>([\s\S]*?)<\/v>/;

function parseSheet(
  xml: string,
  info: SheetInfo,
  sharedStrings: string[],
  styles: StyleInfo[],
  date1904: boolean,
): SheetGrid {
  const grid = emptyGrid(info.name, info.state);
  const dataStart = xml.indexOf('<sheetData');
  const dataEnd = xml.lastIndexOf('</sheetData>');
  const head = dataStart >= 0 ? xml.slice(0, dataStart) : xml;
  const data = dataStart >= 0 && dataEnd > dataStart ? xml.slice(dataStart, dataEnd) : '';
  const tail = dataEnd >= 0 ? xml.slice(dataEnd) : '';

  for (const col of elements(head, 'col')) {
    const min = Number(col.attrs.min);
    const max = Math.min(Number(col.attrs.max), 16384);
    const hidden = col.attrs.hidden === '1' || col.attrs.hidden === 'true' || col.attrs.width === '0';
    for (let c = min; c <= max && c - min < 16384; c++) {
      if (hidden) grid.hiddenCols.add(c);
      if (col.attrs.style !== undefined) grid.colStyles.set(c, Number(col.attrs.style));
    }
  }

  let rowCounter = 0;
  ROW_RE.lastIndex = 0;
  let rm: RegExpExecArray | null;
  while ((rm = ROW_RE.exec(data)) !== null) {
    const ra = attrs(rm[1]);
    const r = ra.r !== undefined ? Number(ra.r) : rowCounter + 1;
    rowCounter = r;
    if (ra.hidden === '1' || ra.hidden === 'true') grid.hiddenRows.add(r);
    if ((ra.customFormat === '1' || ra.customFormat === 'true') && ra.s !== undefined) grid.rowStyles.set(r, Number(ra.s));
    const inner = rm[2];
    if (!inner) continue;
    let colCounter = 0;
    CELL_RE.lastIndex = 0;
    let cm: RegExpExecArray | null;
    while ((cm = CELL_RE.exec(inner)) !== null) {
      const ca = attrs(cm[1]);
      let col = colCounter + 1;
      if (ca.r) {
        const letters = /^\$?([A-Za-z]+)/.exec(ca.r);
        if (letters) col = lettersToCol(letters[1]);
      }
      colCounter = col;
      const body = cm[2] ?? '';
      const style = ca.s !== undefined ? Number(ca.s) : 0;
      const formula = body.includes('<f');
      let value: string | null = null;
      const t = ca.t ?? 'n';
      if (t === 'inlineStr') {
        value = runText(body.replace(/<f\b[\s\S]*?(<\/f>|\/>)/, ''));
      } else {
        const vm = V_RE.exec(body);
        const raw = vm ? decodeXml(vm[1]) : null;
        if (raw !== null) {
          if (t === 's') value = sharedStrings[Number(raw)] ?? null;
          else if (t === 'b') value = raw === '1' ? 'TRUE' : 'FALSE';
          else if (t === 'str' || t === 'e' || t === 'd') value = raw;
          else {
            const num = Number(raw);
            value = styles[style]?.isDate && Number.isFinite(num) && num > 0 ? serialToDate(num, date1904) : raw;
          }
        }
      }
      if (value === '') value = null;
      setCell(grid, r, col, { value, formula, style });
    }
  }

  grid.isProtected = /<sheetProtection\b[^>]*\bsheet\s*=\s*["'](1|true)["']/.test(tail) ||
    /<sheetProtection\b[^>]*\bsheet\s*=\s*["'](1|true)["']/.test(head);

  for (const m of elements(tail, 'mergeCell')) {
    const range = parseRangeRef(m.attrs.ref ?? '');
    if (range) grid.merges.push(range);
  }
  for (const dv of elements(tail, 'dataValidation')) {
    const f1 = /<(?:\w+:)?formula1\b[^>]*>([\s\S]*?)<\/(?:\w+:)?formula1>/.exec(dv.inner);
    let formula1 = f1 ? f1[1] : '';
    const inner = /<(?:\w+:)?f\b[^>]*>([\s\S]*?)<\/(?:\w+:)?f>/.exec(formula1);
    if (inner) formula1 = inner[1];
    const sqrefEl = /<(?:\w+:)?sqref\b[^>]*>([\s\S]*?)<\/(?:\w+:)?sqref>/.exec(dv.inner);
    const sqref = dv.attrs.sqref ?? (sqrefEl ? sqrefEl[1] : '');
    grid.validations.push({
      ranges: parseSqref(decodeXml(sqref)),
      type: dv.attrs.type ?? 'any',
      formula1: decodeXml(formula1).trim(),
    });
  }
  return grid;
}
