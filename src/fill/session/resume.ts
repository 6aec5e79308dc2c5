/**
 * A workbook the pane opens on: a finished fill shows its answers for review; an unfinished one is
 * offered to continue or discard (`interrupted`), and nothing is written until the analyst chooses.
 * Stop leaves the link, so a stopped fill can be picked up again.
 */
import { isoNow, refreshCanUndo, type SessionContext } from './context';
import { generateAndWrite } from './fill';
import { loadResults } from './results';
import { allDone, freshSteps, initialState, isNotFound } from './state';
import type { FillLink } from './types';

export async function open(ctx: SessionContext): Promise<void> {
  const { deps, run, store } = ctx;
  let link: FillLink | null;
  try {
    link = await ctx.links.read();
    await refreshCanUndo(ctx);
  } catch (e) {
    store.update({ phase: 'settled', outcome: { kind: 'failed', step: null, error: e } });
    return;
  }
  const untouched = () => !run.running && store.state.phase === 'idle';
  if (!link || !untouched()) return;
  if (!link.writtenAt && !link.undoneAt) {
    // Offer to continue only what the service still has; any other failure leaves the choice to the analyst.
    const gone = await deps.api.getQuestionnaire?.(link.questionnaireId).then(() => false, isNotFound);
    if (!untouched()) return;
    if (gone) {
      await ctx.links.save(null);
      store.update({ phase: 'settled', outcome: { kind: 'link-gone' } });
      return;
    }
    store.update({ phase: 'interrupted', interruptedAt: link.startedAt, questionnaireId: link.questionnaireId, fileName: link.fileName ?? null });
    return;
  }
  const ctl = run.begin();
  store.update({ steps: link.writtenAt ? allDone() : freshSteps(), questionnaireId: link.questionnaireId, fileName: link.fileName ?? null });
  try {
    await loadResults(ctx, link.questionnaireId, ctl);
    if (run.live(ctl) && link.writtenAt) store.update({ outcome: { kind: 'already-written', writtenAt: link.writtenAt } });
  } catch (e) {
    await forgetGoneLink(ctx, e, ctl);
  } finally {
    run.end(ctl);
  }
}

/** Continues the interrupted (or stopped) fill: waits for its answers, then writes them. */
export async function continueInterrupted(ctx: SessionContext): Promise<void> {
  const { run, store } = ctx;
  const link = await ctx.links.read();
  if (!link) return;
  const ctl = run.begin();
  store.update({
    steps: { ...freshSteps(), read: { state: 'done', detail: '' }, upload: { state: 'done', detail: '' } },
    questionnaireId: link.questionnaireId,
    fileName: link.fileName ?? null,
    report: null,
  });
  try {
    await generateAndWrite(ctx, link, ctl, true);
  } catch (e) {
    await forgetGoneLink(ctx, e, ctl);
  } finally {
    run.end(ctl);
  }
}

/** Forgets the interrupted fill; the workbook stays as it is. */
export async function discardInterrupted(ctx: SessionContext): Promise<void> {
  const { store } = ctx;
  const link = await ctx.links.read();
  // Cells an earlier, finished fill wrote are still ours to undo: keep knowing them.
  const keep = link?.cells && Object.keys(link.cells).length > 0;
  await ctx.links.save(keep ? { ...link!, undoneAt: undefined, writtenAt: link!.cellsWrittenAt ?? isoNow(ctx) } : null);
  const st = store.state;
  store.update({ ...initialState(st.options), canUndo: st.canUndo, outcome: { kind: 'discarded' }, phase: 'idle' });
}

async function forgetGoneLink(ctx: SessionContext, e: unknown, ctl: AbortController): Promise<void> {
  if (!ctx.run.isCurrent(ctl)) return;
  if (isNotFound(e)) {
    // The service no longer knows this questionnaire (reset, another service): forget the link.
    await ctx.links.save(null);
    ctx.store.update({ steps: freshSteps(), questionnaireId: null, outcome: { kind: 'link-gone' } });
    return;
  }
  ctx.run.fail(e, ctl);
}

/** Stops waiting for the service; the link stays, so the fill can be picked up again. */
export function stop(ctx: SessionContext): void {
  if (!ctx.run.stop()) return;
  const st = ctx.store.state;
  const resumable = st.steps.upload.state === 'done' && st.questionnaireId !== null && st.report === null;
  ctx.store.update({ phase: 'settled', stalled: false, outcome: { kind: 'stopped', resumable } });
}
