/** The value a spreadsheet shows for one `<c>` element: cached results for formulas, decoded text. */
import type { CellSpan } from './sheet-scan';
import { attributes, decodeEntities, decodeXstring, firstContent, firstElement, richText } from './xml';

export interface RawCell {
  value: string | number | boolean | null;
  /** The stored text of `<v>` (entity-decoded) before typing; the inline or shared text for strings. */
  text: string | null;
  hasFormula: boolean;
  /** Index into styles.xml cellXfs; 0 when absent. */
  style: number;
  /** The `t` attribute, 'n' when absent. */
  type: string;
}

export type SharedStringLookup = (index: number) => string | undefined;

const formulaPatterns = new Map<string, RegExp>();

/** Built once per namespace prefix: a sheet has up to millions of cells. */
function formulaPattern(prefix: string): RegExp {
  let p = formulaPatterns.get(prefix);
  if (!p) formulaPatterns.set(prefix, (p = new RegExp(`<${prefix}f[\\s>/]`)));
  return p;
}

/** Content of the first `<is>...</is>`; two searches, where a lazy regex would rescan for every unclosed `<is>`. */
function inlineContent(inner: string, prefix: string): string | null {
  const open = inner.indexOf(`<${prefix}is>`);
  if (open < 0) return null;
  const from = open + prefix.length + 4;
  const close = inner.indexOf(`</${prefix}is>`, from);
  return close < 0 ? null : inner.slice(from, close);
}

export function readCell(xml: string, span: CellSpan, prefix: string, sharedString: SharedStringLookup): RawCell {
  const attrs = attributes(xml.slice(span.start, span.openEnd));
  const type = attrs.get('t') ?? 'n';
  const style = Number(attrs.get('s') ?? 0) || 0;
  if (span.selfClosing) return { value: null, text: null, hasFormula: false, style, type };
  const inner = xml.slice(span.openEnd, span.end - `</${prefix}c>`.length);
  const hasFormula = formulaPattern(prefix).test(inner);
  let value: RawCell['value'] = null;
  let text: string | null = null;
  if (type === 'inlineStr') {
    const is = inlineContent(inner, prefix);
    value = text = is !== null ? richText(is, prefix) : '';
  } else {
    const v = firstContent(inner, 'v', prefix);
    text = v !== null ? decodeEntities(v) : null;
    if (text !== null) {
      switch (type) {
        case 's':
          value = text = sharedString(Number(text)) ?? '';
          break;
        case 'str':
          value = text = decodeXstring(text);
          break;
        case 'b':
          value = text === '1' || text === 'true';
          break;
        case 'e':
        case 'd':
          value = text;
          break;
        default: {
          const n = Number(text);
          value = text.trim() !== '' && Number.isFinite(n) ? n : text;
        }
      }
    }
  }
  return { value, text, hasFormula, style, type };
}

/**
 * The formula of a cell that has one: its text (without `=`, entities decoded; '' for a copy of a shared
 * formula, which names only its group) and, for a shared formula, its group index `si`.
 */
export function readFormula(xml: string, span: CellSpan): { text: string; shared: string | null } | null {
  if (span.selfClosing) return null;
  const f = firstElement(xml.slice(span.openEnd, span.end), 'f');
  if (!f) return null;
  const shared = f.attrs.get('t') === 'shared' ? (f.attrs.get('si') ?? null) : null;
  return { text: decodeEntities(f.inner), shared };
}
