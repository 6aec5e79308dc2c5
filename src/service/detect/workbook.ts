/**
 * An xlsx package as the detector sees it: visible and hidden worksheets, defined names, cell styles,
 * and per sheet a grid of display texts (cached formula values, dates as dates) with its merges,
 * data validations (including the x14 extension list most libraries drop), protection and hidden
 * rows and columns. The package itself is read by src/xlsx, the layer the writer uses too; sheets
 * are turned into grids on first use.
 */
import { XlsxPackage, type CellStyle, type DefinedName, type SheetPart } from '../../xlsx';
import { readCell, readFormula, type RawCell } from '../../xlsx/cell-read';
import { shiftReference, singleCellReference, type FormulaRef } from '../../xlsx/formula-ref';
import { rowCells, rowFormat } from '../../xlsx/sheet-scan';
import { sheetValidations } from '../../xlsx/validations';
import { emptyGrid, setCell, type SheetGrid, type SheetState } from './grid';

export type { CellStyle, DefinedName };

export interface SheetInfo {
  name: string;
  state: SheetState;
  /** 0-based position in the workbook's sheet list (the index `localSheetId` refers to). */
  index: number;
}

export interface Workbook {
  /** Worksheets (not chart sheets) in workbook order. */
  sheets: SheetInfo[];
  definedNames: readonly DefinedName[];
  styles: readonly CellStyle[];
  grid(sheet: SheetInfo): SheetGrid;
  sheetByName(name: string): SheetInfo | undefined;
}

/** Opens the package; throws XlsxError (the caller turns it into a DetectError) for unreadable input. */
export function readWorkbook(bytes: Uint8Array, filename: string): Workbook {
  const pkg = XlsxPackage.open(bytes, `"${filename}"`);
  const styles = pkg.cellStyles();
  const date1904 = pkg.usesDate1904();
  const sheets: SheetInfo[] = [];
  pkg.sheets.forEach((s, index) => {
    if (s.kind === 'worksheet' && s.path) sheets.push({ name: s.name, state: s.state, index });
  });
  const cache = new Map<string, SheetGrid>();
  const workbookSheet = (name: string) => {
    const lower = name.toLowerCase();
    return sheets.find((s) => s.name === name) ?? sheets.find((s) => s.name.toLowerCase() === lower);
  };
  return {
    sheets,
    definedNames: pkg.definedNames(),
    styles,
    sheetByName: workbookSheet,
    grid(sheet) {
      let g = cache.get(sheet.name);
      if (!g) {
        const sheetName = (name: string | null) => (name === null ? sheet.name : workbookSheet(name)?.name);
        g = toGrid(pkg.sheetPart(sheet.name), sheet.state, (i) => pkg.sharedString(i), styles, date1904, sheetName);
        cache.set(sheet.name, g);
      }
      return g;
    },
  };
}

/** Excel's last column (XFD). */
const MAX_COLUMNS = 16384;

/**
 * Each column 1..max covered by the `<col min max>` ranges, with the last range that covers it (as
 * Excel reads them). Every column is visited once however many ranges overlap: ranges are taken from
 * the last, and `next` skips columns already given (with path halving), so 20,000 copies of
 * `<col min="1" max="16384"/>` cost 16,384 steps, not 20,000 × 16,384.
 */
export function spreadColumns<T extends { min: number; max: number }>(ranges: readonly T[], max: number): Map<number, T> {
  const out = new Map<number, T>();
  // next[c]: the first column at or after c not yet given (max + 1 when none).
  const next = new Int32Array(max + 2).map((_, i) => i);
  const find = (c: number) => {
    while (next[c] !== c) {
      next[c] = next[next[c]!]!;
      c = next[c]!;
    }
    return c;
  };
  for (let i = ranges.length - 1; i >= 0 && find(1) <= max; i--) {
    const range = ranges[i]!;
    const first = Math.max(1, range.min);
    const last = Math.min(range.max, max);
    // A fractional or missing `min` names no column a cell can be in.
    if (!Number.isInteger(first) || !(first <= last)) continue;
    for (let c = find(first); c <= last; c = find(c + 1)) {
      out.set(c, range);
      next[c] = c + 1;
    }
  }
  return out;
}

function serialToDate(serial: number, date1904: boolean): string {
  const epoch = date1904 ? Date.UTC(1904, 0, 1) : Date.UTC(1899, 11, 30);
  const iso = new Date(epoch + Math.round(serial * 86400000)).toISOString();
  return Number.isInteger(serial) ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
}

/**
 * What the cell shows: TRUE/FALSE, dates for date-formatted serials, numbers as stored but at most 15
 * significant digits, as Excel shows them (`2.2000000000000002` is the `2.2` typed into the cell).
 */
function displayText(raw: RawCell, style: CellStyle | undefined, date1904: boolean): string | null {
  const v = raw.value;
  let text: string | null;
  if (v === null) text = null;
  else if (typeof v === 'boolean') text = v ? 'TRUE' : 'FALSE';
  else if (typeof v === 'number') text = style?.isDate && v > 0 ? serialToDate(v, date1904) : excelDigits(v, raw.text ?? String(v));
  else text = v;
  return text === '' ? null : text;
}

function excelDigits(n: number, stored: string): string {
  const significant = stored.replace(/^-?0*\.?0*|[eE].*$|\./g, '').length;
  return significant > 15 ? String(Number(n.toPrecision(15))) : stored;
}

function toGrid(
  part: SheetPart,
  state: SheetState,
  sharedString: (i: number) => string | undefined,
  styles: readonly CellStyle[],
  date1904: boolean,
  sheetName: (name: string | null) => string | undefined,
): SheetGrid {
  const { xml, prefix, layout } = part;
  const grid = emptyGrid(part.info.name, state);
  // A shared formula is written once, in its group's first cell; its copies shift its relative references.
  const sharedFirst = new Map<string, { ref: FormulaRef | null; row: number; col: number }>();
  const mirrorOf = (span: Parameters<typeof readFormula>[1], row: number, col: number) => {
    const f = readFormula(xml, span);
    if (!f) return undefined;
    let ref: FormulaRef | null;
    if (f.shared !== null && f.text.trim() === '') {
      const first = sharedFirst.get(f.shared);
      ref = first?.ref ? shiftReference(first.ref, first.row, first.col, row, col) : null;
    } else {
      ref = singleCellReference(f.text);
      if (f.shared !== null) sharedFirst.set(f.shared, { ref, row, col });
    }
    const sheet = ref ? sheetName(ref.sheet) : undefined;
    return ref && sheet !== undefined ? { sheet, row: ref.row, column: ref.column } : undefined;
  };
  for (const [c, style] of spreadColumns(
    part.columns.filter((col) => col.style),
    MAX_COLUMNS,
  ))
    grid.colStyles.set(c, style.style);
  for (const [c] of spreadColumns(
    part.columns.filter((col) => col.hidden),
    MAX_COLUMNS,
  ))
    grid.hiddenCols.add(c);
  for (const row of layout.rows) {
    const format = rowFormat(xml, row);
    if (format.hidden) grid.hiddenRows.add(row.r);
    if (format.style !== null) grid.rowStyles.set(row.r, format.style);
    for (const span of rowCells(xml, row, prefix, part.info.path)) {
      const raw = readCell(xml, span, prefix, sharedString);
      const mirrors = raw.hasFormula ? mirrorOf(span, row.r, span.ref.column) : undefined;
      setCell(grid, row.r, span.ref.column, {
        value: displayText(raw, styles[raw.style], date1904),
        formula: raw.hasFormula,
        style: raw.style,
        ...(mirrors ? { mirrors } : {}),
      });
    }
  }
  grid.isProtected = part.protected;
  grid.merges = part.merges;
  grid.validations.push(...sheetValidations(xml, layout));
  return grid;
}
