/**
 * Answers given by a mark: several adjacent columns, each headed by one choice (`Yes | No | Not
 * Applicable`), often under one merged header (`Consensus Assessment Answers`), where the respondent
 * puts an "x" under the choice. Each choice column becomes a slot of type `mark`; together they are one
 * answer (docs/questionnaire-families.md).
 */
import type { HeaderRow } from './header-rows';
import type { SheetView } from './sheet-view';
import type { SlotColumn } from './slot-columns';
import { isChoiceHeader, isMarkLike, slug } from './text';

export interface MarkGroup {
  /** The choice columns, left to right, with their headers as written. */
  columns: { col: number; choice: string }[];
  /** The mark the sheet uses (its most common one), `x` when none is written yet. */
  mark: string;
}

/**
 * Finds mark groups in the header rows: a merged header whose columns are headed by choices in the
 * next row, or a run of two or more adjacent choice headers in a header row. Columns holding anything
 * but marks below the header are no mark group (a `Yes`/`No` dropdown column is a list slot).
 */
export function findMarkGroups(view: SheetView, headerRows: readonly HeaderRow[]): MarkGroup[] {
  const groups: MarkGroup[] = [];
  const taken = new Set<number>();
  for (const h of headerRows) {
    for (const [c] of h.columns) {
      if (taken.has(c)) continue;
      const merge = view.merges.at(h.row, c);
      const next = view.rows.find((r) => r > h.row);
      if (merge && merge.right > merge.left && next !== undefined) {
        const columns = range(merge.left, merge.right).map((col) => ({ col, choice: view.text(next, col) ?? '' }));
        if (columns.every((x) => isChoiceHeader(x.choice))) push(columns, next);
        continue;
      }
      const run: { col: number; choice: string }[] = [];
      for (let col = c; h.columns.has(col) && isChoiceHeader(h.columns.get(col)); col++) run.push({ col, choice: h.columns.get(col)! });
      if (run.length >= 2) push(run, h.row);
    }
  }
  return groups;

  function push(columns: { col: number; choice: string }[], headerRow: number): void {
    const marks = new Map<string, number>();
    for (const r of view.rows) {
      if (r <= headerRow) continue;
      for (const { col } of columns) {
        const t = view.text(r, col);
        if (!t) continue;
        if (!isMarkLike(t)) return;
        marks.set(t, (marks.get(t) ?? 0) + 1);
      }
    }
    if (columns.some(({ col }) => view.grid.hiddenCols.has(col))) return;
    const mark = [...marks].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'x';
    for (const { col } of columns) taken.add(col);
    groups.push({ columns, mark });
  }
}

/**
 * Replaces the slot columns a mark group covers by one `mark` slot column per choice: the first keeps
 * the role the group's column had (`answer`), the others take `<role>_<choice>` (`answer_no`).
 */
export function applyMarkGroups(columns: Map<number, SlotColumn>, groups: readonly MarkGroup[]): void {
  for (const g of groups) {
    const existing = g.columns.map(({ col }) => columns.get(col)).find((s) => s !== undefined);
    const role = existing?.role || 'answer';
    const kind = existing?.kind === 'other' || !existing ? 'answer' : existing.kind;
    const choices = g.columns.map((x) => x.choice);
    g.columns.forEach(({ col, choice }, i) => {
      columns.set(col, {
        col,
        header: choice,
        kind,
        role: i === 0 ? role : `${role}_${slug(choice)}`,
        mark: { group: role, choice, choices, mark: g.mark },
      });
    });
  }
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}
