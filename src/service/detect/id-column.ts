/** Layout phase: the id column (mostly id-like, mostly unique values beside the question texts). */
import { ID_HEADER_RE, isIdLike } from './text';
import type { SheetView } from './sheet-view';

export interface IdColumn {
  col: number;
  /** The most common id shape (`A-9` for `COMP-01`): ids of another shape above the table are not questions. */
  mainShape: string | null;
}

/**
 * `textRows` are the rows with text in the question column (below the explicit header, if any). A column
 * needs ids on half of them (30% when headed `ID`/`#`), 80% unique; left of the questions and nearer wins.
 */
export function findIdColumn(view: SheetView, questionCol: number, textRows: readonly number[], headerRow: number | null): IdColumn | null {
  const visible = new Set<number>();
  const hidden = new Set<number>();
  for (const r of textRows) {
    for (const [c] of view.grid.rows.get(r) ?? []) {
      if (c === questionCol || !isIdLike(view.text(r, c))) continue;
      (view.grid.hiddenCols.has(c) ? hidden : visible).add(c);
    }
  }
  // A hidden column of ids (`G-SM-A-1-1` behind the interview, one per question, none on the
  // description rows between them) still names the questions, when no visible column does.
  const idCol = bestIdColumn(view, questionCol, textRows, headerRow, visible, 0.5) ?? bestIdColumn(view, questionCol, textRows, headerRow, hidden, 0.3);
  if (idCol === null) return null;
  const shapeCounts = new Map<string, number>();
  for (const r of textRows) {
    const t = view.text(r, idCol);
    if (isIdLike(t)) shapeCounts.set(idShape(t as string), (shapeCounts.get(idShape(t as string)) ?? 0) + 1);
  }
  const mainShape = [...shapeCounts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
  return { col: idCol, mainShape };
}

function bestIdColumn(
  view: SheetView,
  questionCol: number,
  textRows: readonly number[],
  headerRow: number | null,
  candidates: Set<number>,
  coverageNeeded: number,
): number | null {
  let bestCoverage = 0;
  let idCol: number | null = null;
  for (const c of candidates) {
    const ids = textRows.map((r) => view.text(r, c)).filter((t): t is string => isIdLike(t));
    const coverage = ids.length / Math.max(1, textRows.length);
    const unique = new Set(ids).size / Math.max(1, ids.length);
    const explicit = headerRow !== null && ID_HEADER_RE.test(view.text(headerRow, c) ?? '');
    const needed = explicit ? 0.3 : coverageNeeded;
    // Of two id columns (`8.1 | MSTG-RESILIENCE-1`), the one headed as the id (`ID`) names the question.
    const headed = ID_HEADER_RE.test(headerAbove(view, c, textRows) ?? '') ? 0.01 : 0;
    const adjusted = coverage + (c < questionCol ? 0.05 : 0) + headed - Math.abs(c - questionCol) * 0.001;
    if (coverage >= needed && unique >= 0.8 && adjusted > bestCoverage) {
      bestCoverage = adjusted;
      idCol = c;
    }
  }
  return idCol;
}

/** The text nearest above the column's first id: its header, when the table has one. */
function headerAbove(view: SheetView, c: number, textRows: readonly number[]): string | null {
  const first = textRows.find((r) => isIdLike(view.text(r, c)));
  if (first === undefined) return null;
  for (let i = view.rows.indexOf(first) - 1; i >= 0; i--) {
    const t = view.text(view.rows[i], c);
    if (t) return t;
  }
  return null;
}

/** `COMP-01` and `DOCU-12` share the shape `A-9`; `v4.0.3` has `A9.9.9`. */
export function idShape(id: string): string {
  return id.replace(/[A-Za-z]+/g, 'A').replace(/\d+/g, '9');
}
