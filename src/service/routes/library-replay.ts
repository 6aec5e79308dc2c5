/**
 * Extension "answers.replay" (src/api/replay.ts): the answer library replayed on the organisation's own past
 * questionnaires, runs kept. Starting a run needs the library's editors (as changing it does); members read runs.
 * The rules are in ../domain/library-replay.ts.
 */
import type { FastifyInstance } from 'fastify';
import { JOB_KINDS, type ServiceContext } from '../context';
import { replayRun, requireReplayStarter, runSummary, startReplay } from '../domain/library-replay';
import { principalOf } from '../http/auth';
import { pageEnvelope, pageRequest } from '../http/params';
import { route } from './route';

export function libraryReplayRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  route(app, 'startLibraryReplay', { allow: requireReplayStarter }, async (request) => {
    const p = principalOf(request);
    const run = await startReplay(ctx.store, p, request.body.max_questionnaires);
    ctx.wake(JOB_KINDS.libraryReplay);
    return replayRun(ctx.store, p.org.id, run.id);
  });

  route(app, 'listLibraryReplays', async (request) => {
    const p = principalOf(request);
    const page = pageRequest(request.query);
    const { count, rows } = await ctx.store.replays.list(p.org.id, page);
    return pageEnvelope(request, page, count, rows.map(runSummary));
  });

  route(app, 'getLibraryReplay', async (request) => replayRun(ctx.store, principalOf(request).org.id, request.params.id));
}
