/**
 * A review correction of an answer given by a mark moves the mark (docs/questionnaire-families.md).
 * Loaded on demand with the planner's chunk, the first time such an answer is corrected.
 */
import type { AnswerSlot } from '../api/schemas';
import { coerceToAllowed } from './coerce';
import { choiceOf, markOf } from './marks';
import { type CellRef, parseCellRef } from '../xlsx/a1';

export { markGroupOf } from './marks';

export interface MarkMove {
  /** The choice now marked; null when the correction clears the answer. */
  chosen: string | null;
  /** Only the group's cells whose content changes: the mark where it is missing, '' where another mark was. */
  writes: { cell: CellRef; text: string }[];
}

/** The cells of a group's columns on `tab` (a slot's own sheet when its coordinate names one). */
export function markCells(group: readonly AnswerSlot[], tab: string): CellRef[] | { problem: string } {
  const cells = group.map((s) => parseCellRef(s.coordinate, tab));
  const bad = cells.findIndex((c) => c === null);
  return bad >= 0 ? { problem: `"${group[bad]!.coordinate}" is not a cell address.` } : (cells as CellRef[]);
}

/**
 * A review correction of a marked answer: the sheet's mark in the chosen column, every other column
 * of the group that holds something cleared, and nothing else. `current` is what each of `cells`
 * holds now (null: not known, so written); a cell already as it should be is not written. Empty
 * `text` clears the answer. Whether a cell may be changed (formula, lock, a value the fill did not
 * write) is the writer's rule, checked for all the cells before any is written.
 */
export function markMove(
  group: readonly AnswerSlot[],
  cells: readonly CellRef[],
  current: readonly (string | null)[],
  text: string,
): MarkMove | { problem: string } {
  const choices = group.map(choiceOf);
  const wanted = text.trim();
  const chosen = wanted === '' ? null : coerceToAllowed(wanted, choices);
  if (wanted !== '' && chosen === null) return { problem: `"${wanted}" is not one of ${choices.join(', ')}.` };
  const chosenIndex = chosen === null ? -1 : choices.indexOf(chosen);
  const mark = markOf(group);
  const writes: MarkMove['writes'] = [];
  cells.forEach((cell, i) => {
    const next = i === chosenIndex ? mark : '';
    const now = current[i];
    if (now === null || now === undefined || now.trim().toLowerCase() !== next.toLowerCase()) writes.push({ cell, text: next });
  });
  return { chosen, writes };
}
