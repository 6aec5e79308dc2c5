/**
 * THE decision on how text reaches a cell through `range.values` so that Excel keeps it as typed.
 *
 * Excel reads a written string starting with `=` (also `+`, `-`, `@`) as a formula, and converts
 * number-like strings (`1E5`, `3/4`, `10%`, long ids, leading zeros) into numbers or dates. Two ways
 * to stop that: number format `@` on the cell, or Excel's own text prefix, a leading apostrophe.
 * We use the apostrophe, because:
 * - it is what Excel itself does when a person types `'=1+1`, and it works the same on every host,
 *   while whether `numberFormat = "@"` alone stops formula parsing differs between hosts (DESIGN.md);
 * - it does not change the cell's number format, so the analyst's formatting survives and a fill on
 *   a protected sheet (where formatting is forbidden even for unlocked cells) still works;
 * - no extra `numberFormat` write, so fewer bytes per sync.
 * The apostrophe is not part of the value (`values` reads back `=1+1`); `formulas` drops it too
 * (office-js #6687), which is why Undo re-encodes restored text through this same function.
 */
import { needsTextProtection } from '../fill/text-safety';

/**
 * The string to put in `range.values` for `text`; `forceText` comes from the plan (or is recomputed).
 * `restoringIntoTextCell` is for Undo only: the text came out of a cell formatted `@`, where Excel
 * held it as text without a prefix, and goes back the same way so the cell is restored exactly.
 */
export function cellTextForValues(text: string, forceText: boolean = needsTextProtection(text), restoringIntoTextCell = false): string {
  if (restoringIntoTextCell) return text;
  return forceText || needsTextProtection(text) ? `'${text}` : text;
}
