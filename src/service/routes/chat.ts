/** Chat endpoints 4.1 - 4.5: stateless ask and persistent sessions; a turn itself is ../domain/conversation.ts. */
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context';
import { converse, sessionOr404 } from '../domain/conversation';
import { principalOf } from '../http/auth';
import { pageEnvelope, pageRequest } from '../http/params';
import { askSource, chatSession } from '../http/serialize';
import { route } from './route';

export function chatRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  route(app, 'ask', async (request) => {
    const p = principalOf(request);
    const body = request.body;
    const session = body.session_id !== undefined ? await sessionOr404(ctx, p, body.session_id) : null;
    const result = await converse(ctx, p, session, { ...body, question: body.question });
    // `trust` is an extension: how far the quoted source states what was asked.
    return {
      answer: result.answer,
      sources: result.sources.map(askSource),
      session_id: session ? session.id : null,
      ...(result.trust ? { trust: result.trust } : {}),
    };
  });

  route(app, 'listSessions', async (request) => {
    const p = principalOf(request);
    const q = request.query;
    const page = pageRequest(q);
    const search = q.search?.trim() || undefined;
    const { count, rows } = await ctx.store.sessions.list(p.org.id, p.user.id, { search, limit: page.limit, offset: page.offset });
    return pageEnvelope(
      request,
      page,
      count,
      rows.map((s) => chatSession(s)),
    );
  });

  route(app, 'createSession', async (request) => {
    const p = principalOf(request);
    const session = await ctx.store.sessions.create(p.org.id, p.user.id, request.body);
    return chatSession(session, []);
  });

  route(app, 'getSession', async (request) => {
    const p = principalOf(request);
    const session = await sessionOr404(ctx, p, request.params.id);
    return chatSession(session, await ctx.store.sessions.messages(session.id));
  });

  route(app, 'sendMessage', async (request) => {
    const p = principalOf(request);
    const { id } = request.params;
    const body = request.body;
    const session = await sessionOr404(ctx, p, id);
    await converse(ctx, p, session, {
      question: body.message,
      file_id: body.file_id,
      offering_ids: body.offering_ids,
      context: body.context,
    });
    const updated = await sessionOr404(ctx, p, id);
    return chatSession(updated, await ctx.store.sessions.messages(id));
  });
}
