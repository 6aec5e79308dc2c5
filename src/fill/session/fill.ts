/** The fill from scratch: read the workbook, upload it, remember the link, then wait for answers and write them. */
import { isoNow, type SessionContext } from './context';
import { formatBytes } from './eta';
import { awaitAnswers, loadResults } from './results';
import { SessionError, freshSteps } from './state';
import type { FillLink, FillState } from './types';
import { write } from './write';

export async function fill(ctx: SessionContext, signal?: AbortSignal): Promise<FillState> {
  const { deps, run, store } = ctx;
  const ctl = run.begin(signal);
  const { api, workbook } = deps;
  store.update({
    steps: freshSteps(),
    read: null,
    progress: null,
    secondsLeft: null,
    report: null,
    structure: null,
    warnings: [],
    questions: [],
    questionnaireId: null,
    fileName: null,
    corrected: new Set(),
  });
  try {
    const previous = await ctx.links.read();
    run.step('read', 'active');
    const file = await workbook.readFile((p) => run.live(ctl) && store.update({ read: p }));
    if (!run.live(ctl)) return store.state;
    run.step('read', 'done', `${file.fileName}, ${formatBytes(file.bytes.length)}`);
    store.update({ fileName: file.fileName });
    run.step('upload', 'active', `Sending ${formatBytes(file.bytes.length)}…`);
    const uploaded = await api.uploadQuestionnaires(
      [{ name: file.fileName, data: file.bytes, ...(file.type ? { type: file.type } : {}) }],
      store.state.options.preferRecent ? { prefer_recent: true } : {},
      { signal: ctl.signal },
    );
    const id = uploaded.questionnaire_ids?.[0];
    if (id === undefined) {
      throw new SessionError('no-questionnaire', 'The service accepted the workbook but made no questionnaire of it.');
    }
    if (!run.live(ctl)) return store.state;
    run.step('upload', 'done', `${formatBytes(file.bytes.length)} sent`);
    // What earlier fills wrote stays known, so this one can tell "already filled by us" from the analyst's values.
    const link: FillLink = {
      questionnaireId: id,
      startedAt: isoNow(ctx),
      fileName: file.fileName,
      ...(previous?.cells ? { cells: previous.cells } : {}),
      ...(previous?.cellsWrittenAt ? { cellsWrittenAt: previous.cellsWrittenAt } : {}),
      ...(previous?.corrected ? { corrected: previous.corrected } : {}),
    };
    store.update({ questionnaireId: id });
    await ctx.links.save(link);
    await generateAndWrite(ctx, link, ctl, false);
  } catch (e) {
    run.fail(e, ctl);
  } finally {
    run.end(ctl);
  }
  return store.state;
}

/** Waits for the questionnaire's answers, loads them and writes them. */
export async function generateAndWrite(ctx: SessionContext, link: FillLink, ctl: AbortController, resumed: boolean): Promise<void> {
  if (!(await awaitAnswers(ctx, link.questionnaireId, ctl))) return;
  const questions = await loadResults(ctx, link.questionnaireId, ctl);
  if (!questions || !ctx.run.live(ctl)) return;
  await write(ctx, questions, link, ctl, resumed);
}
