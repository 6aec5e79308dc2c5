/** A1 cell references as (row, column) numbers, 1-based, as sheet XML writes them. */

export interface CellRef {
  row: number;
  col: number;
}

export const MAX_ROW = 1_048_576;
export const MAX_COL = 16_384;

const A1_RE = /^\$?([A-Za-z]{1,3})\$?([1-9][0-9]{0,6})$/;

export function parseA1(address: string): CellRef | null {
  const m = A1_RE.exec(address.trim());
  if (!m) return null;
  const col = columnNumber(m[1]!);
  const row = Number(m[2]);
  if (col > MAX_COL || row > MAX_ROW) return null;
  return { row, col };
}

export function columnNumber(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}

export function columnLetters(col: number): string {
  let s = '';
  for (let n = col; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

export function formatA1(ref: CellRef): string {
  return `${columnLetters(ref.col)}${ref.row}`;
}

/** Canonical form (`c5` → `C5`, `$C$5` → `C5`), or null when not a single-cell address. */
export function normalizeA1(address: string): string | null {
  const ref = parseA1(address);
  return ref ? formatA1(ref) : null;
}

export interface RangeRef {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

export function parseRange(ref: string): RangeRef | null {
  const [a, b = a] = ref.split(':');
  const p = parseA1(a ?? '');
  const q = parseA1(b ?? '');
  if (!p || !q) return null;
  return {
    top: Math.min(p.row, q.row),
    left: Math.min(p.col, q.col),
    bottom: Math.max(p.row, q.row),
    right: Math.max(p.col, q.col),
  };
}

export function rangeContains(r: RangeRef, c: CellRef): boolean {
  return c.row >= r.top && c.row <= r.bottom && c.col >= r.left && c.col <= r.right;
}
