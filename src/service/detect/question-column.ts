/** Layout phase: which column holds the questions, and the explicit "Question" header row if there is one. */
import { isIdLike, isQuestionHeader, isQuestionLike, isStatementLike } from './text';
import type { SheetView } from './sheet-view';

export interface QuestionColumn {
  col: number;
  /** Row of an explicit "Question"/"Requirement" header above the column, or null. */
  headerRow: number | null;
}

/**
 * An explicit "Question" header with text below it, else the column richest in question-like text, or
 * in numbered requirement statements (`1.1 | Verify that…`): checklists state instead of asking.
 */
export function findQuestionColumn(view: SheetView): QuestionColumn | null {
  return byHeader(view) ?? byContent(view);
}

function byHeader(view: SheetView): QuestionColumn | null {
  for (const r of view.rows) {
    for (const a of view.anchors(r)) {
      if (!isQuestionHeader(a.text)) continue;
      // A title merged across columns (`Security Requirements` over a block) heads no single column,
      // and a header is typed: a formula's result is data (a practice name looked up elsewhere).
      const m = view.merges.at(r, a.col);
      if ((m && m.right > m.left) || view.cell(r, a.col)?.formula) continue;
      if (view.rows.some((rr) => rr > r && view.text(rr, a.col))) return { col: a.col, headerRow: r };
    }
  }
  return null;
}

/**
 * Scores question-like cells (a `?` ending counts double, an id just left of it adds one) and
 * statements with an id just left of them (one each); needs 3.
 */
function byContent(view: SheetView): QuestionColumn | null {
  const score = new Map<number, number>();
  for (const r of view.rows) {
    for (const a of view.anchors(r)) {
      const numbered = isIdLike(view.text(r, a.col - 1)) || isIdLike(view.text(r, a.col - 2));
      let s = 0;
      if (isQuestionLike(a.text)) s = (/\?\s*(\(.*\))?\s*$/.test(a.text) ? 2 : 1) + (numbered ? 1 : 0);
      else if (numbered && isStatementLike(a.text)) s = 1;
      if (s > 0) score.set(a.col, (score.get(a.col) ?? 0) + s);
    }
  }
  let best = 0;
  let col: number | null = null;
  for (const [c, s] of score) {
    if (s > best || (s === best && col !== null && c < col)) {
      best = s;
      col = c;
    }
  }
  return col === null || best < 3 ? null : { col, headerRow: null };
}
