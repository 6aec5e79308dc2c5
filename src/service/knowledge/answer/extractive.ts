/**
 * Extractive answers: the sentences of the best evidence that share most of the question's key terms.
 * A list slot gets a value only when the evidence decides it: a Yes/No question whose best sentence
 * states (without negation) nearly everything the question asks. Otherwise it stays empty for review.
 */
import type { Candidate } from '../retrieval';
import { coverage, NEGATIONS, setCosine, splitSentences, stemmedTerms } from '../text';
import type { AnswerResult, Evidence, QuestionInput } from '../types';
import { describeSource, evaluation } from './evaluation';
import { isListSlot, isYesNoQuestion, primarySlot, writableSlots, yesValue } from './slots';

/** Evidence below this relevance is noise: it shares too few of the question's terms. */
export const MIN_RELEVANCE = 0.34;
const SENTENCE_MIN_SCORE = 0.3;
const AFFIRM_COVERAGE = 0.7;

export interface ScoredSentence {
  text: string;
  score: number;
  candidate: Candidate;
}

/** Up to `max` sentences, best first, each from the top evidence and close to the best one. */
export function bestSentences(query: string, candidates: Candidate[], max = 3): ScoredSentence[] {
  const queryStems = stemmedTerms(query);
  const scored: ScoredSentence[] = [];
  const seen: Set<string>[] = [];
  for (const candidate of candidates.slice(0, 4)) {
    const sentences = candidate.evidence.type === 'qna' ? [candidate.evidence.content] : splitSentences(candidate.evidence.content);
    // Heading terms count toward every sentence under them: "Encryption" + "Data is AES-256…".
    const headerStems = stemmedTerms(candidate.evidence.context_header);
    for (const sentence of sentences) {
      if (sentence.length < 25 || sentence.length > 400) continue;
      const sentenceStems = stemmedTerms(sentence);
      // The same statement repeated across product documents is quoted once.
      if (seen.some((s) => setCosine(s, sentenceStems) >= 0.85)) continue;
      seen.push(sentenceStems);
      const own = coverage(queryStems, sentenceStems);
      const withHeader = coverage(queryStems, new Set([...sentenceStems, ...headerStems]));
      const score = (0.8 * own + 0.2 * withHeader) * (1 - 0.05 * (candidate.evidence.rank - 1));
      scored.push({ text: sentence, score, candidate });
    }
  }
  scored.sort((a, b) => b.score - a.score);
  const best = scored[0]?.score ?? 0;
  return scored.filter((s) => s.score >= SENTENCE_MIN_SCORE && s.score >= best * 0.7).slice(0, max);
}

export function relevantEvidence(candidates: Candidate[]): Candidate[] {
  return candidates.filter((c) => c.evidence.relevance_score >= MIN_RELEVANCE);
}

export function extractiveAnswer(question: QuestionInput, candidates: Candidate[]): AnswerResult | null {
  const sentences = bestSentences(question.text, candidates);
  if (sentences.length === 0) return null;
  const comment = sentences.map((s) => s.text).join(' ');
  const top = sentences[0]!;
  const slots = writableSlots(question.answer_slots);
  const primary = primarySlot(slots);
  const slot_responses: { slot_key: string; content: string }[] = [];

  let decided: string | null = null;
  const listSlots = slots.filter(isListSlot);
  const primaryList = primary && isListSlot(primary) ? primary : null;
  if (primaryList) {
    const yes = yesValue(primaryList.allowed_values ?? []);
    const topOwnCoverage = coverage(stemmedTerms(question.text), stemmedTerms(top.text));
    if (yes && isYesNoQuestion(question.text) && topOwnCoverage >= AFFIRM_COVERAGE && !isNegated(top.text)) decided = yes;
    if (decided) slot_responses.push({ slot_key: primaryList.role, content: decided });
  }
  // The explanation goes to the first free-text slot; with no slots at all it is the answer itself.
  const textSlot = slots.find((s) => !isListSlot(s));
  if (textSlot) slot_responses.push({ slot_key: textSlot.role, content: comment });
  slot_responses.sort((a, b) => slots.findIndex((s) => s.role === a.slot_key) - slots.findIndex((s) => s.role === b.slot_key));

  const undecided = primaryList !== null && decided === null;
  const text = primaryList ? (decided ?? '') : comment;
  const sources = [...new Set(sentences.map((s) => describeSource(s.candidate.evidence)))].join(', ');
  let score = Math.round(30 + 45 * top.score);
  let reason = `Extracted from ${sources}`;
  if (decided) reason += `; the evidence states it directly, so the answer is ${decided}`;
  else if (undecided) {
    score = Math.min(score, 45);
    reason += `; the evidence does not state ${describeAllowed(primaryList.allowed_values ?? [])}, so that answer was left for review`;
  }
  if (!textSlot && listSlots.length > 0 && !decided) reason += ' (no free-text slot to hold the explanation)';
  // "Date", "Vendor name": one distinctive word matches text anywhere; the match proves little.
  const vague = stemmedTerms(question.text).size < 2;
  if (vague) {
    score = Math.min(score, 35);
    reason += '; the question has too few distinctive words to match evidence reliably, check it';
  }

  const evidence = orderEvidence(candidates, sentences);
  return {
    text,
    slot_responses,
    score,
    evaluation: evaluation(score, reason, 'extractive'),
    flagged_for_review: undecided || vague || top.score < 0.5,
    evidence,
    method: 'extractive',
  };
}

function describeAllowed(allowed: readonly string[]): string {
  if (allowed.length === 0) return 'a value';
  if (allowed.length <= 3) return allowed.join(' or ');
  return `one of ${allowed.slice(0, 3).join(', ')}…`;
}

export function isNegated(sentence: string): boolean {
  const words = sentence.toLowerCase().replace(/[’]/g, "'").match(/[a-z']+/g) ?? [];
  return words.some((w) => NEGATIONS.has(w));
}

/** Evidence the sentences came from first, then the rest, re-ranked from 1. */
function orderEvidence(candidates: Candidate[], sentences: ScoredSentence[]): Evidence[] {
  const used = [...new Set(sentences.map((s) => s.candidate))];
  const rest = candidates.filter((c) => !used.includes(c));
  return [...used, ...rest].slice(0, 5).map((c, i) => ({ ...c.evidence, rank: i + 1 }));
}
