/**
 * Planning a fill from the workbook as it is: the target cells read once (the mark cells included,
 * slots inside merged areas moved to their top-left cell), then planned by src/fill's planner,
 * loaded on demand (src/excel/planner.ts).
 */
import type { QuestionWithAnswers } from '../api/schemas';
import { anchorSlotsToMerges, targetCells, type PlanOptions, type WritePlan } from '../fill';
import { cellState, type AdapterEnv } from './adapter-env';
import { mergeAnchors } from './merges';
import { loadPlanner } from './planner';
import { loadSheetNames, readCells } from './read-cells';

/** The fill planned with the cells as read: one call per set of options. */
export type Planner = (options: PlanOptions) => WritePlan;

/**
 * Reads the target cells once (mark cells included, slots in merged areas moved to their top-left
 * cell) and plans with what was read: `plan` once, `planOverwrite` both ways from the same read.
 */
export async function planFromOneRead<T>(env: AdapterEnv, questions: QuestionWithAnswers[], decide: (planner: Planner) => T): Promise<T> {
  const f = env.features();
  const { planFillWithMarks, withMarksWritable } = await loadPlanner();
  return Excel.run(async (context) => {
    const onSync = () => undefined;
    const sheetNames = await loadSheetNames(context, onSync);
    let targets = targetCells(withMarksWritable(questions), sheetNames);
    let effective = questions;

    // A slot inside a merged area is written at its top-left cell (ExcelApi 1.13 lists merges).
    if (f.mergedAreas && targets.length > 0) {
      const anchors = await mergeAnchors(context, targets, onSync);
      if (anchors.size > 0) {
        effective = anchorSlotsToMerges(questions, sheetNames, (tab, address) => anchors.get(tab)?.get(address));
        targets = targetCells(withMarksWritable(effective), sheetNames);
      }
    }

    const read = await readCells(context, targets, {}, { support: f, budgetBytes: env.budget, onSync });
    const view = {
      sheetNames,
      protectedSheets: [...read.protectedSheets],
      cell: (tab: string, address: string) => cellState(read, tab, address),
    };
    return decide((planOptions) => planFillWithMarks(effective, view, planOptions));
  });
}
