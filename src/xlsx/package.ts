/**
 * An .xlsx package opened for a lossless fill: reads the cells it is asked about (and only the
 * sheets they are on) and writes text into cells by editing nothing but those cells' elements.
 *
 * Parts that change on write: the worksheet parts that receive values, and workbook.xml (one
 * attribute, `fullCalcOnLoad="1"` on `<calcPr>`, so formulas reading the answers recalculate when
 * the file is opened). Every other zip entry is copied byte for byte, compressed bytes included.
 */
import { readCell } from './cell-read';
import { XlsxError } from './errors';
import { type Cell, type Range, formatCell, inRange, parseCell, parseRange } from './ranges';
import { type NoteWrite, writeNotes } from './notes-write';
import { type PatchNote, type SheetCellWrite, patchSheet } from './sheet-patch';
import { type ColumnInfo, type ColumnStyle, findRow, inheritedStyle, layoutSheet, parseColumns, rowCells, type SheetLayout } from './sheet-scan';
import { sniffSpreadsheet } from './sniff';
import {
  type CellStyle,
  type DefinedName,
  type SheetInfo,
  isSheetProtected,
  parseCellStyles,
  parseDefinedNames,
  parseFormulaRanges,
  parseMergeRefs,
  parseRelationships,
  parseSharedStrings,
  parseSheets,
  relsPathFor,
  requestFullCalcOnLoad,
  resolveTarget,
  usesDate1904,
} from './workbook-parts';
import { decodeXmlPart, rootPrefix, utf8Encoder } from './xml';
import type { ZipCodec } from './codec';
import { DEFAULT_ZIP_LIMITS, type ZipArchive, type ZipLimits, readEntry, readZip, rewriteZip } from './zip';

export type { CellStyle, DefinedName, SheetInfo } from './workbook-parts';

/** A cell as read from the file: what the planner reads of a cell (src/fill's CellState) plus what the report shows. */
export interface ReadCell {
  /** Displayed/cached value; null when empty. */
  value: string | number | boolean | null;
  hasFormula: boolean;
  /** True when the cell is locked on a protected sheet. */
  locked?: boolean;
  address: string;
  /** cellXfs index of the cell's style. */
  style: number;
  /** True when the cell lies inside a merged area without being its top-left cell. */
  mergedInto: string | null;
}

export interface XlsxWrite {
  tab: string;
  address: string;
  /** Text to write (the fill writes only text); null clears the cell's value and keeps its style. */
  value: string | number | boolean | null;
  /** A formula without `=`, written instead of the value (the workbench's download of a typed formula). */
  formula?: string;
  /** A cellXfs index for the cell (from `StyleEditor`); its own style is kept when absent. */
  style?: number;
}

export interface ApplyOptions {
  /** Ask for a full recalculation on open (edits workbook.xml's calcPr). Default true. */
  fullCalcOnLoad?: boolean;
  /** Other parts replaced in the same rewrite (styles.xml with the new cell styles). */
  parts?: ReadonlyMap<string, Uint8Array>;
  /** Notes to add, change or remove (written as legacy comments: comments part, VML, relationships). */
  notes?: readonly NoteWrite[];
}

export interface WriteResult {
  bytes: Uint8Array;
  /** Zip entries whose content changed. */
  changedParts: string[];
  /** Zip entries the rewrite added (a sheet's first notes: comments part, VML drawing, relationships). */
  addedParts: string[];
  notes: (PatchNote & { tab: string })[];
}

/** A worksheet part, read once and kept: its text and where its rows are. */
export interface SheetPart {
  info: SheetInfo;
  xml: string;
  /** Namespace prefix of its elements (`x:` or ''). */
  prefix: string;
  layout: SheetLayout;
  protected: boolean;
  merges: Range[];
  formulaRanges: Range[];
  columns: ColumnInfo[];
  columnStyles: ColumnStyle[];
}

const contains = (r: Range, c: Cell) => inRange(r, c.row, c.column);

const OFFICE_DOCUMENT = /\/officeDocument$/;
const SPREADSHEET_CONTENT = /spreadsheetml\.(sheet|template)\.main\+xml|ms-excel\.(sheet|template|addin)\.macroEnabled\.main\+xml/;

export class XlsxPackage {
  readonly zip: ZipArchive;
  readonly workbookPath: string;
  readonly sheets: readonly SheetInfo[];
  private readonly label: string;
  private readonly loaded = new Map<string, SheetPart>();
  private sharedStrings: string[] | null = null;
  private cellStyleList: CellStyle[] | null = null;
  private names: DefinedName[] | null = null;
  private readonly workbookRels;

  private constructor(zip: ZipArchive, label: string) {
    this.zip = zip;
    this.label = label;
    this.workbookPath = this.findWorkbookPart();
    this.workbookRels = this.entryExists(relsPathFor(this.workbookPath)) ? parseRelationships(this.text(relsPathFor(this.workbookPath))) : [];
    this.sheets = parseSheets(this.text(this.workbookPath), this.workbookPath, this.workbookRels);
    if (!this.sheets.some((s) => s.kind === 'worksheet' && s.path && this.entryExists(s.path))) {
      throw new XlsxError('not_workbook', `${label} is an Excel package without any worksheet.`);
    }
  }

  /** Opens and validates a package; throws XlsxError with a one-line message for every bad input. */
  static open(bytes: Uint8Array, label = 'The file', limits: ZipLimits = DEFAULT_ZIP_LIMITS, codec?: ZipCodec): XlsxPackage {
    sniffSpreadsheet(bytes, label); // throws for anything but a zip container: CSV is not allowed here
    const zip = readZip(bytes, limits, label, codec);
    try {
      return new XlsxPackage(zip, label);
    } catch (e) {
      if (e instanceof XlsxError) throw e;
      throw new XlsxError('corrupt', `${label} is a damaged workbook: ${(e as Error).message}`);
    }
  }

  private findWorkbookPart(): string {
    const names = this.zip.byName;
    if (!names.has('[Content_Types].xml')) {
      throw new XlsxError('not_workbook', `${this.label} is a zip archive but not an Excel workbook (no [Content_Types].xml).`);
    }
    let main = '';
    if (names.has('_rels/.rels')) {
      const rel = parseRelationships(this.text('_rels/.rels')).find((r) => OFFICE_DOCUMENT.test(r.type));
      if (rel) main = resolveTarget('', rel.target);
    }
    if (!main && names.has('xl/workbook.xml')) main = 'xl/workbook.xml';
    if (main.endsWith('.bin')) {
      throw new XlsxError('binary_workbook', `${this.label} is a binary workbook (.xlsb): save it as an Excel Workbook (.xlsx) first.`);
    }
    const types = this.text('[Content_Types].xml');
    const isSpreadsheet = main && names.has(main) && (SPREADSHEET_CONTENT.test(types) || main === 'xl/workbook.xml');
    if (!isSpreadsheet) {
      const kind = main.startsWith('word/') ? ' (it is a Word document)' : main.startsWith('ppt/') ? ' (it is a PowerPoint presentation)' : '';
      throw new XlsxError('not_workbook', `${this.label} is a zip archive but not an Excel workbook${kind}.`);
    }
    return main;
  }

  private entryExists(name: string): boolean {
    return this.zip.byName.has(name);
  }

  /** Uncompressed bytes of a part. */
  part(name: string): Uint8Array {
    const e = this.zip.byName.get(name);
    if (!e) throw new XlsxError('corrupt', `${this.label} has no part ${name}.`);
    return readEntry(this.zip, e);
  }

  partNames(): string[] {
    return this.zip.entries.map((e) => e.name);
  }

  /** A part's XML text (UTF-8 only). */
  xmlText(name: string): string {
    return this.text(name);
  }

  /** Zip entry name of the part a workbook relationship of this type points to ('' when there is none). */
  relatedPath(typeSuffix: string): string {
    const rel = this.workbookRels.find((r) => r.type.endsWith(typeSuffix));
    const path = rel ? resolveTarget(this.workbookPath, rel.target) : '';
    return path && this.entryExists(path) ? path : '';
  }

  private text(name: string): string {
    try {
      return decodeXmlPart(this.part(name), name);
    } catch (e) {
      if (e instanceof XlsxError) throw e;
      throw new XlsxError('unsupported', `${this.label}: ${(e as Error).message}`);
    }
  }

  /** Names of the worksheets (not chart sheets), in workbook order. */
  worksheetNames(): string[] {
    return this.sheets.filter((s) => s.kind === 'worksheet' && s.path).map((s) => s.name);
  }

  /** The sheet by exact name, else case-insensitively. */
  findSheet(name: string): SheetInfo | undefined {
    const ws = this.sheets.filter((s) => s.kind === 'worksheet' && s.path);
    return ws.find((s) => s.name === name) ?? ws.find((s) => s.name.toLowerCase() === name.toLowerCase());
  }

  /** The worksheet part of a sheet, read on first use and kept. */
  sheetPart(name: string): SheetPart {
    const info = this.findSheet(name);
    if (!info) throw new XlsxError('bad_write', `${this.label} has no worksheet named "${name}".`);
    const cached = this.loaded.get(info.path);
    if (cached) return cached;
    const xml = this.text(info.path);
    const prefix = rootPrefix(xml, 'worksheet');
    let layout: SheetLayout;
    try {
      layout = layoutSheet(xml, prefix, info.path);
    } catch (e) {
      throw new XlsxError('corrupt', `${this.label}: ${(e as Error).message}`);
    }
    const ranges = (refs: string[]) => refs.map(parseRange).filter((r): r is Range => r !== null);
    const columns = parseColumns(xml, prefix);
    const sheet: SheetPart = {
      info,
      xml,
      prefix,
      layout,
      protected: isSheetProtected(xml, prefix),
      merges: ranges(parseMergeRefs(xml, prefix)),
      formulaRanges: ranges(parseFormulaRanges(xml, prefix)),
      columns,
      columnStyles: columns.filter((c) => c.style !== 0),
    };
    this.loaded.set(info.path, sheet);
    return sheet;
  }

  isProtected(sheetName: string): boolean {
    return this.sheetPart(sheetName).protected;
  }

  mergedAreas(sheetName: string): Range[] {
    return this.sheetPart(sheetName).merges;
  }

  /** Top-left cell of the merged area containing `address`, or the address itself. */
  anchorOf(sheetName: string, address: string): string {
    const ref = parseCell(address);
    if (!ref) return address;
    const area = this.sheetPart(sheetName).merges.find((m) => contains(m, ref));
    return area ? formatCell({ row: area.top, column: area.left }) : formatCell(ref);
  }

  /** Text of the workbook part a relationship of this type points to ('' when there is none). */
  private relatedText(typeSuffix: string): string {
    const path = this.relatedPath(typeSuffix);
    return path ? this.text(path) : '';
  }

  /** The shared string at an index (sharedStrings.xml is read on first use). */
  readonly sharedString = (i: number): string | undefined => {
    this.sharedStrings ??= parseSharedStrings(this.relatedText('/sharedStrings'));
    return this.sharedStrings[i];
  };

  /** The cellXfs styles (styles.xml is read on first use). */
  cellStyles(): readonly CellStyle[] {
    this.cellStyleList ??= parseCellStyles(this.relatedText('/styles'));
    return this.cellStyleList;
  }

  private styleLocked(style: number): boolean {
    return this.cellStyles()[style]?.locked ?? true;
  }

  definedNames(): readonly DefinedName[] {
    this.names ??= parseDefinedNames(this.text(this.workbookPath));
    return this.names;
  }

  /** Serial dates count from 1904 rather than 1900. */
  usesDate1904(): boolean {
    return usesDate1904(this.text(this.workbookPath));
  }

  /**
   * The state of the given cells of one sheet. Addresses that are not A1 cell references are left
   * out. Only this sheet's part is read; shared strings and styles only when a cell needs them.
   */
  readCells(sheetName: string, addresses: Iterable<string>): Map<string, ReadCell> {
    const sheet = this.sheetPart(sheetName);
    const wanted = new Map<number, Cell[]>();
    for (const a of addresses) {
      const ref = parseCell(a);
      if (!ref) continue;
      const list = wanted.get(ref.row) ?? [];
      list.push(ref);
      wanted.set(ref.row, list);
    }
    const out = new Map<string, ReadCell>();
    for (const [r, refs] of wanted) {
      const idx = findRow(sheet.layout.rows, r);
      const cells = idx >= 0 ? rowCells(sheet.xml, sheet.layout.rows[idx]!, sheet.prefix, sheet.info.path) : [];
      const byCol = new Map(cells.map((c) => [c.ref.column, c]));
      for (const ref of refs) {
        const address = formatCell(ref);
        const span = byCol.get(ref.column);
        const raw = span
          ? readCell(sheet.xml, span, sheet.prefix, this.sharedString)
          : { value: null, text: null, hasFormula: false, style: inheritedStyle(sheet.xml, sheet.layout, sheet.columnStyles, ref), type: 'n' };
        const inFormulaRange = sheet.formulaRanges.some((f) => contains(f, ref));
        const area = sheet.merges.find((m) => contains(m, ref));
        const mergedInto = area && (area.top !== ref.row || area.left !== ref.column) ? formatCell({ row: area.top, column: area.left }) : null;
        out.set(address, {
          address,
          value: raw.value,
          hasFormula: raw.hasFormula || inFormulaRange,
          locked: sheet.protected && this.styleLocked(raw.style),
          style: raw.style,
          mergedInto,
        });
      }
    }
    return out;
  }

  /**
   * The package with the given cells set to text. Throws (writing nothing) when a write targets a
   * formula cell, a missing sheet or a bad address: the planner must never produce those.
   */
  applyWrites(writes: readonly XlsxWrite[], options: ApplyOptions = {}): WriteResult {
    const bySheet = new Map<string, { sheet: SheetPart; cells: SheetCellWrite[] }>();
    for (const w of writes) {
      const ref = parseCell(w.address);
      if (!ref) throw new XlsxError('bad_write', `Cannot write "${w.address}" on ${w.tab}: not a cell address.`);
      const sheet = this.sheetPart(w.tab);
      const group = bySheet.get(sheet.info.path) ?? { sheet, cells: [] as SheetCellWrite[] };
      group.cells.push({
        ref,
        value: w.value,
        ...(w.formula !== undefined ? { formula: w.formula } : {}),
        ...(w.style !== undefined ? { style: w.style } : {}),
      });
      bySheet.set(sheet.info.path, group);
    }
    const replacements = new Map<string, Uint8Array>();
    const notes: WriteResult['notes'] = [];
    for (const [path, { sheet, cells }] of bySheet) {
      const inFormulaRange = (address: string) => {
        const ref = parseCell(address);
        return ref !== null && sheet.formulaRanges.some((f) => contains(f, ref));
      };
      const styleFor = (ref: Cell) => inheritedStyle(sheet.xml, sheet.layout, sheet.columnStyles, ref);
      const patched = patchSheet(sheet.xml, sheet.prefix, path, cells, inFormulaRange, styleFor, sheet.layout);
      if (patched.xml !== sheet.xml) replacements.set(path, utf8Encoder.encode(patched.xml));
      for (const n of patched.notes) notes.push({ ...n, tab: sheet.info.name });
    }
    if (replacements.size && options.fullCalcOnLoad !== false) {
      replacements.set(this.workbookPath, utf8Encoder.encode(requestFullCalcOnLoad(this.text(this.workbookPath))));
    }
    for (const [name, bytes] of options.parts ?? []) replacements.set(name, bytes);
    const additions = new Map<string, Uint8Array>();
    if (options.notes?.length) {
      const written = this.notesParts(options.notes, replacements);
      for (const [name, xml] of written.replaced) replacements.set(name, utf8Encoder.encode(xml));
      for (const [name, xml] of written.added) additions.set(name, utf8Encoder.encode(xml));
    }
    const bytes = replacements.size || additions.size ? rewriteZip(this.zip, replacements, undefined, additions) : this.zip.bytes.slice();
    return { bytes, changedParts: [...replacements.keys()], addedParts: [...additions.keys()], notes };
  }

  /** The parts that carry `notes`, each sheet's text taken as patched so far (`patched`). */
  private notesParts(notes: readonly NoteWrite[], patched: ReadonlyMap<string, Uint8Array>) {
    const bySheet = new Map<string, NoteWrite[]>();
    for (const n of notes) {
      const ref = parseCell(n.address);
      if (!ref) throw new XlsxError('bad_write', `Cannot write a note on "${n.address}" on ${n.tab}: not a cell address.`);
      const path = this.sheetPart(n.tab).info.path;
      bySheet.set(path, [...(bySheet.get(path) ?? []), { ...n, address: formatCell(ref) }]);
    }
    const sheets = [...bySheet].map(([sheetPath, list]) => {
      const part = this.loaded.get(sheetPath)!;
      const bytes = patched.get(sheetPath);
      return { sheetPath, sheetXml: bytes ? decodeXmlPart(bytes, sheetPath) : part.xml, prefix: part.prefix, notes: list };
    });
    const reader = { has: (name: string) => this.entryExists(name), text: (name: string) => this.text(name), names: () => this.partNames() };
    return writeNotes(reader, sheets);
  }
}
