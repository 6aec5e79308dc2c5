/**
 * Chat follow-ups: "and how often is it reviewed?" means nothing to a search engine on its own, so a
 * follow-up carries the subject terms of the earlier user turns it depends on into the query.
 */
import { subjectStems, type Candidate } from '../retrieval';
import { keyTerms, relatedCoverage } from '../text';
import type { ChatTurn } from '../types';

const PRONOUNS = /\b(it|its|it's|they|them|their|theirs|this|that|these|those|there|he|she|his|her|one|ones|same)\b/i;
const CONTINUATIONS = /^\s*(and|also|but|so|or|what about|how about|then|plus|same for|what if|why|how so)\b/i;

export function isFollowUp(question: string): boolean {
  return PRONOUNS.test(question) || CONTINUATIONS.test(question) || keyTerms(question).length <= 2;
}

/** The query to search: the question, preceded by the subject terms of the turns it follows up. */
export function resolveFollowUp(question: string, history: ChatTurn[]): string {
  if (!isFollowUp(question)) return question;
  const userTurns = history.filter((t) => t.sender === 'user' && t.content.trim() !== '' && t.content.trim() !== question.trim());
  const carried: string[] = [];
  // Walk back until a self-contained question: a chain of follow-ups shares that question's subject.
  for (let i = userTurns.length - 1, taken = 0; i >= 0 && taken < 3; i--, taken++) {
    const turn = userTurns[i]!.content;
    carried.unshift(...keyTerms(turn));
    if (!isFollowUp(turn)) break;
  }
  if (carried.length === 0) return question;
  const own = new Set(keyTerms(question));
  const subject = [...new Set(carried)].filter((t) => !own.has(t));
  return subject.length ? `${subject.join(' ')} ${question}` : question;
}

/**
 * The subject stems a follow-up adds of its own ("tested" in "How often is it tested?"), which an
 * answer to it must speak to; undefined for a self-contained question or one with no words of its own.
 */
export function followUpSubject(asked: string, resolved: string): Set<string> | undefined {
  if (resolved === asked) return undefined;
  const own = subjectStems(asked);
  return own.size > 0 ? own : undefined;
}

/** Whether the evidence holds any of the stems, or a word related to one (vocabulary.ts). */
export function mentionsAny(candidate: Candidate, stems: Set<string>): boolean {
  return relatedCoverage(stems, candidate.stems) > 0;
}
