/**
 * Layout phase: header rows, the rows that name answer slots to the right of the question column (and,
 * under an explicit "Question" header, slot-naming headers to its left: `Response | Question`). Section
 * rows that carry slot headers (`Vendor Answers`) are header rows too; their title is a heading.
 */
import { headerKind, ID_HEADER_RE, isChoiceHeader, isHeaderLike, isIdLike, isQuestionHeader, isQuestionLike, isSlotHeader, isStatementLike } from './text';
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
    const right = view.anchors(r).filter((a) => a.col > Q);
    const qHeader = isQuestionHeader(qText) || namesQuestionColumn(qText, right);
    if (qText !== null && !qHeader) continue;
    if (idCol !== null && isIdLike(view.text(r, idCol))) continue;
    const left = qHeader ? leftSlotHeaders(view, r, Q, idCol) : new Map<number, string>();
    // Reference headers alone (Score, Weight, Guidance) make a report table, not an answer table.
    const namesAnswerSlot =
      right.some((a) => isSlotHeader(a.text) && headerKind(a.text) !== 'reference') || [...left.values()].some((t) => headerKind(t) !== 'reference');
    if (!namesAnswerSlot && !(qHeader && right.some((a) => isHeaderLike(a.text)))) continue;
    const columns = new Map<number, string>(left);
    for (const [c, t] of rightHeaders(view, r, Q)) columns.set(c, t);
    if (columns.size === 0) continue;
    // `Yes | No | Not Applicable` under a merged `Answers` header names the choices of that header's
    // answer (mark-columns.ts), not slots of their own.
    const previous = found[found.length - 1];
    if (previous && view.rows[view.rows.indexOf(r) - 1] === previous.row && [...columns.values()].every((t) => isChoiceHeader(t))) continue;
    const title = view
      .anchors(r)
      .find((a) => a.col <= Q && !left.has(a.col) && !isQuestionHeader(a.text) && !ID_HEADER_RE.test(a.text) && a.text.length <= 100);
    found.push({ row: r, columns, title: title ?? null });
  }
  return found;
}

/**
 * The run of header-like cells right of the question column: it starts after any hidden columns, ends
 * at a cell that is no header (a sentence, a number) or at two empty cells, and crosses cells covered by
 * a merged header and a single empty cell (`Testing Procedure(s) | | Comment` where the procedure links
 * spill into the next column). Past hidden columns (`Answer | hidden scoring | Interview Notes`) it goes
 * on only through headers that name a slot: other columns there are the sheet's own workings.
 */
function rightHeaders(view: SheetView, r: number, Q: number): Map<number, string> {
  const out = new Map<number, string>();
  let started = false;
  let gap = 0;
  let pastHidden = false;
  for (let c = Q + 1; c <= view.grid.maxCol; c++) {
    if (view.grid.hiddenCols.has(c)) {
      if (started) pastHidden = true;
      continue;
    }
    if (started && view.coveredBy(r, c)) continue;
    const t = view.text(r, c);
    if (t && isHeaderLike(t) && !(pastHidden && !isSlotHeader(t))) {
      out.set(c, t);
      started = true;
      gap = 0;
    } else if (started && (t || ++gap > 1)) break;
  }
  return out;
}

/**
 * A label over the question column in a row that names answer slots (`Detailed Verification
 * Requirement | … | Status | Comment`): a header, though not worded "Question".
 */
function namesQuestionColumn(qText: string | null, right: readonly Anchor[]): boolean {
  if (!qText || !isHeaderLike(qText) || isQuestionLike(qText) || isStatementLike(qText)) return false;
  const headers = right.filter((a) => isHeaderLike(a.text));
  return headers.length >= 2 && headers.length === right.length && headers.some((a) => headerKind(a.text) === 'answer');
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
