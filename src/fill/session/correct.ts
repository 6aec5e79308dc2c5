/**
 * An analyst's correction from the review, written with the safety rules, then shown in the review.
 * A cell gets the text typed or chosen; a marked answer (one column per choice) gets its mark moved:
 * the sheet's mark in the chosen column, the old mark cleared, the group's other cells untouched.
 */
import type { AnswerSlot, QuestionWithAnswers } from '../../api/schemas';
import { onDemand } from '../on-demand';
import { refreshCanUndo, type SessionContext } from './context';
import { cellKey, withCorrection } from './corrections';
import type { CellText, CorrectionTarget } from './types';

type Written = { written: boolean; reason?: string };

/** The mark rules, fetched with the planner's chunk the first time a marked answer is corrected (the pane's first paint stays small). */
const loadMarks = onDemand(() => import(/* webpackChunkName: "planner" */ '../mark-move'));

/** What a correction changes: the cells to write, and the slot and text the review then shows. */
interface Change {
  cells: CellText[];
  slot: AnswerSlot;
  text: string;
}

export async function correct(ctx: SessionContext, q: QuestionWithAnswers, target: CorrectionTarget, text: string, overwrite: boolean): Promise<Written> {
  const change =
    target.slot.type === 'mark' ? await markChange(ctx, q, target.slot, text) : { cells: [{ ref: target.cell, text }], slot: target.slot, text: text.trim() };
  if ('reason' in change) return { written: false, reason: change.reason };
  const result = await writeChange(ctx, change.cells, overwrite);
  if (result.written) await remember(ctx, q, change);
  return result;
}

/** The mark moved to the chosen column, from what the group's cells hold now. */
async function markChange(ctx: SessionContext, q: QuestionWithAnswers, slot: AnswerSlot, text: string): Promise<Change | { reason: string }> {
  const { markCells, markGroupOf, markMove } = await loadMarks();
  const group = markGroupOf(q.answer_slots ?? [], slot);
  if (!group) return { reason: `${slot.coordinate} is not one of this question's answer columns.` };
  const cells = markCells(group, q.tab_name);
  if ('problem' in cells) return { reason: cells.problem };
  const { workbook } = ctx.deps;
  // Unread cells are all written (the mark, and '' in each other column): still the one answer.
  const current = workbook.readValues ? await workbook.readValues(cells) : cells.map(() => null);
  const move = markMove(group, cells, current, text);
  if ('problem' in move) return { reason: move.problem };
  return { cells: move.writes.map((w) => ({ ref: w.cell, text: w.text })), slot: group[0]!, text: move.chosen ?? '' };
}

async function writeChange(ctx: SessionContext, cells: readonly CellText[], overwrite: boolean): Promise<Written> {
  const { workbook } = ctx.deps;
  // The cells already say so: nothing to write, and the review still shows the choice.
  if (cells.length === 0) return { written: true };
  if (workbook.writeCells) return workbook.writeCells(cells, { overwrite });
  // Several cells go only where they are written all or none: never one mark set and the other kept.
  if (cells.length === 1 && workbook.writeCell) return workbook.writeCell(cells[0]!.ref, cells[0]!.text, { overwrite });
  return { written: false, reason: 'This workbook cannot be written from here.' };
}

/** The review shows the correction; the link remembers the cells, so Undo fill and "corrected by you" know them after a reopen. */
async function remember(ctx: SessionContext, q: QuestionWithAnswers, change: Change): Promise<void> {
  const { store } = ctx;
  const questions = store.state.questions.map((x) => (x.id === q.id ? withCorrection(x, change.slot, change.text) : x));
  const link = await ctx.links.read();
  if (link && change.cells.length > 0) {
    const keys = change.cells.map((c) => cellKey(c.ref.tab, c.ref.address));
    await ctx.links.save({ ...link, corrected: [...new Set([...(link.corrected ?? []), ...keys])] });
  }
  const outcome = store.state.outcome?.kind === 'undone' ? null : store.state.outcome;
  store.update({ questions, corrected: new Set(store.state.corrected).add(q.id), outcome });
  await refreshCanUndo(ctx);
}
