/**
 * The answer slots of one question row: a slot per slot column the active header row names, the answer
 * column, and any slot column the row itself shows evidence for. Merges, formulas, locked cells on a
 * protected sheet and reference columns make a slot blocked.
 */
import type { AnswerSlot } from '../../api/schemas';
import { quoteSheetName, toA1 } from '../../xlsx/a1';
import type { GridCell } from './grid';
import type { HeaderRow } from './header-rows';
import type { SheetView } from './sheet-view';
import type { SlotColumn } from './slot-columns';

export interface SlotContext {
  view: SheetView;
  questionCol: number;
  idCol: number | null;
  slotColumns: ReadonlyMap<number, SlotColumn>;
  answerCol: number;
}

/** Something is, or is meant to be, written in (r, c): a value, a formula, a list, a merged box or an unlocked cell. */
export function rowHasEvidence(view: SheetView, r: number, c: number): boolean {
  if (view.coveredBy(r, c)) return false;
  const cell = view.cell(r, c);
  if (cell && (cell.value !== null || cell.formula)) return true;
  if (view.hasList(r, c)) return true;
  const m = view.merges.at(r, c);
  if (m && (m.right > m.left || m.bottom > m.top)) return true;
  return view.grid.isProtected && cell !== undefined && !view.styles.locked(cell.style);
}

export function slotsFor(ctx: SlotContext, r: number, active: HeaderRow | null): AnswerSlot[] {
  const { view, slotColumns } = ctx;
  const cols = new Set<number>();
  if (active) for (const c of active.columns.keys()) if (slotColumns.has(c)) cols.add(c);
  cols.add(ctx.answerCol);
  for (const c of slotColumns.keys()) if (rowHasEvidence(view, r, c)) cols.add(c);
  // A choice column brings its whole mark group: the answer is one choice among all of them.
  for (const c of [...cols]) {
    const group = slotColumns.get(c)?.mark?.group;
    if (group !== undefined) for (const [cc, sc] of slotColumns) if (sc.mark?.group === group) cols.add(cc);
  }
  const slots: AnswerSlot[] = [];
  const taken = new Set<string>();
  for (const c of [...cols].sort((a, b) => a - b)) {
    if (view.grid.hiddenCols.has(c)) continue;
    const sc = slotColumns.get(c)!;
    const cover = view.coveredBy(r, c);
    let anchorRow = r;
    let anchorCol = c;
    let blocked = false;
    if (cover) {
      const anchorKey = `${cover.top}:${cover.left}`;
      // Part of a merge that starts in another slot of this row: the same cell, already listed.
      if (taken.has(anchorKey) || (cover.top === r && cols.has(cover.left))) continue;
      blocked = true;
      // A merge that starts in the question or id cell: writing anywhere would overwrite that text.
      const startsInQuestion = cover.left === ctx.questionCol || cover.left === ctx.idCol || !slotColumns.has(cover.left);
      if (!startsInQuestion) {
        anchorRow = cover.top;
        anchorCol = cover.left;
      }
    }
    taken.add(`${anchorRow}:${anchorCol}`);
    const cell: GridCell | undefined = cover && anchorCol === c && anchorRow === r ? undefined : view.cell(anchorRow, anchorCol);
    const style = cell?.style ?? view.grid.rowStyles.get(anchorRow) ?? view.grid.colStyles.get(anchorCol) ?? 0;
    if (cell?.formula) blocked = true;
    if (view.grid.isProtected && view.styles.locked(style)) blocked = true;
    if (sc.kind === 'reference') blocked = true;
    const value = cell?.value != null && cell.value.trim() !== '' ? cell.value : null;
    if (sc.mark) {
      const { group, choice, choices, mark } = sc.mark;
      // Blocked for writers that only write text (they would put the answer's words in one column);
      // a writer that places marks plans the group (src/fill/plan-marks.ts) and checks the cells itself.
      slots.push({
        role: sc.role,
        header: sc.header,
        coordinate: toA1(anchorRow, anchorCol),
        value,
        is_blocked: true,
        type: 'mark',
        allowed_values: choices,
        choice,
        mark,
        mark_group: group,
      });
      continue;
    }
    const dv = view.validations.at(anchorRow, anchorCol);
    const slot: AnswerSlot = {
      role: sc.role,
      header: active?.columns.get(c) ?? sc.header,
      coordinate: toA1(anchorRow, anchorCol),
      value,
      is_blocked: blocked,
      type: dv ? 'list' : 'text',
    };
    if (dv) {
      const allowed = view.validations.allowed(dv);
      if (allowed) slot.allowed_values = allowed;
    }
    // A formula showing one other cell (a question repeated from another tab): answered there, not here.
    const source = cell?.formula ? cell.mirrors : undefined;
    if (source && !(source.sheet === view.grid.name && source.row === anchorRow && source.column === anchorCol)) {
      slot.mirror_of = `${quoteSheetName(source.sheet)}!${toA1(source.row, source.column)}`;
    }
    slots.push(slot);
  }
  return withChoiceValues(slots);
}

/**
 * A mark group's value is its choice: the header of the marked column, given on the group's first
 * slot (the one a reader takes as the answer); the other slots of the group carry none.
 */
function withChoiceValues(slots: AnswerSlot[]): AnswerSlot[] {
  const groups = new Map<string, AnswerSlot[]>();
  for (const s of slots) if (s.type === 'mark') groups.set(String(s.mark_group), [...(groups.get(String(s.mark_group)) ?? []), s]);
  for (const group of groups.values()) {
    const marked = group.filter((s) => s.value !== null).map((s) => String(s.choice));
    for (const s of group) s.value = null;
    group[0]!.value = marked.length > 0 ? marked.join(', ') : null;
  }
  return slots;
}
