/**
 * The `library_replay` job: one replay run of the answer library (src/service/domain/library-replay.ts),
 * its result kept with the run. A run interrupted (shutdown, lease lost) starts over when claimed again;
 * a run that cannot be made fails with the reason, shown with the run.
 */
import type { ServiceContext } from '../context';
import { replayLibrary } from '../domain/library-replay';
import { StorageUnavailable } from '../storage/errors';
import type { JobHandler } from './worker';

/** Claims of one run's job (a crash or lost database counts) before the run fails, saying so. */
const MAX_ATTEMPTS = 3;

export function libraryReplayHandler(ctx: ServiceContext, log?: (message: string, error?: unknown) => void): JobHandler {
  return async (job, jobCtx) => {
    const run = await ctx.store.replays.getAny(Number(job.payload.run_id));
    if (!run || run.status === 'done' || run.status === 'failed') return 'done';
    // The worker gives a job up after its third failed attempt: the run must not then stay "running" for ever.
    if (job.attempts >= MAX_ATTEMPTS) {
      await ctx.store.replays.fail(run.id, `the replay was interrupted ${job.attempts - 1} times (the service stopped or lost its database); start it again`);
      return 'done';
    }
    await ctx.store.replays.setRunning(run.id);
    // Between questions: requests are answered, and a job that stopped being ours stops.
    const pause = () => new Promise<boolean>((resolve) => setImmediate(() => resolve(!jobCtx.shouldStop())));
    let result;
    try {
      result = await replayLibrary({ store: ctx.store, knowledge: ctx.knowledge, pause }, run.org_id, run.max_questionnaires);
    } catch (error) {
      if (error instanceof StorageUnavailable) throw error;
      const message = error instanceof Error ? error.message : String(error);
      log?.(`library replay ${run.id} failed: ${message}`, error);
      await ctx.store.replays.fail(run.id, `the replay failed: ${message}`);
      return 'done';
    }
    if (!result) return 'interrupted';
    const { overall, gap_count, ...detail } = result;
    await ctx.store.replays.finish(run.id, { overall, gap_count, detail });
    return 'done';
  };
}
