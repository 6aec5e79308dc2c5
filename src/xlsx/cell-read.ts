/** The value a spreadsheet shows for one `<c>` element: cached results for formulas, decoded text. */
import type { CellSpan } from './sheet-scan';
import { attributes, decodeEntities, decodeXstring, richText } from './xml';

export interface RawCell {
  value: string | number | boolean | null;
  hasFormula: boolean;
  /** Index into styles.xml cellXfs; 0 when absent. */
  style: number;
  /** The `t` attribute, 'n' when absent. */
  type: string;
}

export type SharedStringLookup = (index: number) => string | undefined;

export function readCell(xml: string, span: CellSpan, prefix: string, sharedString: SharedStringLookup): RawCell {
  const attrs = attributes(xml.slice(span.start, span.openEnd));
  const type = attrs.get('t') ?? 'n';
  const style = Number(attrs.get('s') ?? 0) || 0;
  if (span.selfClosing) return { value: null, hasFormula: false, style, type };
  const inner = xml.slice(span.openEnd, span.end - `</${prefix}c>`.length);
  const hasFormula = new RegExp(`<${prefix}f[\\s>/]`).test(inner);
  let value: RawCell['value'] = null;
  if (type === 'inlineStr') {
    const is = new RegExp(`<${prefix}is>([\\s\\S]*?)</${prefix}is>`).exec(inner);
    value = is ? richText(is[1]!, prefix) : '';
  } else {
    const v = new RegExp(`<${prefix}v(?:\\s[^>]*)?>([\\s\\S]*?)</${prefix}v>`).exec(inner);
    const text = v ? decodeEntities(v[1]!) : null;
    if (text !== null) {
      switch (type) {
        case 's':
          value = sharedString(Number(text)) ?? '';
          break;
        case 'str':
          value = decodeXstring(text);
          break;
        case 'b':
          value = text === '1' || text === 'true';
          break;
        case 'e':
          value = text;
          break;
        default: {
          const n = Number(text);
          value = text.trim() !== '' && Number.isFinite(n) ? n : text;
        }
      }
    }
  }
  return { value, hasFormula, style, type };
}
