/**
 * Minimal, fast scanning of SpreadsheetML parts. The parts are machine-written and regular, so
 * regular expressions over the text are enough and several times faster than building a DOM
 * (a 5 MB workbook holds tens of MB of sheet XML).
 */

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Decodes XML entities and OOXML's `_xHHHH_` escapes. */
export function decodeXml(s: string): string {
  let out = s;
  if (out.includes('&')) {
    out = out.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (_, e: string) => {
      if (e[0] === '#') {
        const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
        return Number.isFinite(code) ? String.fromCodePoint(code) : '';
      }
      return NAMED[e] ?? '';
    });
  }
  if (out.includes('_x')) {
    out = out.replace(/_x([0-9A-Fa-f]{4})_/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  }
  return out;
}

/** Attributes of a start tag's attribute text; names keep their prefix (`r:id`), both quote styles. */
export function attrs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const re = /([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) out[m[1]] = decodeXml(m[2] ?? m[3] ?? '');
  return out;
}

/** Every element `<tag ...>...</tag>` or `<tag .../>` (any namespace prefix), as attrs + inner text. */
export function elements(xml: string, tag: string): { attrs: Record<string, string>; inner: string }[] {
  const out: { attrs: Record<string, string>; inner: string }[] = [];
  const re = new RegExp(`<(?:[\\w]+:)?${tag}(\\s[^>]*?)?(?:/>|>([\\s\\S]*?)</(?:[\\w]+:)?${tag}>)`, 'g');
  let m: RegExpExecArray | null;
  while ((m = re.exec(xml)) !== null) out.push({ attrs: attrs(m[1] ?? ''), inner: m[2] ?? '' });
  return out;
}

export function firstElement(xml: string, tag: string): { attrs: Record<string, string>; inner: string } | null {
  return elements(xml, tag)[0] ?? null;
}

/** Concatenated text of the `<t>` runs of a string item, ignoring phonetic runs (`<rPh>`). */
export function runText(inner: string): string {
  const body = inner.includes('<rPh') ? inner.replace(/<rPh\b[\s\S]*?<\/rPh>/g, '') : inner;
  let s = '';
  const re = /<t(?:\s[^>]*)?(?:\/>|>([\s\S]*?)<\/t>)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(body)) !== null) s += m[1] ?? '';
  return decodeXml(s);
}

export function stripBom(s: string): string {
  return s.charCodeAt(0) === 0xfeff ? s.slice(1) : s;
}
