/**
 * Whether a cell may receive a value: the one check behind the planner, the Office.js writer's
 * re-check at apply time, a correction of one cell and an insert from chat.
 */
import type { CellState } from './types';

/** Why a cell is refused: it holds a formula, it is locked on a protected sheet, or it holds a value. */
export type CellRefusal = 'formula' | 'protected' | 'occupied';

export interface CellSafetyOptions {
  /** The sheet is protected: a cell whose lock state is unknown counts as locked (Excel locks every cell by default). */
  sheetProtected?: boolean;
  /** Replace a value already there (never a formula, never a locked cell). */
  overwrite?: boolean;
}

/** True when the cell shows something (a formula's cached result counts). */
export function cellHasValue(state: CellState | undefined): boolean {
  if (!state) return false;
  const v = state.value;
  return v !== null && v !== undefined && String(v).trim() !== '';
}

/** The reason `state` must not be written, or null when it may be. Formula first, then lock, then value. */
export function cellRefusal(state: CellState | undefined, options: CellSafetyOptions = {}): CellRefusal | null {
  if (state?.hasFormula) return 'formula';
  if (options.sheetProtected ? state?.locked !== false : state?.locked === true) return 'protected';
  if (!options.overwrite && cellHasValue(state)) return 'occupied';
  return null;
}

/** The sentence for a refused cell at `where` (`Sheet!C5`); `occupied` gets the context's own words. */
export function refusalDetail(refusal: Exclude<CellRefusal, 'occupied'>, where: string): string {
  return refusal === 'formula' ? `${where} holds a formula; it is never overwritten.` : `${where} is locked on a protected sheet.`;
}
