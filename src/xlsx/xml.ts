/**
 * The little XML this package needs, done by scanning text: tags are located by position so that
 * everything around them can be kept byte for byte. Not a general XML parser.
 */

/** Index just after the `>` closing the tag that starts at `start` (quotes may hide a `>`). */
export function tagEnd(xml: string, start: number): number {
  let quote = 0;
  for (let i = start + 1; i < xml.length; i++) {
    const c = xml.charCodeAt(i);
    if (quote) {
      if (c === quote) quote = 0;
    } else if (c === 34 /* " */ || c === 39 /* ' */) {
      quote = c;
    } else if (c === 62 /* > */) {
      return i + 1;
    }
  }
  return -1;
}

export function isSelfClosing(xml: string, tagEndIndex: number): boolean {
  return xml.charCodeAt(tagEndIndex - 2) === 47; /* / */
}

const WHITESPACE = /\s/;
const isSpace = (xml: string, i: number) => i < xml.length && WHITESPACE.test(xml[i]!);
const isNameStart = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95; /* A-Z a-z _ */
/** `[\w.-]`: the characters of a namespace prefix. */
const isPrefixChar = (c: number) => isNameStart(c) || (c >= 48 && c <= 57) || c === 46 || c === 45;
/** `[\w.:-]`: the characters of a qualified attribute name. */
const isAttrNameChar = (c: number) => isPrefixChar(c) || c === 58;

/**
 * `find(from)` remembered: callers ask with ever larger `from`, so a text is searched at most once
 * however many unfinished tags ask (the lazy regexes this replaces searched to the end for each).
 */
function forwardFinder(find: (from: number) => number): (from: number) => number {
  let found = -2;
  let searchedFrom = 0;
  return (from) => {
    if (found >= from || (found === -1 && from >= searchedFrom)) return found;
    searchedFrom = from;
    found = find(from);
    return found;
  };
}

/** Attributes of an opening tag's text, by qualified name, values entity-decoded. */
export function attributes(tag: string): Map<string, string> {
  const out = new Map<string, string>();
  const open = tag.search(/\s/);
  if (open < 0) return out;
  const quotes = new Map<number, (from: number) => number>();
  const closingQuote = (q: number, from: number) => {
    let f = quotes.get(q);
    if (!f) quotes.set(q, (f = forwardFinder((at) => tag.indexOf(String.fromCharCode(q), at))));
    return f(from);
  };
  // name \s* = \s* "value" | 'value', looked for left to right; a failed try resumes after its name.
  for (let i = open; i < tag.length; ) {
    if (!isNameStart(tag.charCodeAt(i))) {
      i++;
      continue;
    }
    const nameStart = i;
    while (i < tag.length && isAttrNameChar(tag.charCodeAt(i))) i++;
    const nameEnd = i;
    let j = nameEnd;
    while (isSpace(tag, j)) j++;
    if (tag.charCodeAt(j) !== 61 /* = */) continue;
    j++;
    while (isSpace(tag, j)) j++;
    const q = tag.charCodeAt(j);
    if (q !== 34 && q !== 39) continue;
    const close = closingQuote(q, j + 1);
    if (close < 0) continue;
    out.set(tag.slice(nameStart, nameEnd), decodeEntities(tag.slice(j + 1, close)));
    i = close + 1;
  }
  return out;
}

/** Value of an attribute by local name, whatever its prefix (`r:id`, `id`). */
export function attributeByLocalName(attrs: Map<string, string>, local: string): string | undefined {
  for (const [k, v] of attrs) {
    const i = k.indexOf(':');
    if ((i < 0 ? k : k.slice(i + 1)) === local) return v;
  }
  return undefined;
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export function decodeEntities(s: string): string {
  if (s.indexOf('&') < 0) return s;
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (all, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : all;
    }
    return NAMED[body] ?? all;
  });
}

/** Excel's ST_Xstring escape `_xHHHH_` for characters XML cannot carry. */
export function decodeXstring(s: string): string {
  if (s.indexOf('_x') < 0) return s;
  return s.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

export function escapeText(s: string): string {
  return s.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}

export function escapeAttribute(s: string): string {
  return s.replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));
}

export interface XmlElement {
  attrs: Map<string, string>;
  /** Raw text between the start and end tags ('' when self-closing). */
  inner: string;
}

/**
 * Index just after `localName` when an optional `prefix:` and `localName` start at `at`, else -1.
 * `prefix` undefined means any prefix (`[\w.-]+:`) or none.
 */
function nameEndAt(xml: string, at: number, localName: string, prefix: string | undefined): number {
  if (prefix !== undefined) return xml.startsWith(prefix + localName, at) ? at + prefix.length + localName.length : -1;
  let i = at;
  while (i < xml.length && isPrefixChar(xml.charCodeAt(i))) i++;
  if (xml.charCodeAt(i) === 58 /* : */ && i > at) return xml.startsWith(localName, i + 1) ? i + 1 + localName.length : -1;
  return xml.startsWith(localName, at) ? at + localName.length : -1;
}

/** Index of the next `</localName>` (with the given prefix, or any) at or after `from`, and the index after it. */
function findEndTag(xml: string, localName: string, prefix: string | undefined, from: number): number {
  if (prefix !== undefined) return xml.indexOf(`</${prefix}${localName}>`, from);
  for (let i = xml.indexOf('</', from); i >= 0; i = xml.indexOf('</', i + 2)) {
    const end = nameEndAt(xml, i + 2, localName, undefined);
    if (end >= 0 && xml.charCodeAt(end) === 62 /* > */) return i;
  }
  return -1;
}

const endTagLength = (xml: string, at: number) => xml.indexOf('>', at) + 1 - at;

/** One element found by scanning: where its start tag's attributes are, and its content. */
interface Found {
  start: number;
  /** The start tag's text after the name, without `>` or `/>`. */
  attrText: string;
  inner: string;
  selfClosing: boolean;
}

/**
 * How the start tag may look: `elements` style (`<name` then anything up to the first `>`; `/>` makes it
 * empty), or `text` style (`<name>`, `<name/>`, or `<name` + whitespace + attributes, where an end tag
 * found later wins over a `/` before `>`).
 */
type TagStyle = 'elements' | 'text';

/**
 * Every `<name ...>...</name>` or `<name .../>` in `xml`, in one pass: each `>` and end tag is searched
 * for once (remembered as the scan moves forward), so unfinished tags cannot make it quadratic.
 * An element without its end tag is skipped, and the scan goes on just after its `<`.
 */
function scan(xml: string, localName: string, prefix: string | undefined, style: TagStyle, limit = Infinity, emptyForm = true): Found[] {
  const out: Found[] = [];
  const nextGt = forwardFinder((from) => xml.indexOf('>', from));
  const nextEndTag = forwardFinder((from) => findEndTag(xml, localName, prefix, from));
  const opener = prefix === undefined ? '<' : `<${prefix}${localName}`;
  for (let i = xml.indexOf(opener); i >= 0 && out.length < limit; i = xml.indexOf(opener, i)) {
    const nameEnd = nameEndAt(xml, i + 1, localName, prefix);
    const after = nameEnd < 0 ? -1 : xml.charCodeAt(nameEnd);
    const spaced = nameEnd >= 0 && isSpace(xml, nameEnd);
    if (nameEnd < 0 || !((spaced || after === 47 /* / */ || after === 62) /* > */)) {
      i++;
      continue;
    }
    const gt = style === 'text' && !spaced ? (after === 62 ? nameEnd : emptyForm && xml.charCodeAt(nameEnd + 1) === 62 ? nameEnd + 1 : -2) : nextGt(nameEnd);
    if (gt === -1) break; // no `>` anywhere after: nothing further can match
    if (gt === -2) {
      i++;
      continue;
    }
    const slash = emptyForm && gt > nameEnd && xml.charCodeAt(gt - 1) === 47;
    if (slash && style === 'elements') {
      out.push({ start: i, attrText: xml.slice(nameEnd, gt - 1), inner: '', selfClosing: true });
      i = gt + 1;
      continue;
    }
    const endTag = style === 'text' && !spaced && slash ? -1 : nextEndTag(gt + 1);
    if (endTag >= 0) {
      out.push({ start: i, attrText: xml.slice(nameEnd, gt), inner: xml.slice(gt + 1, endTag), selfClosing: false });
      i = endTag + endTagLength(xml, endTag);
    } else if (slash) {
      out.push({ start: i, attrText: xml.slice(nameEnd, gt - 1), inner: '', selfClosing: true });
      i = gt + 1;
    } else {
      i++;
    }
  }
  return out;
}

/**
 * Every `<name ...>...</name>` or `<name .../>` in `xml`, whatever its namespace prefix. Not for
 * elements nested in themselves; SpreadsheetML's lists (sheets, fonts, xfs, mergeCells, ...) are flat.
 */
export function elements(xml: string, localName: string): XmlElement[] {
  return scan(xml, localName, undefined, 'elements').map((f) => ({ attrs: attributes(`<x${f.attrText}>`), inner: f.inner }));
}

export function firstElement(xml: string, localName: string): XmlElement | null {
  const f = scan(xml, localName, undefined, 'elements', 1)[0];
  return f ? { attrs: attributes(`<x${f.attrText}>`), inner: f.inner } : null;
}

/**
 * The content of each `<prefix:name>` (also with attributes, or empty as `<name/>`, which gives '')
 * in document order, for text-bearing elements such as `<si>`, `<t>` and `<v>`.
 */
export function textElements(xml: string, localName: string, prefix: string, limit = Infinity): string[] {
  return scan(xml, localName, prefix, 'text', limit).map((f) => f.inner);
}

/** The content of the first `<prefix:name>...</prefix:name>` (attributes allowed, no empty `<name/>` form), or null. */
export function firstContent(xml: string, localName: string, prefix: string): string | null {
  return scan(xml, localName, prefix, 'text', 1, false)[0]?.inner ?? null;
}

/**
 * Every start tag `<prefix:name` + whitespace + attributes + `>` (prefix undefined: any prefix), in order,
 * with its text; each `>` searched for once.
 */
export function startTags(xml: string, localName: string, prefix: string | undefined): string[] {
  const out: string[] = [];
  const nextGt = forwardFinder((from) => xml.indexOf('>', from));
  const opener = prefix === undefined ? '<' : `<${prefix}${localName}`;
  for (let i = xml.indexOf(opener); i >= 0; i = xml.indexOf(opener, i + 1)) {
    const nameEnd = nameEndAt(xml, i + 1, localName, prefix);
    if (nameEnd < 0 || !isSpace(xml, nameEnd)) continue;
    const gt = nextGt(nameEnd);
    if (gt < 0) break;
    out.push(xml.slice(i, gt + 1));
    i = gt;
  }
  return out;
}

/**
 * The first start tag of `localName` (prefix undefined: any prefix) and its text, linear in `xml`.
 * `boundary` 'tag': `<name>`, `<name/>` or `<name` + whitespace + anything up to the first `>`;
 * 'word': `<name` + any character that is not a word character + anything up to the first `>`.
 */
export function firstStartTag(xml: string, localName: string, prefix: string | undefined, boundary: 'tag' | 'word'): string | null {
  const nextGt = forwardFinder((from) => xml.indexOf('>', from));
  const opener = prefix === undefined ? '<' : `<${prefix}${localName}`;
  for (let i = xml.indexOf(opener); i >= 0; i = xml.indexOf(opener, i + 1)) {
    const nameEnd = nameEndAt(xml, i + 1, localName, prefix);
    if (nameEnd < 0) continue;
    const c = xml.charCodeAt(nameEnd);
    let gt = -2;
    const word = isNameStart(c) || (c >= 48 && c <= 57);
    if (boundary === 'word' ? nameEnd < xml.length && !word : isSpace(xml, nameEnd)) gt = nextGt(nameEnd);
    else if (boundary === 'tag' && c === 62) gt = nameEnd;
    else if (boundary === 'tag' && c === 47 && xml.charCodeAt(nameEnd + 1) === 62) gt = nameEnd + 1;
    if (gt === -1) return null;
    if (gt >= 0) return xml.slice(i, gt + 1);
  }
  return null;
}

/** Namespace prefix (with colon, or '') of the document's root element, e.g. `x:` for `<x:worksheet>`. */
export function rootPrefix(xml: string, localName: string): string {
  const m = new RegExp(`<([A-Za-z_][\\w.-]*:)?${localName}[\\s>/]`).exec(xml);
  return m?.[1] ?? '';
}

/** `fragment` without its `<prefix:name ...>...</prefix:name>` elements (first end tag closes). */
function withoutElements(fragment: string, localName: string, prefix: string): string {
  const open = `<${prefix}${localName}`;
  const close = `</${prefix}${localName}>`;
  const nextClose = forwardFinder((from) => fragment.indexOf(close, from));
  let out = '';
  let kept = 0;
  for (let i = fragment.indexOf(open); i >= 0; i = fragment.indexOf(open, i + 1)) {
    // `\b` after the name: the next character is not a word character.
    const c = fragment.charCodeAt(i + open.length);
    if (isNameStart(c) || (c >= 48 && c <= 57)) continue;
    const end = nextClose(i + open.length);
    if (end < 0) break;
    out += fragment.slice(kept, i);
    kept = end + close.length;
    i = kept - 1;
  }
  return kept === 0 ? fragment : out + fragment.slice(kept);
}

/** Text content of every `<t>` inside `fragment` except phonetic runs (`<rPh>`), decoded. */
export function richText(fragment: string, prefix: string): string {
  const withoutPhonetic = fragment.indexOf('rPh') >= 0 ? withoutElements(fragment, 'rPh', prefix) : fragment;
  return decodeXstring(decodeEntities(textElements(withoutPhonetic, 't', prefix).join('')));
}

// ignoreBOM keeps a byte-order mark in the text, so a rewritten part keeps it too.
export const utf8Decoder = new TextDecoder('utf-8', { ignoreBOM: true });
export const utf8Encoder = new TextEncoder();

/** Decodes an XML part; only UTF-8 is supported (Excel and every common writer use it). */
export function decodeXmlPart(bytes: Uint8Array, name: string): string {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 100));
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff) || /encoding=["']utf-16/i.test(head)) {
    throw new Error(`${name} is UTF-16 encoded XML, which is not supported.`);
  }
  return utf8Decoder.decode(bytes);
}
