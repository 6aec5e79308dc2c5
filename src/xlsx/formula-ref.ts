/**
 * The one cell a formula shows, when it shows one: `'START HERE'!C19`, `IF('START HERE'!$C$19="","",'START HERE'!C19)`,
 * `C19&""`. A questionnaire that repeats a question on another tab copies its answer this way; such a
 * cell mirrors the answer cell it reads, and answering happens there. A formula reading two cells, a
 * range, a defined name or another workbook mirrors nothing.
 */
import { type CellCoordinate, lettersToColumn, MAX_COLUMN, MAX_ROW } from './a1';

/** The cell read (`sheet` null for a cell of the formula's own sheet), and how it is anchored. */
export interface FormulaRef extends CellCoordinate {
  /** `$` before the row or column: the part a shared formula's copies keep as it is. */
  rowAbsolute: boolean;
  colAbsolute: boolean;
}

/** A sheet name: quoted (`'START HERE'`, `''` for a quote) or a plain word (`Lists`, `Sheet_2`). */
const SHEET = String.raw`(?:'((?:[^']|'')+)'|([A-Za-z_\u00C0-\uFFFF][\w.\u00C0-\uFFFF]*))!`;
const CELL = String.raw`(\$?)([A-Za-z]{1,3})(\$?)([0-9]{1,7})`;
/** A reference with its sheet, or a bare cell not part of a name, function, range or another reference. */
const REFERENCE = new RegExp(String.raw`${SHEET}${CELL}(?![\w(:!])|(?<![\w.$!'\]:])${CELL}(?![\w(:!])`, 'g');

/** The single cell the formula (without `=`) reads; null when it reads none, several, or a range. */
export function singleCellReference(formula: string): FormulaRef | null {
  // String literals hold no references ("N/A" is no cell); an external workbook ([1]) or a range is no mirror.
  const code = formula.replace(/"(?:[^"]|"")*"/g, '""');
  if (/[[\]:]/.test(code)) return null;
  let found: FormulaRef | null = null;
  let key: string | null = null;
  for (const m of code.matchAll(REFERENCE)) {
    const sheet = m[1] !== undefined ? m[1].replace(/''/g, "'") : (m[2] ?? null);
    const [colAbs, letters, rowAbs, digits] = m[1] !== undefined || m[2] !== undefined ? [m[3], m[4], m[5], m[6]] : [m[7], m[8], m[9], m[10]];
    const col = lettersToColumn(letters!);
    const row = Number(digits);
    if (col === null || row < 1 || row > MAX_ROW) return null;
    const k = `${(sheet ?? '').toLowerCase()}!${col}:${row}`;
    if (key !== null && k !== key) return null;
    key = k;
    found ??= { sheet, row, column: col, rowAbsolute: rowAbs === '$', colAbsolute: colAbs === '$' };
  }
  if (!found) return null;
  // Anything else name-like outside the references and function calls (a defined name such as VendorName) is another input.
  const rest = code.replace(REFERENCE, ' ').replace(/[A-Za-z_][\w.]*\s*\(/g, '(');
  if (/[A-Za-z_]/.test(rest.replace(/\b(?:TRUE|FALSE)\b/gi, ''))) return null;
  return found;
}

/** A shared formula's copy at (row, col) of the reference its first cell's formula reads at (baseRow, baseCol). */
export function shiftReference(ref: FormulaRef, baseRow: number, baseCol: number, row: number, col: number): FormulaRef | null {
  const r = ref.rowAbsolute ? ref.row : ref.row + (row - baseRow);
  const c = ref.colAbsolute ? ref.column : ref.column + (col - baseCol);
  return r >= 1 && r <= MAX_ROW && c >= 1 && c <= MAX_COLUMN ? { ...ref, row: r, column: c } : null;
}
