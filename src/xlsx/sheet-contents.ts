/**
 * Everything a spreadsheet view shows of one worksheet, read through the package: every cell (value,
 * formula, style), merged areas, dropdowns (x14 ones too), sheet protection, legacy notes and the
 * selected cell. The workbench loads a workbook into its in-memory Excel with it; the writer's own
 * reads stay cell by cell (`XlsxPackage.readCells`).
 */
import { readCell } from './cell-read';
import type { XlsxPackage } from './package';
import { type Cell, formatCell, inRange, type Range } from './ranges';
import { rowCells } from './sheet-scan';
import { type DataValidation, sheetValidations } from './validations';
import { parseRelationships, relsPathFor, resolveTarget } from './workbook-parts';
import { attributes, decodeEntities, elements, firstContent, firstElement, firstStartTag, richText, rootPrefix, startTags } from './xml';

/** A cell of the sheet (row and column as the vocabulary's Cell) and what it holds. */
export interface SheetCell extends Cell {
  value: string | number | boolean | null;
  /** `=...` for a formula cell (a shared or array formula's other cells show their anchor's text); else null. */
  formula: string | null;
  isError: boolean;
  /** cellXfs index. */
  style: number;
}

export interface SheetProtection {
  protected: boolean;
  allowFormatCells: boolean;
  allowEditObjects: boolean;
}

export interface SheetContents {
  cells: SheetCell[];
  merges: Range[];
  validations: DataValidation[];
  protection: SheetProtection;
  notes: { address: string; text: string; author: string }[];
  /** The active cell of the sheet's first view, e.g. `B5`; null when none is saved. */
  activeCell: string | null;
}

const isTrue = (v: string | undefined) => v === '1' || v === 'true';

export function sheetContents(pkg: XlsxPackage, name: string): SheetContents {
  const part = pkg.sheetPart(name);
  const { xml, prefix, layout } = part;
  const cells: SheetCell[] = [];
  const shared = new Map<string, string>();
  const sharedUsers: { cell: SheetCell; si: string }[] = [];
  const anchors = new Map<string, string>();
  for (const row of layout.rows) {
    for (const span of rowCells(xml, row, prefix, part.info.path)) {
      const raw = readCell(xml, span, prefix, pkg.sharedString);
      const cell: SheetCell = { row: span.ref.row, column: span.ref.column, value: raw.value, formula: null, isError: raw.type === 'e', style: raw.style };
      if (raw.hasFormula) {
        const inner = xml.slice(span.openEnd, span.end);
        const tag = firstStartTag(inner, 'f', prefix, 'tag') ?? '';
        const text = decodeEntities(firstContent(inner, 'f', prefix) ?? '').trim();
        const si = attributes(tag).get('si');
        if (text) {
          cell.formula = `=${text}`;
          anchors.set(span.address, cell.formula);
          if (si !== undefined) shared.set(si, cell.formula);
        } else if (si !== undefined) sharedUsers.push({ cell, si });
        else cell.formula = '=';
      }
      cells.push(cell);
    }
  }
  for (const { cell, si } of sharedUsers) cell.formula = shared.get(si) ?? '=';
  // The other cells of an array formula hold results without an <f> of their own.
  for (const range of part.formulaRanges) {
    const anchor = anchors.get(formatCell({ row: range.top, column: range.left })) ?? '=';
    for (const cell of cells) if (cell.formula === null && inRange(range, cell.row, cell.column)) cell.formula = anchor;
  }
  return {
    cells,
    merges: part.merges,
    validations: sheetValidations(xml, layout),
    protection: sheetProtection(xml, prefix),
    notes: sheetNotes(pkg, part.info.path),
    activeCell: activeCell(xml),
  };
}

/** `<sheetProtection>`: its `formatCells`/`objects` attributes say what is locked (1) or allowed (0). */
function sheetProtection(xml: string, prefix: string): SheetProtection {
  const tag = firstStartTag(xml, 'sheetProtection', prefix, 'word');
  const a = tag ? attributes(tag) : new Map<string, string>();
  return {
    protected: isTrue(a.get('sheet')),
    allowFormatCells: a.get('formatCells') === '0' || a.get('formatCells') === 'false',
    allowEditObjects: !isTrue(a.get('objects')),
  };
}

function activeCell(xml: string): string | null {
  const view = firstElement(xml, 'sheetView');
  const selections = view ? startTags(view.inner, 'selection', undefined) : [];
  const last = selections[selections.length - 1];
  return (last && attributes(last).get('activeCell')) || null;
}

/** The legacy notes of the sheet named `name` (its comments part). */
export function notesOf(pkg: XlsxPackage, name: string): SheetContents['notes'] {
  return sheetNotes(pkg, pkg.sheetPart(name).info.path);
}

/** The legacy notes (comments part) of a sheet. */
function sheetNotes(pkg: XlsxPackage, sheetPath: string): SheetContents['notes'] {
  const relsPath = relsPathFor(sheetPath);
  if (!pkg.partNames().includes(relsPath)) return [];
  const rel = parseRelationships(pkg.xmlText(relsPath)).find((r) => r.type.endsWith('/comments') && !r.external);
  const path = rel ? resolveTarget(sheetPath, rel.target) : '';
  if (!path || !pkg.partNames().includes(path)) return [];
  const xml = pkg.xmlText(path);
  const prefix = rootPrefix(xml, 'comments');
  const authors = elements(xml, 'author').map((a) => decodeEntities(a.inner));
  return elements(xml, 'comment').map((c) => ({
    address: (c.attrs.get('ref') ?? '').replace(/\$/g, ''),
    text: richText(firstElement(c.inner, 'text')?.inner ?? '', prefix),
    author: authors[Number(c.attrs.get('authorId') ?? 0)] ?? '',
  }));
}

/** Index (in workbook order) of the sheet the workbook opens on. */
export function activeSheetIndex(pkg: XlsxPackage): number {
  const view = firstStartTag(pkg.xmlText(pkg.workbookPath), 'workbookView', undefined, 'tag');
  return Number((view && attributes(view).get('activeTab')) ?? 0) || 0;
}
