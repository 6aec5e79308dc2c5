/**
 * Positions of rows and cells inside a worksheet part's text, found by scanning, so that reads
 * look only at the cells asked for and writes replace only those cells' characters.
 */
import { lettersToColumn } from './a1';
import { type Cell, formatCell } from './ranges';
import { isSelfClosing, startTags, tagEnd } from './xml';

export interface RowSpan {
  r: number;
  /** False when the row has no `r` attribute (its number is implied by its position). */
  hasR: boolean;
  start: number;
  /** Index just after the opening tag. */
  openEnd: number;
  /** Index just after `</row>` (or after `/>` when self-closing). */
  end: number;
  selfClosing: boolean;
}

export interface CellSpan {
  ref: Cell;
  address: string;
  hasR: boolean;
  start: number;
  openEnd: number;
  end: number;
  selfClosing: boolean;
}

export interface SheetLayout {
  prefix: string;
  /** Start of `<sheetData` and end of its opening tag; `dataClose` is the index of `</sheetData>`, -1 when self-closing. */
  dataStart: number;
  dataOpenEnd: number;
  dataClose: number;
  rows: RowSpan[];
}

const CELL_REF_RE = /^([A-Za-z]{1,3})([0-9]+)$/;

const attrRegexes = new Map<string, RegExp>();

/** One attribute's raw value; runs once per row of a sheet, so its regex is built once. */
function attr(tag: string, name: string): string | undefined {
  let re = attrRegexes.get(name);
  if (!re) attrRegexes.set(name, (re = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`)));
  const m = re.exec(tag);
  return m ? (m[1] ?? m[2]) : undefined;
}

export function layoutSheet(xml: string, prefix: string, partName: string): SheetLayout {
  const dataRe = new RegExp(`<${prefix}sheetData[\\s>/]`, 'g');
  const found = dataRe.exec(xml);
  if (!found) throw new Error(`${partName} has no <sheetData> element.`);
  const dataStart = found.index;
  const dataOpenEnd = tagEnd(xml, dataStart);
  if (dataOpenEnd < 0) throw new Error(`${partName} is truncated.`);
  if (isSelfClosing(xml, dataOpenEnd)) return { prefix, dataStart, dataOpenEnd, dataClose: -1, rows: [] };
  const closeTag = `</${prefix}sheetData>`;
  const dataClose = xml.indexOf(closeTag, dataOpenEnd);
  if (dataClose < 0) throw new Error(`${partName} has no </sheetData>.`);

  const rows: RowSpan[] = [];
  const rowRe = new RegExp(`<${prefix}row[\\s>/]`, 'g');
  const rowClose = `</${prefix}row>`;
  rowRe.lastIndex = dataOpenEnd;
  let previous = 0;
  for (let m = rowRe.exec(xml); m && m.index < dataClose; m = rowRe.exec(xml)) {
    const start = m.index;
    const openEnd = tagEnd(xml, start);
    if (openEnd < 0) throw new Error(`${partName} is truncated inside a row.`);
    const tag = xml.slice(start, openEnd);
    const rText = attr(tag, 'r');
    const r = rText !== undefined ? Number(rText) : previous + 1;
    if (!Number.isInteger(r) || r < 1) throw new Error(`${partName} has a row with an invalid number "${rText}".`);
    const selfClosing = isSelfClosing(xml, openEnd);
    let end = openEnd;
    if (!selfClosing) {
      const close = xml.indexOf(rowClose, openEnd);
      if (close < 0 || close > dataClose) throw new Error(`${partName} has an unterminated row ${r}.`);
      end = close + rowClose.length;
    }
    rows.push({ r, hasR: rText !== undefined, start, openEnd, end, selfClosing });
    previous = r;
    rowRe.lastIndex = end;
  }
  return { prefix, dataStart, dataOpenEnd, dataClose, rows };
}

/** The cells of one row, in document order. */
export function rowCells(xml: string, row: RowSpan, prefix: string, partName: string): CellSpan[] {
  if (row.selfClosing) return [];
  const cells: CellSpan[] = [];
  const cellRe = new RegExp(`<${prefix}c[\\s>/]`, 'g');
  const cellClose = `</${prefix}c>`;
  const rowContentEnd = row.end - `</${prefix}row>`.length;
  cellRe.lastIndex = row.openEnd;
  let previousCol = 0;
  for (let m = cellRe.exec(xml); m && m.index < rowContentEnd; m = cellRe.exec(xml)) {
    const start = m.index;
    const openEnd = tagEnd(xml, start);
    const tag = xml.slice(start, openEnd);
    const rText = attr(tag, 'r');
    let col = previousCol + 1;
    if (rText !== undefined) {
      const parts = CELL_REF_RE.exec(rText);
      const column = parts ? lettersToColumn(parts[1]!) : null;
      if (column === null) throw new Error(`${partName} has a cell with an invalid reference "${rText}".`);
      col = column;
    }
    const selfClosing = isSelfClosing(xml, openEnd);
    let end = openEnd;
    if (!selfClosing) {
      const close = xml.indexOf(cellClose, openEnd);
      if (close < 0 || close > rowContentEnd) throw new Error(`${partName} has an unterminated cell in row ${row.r}.`);
      end = close + cellClose.length;
    }
    const ref = { row: row.r, column: col };
    cells.push({ ref, address: formatCell(ref), hasR: rText !== undefined, start, openEnd, end, selfClosing });
    previousCol = col;
    cellRe.lastIndex = end;
  }
  return cells;
}

/** Binary search: index of the row numbered `r`, or -(insertion point) - 1. */
export function findRow(rows: readonly RowSpan[], r: number): number {
  let lo = 0;
  let hi = rows.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = rows[mid]!.r;
    if (v === r) return mid;
    if (v < r) lo = mid + 1;
    else hi = mid - 1;
  }
  return -lo - 1;
}

export interface ColumnStyle {
  min: number;
  max: number;
  style: number;
}

export interface ColumnInfo extends ColumnStyle {
  hidden: boolean;
}

const isTrue = (v: string | undefined) => v === '1' || v === 'true';

/** The `<col min max style hidden>` entries of `<cols>`. */
export function parseColumns(xml: string, prefix: string): ColumnInfo[] {
  // The first `<cols>` that has an end tag: two searches, where a lazy regex rescans for every unclosed one.
  const open = xml.indexOf(`<${prefix}cols>`);
  const close = open < 0 ? -1 : xml.indexOf(`</${prefix}cols>`, open);
  if (close < 0) return [];
  const cols = xml.slice(open + prefix.length + 6, close);
  const out: ColumnInfo[] = [];
  for (const tag of startTags(cols, 'col', prefix)) {
    out.push({
      min: Number(attr(tag, 'min') ?? 0),
      max: Number(attr(tag, 'max') ?? 0),
      style: Number(attr(tag, 'style') ?? 0) || 0,
      // A zero width hides a column as surely as the flag does.
      hidden: isTrue(attr(tag, 'hidden')) || attr(tag, 'width') === '0',
    });
  }
  return out;
}

/** Columns with a style: the style Excel gives a new cell in those columns. */
export function parseColumnStyles(xml: string, prefix: string): ColumnStyle[] {
  return parseColumns(xml, prefix).filter((c) => c.style !== 0);
}

/** A row's own formatting: hidden, and the style its empty cells show when `customFormat` is set. */
export function rowFormat(xml: string, row: RowSpan): { hidden: boolean; style: number | null } {
  const tag = xml.slice(row.start, row.openEnd);
  return {
    hidden: isTrue(attr(tag, 'hidden')),
    style: isTrue(attr(tag, 'customFormat')) ? Number(attr(tag, 's') ?? 0) || 0 : null,
  };
}

/**
 * The style of a cell that has no `<c>` element: the row's style when the row is formatted
 * (`customFormat="1"`), else its column's, else 0 (the same rule Excel follows when you type).
 */
export function inheritedStyle(xml: string, layout: SheetLayout, columns: readonly ColumnStyle[], ref: Cell): number {
  const idx = findRow(layout.rows, ref.row);
  if (idx >= 0) {
    const style = rowFormat(xml, layout.rows[idx]!).style;
    if (style !== null) return style;
  }
  return columns.find((c) => ref.column >= c.min && ref.column <= c.max)?.style ?? 0;
}
