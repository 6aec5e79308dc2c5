/**
 * String surgery on a worksheet part: replaces (or creates, in order) only the `<c>` elements of
 * the written cells; every other character of the part is kept. A written cell keeps its `r`, its
 * style `s` (unless the write gives another) and any other attribute except the value type and cell
 * metadata; text becomes an inline string, so sharedStrings.xml is never touched. The fill writes
 * text only; numbers, booleans and formulas are what the workbench's download carries of a typed cell.
 */
import { type Cell, formatCell } from './ranges';
import { type CellSpan, type SheetLayout, findRow, layoutSheet, rowCells } from './sheet-scan';
import { cellText } from './cell-text';
import { XlsxError } from './errors';
import { escapeText } from './xml';

export interface SheetCellWrite {
  ref: Cell;
  /** null clears the cell's value (keeping its style); used to blank completed questionnaires. */
  value: string | number | boolean | null;
  /** A formula (without `=`) written with no cached value: the workbook recalculates on open. */
  formula?: string;
  /** A cellXfs index replacing the cell's style. */
  style?: number;
}

export interface PatchNote {
  address: string;
  note: string;
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

// Attributes that describe the old value: `t` (type), `cm`/`vm` (cell and value metadata of
// dynamic arrays and rich values). Anything else (`r`, `s`, `ph`) is kept as written.
const DROPPED_ATTR_RE = /\s(?:t|cm|vm)\s*=\s*(?:"[^"]*"|'[^']*')/g;

function inlineCell(prefix: string, openAttrs: string, w: Omit<SheetCellWrite, 'ref'>): string {
  const p = prefix;
  const { value } = w;
  if (w.formula !== undefined) return `<${p}c${openAttrs}><${p}f>${escapeText(w.formula)}</${p}f></${p}c>`;
  if (value === null) return `<${p}c${openAttrs}/>`;
  if (typeof value === 'number') return `<${p}c${openAttrs}><${p}v>${value}</${p}v></${p}c>`;
  if (typeof value === 'boolean') return `<${p}c${openAttrs} t="b"><${p}v>${value ? 1 : 0}</${p}v></${p}c>`;
  const { xml } = cellText(value);
  return `<${p}c${openAttrs} t="inlineStr"><${p}is><${p}t xml:space="preserve">${xml}</${p}t></${p}is></${p}c>`;
}

function newCellAttrs(ref: Cell, styleFor: (ref: Cell) => number, style?: number): string {
  const s = style ?? styleFor(ref);
  return ` r="${formatCell(ref)}"${s ? ` s="${s}"` : ''}`;
}

const STYLE_ATTR_RE = /\ss\s*=\s*(?:"[^"]*"|'[^']*')/;

function keptAttributes(openTag: string, prefix: string, style?: number): string {
  const body = openTag.slice(`<${prefix}c`.length).replace(/\/?>$/, '');
  const kept = body.replace(DROPPED_ATTR_RE, '').replace(/\s+$/, '');
  if (style === undefined) return kept;
  const s = style ? ` s="${style}"` : '';
  return STYLE_ATTR_RE.test(kept) ? kept.replace(STYLE_ATTR_RE, s) : kept + s;
}

/** A write that changes nothing where there is no cell: clearing a value, style and formula untouched. */
const onlyClears = (w: Omit<SheetCellWrite, 'ref'>) => w.value === null && w.formula === undefined && w.style === undefined;

/** Returns the patched part text and notes on values that had to be changed (truncation). */
export function patchSheet(
  xml: string,
  prefix: string,
  partName: string,
  writes: readonly SheetCellWrite[],
  hasFormulaAt?: (address: string) => boolean,
  styleForNewCell: (ref: Cell) => number = () => 0,
  knownLayout?: SheetLayout,
): { xml: string; notes: PatchNote[] } {
  const layout = knownLayout ?? layoutSheet(xml, prefix, partName);
  const notes: PatchNote[] = [];
  const byRow = new Map<number, Map<number, SheetCellWrite>>();
  for (const w of writes) {
    if (onlyClears(w) && findRow(layout.rows, w.ref.row) < 0) continue; // nothing there to clear
    const cols = byRow.get(w.ref.row) ?? new Map<number, SheetCellWrite>();
    cols.set(w.ref.column, w);
    byRow.set(w.ref.row, cols);
    if (typeof w.value !== 'string' || w.formula !== undefined) continue;
    const t = cellText(w.value);
    if (t.truncated) notes.push({ address: formatCell(w.ref), note: `truncated to Excel's limit of 32,767 characters` });
  }

  const edits: Edit[] = [];
  const newRows: { r: number; at: number; text: string }[] = [];
  for (const [r, cols] of byRow) {
    const idx = findRow(layout.rows, r);
    if (idx >= 0) {
      edits.push(...rowEdits(xml, layout, idx, cols, partName, hasFormulaAt, styleForNewCell));
    } else {
      const insertBefore = -idx - 1;
      const at = insertBefore < layout.rows.length ? layout.rows[insertBefore]!.start : layout.dataClose;
      const cells = [...cols.entries()].sort((a, b) => a[0] - b[0]);
      const text =
        `<${prefix}row r="${r}">` +
        cells.map(([col, w]) => inlineCell(prefix, newCellAttrs({ row: r, column: col }, styleForNewCell, w.style), w)).join('') +
        `</${prefix}row>`;
      newRows.push({ r, at, text });
    }
  }
  if (newRows.length) {
    newRows.sort((a, b) => a.r - b.r);
    if (layout.dataClose < 0) {
      // `<sheetData/>`: open it up to hold the new rows.
      const open = xml.slice(layout.dataStart, layout.dataOpenEnd).replace(/\s*\/>$/, '>');
      edits.push({
        start: layout.dataStart,
        end: layout.dataOpenEnd,
        text: open + newRows.map((n) => n.text).join('') + `</${prefix}sheetData>`,
      });
    } else {
      for (const n of newRows) edits.push({ start: n.at, end: n.at, text: n.text });
      // Rows without `r` are numbered by position: pin their numbers before inserting rows among them.
      for (const row of layout.rows) {
        if (!row.hasR && !(row.selfClosing && byRow.has(row.r)))
          edits.push({ start: row.start + `<${prefix}row`.length, end: row.start + `<${prefix}row`.length, text: ` r="${row.r}"` });
      }
    }
  }
  return { xml: applyEdits(xml, edits), notes };
}

function rowEdits(
  xml: string,
  layout: SheetLayout,
  idx: number,
  cols: Map<number, SheetCellWrite>,
  partName: string,
  hasFormulaAt: ((address: string) => boolean) | undefined,
  styleForNewCell: (ref: Cell) => number,
): Edit[] {
  const { prefix } = layout;
  const row = layout.rows[idx]!;
  const cells = rowCells(xml, row, prefix, partName);
  const edits: Edit[] = [];
  const byCol0 = new Set(cells.map((c) => c.ref.column));
  // Clearing a cell that does not exist changes nothing.
  const pending = [...cols.entries()].filter(([c, w]) => !onlyClears(w) || byCol0.has(c)).sort((a, b) => a[0] - b[0]);
  const insertText = (col: number, w: SheetCellWrite) => inlineCell(prefix, newCellAttrs({ row: row.r, column: col }, styleForNewCell, w.style), w);

  if (row.selfClosing) {
    if (!pending.length) return edits;
    let open = xml.slice(row.start, row.openEnd).replace(/\s*\/>$/, '>');
    if (!row.hasR) open = `<${prefix}row r="${row.r}"${open.slice(`<${prefix}row`.length)}`;
    edits.push({ start: row.start, end: row.end, text: open + pending.map(([c, w]) => insertText(c, w)).join('') + `</${prefix}row>` });
    return edits;
  }
  const byCol = new Map<number, CellSpan>(cells.map((c) => [c.ref.column, c]));
  const rowContentEnd = row.end - `</${prefix}row>`.length;
  for (const [col, w] of pending) {
    const existing = byCol.get(col);
    if (existing) {
      const address = existing.address;
      if (hasFormulaAt?.(address) || new RegExp(`<${prefix}f[\\s>/]`).test(xml.slice(existing.openEnd, existing.end))) {
        throw new XlsxError('bad_write', `Refusing to write ${address} in ${partName}: the cell holds a formula.`);
      }
      const attrs = keptAttributes(xml.slice(existing.start, existing.openEnd), prefix, w.style);
      const withR = existing.hasR ? attrs : ` r="${address}"${attrs}`;
      edits.push({ start: existing.start, end: existing.end, text: inlineCell(prefix, withR, w) });
    } else {
      if (hasFormulaAt?.(formatCell({ row: row.r, column: col }))) {
        throw new XlsxError('bad_write', `Refusing to write ${formatCell({ row: row.r, column: col })} in ${partName}: the cell is part of an array formula.`);
      }
      const next = cells.find((c) => c.ref.column > col);
      const at = next ? next.start : rowContentEnd;
      edits.push({ start: at, end: at, text: insertText(col, w) });
    }
  }
  if (pending.some(([col]) => !byCol.has(col))) {
    // Cells without `r` are numbered by position: pin them before inserting cells among them.
    for (const c of cells) {
      if (!c.hasR && !cols.has(c.ref.column)) {
        const at = c.start + `<${prefix}c`.length;
        edits.push({ start: at, end: at, text: ` r="${c.address}"` });
      }
    }
  }
  return edits;
}

function applyEdits(xml: string, edits: Edit[]): string {
  if (!edits.length) return xml;
  // Stable order: by position, insertions at the same point in the order they were made.
  const ordered = edits.map((e, i) => ({ ...e, i })).sort((a, b) => a.start - b.start || a.end - b.end || a.i - b.i);
  const parts: string[] = [];
  let at = 0;
  for (const e of ordered) {
    if (e.start < at) throw new XlsxError('bad_write', 'Internal error: overlapping edits of a worksheet.');
    parts.push(xml.slice(at, e.start), e.text);
    at = e.end;
  }
  parts.push(xml.slice(at));
  return parts.join('');
}
