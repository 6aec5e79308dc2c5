/**
 * Layout phase: header rows, the rows that name answer slots to the right of the question column (and,
 * under an explicit "Question" header, slot-naming headers to its left: `Response | Question`). Section
 * rows that carry slot headers (`Vendor Answers`) are header rows too; their title is a heading.
 */
import { headerKind, ID_HEADER_RE, isHeaderLike, isIdLike, isQuestionHeader, isSlotHeader } from './text';
import type { Anchor, SheetView } from './sheet-view';

export interface HeaderRow {
  row: number;
  /** Column → header text as written. */
  columns: Map<number, string>;
  /** A title at or left of the question column (`Company Overview`): a heading for what follows. */
  title: Anchor | null;
}

export function findHeaderRows(view: SheetView, questionCol: number, idCol: number | null): HeaderRow[] {
  const Q = questionCol;
  const found: HeaderRow[] = [];
  for (const r of view.rows) {
    const qText = view.text(r, Q);
    const qHeader = isQuestionHeader(qText);
    if (qText !== null && !qHeader) continue;
    if (idCol !== null && isIdLike(view.text(r, idCol))) continue;
    const right = view.anchors(r).filter((a) => a.col > Q);
    const left = qHeader ? leftSlotHeaders(view, r, Q, idCol) : new Map<number, string>();
    // Reference headers alone (Score, Weight, Guidance) make a report table, not an answer table.
    const namesAnswerSlot =
      right.some((a) => isSlotHeader(a.text) && headerKind(a.text) !== 'reference') ||
      [...left.values()].some((t) => headerKind(t) !== 'reference');
    if (!namesAnswerSlot && !(qHeader && right.some((a) => isHeaderLike(a.text)))) continue;
    const columns = new Map<number, string>(left);
    for (const [c, t] of rightHeaders(view, r, Q)) columns.set(c, t);
    if (columns.size === 0) continue;
    const title = view
      .anchors(r)
      .find((a) => a.col <= Q && !left.has(a.col) && !isQuestionHeader(a.text) && !ID_HEADER_RE.test(a.text) && a.text.length <= 100);
    found.push({ row: r, columns, title: title ?? null });
  }
  return found;
}

/** The run of header-like cells right of the question column, skipping hidden columns before it starts. */
function rightHeaders(view: SheetView, r: number, Q: number): Map<number, string> {
  const out = new Map<number, string>();
  let started = false;
  for (let c = Q + 1; c <= view.grid.maxCol; c++) {
    if (view.grid.hiddenCols.has(c)) {
      if (started) break;
      continue;
    }
    const t = view.text(r, c);
    if (t && isHeaderLike(t)) {
      out.set(c, t);
      started = true;
    } else if (started) break;
  }
  return out;
}

/** Slot-naming headers left of the question header, nearest first, up to other text or a wide title. */
function leftSlotHeaders(view: SheetView, r: number, Q: number, idCol: number | null): Map<number, string> {
  const found = new Map<number, string>();
  for (let c = Q - 1; c >= 1; c--) {
    if (c === idCol || view.grid.hiddenCols.has(c)) continue;
    const t = view.text(r, c);
    if (!t) continue;
    const m = view.merges.at(r, c);
    if ((m && m.right >= Q) || !isSlotHeader(t) || ID_HEADER_RE.test(t)) break;
    found.set(c, t);
  }
  return found;
}
