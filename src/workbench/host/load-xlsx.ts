/**
 * Loads a real .xlsx into the in-memory host with ExcelJS (works in Node and in the browser from a
 * Uint8Array/ArrayBuffer), and exports the host's state back to .xlsx by patching only the cells
 * that changed into the original file (so what ExcelJS keeps of the rest survives).
 *
 * What is read: values, formulas with cached values, number formats, solid fills (theme colours
 * approximated), locked flags, sheet protection, merges, list validations that ExcelJS exposes
 * (not x14 cross-sheet lists), legacy notes, hidden sheets, active sheet and selection.
 */
import ExcelJS from 'exceljs';
import { toA1 } from '../../xlsx/a1';
import { ExcelHost, type ExcelHostOptions } from './host';
import { cellAt, DEFAULT_FORMAT, emptyCell, parseRect, putCell, type CellValue, type HostCell, type HostSheet, type WorkbookSnapshot } from './model';

/** Office 2013+ default theme colours by theme index (tints are ignored: an approximation). */
const THEME_COLOURS = ['#FFFFFF', '#000000', '#E7E6E6', '#44546A', '#4472C4', '#ED7D31', '#A5A5A5', '#FFC000', '#5B9BD5', '#70AD47'];

const EXCEL_EPOCH_UTC = Date.UTC(1899, 11, 30);

interface LoadedOrigin {
  bytes: Uint8Array;
  snapshot: WorkbookSnapshot;
}

const origins = new WeakMap<ExcelHost, LoadedOrigin>();

function toUint8(bytes: Uint8Array | ArrayBuffer): Uint8Array {
  return bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
}

function colourOf(color: Partial<ExcelJS.Color> & { theme?: number; indexed?: number } | undefined): string | null {
  if (!color) return null;
  if (typeof color.argb === 'string' && /^[0-9A-Fa-f]{8}$/.test(color.argb)) return `#${color.argb.slice(2).toUpperCase()}`;
  if (typeof color.theme === 'number') return THEME_COLOURS[color.theme] ?? '#C0C0C0';
  if (typeof color.indexed === 'number') return color.indexed === 64 ? null : '#C0C0C0';
  return null;
}

function fillOf(fill: ExcelJS.Fill | undefined): string | null {
  if (!fill || fill.type !== 'pattern' || fill.pattern === 'none') return null;
  return colourOf(fill.fgColor as never) ?? colourOf(fill.bgColor as never);
}

function richText(value: { richText: { text: string }[] }): string {
  return value.richText.map((r) => r.text).join('');
}

function plain(value: unknown): { value: CellValue; isError?: boolean } {
  if (value === null || value === undefined) return { value: null };
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return { value };
  if (value instanceof Date) return { value: (value.getTime() - EXCEL_EPOCH_UTC) / 86400000 };
  if (typeof value === 'object') {
    const v = value as Record<string, unknown>;
    if (Array.isArray(v.richText)) return { value: richText(v as { richText: { text: string }[] }) };
    if ('error' in v) return { value: String(v.error), isError: true };
    if ('text' in v) {
      const t = v.text;
      return { value: typeof t === 'object' && t && Array.isArray((t as { richText?: unknown }).richText) ? richText(t as { richText: { text: string }[] }) : String(t ?? '') };
    }
  }
  return { value: String(value) };
}

function readCell(cell: ExcelJS.Cell): HostCell | null {
  if (cell.type === ExcelJS.ValueType.Merge) {
    // A merged area's other cells hold nothing of their own; keep their formatting only.
    const base = emptyCell();
    base.numberFormat = cell.numFmt || DEFAULT_FORMAT;
    base.fill = fillOf(cell.fill);
    base.locked = cell.protection?.locked !== false;
    return base;
  }
  const out = emptyCell();
  out.numberFormat = cell.numFmt || DEFAULT_FORMAT;
  out.fill = fillOf(cell.fill);
  out.locked = cell.protection?.locked !== false;
  if (cell.type === ExcelJS.ValueType.Formula) {
    const formula = cell.formula;
    const result = (cell.value as { result?: unknown }).result;
    const cached = plain(result);
    out.formula = formula ? `=${formula}` : null;
    out.value = cached.value;
    if (cached.isError) out.isError = true;
    if (!out.formula) out.value = cached.value;
    return out;
  }
  const p = plain(cell.value);
  out.value = p.value === '' ? null : p.value;
  if (p.isError) out.isError = true;
  return out;
}

function listSource(formulae: unknown[] | undefined): string {
  const f = String(formulae?.[0] ?? '');
  if (f.startsWith('"') && f.endsWith('"')) return f.slice(1, -1);
  return `=${f}`;
}

/** A new host holding the workbook in `bytes`; `getFileAsync` serves those same bytes. */
export async function loadXlsxIntoHost(bytes: Uint8Array | ArrayBuffer, options: ExcelHostOptions = {}): Promise<ExcelHost> {
  const data = toUint8(bytes);
  const wb = new ExcelJS.Workbook();
  try {
    await wb.xlsx.load(data as never);
  } catch (e) {
    throw new Error(`Could not read the workbook as .xlsx: ${e instanceof Error ? e.message : String(e)}`);
  }
  const host = new ExcelHost(options);
  host.fileBytes = data;

  const activeTab = (wb.views as { activeTab?: number }[] | undefined)?.[0]?.activeTab ?? 0;
  wb.worksheets.forEach((ws) => {
    const visibility = ws.state === 'hidden' ? 'Hidden' : ws.state === 'veryHidden' ? 'VeryHidden' : 'Visible';
    const sheet: HostSheet = host.addSheet(ws.name, { visibility });
    const protection = (ws as unknown as { sheetProtection?: unknown }).sheetProtection as { sheet?: boolean; formatCells?: boolean; objects?: boolean } | undefined;
    if (protection?.sheet) {
      sheet.protection = { protected: true, allowFormatCells: !!protection.formatCells, allowEditObjects: protection.objects !== false };
    }
    ws.eachRow({ includeEmpty: false }, (row) => {
      row.eachCell({ includeEmpty: true }, (cell) => {
        const hostCell = readCell(cell);
        if (!hostCell) return;
        const { row: r, column: c } = cellAt(cell.address);
        putCell(sheet, r, c, hostCell);
        if (cell.note && cell.type !== ExcelJS.ValueType.Merge) {
          const note = typeof cell.note === 'string' ? cell.note : richText(cell.note.texts ? { richText: cell.note.texts as { text: string }[] } : { richText: [] });
          sheet.notes.set(toA1(r, c), { content: note, author: '' });
        }
      });
    });
    for (const range of (ws.model as { merges?: string[] }).merges ?? []) {
      const rect = parseRect(range);
      if (rect) sheet.merges.push(rect);
    }
    const validations = (ws as unknown as { dataValidations?: { model?: Record<string, { type?: string; formulae?: unknown[] }> } }).dataValidations?.model ?? {};
    for (const [address, rule] of Object.entries(validations)) {
      if (!rule?.type) continue;
      sheet.validations.push({ range: address.replace(/^range:/, ''), type: rule.type, source: rule.type === 'list' ? listSource(rule.formulae) : String(rule.formulae?.[0] ?? '') });
    }
    const view = (ws.views as { activeCell?: string }[] | undefined)?.[0];
    if (view?.activeCell && parseRect(view.activeCell)) sheet.selection = view.activeCell.replace(/\$/g, '');
  });
  const active = wb.worksheets[activeTab];
  if (active) {
    const sheet = host.findSheet(active.name);
    if (sheet && sheet.visibility === 'Visible') host.activateSheet(sheet);
  }
  origins.set(host, { bytes: data, snapshot: host.snapshot() });
  return host;
}

function writeCell(cell: ExcelJS.Cell, state: HostCell | undefined): void {
  const s = state ?? emptyCell();
  if (s.formula) cell.value = { formula: s.formula.slice(1), result: (s.value ?? undefined) as never } as ExcelJS.CellFormulaValue;
  else cell.value = s.value as ExcelJS.CellValue;
  cell.numFmt = s.numberFormat === DEFAULT_FORMAT ? (undefined as never) : s.numberFormat;
  cell.fill = s.fill
    ? { type: 'pattern', pattern: 'solid', fgColor: { argb: `FF${s.fill.slice(1)}` } }
    : ({ type: 'pattern', pattern: 'none' } as ExcelJS.Fill);
  if (cell.protection?.locked !== s.locked) cell.protection = { ...(cell.protection ?? {}), locked: s.locked };
}

/**
 * The host's workbook as .xlsx bytes: the original file with every changed cell, note and sheet
 * protection patched in (a workbook built in memory is written from scratch).
 */
export async function hostToXlsx(host: ExcelHost): Promise<Uint8Array> {
  const origin = origins.get(host);
  const wb = new ExcelJS.Workbook();
  if (origin) await wb.xlsx.load(origin.bytes as never);
  const before = new Map((origin?.snapshot.sheets ?? []).map((s) => [s.name, s]));
  const now = host.snapshot();
  for (const sheet of now.sheets) {
    const old = before.get(sheet.name);
    const ws = wb.getWorksheet(sheet.name) ?? wb.addWorksheet(sheet.name);
    const addresses = new Set([...Object.keys(sheet.cells), ...Object.keys(old?.cells ?? {})]);
    for (const address of addresses) {
      const a = sheet.cells[address];
      const b = old?.cells[address];
      if (JSON.stringify(a) !== JSON.stringify(b)) writeCell(ws.getCell(address), a);
    }
    const notes = new Set([...Object.keys(sheet.notes), ...Object.keys(old?.notes ?? {})]);
    for (const address of notes) {
      if (sheet.notes[address] !== old?.notes[address]) ws.getCell(address).note = (sheet.notes[address] ?? undefined) as never;
    }
    if (!origin) for (const m of sheet.merges) ws.mergeCells(m);
  }
  const buffer = await wb.xlsx.writeBuffer();
  return new Uint8Array(buffer as ArrayBuffer);
}
