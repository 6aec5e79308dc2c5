/**
 * String surgery on a worksheet part: replaces (or creates, in order) only the `<c>` elements of
 * the written cells; every other character of the part is kept. A written cell keeps its `r`, its
 * style `s` and any other attribute except the value type and cell metadata, and becomes an
 * inline string, so sharedStrings.xml is never touched.
 */
import { type CellRef, formatCell } from './ranges';
import { type CellSpan, type SheetLayout, findRow, layoutSheet, rowCells } from './sheet-scan';
import { cellText } from './cell-text';
import { XlsxError } from './errors';

export interface SheetCellWrite {
  ref: CellRef;
  /** null clears the cell's value (keeping its style); used to blank completed questionnaires. */
  value: string | null;
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

function inlineCell(prefix: string, openAttrs: string, value: string | null): string {
  if (value === null) return `<${prefix}c${openAttrs}/>`;
  const { xml } = cellText(value);
  const p = prefix;
  return `<${p}c${openAttrs} t="inlineStr"><${p}is><${p}t xml:space="preserve">${xml}</${p}t></${p}is></${p}c>`;
}

function newCellAttrs(ref: CellRef, styleFor: (ref: CellRef) => number): string {
  const style = styleFor(ref);
  return ` r="${formatCell(ref)}"${style ? ` s="${style}"` : ''}`;
}

function keptAttributes(openTag: string, prefix: string): string {
  const body = openTag.slice(`<${prefix}c`.length).replace(/\/?>$/, '');
  return body.replace(DROPPED_ATTR_RE, '').replace(/\s+$/, '');
}

/** Returns the patched part text and notes on values that had to be changed (truncation). */
export function patchSheet(
  xml: string,
  prefix: string,
  partName: string,
  writes: readonly SheetCellWrite[],
  hasFormulaAt?: (address: string) => boolean,
  styleForNewCell: (ref: CellRef) => number = () => 0,
  knownLayout?: SheetLayout,
): { xml: string; notes: PatchNote[] } {
  const layout = knownLayout ?? layoutSheet(xml, prefix, partName);
  const notes: PatchNote[] = [];
  const byRow = new Map<number, Map<number, string | null>>();
  for (const w of writes) {
    if (w.value === null && findRow(layout.rows, w.ref.row) < 0) continue; // nothing there to clear
    const cols = byRow.get(w.ref.row) ?? new Map<number, string | null>();
    cols.set(w.ref.col, w.value);
    byRow.set(w.ref.row, cols);
    if (w.value === null) continue;
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
        cells.map(([col, v]) => inlineCell(prefix, newCellAttrs({ row: r, col }, styleForNewCell), v)).join('') +
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
        if (!row.hasR && !(row.selfClosing && byRow.has(row.r))) edits.push({ start: row.start + `<${prefix}row`.length, end: row.start + `<${prefix}row`.length, text: ` r="${row.r}"` });
      }
    }
  }
  return { xml: applyEdits(xml, edits), notes };
}

function rowEdits(
  xml: string,
  layout: SheetLayout,
  idx: number,
  cols: Map<number, string | null>,
  partName: string,
  hasFormulaAt: ((address: string) => boolean) | undefined,
  styleForNewCell: (ref: CellRef) => number,
): Edit[] {
  const { prefix } = layout;
  const row = layout.rows[idx]!;
  const cells = rowCells(xml, row, prefix, partName);
  const edits: Edit[] = [];
  const byCol0 = new Set(cells.map((c) => c.ref.col));
  // Clearing a cell that does not exist changes nothing.
  const pending = [...cols.entries()].filter(([c, v]) => v !== null || byCol0.has(c)).sort((a, b) => a[0] - b[0]);
  const insertText = (col: number, v: string | null) => inlineCell(prefix, newCellAttrs({ row: row.r, col }, styleForNewCell), v);

  if (row.selfClosing) {
    if (!pending.length) return edits;
    let open = xml.slice(row.start, row.openEnd).replace(/\s*\/>$/, '>');
    if (!row.hasR) open = `<${prefix}row r="${row.r}"${open.slice(`<${prefix}row`.length)}`;
    edits.push({ start: row.start, end: row.end, text: open + pending.map(([c, v]) => insertText(c, v)).join('') + `</${prefix}row>` });
    return edits;
  }
  const byCol = new Map<number, CellSpan>(cells.map((c) => [c.ref.col, c]));
  const rowContentEnd = row.end - `</${prefix}row>`.length;
  for (const [col, value] of pending) {
    const existing = byCol.get(col);
    if (existing) {
      const address = existing.address;
      if (hasFormulaAt?.(address) || new RegExp(`<${prefix}f[\\s>/]`).test(xml.slice(existing.openEnd, existing.end))) {
        throw new XlsxError('bad_write', `Refusing to write ${address} in ${partName}: the cell holds a formula.`);
      }
      const attrs = keptAttributes(xml.slice(existing.start, existing.openEnd), prefix);
      const withR = existing.hasR ? attrs : ` r="${address}"${attrs}`;
      edits.push({ start: existing.start, end: existing.end, text: inlineCell(prefix, withR, value) });
    } else {
      if (hasFormulaAt?.(formatCell({ row: row.r, col }))) {
        throw new XlsxError('bad_write', `Refusing to write ${formatCell({ row: row.r, col })} in ${partName}: the cell is part of an array formula.`);
      }
      const next = cells.find((c) => c.ref.col > col);
      const at = next ? next.start : rowContentEnd;
      edits.push({ start: at, end: at, text: insertText(col, value) });
    }
  }
  if (pending.some(([col]) => !byCol.has(col))) {
    // Cells without `r` are numbered by position: pin them before inserting cells among them.
    for (const c of cells) {
      if (!c.hasR && !cols.has(c.ref.col)) {
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
