/**
 * Undo fill: restores every cell the fill touched. When cells were changed after the fill (in the
 * sheet, or corrected from the review) it asks first (`confirm-undo`): undo everything, or all but
 * those later edits.
 */
import { isoNow, refreshCanUndo, type SessionContext } from './context';
import { laterEditsOf, linkAfterUndo, trackedCells } from './link';
import type { LaterEdit } from './types';

/** Cells changed since the fill (in the sheet, or corrected here) that Undo fill would put back. */
export async function findLaterEdits(ctx: SessionContext): Promise<LaterEdit[]> {
  const link = await ctx.links.read();
  const { workbook } = ctx.deps;
  if (!link || !workbook.readValues) return [];
  const tracked = trackedCells(link);
  if (tracked.keys.length === 0) return [];
  return laterEditsOf(link, tracked, await workbook.readValues(tracked.refs));
}

/** Undo fill: asks first when it would discard edits made after the fill. */
export async function requestUndo(ctx: SessionContext): Promise<void> {
  if (ctx.run.running || ctx.store.state.phase === 'undoing') return;
  let edits: LaterEdit[] = [];
  try {
    edits = await findLaterEdits(ctx);
  } catch {
    edits = []; // cannot read the cells: undo as before, the snapshot is still exact
  }
  if (edits.length > 0) {
    ctx.store.update({ phase: 'confirm-undo', laterEdits: edits });
    return;
  }
  await undo(ctx, false);
}

export function cancelUndo(ctx: SessionContext): void {
  if (ctx.store.state.phase === 'confirm-undo') ctx.store.update({ phase: 'settled', laterEdits: null });
}

/** Restores every cell the fill touched; with `keepLaterEdits`, all but the later edits, which stay untouched. */
export async function undo(ctx: SessionContext, keepLaterEdits: boolean): Promise<void> {
  const { deps, store } = ctx;
  const { workbook } = deps;
  if (!workbook.undo) return;
  const edits = keepLaterEdits ? (store.state.laterEdits ?? []) : [];
  store.update({ phase: 'undoing', laterEdits: null, outcome: null });
  try {
    const result = await workbook.undo(edits.length ? { keep: edits.map((e) => ({ tab: e.tab, address: e.address })) } : undefined);
    const done = !!result && !result.failed?.length;
    const kept = done ? edits : [];
    if (done) {
      if (kept.length === 0) store.update({ questions: ctx.serviceQuestions, corrected: new Set() });
      const link = await ctx.links.read();
      // The kept cells are the analyst's own now: nothing of this fill is left to undo.
      if (link) await ctx.links.save(linkAfterUndo(link, isoNow(ctx)));
    }
    await refreshCanUndo(ctx);
    store.update({
      phase: 'settled',
      report: done ? null : store.state.report,
      steps: { ...store.state.steps, write: { state: 'pending', detail: 'undone' } },
      outcome: { kind: 'undone', result, kept: kept.length },
    });
  } catch (e) {
    store.update({ phase: 'settled', outcome: { kind: 'undo-failed', error: e } });
  }
}
