/** Detect and generate: waits for the service's answers with progress and time left, then loads them. */
import type { Progress, QuestionWithAnswers } from '../../api/schemas';
import type { SessionContext } from './context';
import { estimateSecondsLeft, type RateSample } from './eta';
import { plural } from './state';

/** Polls until every answer is generated; false when the run ended meanwhile. */
export async function awaitAnswers(ctx: SessionContext, id: number, ctl: AbortController): Promise<boolean> {
  const { run, store } = ctx;
  run.step('detect', 'active');
  store.update({ progress: null, secondsLeft: null });
  run.moved();
  const samples: RateSample[] = [];
  let seen = -1;
  const final = await ctx.deps.api.pollAnswerProgress(id, {
    signal: ctl.signal,
    onProgress: (p: Progress) => {
      if (!run.live(ctl)) return;
      if (p.answers_received !== seen || p.status === 'complete') {
        seen = p.answers_received;
        run.moved();
      }
      store.update({ progress: p });
      if (p.answers_expected > 0 || p.status === 'complete') {
        if (run.active === 'detect') {
          run.step('detect', 'done', `${plural(p.answers_expected, 'question')} found`);
          run.step('generate', 'active');
        }
        samples.push({ at: ctx.now(), received: p.answers_received });
        store.update({ secondsLeft: estimateSecondsLeft(samples, p.answers_expected) });
      }
    },
  });
  if (!run.live(ctl)) return false;
  if (run.active === 'detect') run.step('detect', 'done', `${plural(final.answers_expected, 'question')} found`);
  run.step('generate', 'done', plural(final.answers_received, 'answer'));
  return true;
}

/** The questionnaire's questions with answers (and, for the pane, its structure and the service's notes). */
export async function loadResults(ctx: SessionContext, id: number, ctl: AbortController): Promise<QuestionWithAnswers[] | null> {
  const { api, details } = ctx.deps;
  const opts = { signal: ctl.signal };
  const [structure, questions, warnings] = await Promise.all([
    details && api.getStructure ? api.getStructure(id, opts) : Promise.resolve(null),
    api.getAnswers(id, {}, opts),
    // Only a hint: a service that cannot say more still fills.
    details && api.getQuestionnaire
      ? api.getQuestionnaire(id, opts).then(
          (q) => q.warnings ?? [],
          () => [],
        )
      : Promise.resolve([]),
  ]);
  if (!ctx.run.live(ctl)) return null;
  ctx.serviceQuestions = questions;
  ctx.store.update({ structure, questions, warnings, corrected: new Set() });
  return questions;
}
