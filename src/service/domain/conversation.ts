/**
 * A chat turn: the question answered with the session's history as context, and, in a session, both messages
 * stored with what the answer rests on, the session named after its first question.
 */
import { LIMITS } from '../../api/schemas';
import type { ServiceContext } from '../context';
import { notFound } from '../http/errors';
import { sourceFromEvidence } from '../http/serialize';
import type { ChatTurn } from '../knowledge/types';
import { groundingFilters } from './grounding';
import type { Principal, SessionRecord } from '../storage/types';

export function titleFromMessage(message: string): string {
  const flat = message.replace(/\s+/g, ' ').trim();
  if (flat.length <= LIMITS.sessionTitleLength) return flat;
  return `${flat.slice(0, LIMITS.sessionTitleLength - 1).trimEnd()}…`;
}

/** The caller's own session; another user's is as unknown as a missing one. */
export async function sessionOr404(ctx: ServiceContext, p: Principal, id: number): Promise<SessionRecord> {
  const session = await ctx.store.sessions.get(p.org.id, p.user.id, id);
  if (!session) throw notFound(`chat session ${id} not found`);
  return session;
}

/** One turn: answer with the session's history, store both messages, name the session after its first message. */
export async function converse(
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
