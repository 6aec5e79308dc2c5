/** Layout phase: which column holds the questions, and the explicit "Question" header row if there is one. */
import { isIdLike, isQuestionHeader, isQuestionLike } from './text';
import type { SheetView } from './sheet-view';

export interface QuestionColumn {
  col: number;
  /** Row of an explicit "Question"/"Requirement" header above the column, or null. */
  headerRow: number | null;
}

/** An explicit "Question" header with text below it, else the column richest in question-like text. */
export function findQuestionColumn(view: SheetView): QuestionColumn | null {
  return byHeader(view) ?? byContent(view);
}

function byHeader(view: SheetView): QuestionColumn | null {
  for (const r of view.rows) {
    for (const a of view.anchors(r)) {
      if (!isQuestionHeader(a.text)) continue;
      if (view.rows.some((rr) => rr > r && view.text(rr, a.col))) return { col: a.col, headerRow: r };
    }
  }
  return null;
}

/** Scores question-like cells (a `?` ending counts double, an id just left of it adds one); needs 3. */
function byContent(view: SheetView): QuestionColumn | null {
  const score = new Map<number, number>();
  for (const r of view.rows) {
    for (const a of view.anchors(r)) {
      if (!isQuestionLike(a.text)) continue;
      let s = /\?\s*(\(.*\))?\s*$/.test(a.text) ? 2 : 1;
      if (isIdLike(view.text(r, a.col - 1)) || isIdLike(view.text(r, a.col - 2))) s += 1;
      score.set(a.col, (score.get(a.col) ?? 0) + s);
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
