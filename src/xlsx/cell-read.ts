/** The value a spreadsheet shows for one `<c>` element: cached results for formulas, decoded text. */
import type { CellSpan } from './sheet-scan';
import { attributes, decodeEntities, decodeXstring, richText } from './xml';

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

interface CellPatterns {
  formula: RegExp;
  inline: RegExp;
  value: RegExp;
}

// Built once per namespace prefix: a sheet has up to millions of cells.
const patternsByPrefix = new Map<string, CellPatterns>();

function patterns(prefix: string): CellPatterns {
  let p = patternsByPrefix.get(prefix);
  if (!p) {
    p = {
      formula: new RegExp(`<${prefix}f[\\s>/]`),
      inline: new RegExp(`<${prefix}is>([\\s\\S]*?)</${prefix}is>`),
      value: new RegExp(`<${prefix}v(?:\\s[^>]*)?>([\\s\\S]*?)</${prefix}v>`),
    };
    patternsByPrefix.set(prefix, p);
  }
  return p;
}

export function readCell(xml: string, span: CellSpan, prefix: string, sharedString: SharedStringLookup): RawCell {
  const attrs = attributes(xml.slice(span.start, span.openEnd));
  const type = attrs.get('t') ?? 'n';
  const style = Number(attrs.get('s') ?? 0) || 0;
  if (span.selfClosing) return { value: null, text: null, hasFormula: false, style, type };
  const inner = xml.slice(span.openEnd, span.end - `</${prefix}c>`.length);
  const p = patterns(prefix);
  const hasFormula = p.formula.test(inner);
  let value: RawCell['value'] = null;
  let text: string | null = null;
  if (type === 'inlineStr') {
    const is = p.inline.exec(inner);
    value = text = is ? richText(is[1]!, prefix) : '';
  } else {
    const v = p.value.exec(inner);
    text = v ? decodeEntities(v[1]!) : null;
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
