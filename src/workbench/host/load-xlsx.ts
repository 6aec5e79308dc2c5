/**
 * Loads a real .xlsx into the in-memory host, and exports the host's state back to .xlsx, both through
 * src/xlsx, the reader and lossless writer `qfill fill` uses (fflate as the zip codec in the browser).
 *
 * The download is the uploaded file with only the changed cells rewritten: every other part (charts,
 * pivot tables, x14 dropdowns, drawings, macros) is copied byte for byte. A changed cell carries its
 * value or formula and, through new entries in styles.xml, its fill colour and number format; notes
 * and comments added or changed are written as the file's notes (src/xlsx/notes-write.ts).
 *
 * What is read: values, formulas with cached values, number formats, solid fills (theme colours
 * approximated), locked flags, quote prefixes, sheet protection, merges, list validations (x14 ones
 * too), legacy notes, hidden sheets, the active sheet and each sheet's selected cell.
 */
import { toA1 } from '../../xlsx/a1';
import { portableZipCodec } from '../../xlsx/codec';
import type { NoteWrite } from '../../xlsx/notes-write';
import { XlsxPackage, type XlsxWrite } from '../../xlsx/package';
import { activeSheetIndex, sheetContents } from '../../xlsx/sheet-contents';
import { cellFormats, type CellFormat, GENERAL, StyleEditor } from '../../xlsx/styles';
import { DEFAULT_ZIP_LIMITS } from '../../xlsx/zip';
import { ExcelHost, type ExcelHostOptions } from './host';
import { emptyCell, putCell, type HostCell, type SheetSnapshot, type WorkbookSnapshot } from './model';

interface LoadedOrigin {
  pkg: XlsxPackage;
  snapshot: WorkbookSnapshot;
  /** Each loaded cell's style index, by `sheet!A1`: a changed cell's new style is a copy of it. */
  styles: Map<string, number>;
}

const origins = new WeakMap<ExcelHost, LoadedOrigin>();

function toUint8(bytes: Uint8Array | ArrayBuffer): Uint8Array {
  return bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
}

const DEFAULT_FORMAT: CellFormat = { numberFormat: GENERAL, fill: null, locked: true, quotePrefix: false };

/** A new host holding the workbook in `bytes`; `getFileAsync` serves it as it is now (its cells after any change). */
export async function loadXlsxIntoHost(bytes: Uint8Array | ArrayBuffer, options: ExcelHostOptions = {}): Promise<ExcelHost> {
  const data = toUint8(bytes);
  let pkg: XlsxPackage;
  try {
    pkg = XlsxPackage.open(data, options.fileName ?? 'The workbook', DEFAULT_ZIP_LIMITS, portableZipCodec);
  } catch (e) {
    throw new Error(`Could not read the workbook as .xlsx: ${e instanceof Error ? e.message : String(e)}`);
  }
  const host = new ExcelHost(options);
  host.fileBytes = data;
  const stylesPath = pkg.relatedPath('/styles');
  const formats = stylesPath ? cellFormats(pkg.xmlText(stylesPath)) : [];
  const styles = new Map<string, number>();

  for (const info of pkg.sheets.filter((s) => s.kind === 'worksheet' && s.path)) {
    const visibility = info.state === 'hidden' ? 'Hidden' : info.state === 'veryHidden' ? 'VeryHidden' : 'Visible';
    const sheet = host.addSheet(info.name, { visibility });
    const contents = sheetContents(pkg, info.name);
    for (const c of contents.cells) {
      const format = formats[c.style] ?? DEFAULT_FORMAT;
      const cell: HostCell = {
        ...emptyCell(),
        value: c.value === '' && !c.formula ? null : c.value,
        formula: c.formula,
        numberFormat: format.numberFormat,
        fill: format.fill,
        locked: format.locked,
        quotePrefix: format.quotePrefix,
      };
      if (c.isError) cell.isError = true;
      putCell(sheet, c.row, c.column, cell);
      styles.set(`${info.name}!${toA1(c.row, c.column)}`, c.style);
    }
    sheet.protection = contents.protection;
    sheet.merges.push(...contents.merges.map((m) => ({ top: m.top, left: m.left, rowCount: m.bottom - m.top + 1, columnCount: m.right - m.left + 1 })));
    for (const v of contents.validations) {
      const range = v.ranges
        .map((r) => (r.top === r.bottom && r.left === r.right ? toA1(r.top, r.left) : `${toA1(r.top, r.left)}:${toA1(r.bottom, r.right)}`))
        .join(' ');
      const inline = v.formula1.startsWith('"') && v.formula1.endsWith('"');
      sheet.validations.push({ range, type: v.type, source: v.type === 'list' ? (inline ? v.formula1.slice(1, -1) : `=${v.formula1}`) : v.formula1 });
    }
    for (const n of contents.notes) sheet.notes.set(n.address, { content: n.text, author: n.author });
    if (contents.activeCell) sheet.selection = contents.activeCell;
  }
  const active = pkg.sheets[activeSheetIndex(pkg)];
  const activeSheet = active && host.findSheet(active.name);
  if (activeSheet && activeSheet.visibility === 'Visible') host.activateSheet(activeSheet);
  origins.set(host, { pkg, snapshot: host.snapshot(), styles });
  host.currentFile = async () => (await hostToXlsx(host)).bytes;
  return host;
}

export interface XlsxExport {
  bytes: Uint8Array;
  /** Zip entries whose content changed (worksheets with changed cells, workbook.xml, styles.xml, notes' parts). */
  changedParts: string[];
  /** Zip entries added: the comments part, VML drawing and relationships of a sheet's first notes. */
  addedParts: string[];
  /** Changes the download cannot carry, in words (new sheets, edited formula cells). */
  notCarried: string[];
}

const same = (a: HostCell | undefined, b: HostCell | undefined) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/**
 * The host's workbook as .xlsx: the file it was loaded from with every changed cell patched in, and
 * nothing else touched. Only a workbook loaded from a file can be exported.
 */
export async function hostToXlsx(host: ExcelHost): Promise<XlsxExport> {
  const origin = origins.get(host);
  if (!origin) throw new Error('Only a workbook opened from an .xlsx file can be downloaded.');
  const { pkg } = origin;
  const stylesPath = pkg.relatedPath('/styles');
  const editor = stylesPath ? new StyleEditor(pkg.xmlText(stylesPath)) : null;
  const before = new Map(origin.snapshot.sheets.map((s) => [s.name, s]));
  const writes: XlsxWrite[] = [];
  const notCarried: string[] = [];
  const noteWrites: NoteWrite[] = [];
  let formulaCells = 0;
  for (const sheet of host.snapshot().sheets) {
    const old = before.get(sheet.name);
    if (!old || !pkg.findSheet(sheet.name)) {
      notCarried.push(`the new sheet "${sheet.name}"`);
      continue;
    }
    for (const address of new Set([...Object.keys(sheet.cells), ...Object.keys(old.cells)])) {
      const now = sheet.cells[address];
      const was = old.cells[address];
      if (same(now, was)) continue;
      if (was?.formula) {
        formulaCells++; // the writer never writes over a formula (the fill never does either)
        continue;
      }
      const cell = now ?? emptyCell();
      const base = origin.styles.get(`${sheet.name}!${address}`) ?? 0;
      const style = editor?.styleFor(base, { fill: cell.fill, numberFormat: cell.numberFormat, quotePrefix: cell.quotePrefix });
      const write: XlsxWrite = { tab: sheet.name, address, value: cell.formula ? null : cell.value };
      if (cell.formula) write.formula = cell.formula.slice(1);
      if (style !== undefined && style !== base) write.style = style;
      writes.push(write);
    }
    noteWrites.push(...changedNotes(host, sheet, old));
  }
  if (formulaCells) notCarried.push(`${plural(formulaCells, 'edited formula cell')} (formulas are never overwritten)`);
  const parts = editor?.changed && stylesPath ? new Map([[stylesPath, new TextEncoder().encode(editor.text())]]) : undefined;
  const result = pkg.applyWrites(writes, { ...(parts ? { parts } : {}), notes: noteWrites });
  return { bytes: result.bytes, changedParts: result.changedParts, addedParts: result.addedParts, notCarried };
}

/**
 * A cell's note as the file carries it: the host's note, else its comment (the fill writes one or the
 * other, by what the Excel it runs in supports); both, one after the other, when a cell has both.
 */
function noteText(sheet: SheetSnapshot, address: string): string | null {
  const parts = [sheet.notes[address], sheet.comments[address]].filter((t): t is string => t !== undefined);
  return parts.length ? parts.join('\n\n') : null;
}

/** The notes of a sheet that differ from the file it was opened from, as writes (null text: removed). */
function changedNotes(host: ExcelHost, now: SheetSnapshot, was: SheetSnapshot): NoteWrite[] {
  const live = host.findSheet(now.name);
  const out: NoteWrite[] = [];
  for (const address of new Set([...Object.keys(now.notes), ...Object.keys(now.comments), ...Object.keys(was.notes), ...Object.keys(was.comments)])) {
    const text = noteText(now, address);
    if (text === noteText(was, address)) continue;
    const author = live?.notes.get(address)?.author ?? live?.comments.get(address)?.author ?? host.userName;
    out.push({ tab: now.name, address, text, author });
  }
  return out;
}
