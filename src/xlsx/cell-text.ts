/**
 * Turning an answer into the text of an inline-string cell: what Excel accepts in a cell and what
 * XML can carry. Inline strings are never formulas, so `=cmd|...` stays text whatever it starts with.
 */
import { escapeText } from './xml';

/** Excel refuses (and repairs away) cells longer than this many UTF-16 code units. */
export const EXCEL_MAX_CELL_CHARS = 32_767;

export interface CellText {
  /** Escaped XML text for `<t>`. */
  xml: string;
  /** The text as the spreadsheet will show it. */
  shown: string;
  truncated: boolean;
}

const XSTRING_LITERAL_RE = /_(x[0-9A-Fa-f]{4}_)/g;
// Characters XML 1.0 cannot contain; Excel's `_xHHHH_` escape carries them.
// eslint-disable-next-line no-control-regex
const NOT_XML_RE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const LONE_SURROGATE_RE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function cellText(value: string): CellText {
  let shown = value.replace(/\r\n?/g, '\n').replace(LONE_SURROGATE_RE, '\uFFFD');
  let truncated = false;
  if (shown.length > EXCEL_MAX_CELL_CHARS) {
    let cut = EXCEL_MAX_CELL_CHARS - 1;
    if (/[\uD800-\uDBFF]/.test(shown[cut - 1] ?? '')) cut -= 1;
    shown = `${shown.slice(0, cut)}…`;
    truncated = true;
  }
  const xml = escapeText(
    shown.replace(XSTRING_LITERAL_RE, '_x005F_$1').replace(NOT_XML_RE, (c) => `_x${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}_`),
  );
  return { xml, shown, truncated };
}
