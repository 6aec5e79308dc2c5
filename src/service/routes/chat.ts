/** Chat endpoints 4.1 - 4.5: stateless ask and persistent sessions. */
import type { FastifyInstance } from 'fastify';
import { LIMITS } from '../../api/schemas';
import type { ServiceContext } from '../context';
import { principalOf } from '../http/auth';
import { notFound } from '../http/errors';
import { pageEnvelope, pageRequest } from '../http/params';
import { askSource, chatSession, sourceFromEvidence } from '../http/serialize';
import type { ChatTurn } from '../knowledge/types';
import type { Principal, SessionRecord } from '../storage/types';
import { groundingFilters } from './grounding';
import { route } from './route';

export function titleFromMessage(message: string): string {
  const flat = message.replace(/\s+/g, ' ').trim();
  if (flat.length <= LIMITS.sessionTitleLength) return flat;
  return `${flat.slice(0, LIMITS.sessionTitleLength - 1).trimEnd()}…`;
}


async function sessionOr404(ctx: ServiceContext, p: Principal, id: number): Promise<SessionRecord> {
  const session = await ctx.store.sessions.get(p.org.id, p.user.id, id);
  if (!session) throw notFound(`chat session ${id} not found`);
  return session;
}

/** One turn: answer with the session's history, store both messages, name the session after its first message. */
async function converse(
  ctx: ServiceContext,
  p: Principal,
  session: SessionRecord | null,
  input: { question: string; file_id?: number | null; offering_ids?: number[]; context?: string },
) {
  const filters = await groundingFilters(ctx.store, p, input);
  const history: ChatTurn[] = session ? (await ctx.store.sessions.messages(session.id)).map((m) => ({ sender: m.sender, content: m.content })) : [];
  if (input.context) history.push({ sender: 'user', content: input.context });
  const result = await ctx.knowledge.answerChat(p.org.id, input.question, history, filters);
  if (session) {
    await ctx.store.unitOfWork(async (tx) => {
      await tx.sessions.addMessages(session.id, [
        {
          sender: 'user',
          content: input.question,
          metadata: {
            file_id: input.file_id ?? null,
            offering_ids: input.offering_ids ?? [],
            ...(input.context ? { context: input.context } : {}),
          },
        },
        {
          sender: 'assistant',
          content: result.answer,
          metadata: {
            resolved_query: result.resolved_query,
            source_count: result.sources.length,
            // How well the best source matched (0..1); 0 when nothing was found.
            confidence: result.sources.reduce((best, s) => Math.max(best, s.relevance_score), 0),
            ...(result.trust ? { trust: result.trust } : {}),
          },
          sources: result.sources.map(sourceFromEvidence),
        },
      ]);
      await tx.sessions.setGeneratedTitle(session.id, titleFromMessage(input.question));
    });
  }
  return result;
}

export function chatRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  route(app, 'ask', async (request) => {
    const p = principalOf(request);
    const body = request.body;
    const session = body.session_id !== undefined ? await sessionOr404(ctx, p, body.session_id) : null;
    const result = await converse(ctx, p, session, { ...body, question: body.question });
    // `trust` is an extension: how far the quoted source states what was asked.
    return { answer: result.answer, sources: result.sources.map(askSource), session_id: session ? session.id : null, ...(result.trust ? { trust: result.trust } : {}) };
  });

  route(app, 'listSessions', async (request) => {
    const p = principalOf(request);
    const q = request.query;
    const page = pageRequest(q);
    const search = q.search?.trim() || undefined;
    const { count, rows } = await ctx.store.sessions.list(p.org.id, p.user.id, { search, limit: page.limit, offset: page.offset });
    return pageEnvelope(request, page, count, rows.map((s) => chatSession(s)));
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
