/**
 * Chat follow-ups: "and how often is it reviewed?" means nothing to a search engine on its own, so a
 * follow-up carries the subject terms of the earlier user turns it depends on into the query.
 */
import type { TrustLevel } from '../../../api/schemas';
import { subjectStems, type Candidate, type QuestionFocus } from '../retrieval';
import { keyTerms, relatedCoverage } from '../text';
import type { ChatTurn } from '../types';
import { claimCoverage, evidenceConcepts, questionClaim } from './claim';
import type { ScoredSentence } from './extractive';
import { providerAttestation } from './ownership';

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

/** Clause openers that start a new question inside one message: "…, and who manages the keys?". */
const NEW_CLAUSE = /,?\s+(?:and|also|plus)\s+(?=(?:who|what|where|when|which|how|why|do|does|did|is|are|was|were|can|could|will|would|has|have|should)\b)/i;

/**
 * The parts of a message that asks more than one thing: "Do you encrypt data at rest? Who manages the
 * keys?" or "Where is data stored, and who has access to it?". One part for a single question ("data at
 * rest and in transit" is one claim holding two concepts, and its trust needs both).
 */
export function questionParts(question: string): string[] {
  const parts = question
    .split(/(?<=\?)\s+/)
    .flatMap((p) => p.split(NEW_CLAUSE))
    .map((p) => p.trim())
    .filter((p) => keyTerms(p).length > 0);
  return parts.length > 1 ? parts : [question];
}

/** What one part of a chat message got: the quoted sentences, whose they are, and how far they state it. */
export interface PartAnswer {
  part: string;
  text: string;
  used: Candidate[];
  trust: TrustLevel;
}

/** Share of the claim (sentence and its heading) a statement must hold, every core concept among it, for high trust. */
const HIGH_TRUST_SHARE = 0.85;
const CORE_WEIGHT = 0.8;

/**
 * Whether the sentence states the answer to what was asked: a statement (not a question, a form's
 * labels or a fragment; quotableSentences and bestSentences see to those), holding every core concept of
 * the question's claim and nearly all of it, with its headings.
 */
export function statesTheAnswer(part: string, sentence: ScoredSentence, focus: QuestionFocus): boolean {
  if (/\?\s*$/.test(sentence.text)) return false;
  const claim = questionClaim(part, focus.weights);
  if (claim.length === 0) return false;
  const held = evidenceConcepts(`${sentence.candidate.evidence.context_header}\n${sentence.text}`);
  const heaviest = Math.max(...claim.map((t) => t.weight));
  if (!claim.filter((t) => t.weight >= CORE_WEIGHT * heaviest).every((t) => held.has(t.concept))) return false;
  return claimCoverage(claim, held).share >= HIGH_TRUST_SHARE;
}

/**
 * The reply to one part from its best sentences: one coherent source (the best sentence's document;
 * another product's or company's sentences are not spliced into its claims), the organisation's own
 * statements first, a provider's certifications quoted in our document labelled as the provider's.
 * High trust only for the organisation's own sentence stating the answer; a third party's document or
 * a provider's list is low.
 */
export function partAnswer(part: string, sentences: ScoredSentence[], focus: QuestionFocus, ownNames: string[]): PartAnswer | null {
  if (sentences.length === 0) return null;
  const fileId = sentences[0]!.candidate.evidence.file_id;
  const quoted = sentences.filter((s) => s.candidate.evidence.file_id === fileId).slice(0, 3);
  const party = quoted[0]!.candidate.evidence.third_party;
  if (party) {
    return {
      part,
      text: `According to ${party} (a third party, not your organisation): ${joinSentences(quoted.map((s) => s.text))}`,
      used: uniqueCandidates(quoted),
      trust: 'low',
    };
  }
  const owners = quoted.map((s) => providerAttestation(s.candidate.evidence.content, s.text, ownNames));
  const own = quoted.filter((_, i) => !owners[i]);
  const providers = [...new Set(owners.filter((o): o is string => !!o))];
  const lines: string[] = [];
  if (own.length) lines.push(joinSentences(own.map((s) => s.text)));
  for (const provider of providers) {
    const theirs = quoted.filter((_, i) => owners[i] === provider).map((s) => s.text);
    const file = quoted[0]!.candidate.evidence.filename;
    lines.push(`${possessive(provider)}, not your organisation's (${file} quotes them as the provider's): ${joinSentences(theirs)}`);
  }
  const top = own[0];
  const trust: TrustLevel = !top ? 'low' : statesTheAnswer(part, top, focus) ? 'high' : top.coverage >= 0.45 ? 'medium' : 'low';
  return { part, text: lines.join('\n'), used: uniqueCandidates([...own, ...quoted]), trust };
}

const TRUST_ORDER: TrustLevel[] = ['low', 'medium', 'high'];

/**
 * One reply for every part: a single part is its answer; several say which were answered ("Answered 1
 * of 2 parts.") and which were not found, and the reply's trust is its weakest part's (a part not found
 * is low), so half an answer is never high trust.
 */
export function composeParts(parts: string[], answers: (PartAnswer | null)[]): { answer: string; used: Candidate[]; trust: TrustLevel } | null {
  const found = answers.filter((a): a is PartAnswer => a !== null);
  if (found.length === 0) return null;
  const used = uniqueCandidates(found.flatMap((a) => a.used));
  if (parts.length === 1) return { answer: found[0]!.text, used, trust: found[0]!.trust };
  const lines = parts.map((part, i) => {
    const a = answers[i];
    return a ? `${part} — ${a.text}` : `${part} — not found in your documents.`;
  });
  const trust = TRUST_ORDER[Math.min(...answers.map((a) => (a ? TRUST_ORDER.indexOf(a.trust) : 0)))]!;
  return { answer: [`Answered ${found.length} of ${parts.length} parts of the question.`, ...lines].join('\n'), used, trust };
}

function possessive(name: string): string {
  return /s$/i.test(name) ? `${name}'` : `${name}'s`;
}

/** Whole sentences one after another; list items (no closing full stop) one per line, never run together. */
function joinSentences(texts: string[]): string {
  return texts.every((t) => /[.!?)"”]$/.test(t)) ? texts.join(' ') : texts.join('\n');
}

function uniqueCandidates(sentences: (ScoredSentence | Candidate)[]): Candidate[] {
  return [...new Set(sentences.map((s) => ('candidate' in s ? s.candidate : s)))];
}
