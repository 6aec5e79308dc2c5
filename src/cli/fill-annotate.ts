/**
 * `qfill fill --highlight --source-notes`: the add-in's fill options, written into the file. The
 * same rules as the add-in (src/excel/workbook.ts `apply`): a written answer gets its trust colour
 * and a note naming its sources; a cleared mark gets neither; a protected sheet gets neither (the
 * report says how many answers went without); a cell that already has a note keeps it. Lossless:
 * a colour is a copy of the cell's own style with another fill, appended to styles.xml so no other
 * cell changes look (src/xlsx/styles.ts), and notes are written as legacy notes (src/xlsx/notes-write.ts).
 */
import { sourceNoteText, TRUST_FILLS } from '../fill/annotations';
import type { AnnotationGap, CellWrite, WritePlan } from '../fill/types';
import type { ApplyOptions, NoteWrite, XlsxPackage, XlsxWrite } from '../xlsx';
import { notesOf } from '../xlsx/sheet-contents';
import { cellFormats, StyleEditor } from '../xlsx/styles';

export interface AnnotateOptions {
  highlight: boolean;
  sourceNotes: boolean;
}

export interface AnnotatedWrites {
  writes: XlsxWrite[];
  options: ApplyOptions;
  /** Cells coloured and notes added. */
  coloured: number;
  noted: number;
  /** Answers that could not be given a colour or a note, and why (`describeAnnotationGaps`). */
  gaps: AnnotationGap[];
}

/** Who the notes are by, as Excel shows it above a note's text. */
export const NOTE_AUTHOR = 'Questionnaire Filler';

const valueWrite = (w: CellWrite): XlsxWrite => ({ tab: w.tab, address: w.address, value: w.mark === 'clear' ? null : w.value });

/** The plan's writes as the package takes them, with the colours and notes asked for. */
export function annotatedWrites(pkg: XlsxPackage, plan: WritePlan, options: AnnotateOptions): AnnotatedWrites {
  const writes = plan.writes.map(valueWrite);
  const gaps: AnnotationGap[] = [];
  const parts = new Map<string, Uint8Array>();
  let coloured = 0;
  if (options.highlight) {
    const colours = highlightStyles(pkg, plan.writes, gaps);
    plan.writes.forEach((_, i) => {
      const style = colours.styles.get(i);
      if (style !== undefined) {
        writes[i]!.style = style;
        coloured++;
      }
    });
    if (colours.stylesXml) parts.set(colours.stylesPath, new TextEncoder().encode(colours.stylesXml));
  }
  const notes = options.sourceNotes ? sourceNotes(pkg, plan.writes, gaps) : [];
  return {
    writes,
    options: { ...(parts.size ? { parts } : {}), ...(notes.length ? { notes } : {}) },
    coloured,
    noted: notes.length,
    gaps: gaps.filter((g) => g.count > 0),
  };
}

/** Per write (by index), the cellXfs index of its cell's style with the trust colour as its fill. */
function highlightStyles(pkg: XlsxPackage, writes: readonly CellWrite[], gaps: AnnotationGap[]) {
  const stylesPath = pkg.relatedPath('/styles');
  const styles = new Map<number, number>();
  const wanted = writes.map((w, i) => ({ w, i })).filter(({ w }) => w.trust && w.mark !== 'clear');
  if (!stylesPath) {
    // A package without styles.xml (rare, hand-made) has no style to copy a fill onto.
    gaps.push({ kind: 'colour', why: 'no-styles', tab: null, count: wanted.length });
    return { stylesPath, styles, stylesXml: null };
  }
  const editor = new StyleEditor(pkg.xmlText(stylesPath));
  const formats = cellFormats(pkg.xmlText(stylesPath));
  for (const [tab, list] of byTab(wanted, ({ w }) => w.tab)) {
    if (pkg.isProtected(tab)) {
      gaps.push({ kind: 'colour', why: 'protected', tab, count: list.length });
      continue;
    }
    const cells = pkg.readCells(
      tab,
      list.map(({ w }) => w.address),
    );
    for (const { w, i } of list) {
      const base = cells.get(w.address)?.style ?? 0;
      const now = formats[base] ?? formats[0];
      styles.set(
        i,
        editor.styleFor(base, { fill: TRUST_FILLS[w.trust!], numberFormat: now?.numberFormat ?? 'General', quotePrefix: now?.quotePrefix ?? false }),
      );
    }
  }
  return { stylesPath, styles, stylesXml: editor.changed ? editor.text() : null };
}

/** A note per written answer with sources, but on protected sheets and on cells that have a note already. */
function sourceNotes(pkg: XlsxPackage, writes: readonly CellWrite[], gaps: AnnotationGap[]): NoteWrite[] {
  const wanted = writes.flatMap((w) => {
    const text = sourceNoteText(w);
    return text === null ? [] : [{ w, text }];
  });
  const out: NoteWrite[] = [];
  for (const [tab, list] of byTab(wanted, ({ w }) => w.tab)) {
    if (pkg.isProtected(tab)) {
      gaps.push({ kind: 'note', why: 'protected', tab, count: list.length });
      continue;
    }
    const existing = new Set(notesOf(pkg, tab).map((n) => n.address.toUpperCase()));
    for (const { w, text } of list) if (!existing.has(w.address.toUpperCase())) out.push({ tab, address: w.address, text, author: NOTE_AUTHOR });
  }
  return out;
}

function byTab<T>(items: readonly T[], tabOf: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) out.set(tabOf(item), [...(out.get(tabOf(item)) ?? []), item]);
  return out;
}
