/** An analyst's correction of one answer cell from the review, written with the safety rules, then shown in the review. */
import type { QuestionWithAnswers } from '../../api/schemas';
import { refreshCanUndo, type SessionContext } from './context';
import { cellKey, withCorrection } from './corrections';
import type { CorrectionTarget } from './types';

export async function correct(
  ctx: SessionContext,
  q: QuestionWithAnswers,
  target: CorrectionTarget,
  text: string,
  overwrite: boolean,
): Promise<{ written: boolean; reason?: string }> {
  const { deps, store } = ctx;
  const { workbook } = deps;
  if (!workbook.writeCell) return { written: false, reason: 'This workbook cannot be written from here.' };
  const result = await workbook.writeCell(target.cell, text, { overwrite });
  if (result.written) {
    const questions = store.state.questions.map((x) => (x.id === q.id ? withCorrection(x, target.slot, text.trim()) : x));
    const link = await ctx.links.read();
    if (link) {
      const key = cellKey(target.cell.tab, target.cell.address);
      // Remembered with the link: Undo fill and "corrected by you" know it after the pane is reopened.
      await ctx.links.save({ ...link, corrected: [...new Set([...(link.corrected ?? []), key])] });
    }
    const outcome = store.state.outcome?.kind === 'undone' ? null : store.state.outcome;
    store.update({ questions, corrected: new Set(store.state.corrected).add(q.id), outcome });
    await refreshCanUndo(ctx);
  }
  return result;
}
