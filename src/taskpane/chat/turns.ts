/** A conversation as the Chat pane shows it: turns of the analyst and the service, each answer's sources best first. */
import type { AskResponse, ChatSession } from '../../api/schemas';
import { bySourceRank } from '../../fill/answer';
import { thirdPartyOf, type SourceItem } from '../components/Sources';

export interface Turn {
  key: number;
  sender: 'user' | 'assistant';
  text: string;
  sources: SourceItem[];
  /** The service's trust in this answer (extension), when it gives one. */
  trust?: string | null;
}

let turnKeys = 0;

/** A session's messages as turns. */
export function turnsOf(session: ChatSession): Turn[] {
  return (session.messages ?? []).map((m) => ({
    key: ++turnKeys,
    sender: m.sender,
    text: m.content,
    trust: (m.metadata as { trust?: string } | null | undefined)?.trust ?? null,
    sources: bySourceRank(m.sources).map((s) => ({
      filename: s.source_file,
      page: s.page_number,
      excerpt: s.content,
      score: s.relevance_score,
      thirdParty: thirdPartyOf(s),
    })),
  }));
}

/** A question asked once (no session) and its answer, as two turns. */
export function askedTurns(question: string, answer: AskResponse): [Turn, Turn] {
  const asked: Turn = { key: ++turnKeys, sender: 'user', text: question, sources: [] };
  const answered: Turn = {
    key: ++turnKeys,
    sender: 'assistant',
    text: answer.answer,
    trust: answer.trust ?? null,
    sources: bySourceRank(answer.sources).map((s) => ({
      filename: s.filename,
      page: s.page_number,
      excerpt: s.content,
      score: s.relevance_score ?? null,
      thirdParty: thirdPartyOf(s),
    })),
  };
  return [asked, answered];
}
