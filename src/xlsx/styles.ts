/**
 * What a cell's style shows (number format, solid fill, lock, quote prefix), read from styles.xml; and
 * the one edit made to styles.xml: new cellXfs entries, each a copy of a cell's own style with another
 * fill or number format, appended so that no existing index moves and no other cell changes look.
 */
import { elements, escapeAttribute, firstElement, rootPrefix } from './xml';

export interface CellFormat {
  numberFormat: string;
  /** Solid fill `#RRGGBB`; null for none (theme colours from Office's default theme, with their tint). */
  fill: string | null;
  locked: boolean;
  /** Entered with a leading apostrophe: text that is never parsed. */
  quotePrefix: boolean;
}

export const GENERAL = 'General';

/** Excel's built-in number formats by id (en-US). */
const BUILTIN_FORMATS: Record<number, string> = {
  0: GENERAL,
  1: '0',
  2: '0.00',
  3: '#,##0',
  4: '#,##0.00',
  9: '0%',
  10: '0.00%',
  11: '0.00E+00',
  12: '# ?/?',
  13: '# ??/??',
  14: 'm/d/yyyy',
  15: 'd-mmm-yy',
  16: 'd-mmm',
  17: 'mmm-yy',
  18: 'h:mm AM/PM',
  19: 'h:mm:ss AM/PM',
  20: 'h:mm',
  21: 'h:mm:ss',
  22: 'm/d/yyyy h:mm',
  37: '#,##0 ;(#,##0)',
  38: '#,##0 ;[Red](#,##0)',
  39: '#,##0.00;(#,##0.00)',
  40: '#,##0.00;[Red](#,##0.00)',
  45: 'mm:ss',
  46: '[h]:mm:ss',
  47: 'mmss.0',
  48: '##0.0E+0',
  49: '@',
};

/** Office 2013+ default theme colours by theme index. */
const THEME_COLOURS = ['#FFFFFF', '#000000', '#E7E6E6', '#44546A', '#4472C4', '#ED7D31', '#A5A5A5', '#FFC000', '#5B9BD5', '#70AD47'];

/**
 * A colour with Excel's `tint` applied: the HLS luminance moved towards black (negative) or white
 * (positive), as Excel shades theme colours ("Text 1, lighter 35%" is black with tint 0.35).
 */
export function withTint(hex: string, tint: number): string {
  if (!tint || !Number.isFinite(tint)) return hex;
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255) as [number, number, number];
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  let l = (max + min) / 2;
  const d = max - min;
  const s = d === 0 ? 0 : d / (1 - Math.abs(2 * l - 1));
  let h = 0;
  if (d !== 0) h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  l = tint < 0 ? l * (1 + tint) : l * (1 - tint) + tint;
  const c = (1 - Math.abs(2 * l - 1)) * s;
  const x = c * (1 - Math.abs(((((h % 6) + 6) % 6) % 2) - 1));
  const m = l - c / 2;
  const hh = ((h % 6) + 6) % 6;
  const [r1, g1, b1] = hh < 1 ? [c, x, 0] : hh < 2 ? [x, c, 0] : hh < 3 ? [0, c, x] : hh < 4 ? [0, x, c] : hh < 5 ? [x, 0, c] : [c, 0, x];
  return `#${[r1, g1, b1]
    .map((v) =>
      Math.round(Math.min(1, Math.max(0, v + m)) * 255)
        .toString(16)
        .padStart(2, '0')
        .toUpperCase(),
    )
    .join('')}`;
}

function colourOf(attrs: Map<string, string> | undefined): string | null {
  if (!attrs) return null;
  const tint = Number(attrs.get('tint') ?? 0);
  const rgb = attrs.get('rgb');
  if (rgb && /^[0-9A-Fa-f]{8}$/.test(rgb)) return withTint(`#${rgb.slice(2).toUpperCase()}`, tint);
  const theme = attrs.get('theme');
  if (theme !== undefined) return withTint(THEME_COLOURS[Number(theme)] ?? '#C0C0C0', tint);
  const indexed = attrs.get('indexed');
  if (indexed !== undefined) return indexed === '64' ? null : '#C0C0C0';
  return null;
}

const isTrue = (v: string | undefined) => v === '1' || v === 'true';

function numberFormats(stylesXml: string): Map<number, string> {
  const formats = new Map(Object.entries(BUILTIN_FORMATS).map(([id, code]) => [Number(id), code]));
  for (const f of elements(firstElement(stylesXml, 'numFmts')?.inner ?? '', 'numFmt'))
    formats.set(Number(f.attrs.get('numFmtId')), f.attrs.get('formatCode') ?? '');
  return formats;
}

function fillColours(stylesXml: string): (string | null)[] {
  return elements(firstElement(stylesXml, 'fills')?.inner ?? '', 'fill').map((f) => {
    const pattern = firstElement(f.inner, 'patternFill');
    const type = pattern?.attrs.get('patternType');
    if (!pattern || !type || type === 'none') return null;
    return colourOf(firstElement(pattern.inner, 'fgColor')?.attrs) ?? colourOf(firstElement(pattern.inner, 'bgColor')?.attrs);
  });
}

/** The formats of the cellXfs entries, in index order ('' styles.xml: Excel's defaults). */
export function cellFormats(stylesXml: string): CellFormat[] {
  const formats = numberFormats(stylesXml);
  const fills = fillColours(stylesXml);
  return elements(firstElement(stylesXml, 'cellXfs')?.inner ?? '', 'xf').map((xf) => {
    const locked = firstElement(xf.inner, 'protection')?.attrs.get('locked');
    return {
      numberFormat: formats.get(Number(xf.attrs.get('numFmtId') ?? 0)) ?? GENERAL,
      fill: fills[Number(xf.attrs.get('fillId') ?? 0)] ?? null,
      locked: !(locked === '0' || locked === 'false'),
      quotePrefix: isTrue(xf.attrs.get('quotePrefix')),
    };
  });
}

/** Sets one attribute in a start tag's text (`<xf a="1" b="2">`), adding it when absent. */
function withAttribute(tag: string, name: string, value: string): string {
  const re = new RegExp(`(\\s${name}\\s*=\\s*)("[^"]*"|'[^']*')`);
  if (re.test(tag)) return tag.replace(re, `$1"${escapeAttribute(value)}"`);
  return tag.replace(/\s*(\/?>)$/, ` ${name}="${escapeAttribute(value)}"$1`);
}

/** Appends an element to a list (`<fills count="2">…</fills>`) and updates its count; returns the new index. */
function appendTo(xml: string, prefix: string, list: string, child: string, element: string, emptyListAfter: string | null): { xml: string; index: number } {
  const open = new RegExp(`<${prefix}${list}(\\s[^>]*)?>`).exec(xml);
  if (!open) {
    if (emptyListAfter === null) throw new Error(`styles.xml has no <${list}>`);
    const at = xml.indexOf('>', new RegExp(`<${prefix}${emptyListAfter}[\\s>]`).exec(xml)!.index) + 1;
    return { xml: `${xml.slice(0, at)}<${prefix}${list} count="1">${element}</${prefix}${list}>${xml.slice(at)}`, index: 0 };
  }
  const close = xml.indexOf(`</${prefix}${list}>`, open.index);
  const inner = xml.slice(open.index + open[0].length, close);
  const index = elements(inner, child).length;
  const tag = withAttribute(open[0], 'count', String(index + 1));
  return { xml: xml.slice(0, open.index) + tag + inner + element + xml.slice(close), index };
}

/**
 * Adds cell styles to styles.xml: `styleFor(base, format)` is the index of a copy of style `base` with
 * that fill, number format and quote prefix (the base itself when it already looks so).
 */
export class StyleEditor {
  private xml: string;
  private readonly prefix: string;
  private readonly formats: CellFormat[];
  private readonly made = new Map<string, number>();

  constructor(stylesXml: string) {
    this.xml = stylesXml;
    this.prefix = rootPrefix(stylesXml, 'styleSheet');
    this.formats = cellFormats(stylesXml);
  }

  get changed(): boolean {
    return this.made.size > 0;
  }

  text(): string {
    return this.xml;
  }

  styleFor(base: number, want: Omit<CellFormat, 'locked'>): number {
    const now = this.formats[base] ?? this.formats[0];
    if (now && now.fill === want.fill && now.numberFormat === want.numberFormat && now.quotePrefix === want.quotePrefix) return base;
    const key = JSON.stringify([base, want.fill, want.numberFormat, want.quotePrefix]);
    const known = this.made.get(key);
    if (known !== undefined) return known;
    const xfs = elements(firstElement(this.xml, 'cellXfs')?.inner ?? '', 'xf');
    const source = xfs[base] ?? xfs[0];
    let tag = source
      ? `<${this.prefix}xf${[...source.attrs].map(([k, v]) => ` ${k}="${escapeAttribute(v)}"`).join('')}>`
      : `<${this.prefix}xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0">`;
    if (!now || now.fill !== want.fill) tag = withAttribute(withAttribute(tag, 'fillId', String(this.fillId(want.fill))), 'applyFill', '1');
    if (!now || now.numberFormat !== want.numberFormat)
      tag = withAttribute(withAttribute(tag, 'numFmtId', String(this.numberFormatId(want.numberFormat))), 'applyNumberFormat', '1');
    tag = withAttribute(tag, 'quotePrefix', want.quotePrefix ? '1' : '0');
    const { xml, index } = appendTo(this.xml, this.prefix, 'cellXfs', 'xf', `${tag}${source?.inner ?? ''}</${this.prefix}xf>`, null);
    this.xml = xml;
    this.formats[index] = { ...want, locked: now?.locked ?? true };
    this.made.set(key, index);
    return index;
  }

  private fillId(colour: string | null): number {
    if (colour === null) return 0;
    const p = this.prefix;
    const element = `<${p}fill><${p}patternFill patternType="solid"><${p}fgColor rgb="FF${colour.slice(1).toUpperCase()}"/><${p}bgColor indexed="64"/></${p}patternFill></${p}fill>`;
    const { xml, index } = appendTo(this.xml, p, 'fills', 'fill', element, null);
    this.xml = xml;
    return index;
  }

  private numberFormatId(code: string): number {
    for (const [id, c] of numberFormats(this.xml)) if (c === code) return id;
    const used = elements(firstElement(this.xml, 'numFmts')?.inner ?? '', 'numFmt').map((f) => Number(f.attrs.get('numFmtId')));
    const id = Math.max(163, ...used) + 1;
    const element = `<${this.prefix}numFmt numFmtId="${id}" formatCode="${escapeAttribute(code)}"/>`;
    // <numFmts> is the first child of <styleSheet>.
    this.xml = appendTo(this.xml, this.prefix, 'numFmts', 'numFmt', element, 'styleSheet').xml;
    return id;
  }
}
