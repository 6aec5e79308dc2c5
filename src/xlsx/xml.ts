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

const ATTR_RE = /([A-Za-z_][\w.:-]*)\s*=\s*("([^"]*)"|'([^']*)')/g;

/** Attributes of an opening tag's text, by qualified name, values entity-decoded. */
export function attributes(tag: string): Map<string, string> {
  const out = new Map<string, string>();
  const open = tag.search(/\s/);
  if (open < 0) return out;
  ATTR_RE.lastIndex = open;
  for (let m = ATTR_RE.exec(tag); m; m = ATTR_RE.exec(tag)) out.set(m[1]!, decodeEntities(m[3] ?? m[4] ?? ''));
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

const elementRegexes = new Map<string, RegExp>();

/**
 * Every `<name ...>...</name>` or `<name .../>` in `xml`, whatever its namespace prefix. Not for
 * elements nested in themselves; SpreadsheetML's lists (sheets, fonts, xfs, mergeCells, ...) are flat.
 */
export function elements(xml: string, localName: string): XmlElement[] {
  let re = elementRegexes.get(localName);
  if (!re) {
    re = new RegExp(`<(?:[\\w.-]+:)?${localName}(?=[\\s/>])([^>]*?)(?:/>|>([\\s\\S]*?)</(?:[\\w.-]+:)?${localName}>)`, 'g');
    elementRegexes.set(localName, re);
  }
  const out: XmlElement[] = [];
  re.lastIndex = 0;
  for (let m = re.exec(xml); m; m = re.exec(xml)) out.push({ attrs: attributes(`<x${m[1]}>`), inner: m[2] ?? '' });
  return out;
}

export function firstElement(xml: string, localName: string): XmlElement | null {
  return elements(xml, localName)[0] ?? null;
}

/** Namespace prefix (with colon, or '') of the document's root element, e.g. `x:` for `<x:worksheet>`. */
export function rootPrefix(xml: string, localName: string): string {
  const m = new RegExp(`<([A-Za-z_][\\w.-]*:)?${localName}[\\s>/]`).exec(xml);
  return m?.[1] ?? '';
}

/** Text content of every `<t>` inside `fragment` except phonetic runs (`<rPh>`), decoded. */
export function richText(fragment: string, prefix: string): string {
  const withoutPhonetic = fragment.indexOf('rPh') >= 0
    ? fragment.replace(new RegExp(`<${prefix}rPh\\b[\\s\\S]*?</${prefix}rPh>`, 'g'), '')
    : fragment;
  let out = '';
  const re = new RegExp(`<${prefix}t(?:\\s[^>]*)?(?:/>|>([\\s\\S]*?)</${prefix}t>)`, 'g');
  for (let m = re.exec(withoutPhonetic); m; m = re.exec(withoutPhonetic)) out += m[1] ?? '';
  return decodeXstring(decodeEntities(out));
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
