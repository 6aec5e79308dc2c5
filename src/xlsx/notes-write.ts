/**
 * Notes (Excel's legacy comments) written into a package without touching anything else: a sheet's
 * comments part (`xl/commentsN.xml`), the VML drawing that gives each note its box, the sheet's
 * relationships, its `<legacyDrawing>` element and the content types. A sheet that already has
 * notes keeps every existing `<comment>` element and VML shape as it was written; only the notes
 * asked for are added, changed or removed.
 *
 * Threaded comments are not written: every Excel and LibreOffice reads legacy notes, and a threaded
 * comment needs its legacy note beside it anyway.
 */
import { XlsxError } from './errors';
import { formatCell, parseCell } from './ranges';
import { parseRelationships, relsPathFor, resolveTarget } from './workbook-parts';
import { attributeByLocalName, attributes, escapeAttribute, escapeText, firstStartTag, tagEnd } from './xml';

export interface NoteWrite {
  tab: string;
  /** The cell, e.g. `D7`. */
  address: string;
  /** The note's text; null removes the cell's note. */
  text: string | null;
  author: string;
}

/** What the writer reads of the package: part texts by zip entry name. */
export interface PartReader {
  has(name: string): boolean;
  text(name: string): string;
  names(): readonly string[];
}

export interface SheetNotes {
  sheetPath: string;
  /** The sheet part's text as it will be written (cells already patched). */
  sheetXml: string;
  /** Namespace prefix of the sheet's elements (`x:` or ''). */
  prefix: string;
  notes: readonly NoteWrite[];
}

export interface NotesResult {
  /** Existing parts with new text (sheets, their rels, comments and VML parts, content types). */
  replaced: Map<string, string>;
  /** New parts (comments, VML drawings, sheet rels). */
  added: Map<string, string>;
}

const NS_MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const NS_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const NS_PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships';
const REL_COMMENTS = `${NS_REL}/comments`;
const REL_VML = `${NS_REL}/vmlDrawing`;
const CT_COMMENTS = 'application/vnd.openxmlformats-officedocument.spreadsheetml.comments+xml';
const CT_VML = 'application/vnd.openxmlformats-officedocument.vmlDrawing';
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n';

// CT_Worksheet's elements after <legacyDrawing>, in schema order: the element goes before the first present.
const AFTER_LEGACY_DRAWING = ['legacyDrawingHF', 'drawingHF', 'picture', 'oleObjects', 'controls', 'webPublishItems', 'tableParts', 'extLst'];

/**
 * Note text as SpreadsheetML carries it: XML-escaped, characters XML 1.0 cannot hold as `_xHHHH_`
 * (and a literal `_xHHHH_` escaped in turn, so it reads back as typed).
 */
export function noteTextXml(text: string): string {
  const xstring = text
    .replace(/_x([0-9A-Fa-f]{4})_/g, '_x005F_x$1_')
    // Characters XML 1.0 cannot carry.
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, (c) => `_x${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}_`);
  return escapeText(xstring);
}

/** The relationship target from one part to another (both zip entry names). */
export function relativeTarget(fromPart: string, toPart: string): string {
  const from = fromPart.split('/').slice(0, -1);
  const to = toPart.split('/');
  let i = 0;
  while (i < from.length && i < to.length - 1 && from[i] === to[i]) i++;
  return [...from.slice(i).map(() => '..'), ...to.slice(i)].join('/');
}

function freeName(reader: PartReader, taken: Set<string>, make: (n: number) => string): string {
  for (let n = 1; ; n++) {
    const name = make(n);
    if (!reader.has(name) && !taken.has(name)) {
      taken.add(name);
      return name;
    }
  }
}

function byPosition(a: string, b: string): number {
  const x = parseCell(a)!;
  const y = parseCell(b)!;
  return x.row - y.row || x.column - y.column;
}

// ---- The comments part ------------------------------------------------------------------------

interface CommentsPart {
  prefix: string;
  authors: string[];
  /** Each `<comment>` element as written, by its cell. */
  comments: Map<string, string>;
}

function readCommentsPart(xml: string): CommentsPart {
  const prefix = /<([\w.-]+:)?comments[\s>]/.exec(xml)?.[1] ?? '';
  const esc = prefix.replace(/[.]/g, '\\.');
  const authorsBlock = new RegExp(`<${esc}authors\\b[^>]*>([\\s\\S]*?)</${esc}authors>`).exec(xml)?.[1] ?? '';
  const authors = [...authorsBlock.matchAll(new RegExp(`<${esc}author\\b[^>]*?(?:/>|>([\\s\\S]*?)</${esc}author>)`, 'g'))].map((m) => m[1] ?? '');
  const comments = new Map<string, string>();
  for (const m of xml.matchAll(new RegExp(`<${esc}comment\\b[^>]*?(?:/>|>[\\s\\S]*?</${esc}comment>)`, 'g'))) {
    const ref = (attributes(m[0].slice(0, tagEnd(m[0], 0))).get('ref') ?? '').replace(/\$/g, '');
    const cell = parseCell(ref);
    if (cell) comments.set(formatCell(cell), m[0]);
  }
  return { prefix, authors, comments };
}

/** A note's `<text>` as Excel writes it: one run in the note font (readers such as ExcelJS only read runs). */
function textElement(prefix: string, text: string): string {
  const p = prefix;
  const font = `<${p}rPr><${p}sz val="9"/><${p}color indexed="81"/><${p}rFont val="Tahoma"/><${p}family val="2"/></${p}rPr>`;
  return `<${p}text><${p}r>${font}<${p}t xml:space="preserve">${noteTextXml(text)}</${p}t></${p}r></${p}text>`;
}

function commentElement(prefix: string, address: string, authorId: number, text: string): string {
  return `<${prefix}comment ref="${address}" authorId="${authorId}">${textElement(prefix, text)}</${prefix}comment>`;
}

/** An existing `<comment>` with new text; its attributes (author, shape, GUID) are kept. */
function withText(element: string, prefix: string, text: string): string {
  const inner = textElement(prefix, text);
  const esc = prefix.replace(/[.]/g, '\\.');
  const re = new RegExp(`<${esc}text\\b[^>]*?(?:/>|>[\\s\\S]*?</${esc}text>)`);
  if (re.test(element)) return element.replace(re, () => inner);
  if (element.endsWith('/>')) return `${element.slice(0, -2)}>${inner}</${prefix}comment>`;
  return element.replace(new RegExp(`</${esc}comment>$`), `${inner}</${prefix}comment>`);
}

/** The comments part's text with the notes applied; `xml` null for a new part. */
function applyToComments(xml: string | null, notes: readonly NoteWrite[]): { xml: string; removed: string[]; cells: Set<string> } {
  const part = xml ? readCommentsPart(xml) : { prefix: '', authors: [], comments: new Map<string, string>() };
  const { prefix } = part;
  const authors = [...part.authors];
  const authorId = (name: string) => {
    const escaped = escapeText(name);
    let i = authors.indexOf(escaped);
    if (i < 0) i = authors.push(escaped) - 1;
    return i;
  };
  const removed: string[] = [];
  for (const n of notes) {
    const existing = part.comments.get(n.address);
    if (n.text === null) {
      if (existing !== undefined) {
        part.comments.delete(n.address);
        removed.push(n.address);
      }
    } else if (existing !== undefined) {
      part.comments.set(n.address, withText(existing, prefix, n.text));
    } else {
      part.comments.set(n.address, commentElement(prefix, n.address, authorId(n.author), n.text));
    }
  }
  const list = [...part.comments.keys()]
    .sort(byPosition)
    .map((a) => part.comments.get(a)!)
    .join('');
  const authorsXml = `<${prefix}authors>${authors.map((a) => `<${prefix}author>${a}</${prefix}author>`).join('')}</${prefix}authors>`;
  const listXml = `<${prefix}commentList>${list}</${prefix}commentList>`;
  if (!xml) return { xml: `${XML_HEAD}<comments xmlns="${NS_MAIN}">${authorsXml}${listXml}</comments>`, removed, cells: new Set(part.comments.keys()) };
  const esc = prefix.replace(/[.]/g, '\\.');
  let out = xml;
  const authorsRe = new RegExp(`<${esc}authors\\b[^>]*?(?:/>|>[\\s\\S]*?</${esc}authors>)`);
  out = authorsRe.test(out) ? out.replace(authorsRe, () => authorsXml) : out.replace(new RegExp(`(<${esc}comments\\b[^>]*>)`), (m) => m + authorsXml);
  const listRe = new RegExp(`<${esc}commentList\\b[^>]*?(?:/>|>[\\s\\S]*?</${esc}commentList>)`);
  out = listRe.test(out) ? out.replace(listRe, () => listXml) : out.replace(new RegExp(`</${esc}comments>`), () => `${listXml}</${prefix}comments>`);
  return { xml: out, removed, cells: new Set(part.comments.keys()) };
}

// ---- The VML drawing ----------------------------------------------------------------------------

const VML_SHAPETYPE =
  '<v:shapetype id="_x0000_t202" coordsize="21600,21600" o:spt="202" path="m,l,21600r21600,l21600,xe"><v:stroke joinstyle="miter"/><v:path gradientshapeok="t" o:connecttype="rect"/></v:shapetype>';

/** A hidden note box anchored beside its cell, as Excel writes one. */
function vmlShape(id: number, address: string): string {
  const { row, column: col } = parseCell(address)!;
  const r = row - 1;
  const c = col - 1;
  const anchor = `${c + 1}, 15, ${Math.max(0, r - 1)}, 10, ${c + 3}, 15, ${r + 3}, 4`;
  return (
    `<v:shape id="_x0000_s${id}" type="#_x0000_t202" style="position:absolute;margin-left:59.25pt;margin-top:1.5pt;width:108pt;height:59.25pt;z-index:${id % 1024};visibility:hidden" fillcolor="#ffffe1" o:insetmode="auto">` +
    '<v:fill color2="#ffffe1"/><v:shadow on="t" color="black" obscured="t"/><v:path o:connecttype="none"/>' +
    '<v:textbox style="mso-direction-alt:auto"><div style="text-align:left"></div></v:textbox>' +
    `<x:ClientData ObjectType="Note"><x:MoveWithCells/><x:SizeWithCells/><x:Anchor>${anchor}</x:Anchor><x:AutoFill>False</x:AutoFill><x:Row>${r}</x:Row><x:Column>${c}</x:Column></x:ClientData></v:shape>`
  );
}

/** The note shapes of a VML drawing, by the cell they belong to. */
function noteShapes(vml: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of vml.matchAll(/<v:shape\b[^>]*?(?:\/>|>[\s\S]*?<\/v:shape>)/g)) {
    if (!/ObjectType\s*=\s*["']Note["']/.test(m[0])) continue;
    const row = /<x:Row>\s*(\d+)\s*<\/x:Row>/.exec(m[0])?.[1];
    const col = /<x:Column>\s*(\d+)\s*<\/x:Column>/.exec(m[0])?.[1];
    if (row !== undefined && col !== undefined) out.set(formatCell({ row: Number(row) + 1, column: Number(col) + 1 }), m[0]);
  }
  return out;
}

/** Shape-id blocks (`o:idmap data`) already used by the package's VML drawings. */
function usedIdBlocks(reader: PartReader): number[] {
  const blocks: number[] = [];
  for (const name of reader.names()) {
    if (!/\.vml$/i.test(name)) continue;
    const data = /<o:idmap\b[^>]*\bdata\s*=\s*["']([^"']*)["']/.exec(reader.text(name))?.[1] ?? '';
    for (const n of data.split(/[\s,]+/)) if (/^\d+$/.test(n)) blocks.push(Number(n));
  }
  return blocks;
}

function applyToVml(vml: string | null, block: () => number, removed: readonly string[], cells: ReadonlySet<string>): string {
  if (vml !== null && !/xmlns:v\s*=\s*["']urn:schemas-microsoft-com:vml["']/.test(vml)) {
    throw new XlsxError('unsupported', 'A sheet\'s VML drawing does not use the usual "v:" prefix; its notes cannot be added to safely.');
  }
  let out =
    vml ??
    `<xml xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office" xmlns:x="urn:schemas-microsoft-com:office:excel">` +
      `<o:shapelayout v:ext="edit"><o:idmap v:ext="edit" data="${block()}"/></o:shapelayout>${VML_SHAPETYPE}</xml>`;
  const shapes = noteShapes(out);
  for (const address of removed) {
    const shape = shapes.get(address);
    if (shape && !cells.has(address)) out = out.replace(shape, '');
  }
  const missing = [...cells].filter((a) => !shapes.has(a)).sort(byPosition);
  if (!missing.length) return out;
  if (!out.includes('_x0000_t202')) out = out.replace(/<\/xml>\s*$/, `${VML_SHAPETYPE}</xml>`);
  const idBlock = Number(/<o:idmap\b[^>]*\bdata\s*=\s*["'](\d+)/.exec(out)?.[1] ?? block());
  let next = Math.max(idBlock * 1024, ...[...out.matchAll(/_x0000_s(\d+)/g)].map((m) => Number(m[1]))) + 1;
  const added = missing.map((a) => vmlShape(next++, a)).join('');
  const close = out.lastIndexOf('</xml>');
  if (close < 0) throw new XlsxError('corrupt', "A sheet's VML drawing has no closing </xml>.");
  return out.slice(0, close) + added + out.slice(close);
}

// ---- The sheet, its relationships, the content types ---------------------------------------------

function addRelationship(relsXml: string | null, type: string, target: string): { xml: string; id: string } {
  const xml = relsXml ?? `${XML_HEAD}<Relationships xmlns="${NS_PKG_REL}"></Relationships>`;
  const ids = new Set(parseRelationships(xml).map((r) => r.id));
  let n = ids.size + 1;
  while (ids.has(`rId${n}`)) n++;
  const id = `rId${n}`;
  const rel = `<Relationship Id="${id}" Type="${type}" Target="${escapeAttribute(target)}"/>`;
  const close = xml.lastIndexOf('</Relationships>');
  const out = close >= 0 ? xml.slice(0, close) + rel + xml.slice(close) : xml.replace(/<Relationships\b([^>]*?)\/>/, `<Relationships$1>${rel}</Relationships>`);
  return { xml: out, id };
}

/** `<legacyDrawing r:id>` placed where CT_Worksheet wants it (outside any mc:AlternateContent). */
function withLegacyDrawing(sheetXml: string, prefix: string, relId: string): string {
  const root = firstStartTag(sheetXml, 'worksheet', prefix, 'word') ?? '';
  const rPrefix = [...attributes(root)].find(([k, v]) => k.startsWith('xmlns:') && v === NS_REL)?.[0].slice(6);
  const element = rPrefix ? `<${prefix}legacyDrawing ${rPrefix}:id="${relId}"/>` : `<${prefix}legacyDrawing xmlns:r="${NS_REL}" r:id="${relId}"/>`;
  const dataEnd = Math.max(sheetXml.lastIndexOf(`</${prefix}sheetData>`), sheetXml.lastIndexOf(`<${prefix}sheetData/>`));
  let at = -1;
  for (const name of AFTER_LEGACY_DRAWING) {
    const m = new RegExp(`<${prefix.replace(/[.]/g, '\\.')}${name}[\\s>/]`).exec(sheetXml.slice(Math.max(0, dataEnd)));
    const i = m ? m.index + Math.max(0, dataEnd) : -1;
    if (i >= 0 && (at < 0 || i < at)) at = i;
  }
  if (at < 0) at = sheetXml.lastIndexOf(`</${prefix}worksheet>`);
  if (at < 0) throw new XlsxError('corrupt', 'A worksheet part has no closing </worksheet>.');
  // Inside <mc:AlternateContent> (form controls are written so): go before the whole block.
  for (const m of sheetXml.slice(0, at).matchAll(/<([\w.-]+:)?AlternateContent\b/g)) {
    const close = sheetXml.indexOf(`</${m[1] ?? ''}AlternateContent>`, m.index);
    if (close > at) {
      at = m.index;
      break;
    }
  }
  return sheetXml.slice(0, at) + element + sheetXml.slice(at);
}

function withContentTypes(xml: string, comments: readonly string[], needsVml: boolean): string {
  let adds = '';
  if (needsVml && !/<Default\b[^>]*\bExtension\s*=\s*["']vml["']/i.test(xml)) adds += `<Default Extension="vml" ContentType="${CT_VML}"/>`;
  for (const part of comments) {
    if (!xml.includes(`PartName="/${part}"`)) adds += `<Override PartName="/${escapeAttribute(part)}" ContentType="${CT_COMMENTS}"/>`;
  }
  if (!adds) return xml;
  // Types is a choice of Default and Override in any order: both go at the end.
  const close = xml.lastIndexOf('</Types>');
  if (close < 0) throw new XlsxError('corrupt', '[Content_Types].xml has no closing </Types>.');
  return xml.slice(0, close) + adds + xml.slice(close);
}

/** The parts to replace and add so that each listed sheet carries its notes. */
export function writeNotes(reader: PartReader, sheets: readonly SheetNotes[]): NotesResult {
  const replaced = new Map<string, string>();
  const added = new Map<string, string>();
  const taken = new Set<string>();
  const text = (name: string) => replaced.get(name) ?? added.get(name) ?? (reader.has(name) ? reader.text(name) : null);
  const put = (name: string, xml: string) => (reader.has(name) ? replaced : added).set(name, xml);
  const blocks = usedIdBlocks(reader);
  const nextBlock = () => {
    const b = Math.max(0, ...blocks) + 1;
    blocks.push(b);
    return b;
  };
  const newComments: string[] = [];
  let needsVml = false;
  for (const sheet of sheets) {
    if (!sheet.notes.length) continue;
    const relsPath = relsPathFor(sheet.sheetPath);
    let rels = text(relsPath);
    const relations = rels ? parseRelationships(rels) : [];
    let sheetXml = sheet.sheetXml;

    const commentsRel = relations.find((r) => r.type === REL_COMMENTS && !r.external);
    let commentsPath = commentsRel ? resolveTarget(sheet.sheetPath, commentsRel.target) : '';
    if (!commentsPath) {
      commentsPath = freeName(reader, taken, (n) => `xl/comments${n}.xml`);
      const r = addRelationship(rels, REL_COMMENTS, relativeTarget(sheet.sheetPath, commentsPath));
      rels = r.xml;
    }
    if (!reader.has(commentsPath)) newComments.push(commentsPath);
    const comments = applyToComments(text(commentsPath), sheet.notes);
    put(commentsPath, comments.xml);

    const legacy = firstStartTag(sheetXml, 'legacyDrawing', sheet.prefix, 'word');
    const legacyId = legacy ? attributeByLocalName(attributes(legacy), 'id') : undefined;
    const vmlRel = legacyId ? relations.find((r) => r.id === legacyId && !r.external) : undefined;
    let vmlPath = vmlRel ? resolveTarget(sheet.sheetPath, vmlRel.target) : '';
    if (!vmlPath) {
      if (legacy) throw new XlsxError('corrupt', `${sheet.sheetPath} has a <legacyDrawing> without its relationship.`);
      vmlPath = freeName(reader, taken, (n) => `xl/drawings/vmlDrawing${n}.vml`);
      const r = addRelationship(rels, REL_VML, relativeTarget(sheet.sheetPath, vmlPath));
      rels = r.xml;
      sheetXml = withLegacyDrawing(sheetXml, sheet.prefix, r.id);
    }
    if (!reader.has(vmlPath)) needsVml = true;
    put(vmlPath, applyToVml(text(vmlPath), nextBlock, comments.removed, comments.cells));
    if (rels !== null && rels !== text(relsPath)) put(relsPath, rels);
    if (sheetXml !== sheet.sheetXml) replaced.set(sheet.sheetPath, sheetXml);
  }
  if (newComments.length || needsVml) replaced.set('[Content_Types].xml', withContentTypes(text('[Content_Types].xml') ?? '', newComments, needsVml));
  return { replaced, added };
}
