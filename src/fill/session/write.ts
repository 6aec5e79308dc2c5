/**
 * Write: plans the answers into the workbook's cells and writes them. With a confirmation to ask (the
 * pane), an overwrite that would replace values waits for the analyst (`confirm-overwrite`) and writes
 * nothing until they choose: the plans with and without overwrite come from one read of the cells, and
 * what would be replaced is the values that read found (`SkippedSlot.current`). The link then remembers
 * what was written, for the next fill and for undo.
 */
import type { QuestionWithAnswers } from '../../api/schemas';
import { isoNow, planOptions, refreshCanUndo, type SessionContext } from './context';
import { earlierCellsSkipped, linkAfterWrite } from './link';
import { replacementCandidates, replacementsOf } from './replacements';
import { plural } from './state';
import type { OverwritePlans, WritePlan } from '../types';
import type { FillLink } from './types';

export async function write(ctx: SessionContext, questions: QuestionWithAnswers[], link: FillLink, ctl: AbortController, resumed: boolean): Promise<void> {
  const { deps, run, store } = ctx;
  const { workbook } = deps;
  run.step('write', 'active', 'Checking the target cells…');
  const { overwrite } = store.state.options;
  // Without a confirmation to ask (the CLI's --overwrite is the analyst's word already), one plan is enough.
  if (!overwrite || !deps.confirmOverwrite) {
    const plan = await workbook.plan(questions, planOptions(ctx, overwrite));
    if (!run.live(ctl)) return;
    return applyPlan(ctx, plan, link, ctl, resumed);
  }
  const { keep, all } = await planBothWays(ctx, questions);
  if (!run.live(ctl)) return;
  // What would be replaced comes from the read the plans were made from: no second look at the cells.
  const replacements = replacementsOf(replacementCandidates(keep, all));
  if (replacements.length === 0) return applyPlan(ctx, all, link, ctl, resumed);
  // Nothing is destroyed without an explicit click: the run ends here, waiting for confirmOverwrite.
  ctx.pending = { keep, all, link, resumed };
  run.step('write', 'active', `Waiting for you: ${plural(replacements.length, 'existing value')} would be replaced`);
  store.update({ phase: 'confirm-overwrite', replacements });
}

/** The plans without and with overwrite: from one read where the workbook can (`planOverwrite`), else planned twice. */
async function planBothWays(ctx: SessionContext, questions: QuestionWithAnswers[]): Promise<OverwritePlans> {
  const { workbook } = ctx.deps;
  if (workbook.planOverwrite) return workbook.planOverwrite(questions, { writeDrafts: ctx.store.state.options.writeDrafts });
  const keep = await workbook.plan(questions, planOptions(ctx, false));
  return { keep, all: await workbook.plan(questions, planOptions(ctx, true)) };
}

/** The analyst's answer to "replace N existing values?". */
export async function confirmOverwrite(ctx: SessionContext, choice: 'replace' | 'keep' | 'cancel'): Promise<void> {
  const { run, store } = ctx;
  const chosen = ctx.pending;
  if (!chosen || store.state.phase !== 'confirm-overwrite') return;
  ctx.pending = null;
  if (choice === 'cancel') {
    run.step('write', 'pending');
    store.update({ phase: 'settled', replacements: null, outcome: { kind: 'overwrite-declined' } });
    return;
  }
  const ctl = run.begin();
  try {
    await applyPlan(ctx, choice === 'replace' ? chosen.all : chosen.keep, chosen.link, ctl, chosen.resumed);
  } catch (e) {
    run.fail(e, ctl);
  } finally {
    run.end(ctl);
  }
}

async function applyPlan(ctx: SessionContext, plan: WritePlan, link: FillLink, ctl: AbortController, resumed: boolean): Promise<void> {
  const { deps, run, store } = ctx;
  run.step('write', 'active', `Writing ${plural(plan.writes.length, 'cell')}…`);
  const { highlight, sourceNotes } = store.state.options;
  const result = await deps.workbook.apply(plan, { highlight, sourceNotes });
  if (!run.live(ctl)) return;
  const earlier = earlierCellsSkipped(plan, link);
  await ctx.links.save(linkAfterWrite(link, plan, result, isoNow(ctx)));
  run.step('write', 'done', `${plural(result.written, 'cell')} written`);
  await refreshCanUndo(ctx);
  if (!run.live(ctl)) return;
  store.update({
    report: { plan, result, earlier, earlierAt: link.cellsWrittenAt ?? null, resumed },
    outcome: store.state.questions.length === 0 ? { kind: 'no-questions' } : { kind: 'written' },
    replacements: null,
  });
}

/** Writes the known answers again (after Undo fill, or with other options). */
export async function rewrite(ctx: SessionContext): Promise<void> {
  const { run, store } = ctx;
  if (store.state.questions.length === 0) return;
  const link = (await ctx.links.read()) ?? { questionnaireId: store.state.questionnaireId ?? 0, startedAt: isoNow(ctx) };
  const ctl = run.begin();
  store.update({ report: null });
  try {
    await write(ctx, store.state.questions, link, ctl, false);
  } catch (e) {
    run.fail(e, ctl);
  } finally {
    run.end(ctl);
  }
}
