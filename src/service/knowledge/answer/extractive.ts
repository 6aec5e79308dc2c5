/**
 * Extractive answers: the sentences of the best evidence that speak to the question (its distinctive
 * terms, not just its common ones). A list slot gets a value only when the evidence decides it: Yes
 * when the best sentence states (without negation) nearly everything the question asks, No (flagged)
 * when it denies exactly that claim, and otherwise as the organisation's own statement of the practice,
 * its absence or a weaker one decides it (decision.ts: written or a draft). Otherwise it stays empty for
 * review. A question referring back is decided only from passages on its subject. Field-like prompts
 * ("Product Name") get no quoted sentence at all.
 */
import type { Candidate, QuestionFocus } from '../retrieval';
import { coverage, NEGATIONS, relatedCoverage, setCosine, splitSentences, stemmedTerms } from '../text';
import type { AnswerResult, Evidence, QuestionInput } from '../types';
import type { AnswerSlot } from '../../../api/schemas';
import { claimCoverage, evidenceConcepts, questionClaim, questionProper, statesPlainly, type ClaimTerm } from './claim';
import { aboutSubject, decideFromStatement, namesSubject, rejectsClaim, type Decision } from './decision';
import { describeSource, evaluation } from './evaluation';
import { describeField, instanceField } from './fields';
import { isStatement, quotableSentences } from './sentences';
import { isListSlot, isYesNoQuestion, noValue, primarySlot, writableSlots, yesValue } from './slots';

/** Evidence below this relevance is noise: it shares too few of the question's terms. */
export const MIN_RELEVANCE = 0.34;
const SENTENCE_MIN_SCORE = 0.3;
const AFFIRM_COVERAGE = 0.7;
/** A No needs the sentence to hold even more of the claim: it must deny that claim, not a neighbour. */
const DENY_COVERAGE = 0.8;
/**
 * A sentence goes into an answer or comment only when it speaks to the question: it (or its heading)
 * holds one of the question's distinctive terms and this share of all its terms weighed by rarity,
 * or more than half of its terms outright. A sentence sharing only the question's common words
 * ("data", "last 12") is worse than an empty comment; then the evidence is cited and the question
 * flagged for a person.
 */
export const QUOTE_MIN_WEIGHTED = 0.3;
export const QUOTE_MIN_PLAIN = 0.55;
/** Share of a follow-up's own words ("tested" in "How often is it tested?") a quoted sentence must hold. */
const FOLLOW_UP_MIN_OWN = 0.5;

export interface ScoredSentence {
  text: string;
  score: number;
  /** Coverage of the question's terms by the sentence (and its heading), before the rank discount. */
  coverage: number;
  candidate: Candidate;
}

/**
 * Up to `max` sentences, best first, each from the top evidence and close to the best one.
 * With `focus` only sentences that speak to the question (see QUOTE_MIN_WEIGHTED) qualify.
 */
export function bestSentences(query: string, candidates: Candidate[], max = 3, focus?: QuestionFocus): ScoredSentence[] {
  const queryStems = stemmedTerms(query);
  const scored: ScoredSentence[] = [];
  const seen: Set<string>[] = [];
  for (const candidate of candidates.slice(0, 4)) {
    // Whole sentences only: a fragment cut by a page or passage break, or a form's labels, states nothing.
    const sentences =
      candidate.evidence.type === 'qna'
        ? [candidate.evidence.content]
        : quotableSentences(candidate.evidence.content)
            .filter(isStatement)
            .map((s) => s.text);
    // Heading terms count toward every sentence under them: "Encryption" + "Data is AES-256…".
    const headerStems = stemmedTerms(candidate.evidence.context_header);
    for (const sentence of sentences) {
      if (sentence.length < 25 || sentence.length > 400) continue;
      const sentenceStems = stemmedTerms(sentence);
      // The same statement repeated across product documents is quoted once.
      if (seen.some((s) => setCosine(s, sentenceStems) >= 0.85)) continue;
      seen.push(sentenceStems);
      const withHeaderStems = new Set([...sentenceStems, ...headerStems]);
      const covered = 0.8 * coverage(queryStems, sentenceStems) + 0.2 * coverage(queryStems, withHeaderStems);
      if (focus && !speaksTo(focus, queryStems, sentenceStems, withHeaderStems, covered)) continue;
      const score = covered * (1 - 0.05 * (candidate.evidence.rank - 1));
      scored.push({ text: sentence, score, coverage: covered, candidate });
    }
  }
  scored.sort((a, b) => b.score - a.score);
  const best = scored[0]?.score ?? 0;
  return scored.filter((s) => s.score >= SENTENCE_MIN_SCORE && s.score >= best * 0.7).slice(0, max);
}

function speaksTo(focus: QuestionFocus, queryStems: Set<string>, own: Set<string>, withHeader: Set<string>, plainCoverage: number): boolean {
  // A follow-up's earlier subject is in the evidence's relevance already; the sentence must speak to its new words.
  if (focus.required) return relatedCoverage(focus.required, withHeader) >= FOLLOW_UP_MIN_OWN;
  if (plainCoverage >= QUOTE_MIN_PLAIN) return true;
  const anchored = focus.anchors.size === 0 || [...focus.anchors].some((a) => withHeader.has(a));
  if (!anchored) return false;
  const weighted = 0.8 * coverage(queryStems, own, focus.weights) + 0.2 * coverage(queryStems, withHeader, focus.weights);
  return weighted >= QUOTE_MIN_WEIGHTED;
}

export function relevantEvidence(candidates: Candidate[]): Candidate[] {
  return candidates.filter((c) => c.evidence.relevance_score >= MIN_RELEVANCE);
}

/**
 * The extractive answer, or null when no sentence of the evidence is worth quoting (the caller then
 * cites the evidence and flags the question). `focus` (rarity weights, distinctive terms) makes
 * the choice of sentences strict; without it any sentence sharing enough terms qualifies.
 */
export function extractiveAnswer(question: QuestionInput, candidates: Candidate[], focus?: QuestionFocus): AnswerResult | null {
  // A field ("Product Name", "Contact Email") wants a value, and a quoted sentence is not one.
  const field = instanceField(question.text);
  if (field !== null) {
    return evidenceOnly(
      candidates,
      `The question asks for ${describeField(field)} specific to this questionnaire; no document sentence is that value, so it is left for a person (the closest evidence is cited)`,
    );
  }
  const slots = writableSlots(question.answer_slots);
  const primary = primarySlot(slots);
  const asksYesNo = !!primary && isListSlot(primary) && isYesNoQuestion(question.text);
  const asked = question.text;
  const sentences = bestSentences(asked, candidates, 3, focus);
  // The organisation's own statement of the practice decides even when no sentence covers all the question's words.
  // Read only when the stricter rules below decide nothing (or nothing is worth quoting): it reads every sentence.
  let statedRead = false;
  let statedFound: Decision | null = null;
  const stated = () => {
    if (!statedRead) statedFound = asksYesNo && focus ? decideFromStatement(asked, candidates, focus, question.subject ?? null) : null;
    statedRead = true;
    return statedFound;
  };
  if (sentences.length === 0) {
    const found = stated();
    if (!found) return null;
    sentences.push({ text: found.text, score: found.share * 0.6, coverage: found.share, candidate: found.candidate });
  }
  const top = sentences[0]!;
  const slot_responses: { slot_key: string; content: string }[] = [];

  let decided: string | null = null;
  const listSlots = slots.filter(isListSlot);
  const primaryList = primary && isListSlot(primary) ? primary : null;
  let denied = false;
  let paraphrase: StatedClaim | null = null;
  let paraphrased: StatedClaim | null = null;
  let statement: Decision | null = null;
  // What decides is the question itself, without a leading condition or a trailing instruction ("If so, describe…").
  const claimed = questionProper(asked);
  const topOwnCoverage = coverage(stemmedTerms(claimed), stemmedTerms(top.text));
  if (primaryList && asksYesNo) {
    const allowed = primaryList.allowed_values ?? [];
    const yes = yesValue(allowed);
    const no = noValue(allowed);
    // A question referring back ("Are the policies… reviewed?") is decided only from passages on its subject.
    const onSubject = (c: Candidate) => !question.subject || !focus || aboutSubject(question.subject, c, focus);
    // A claim that is all lifecycle ("reviewed and updated at least annually") needs the sentence itself to name that subject.
    const namesIt = (text: string, c: Candidate) => !question.subject || !focus || namesSubject(claimed, question.subject, text, c, focus);
    const deciders = question.subject ? candidates.filter(onSubject) : candidates;
    const setAside = focus ? rejectsClaim(top.text, questionClaim(claimed, focus.weights)) : false;
    if (yes && topOwnCoverage >= AFFIRM_COVERAGE && statesPlainly(top.text) && !setAside && onSubject(top.candidate) && namesIt(top.text, top.candidate))
      decided = yes;
    // A paraphrase does not outweigh the organisation's own denial of the claim ("does not store… cardholder data").
    else if (yes && focus && (paraphrased = statedClaim(asked, deciders, focus, namesIt)) && stated()?.value !== 'no') {
      paraphrase = paraphrased;
      decided = yes;
    } else if (no && topOwnCoverage >= DENY_COVERAGE && deniesClaim(top.text) && onSubject(top.candidate) && namesIt(top.text, top.candidate)) {
      decided = no;
      denied = true;
    } else if ((statement = stated()) && (statement.value === 'yes' ? yes : no)) {
      decided = statement.value === 'yes' ? yes : no;
      denied = statement.value === 'no';
    } else statement = null;
    if (decided) slot_responses.push({ slot_key: primaryList.role, content: decided });
  }
  // The sentences that decided a Yes or No lead the comment: they are its justification.
  const deciding = paraphrase ?? statement;
  const quoted = deciding
    ? [deciding.text, ...sentences.map((s) => s.text).filter((t) => !deciding.text.includes(t))].slice(0, 3)
    : sentences.map((s) => s.text);
  const comment = quoted.join(' ');
  // The explanation goes to the first free-text slot; with no slots at all it is the answer itself.
  const textSlot = slots.find((s) => !isListSlot(s));
  if (textSlot) slot_responses.push({ slot_key: textSlot.role, content: comment });
  slot_responses.sort((a, b) => slots.findIndex((s) => s.role === a.slot_key) - slots.findIndex((s) => s.role === b.slot_key));

  const undecided = primaryList !== null && decided === null;
  const text = primaryList ? (decided ?? '') : comment;
  const sources = [...new Set([...(deciding ? [deciding.candidate] : []), ...sentences.map((s) => s.candidate)].map((c) => describeSource(c.evidence)))].join(
    ', ',
  );
  let { score, reason } = decisionScore({ topScore: top.score, sources, statement, denied, paraphrase, decided, primaryList });
  if (!textSlot && listSlots.length > 0 && !decided) reason += ' (no free-text slot to hold the explanation)';
  // "Date", "Vendor name": one distinctive word matches text anywhere; the match proves little.
  const vague = stemmedTerms(question.text).size < 2;
  if (vague) {
    score = Math.min(score, 35);
    reason += '; the question has too few distinctive words to match evidence reliably, check it';
  }

  // A quoted sentence put forward as the answer itself (no list slot) must meet the bar a Yes meets:
  // it states nearly all the question asks. Short of that it is a lead for a person, not an answer.
  const loose = !primaryList && text !== '' && topOwnCoverage < AFFIRM_COVERAGE;
  if (loose) {
    score = Math.min(score, 45);
    reason += '; the quoted text covers only part of what the question asks, check it';
  }

  const evidence = orderEvidence(candidates, sentences, deciding?.candidate);
  return {
    text,
    slot_responses,
    score,
    evaluation: evaluation(score, reason, 'extractive'),
    flagged_for_review:
      undecided ||
      denied ||
      vague ||
      loose ||
      (top.score < 0.5 && !statement?.sure) ||
      (paraphrase !== null && paraphrase.share < PARAPHRASE_SURE) ||
      (statement !== null && !statement.sure),
    evidence,
    method: 'extractive',
  };
}

interface DecisionParts {
  topScore: number;
  sources: string;
  statement: Decision | null;
  denied: boolean;
  paraphrase: StatedClaim | null;
  decided: string | null;
  primaryList: AnswerSlot | null;
}

/** The score and the reason of an extractive answer, from how its Yes or No was decided (or why none was). */
function decisionScore({ topScore, sources, statement, denied, paraphrase, decided, primaryList }: DecisionParts): { score: number; reason: string } {
  let score = Math.round(30 + 45 * topScore);
  let reason = `Extracted from ${sources}`;
  if (statement) {
    score = statement.sure ? STATEMENT_SURE_SCORE : STATEMENT_DRAFT_SCORE;
    reason +=
      `; the organisation's own document ${statement.value === 'yes' ? 'states it' : 'states its absence or a weaker practice'} ` +
      `("${clipQuote(statement.text)}", holding ${statement.matched}), so the answer is ${decided}` +
      (statement.sure ? '' : '; part of the question is not stated, so it is a draft: check it');
  } else if (denied) {
    score = Math.min(score, 60);
    reason += `; the evidence explicitly denies it, so the answer is ${decided}: check it`;
  } else if (paraphrase) {
    score = Math.min(Math.max(score, Math.round(30 + 40 * paraphrase.share)), PARAPHRASE_MAX_SCORE);
    reason += `; the evidence states the question's claim in other words (${paraphrase.matched}), so the answer is ${decided}`;
    if (paraphrase.share < PARAPHRASE_SURE) reason += '; part of the claim is missing from it, check it';
  } else if (decided) reason += `; the evidence states it directly, so the answer is ${decided}`;
  else if (primaryList) {
    score = Math.min(score, 45);
    reason += `; the evidence does not state ${describeAllowed(primaryList.allowed_values ?? [])}, so that answer was left for review`;
  }
  return { score, reason };
}

/** A decision from the organisation's own statement: written (medium trust) when it states nearly all the question asks, else a draft. */
const STATEMENT_SURE_SCORE = 62;
const STATEMENT_DRAFT_SCORE = 45;

function clipQuote(text: string): string {
  return text.length > 160 ? `${text.slice(0, 157)}…` : text;
}

/** Relevant evidence but nothing worth quoting: cite it, answer nothing, ask a person. */
export function evidenceOnly(candidates: Candidate[], reason: string): AnswerResult {
  return {
    text: '',
    slot_responses: [],
    score: 10,
    evaluation: evaluation(10, reason, 'none'),
    flagged_for_review: true,
    evidence: candidates.slice(0, 5).map((c, i) => ({ ...c.evidence, rank: i + 1 })),
    method: 'none',
  };
}

function describeAllowed(allowed: readonly string[]): string {
  if (allowed.length === 0) return 'a value';
  if (allowed.length <= 3) return allowed.join(' or ');
  return `one of ${allowed.slice(0, 3).join(', ')}…`;
}

export function isNegated(sentence: string): boolean {
  const words =
    sentence
      .toLowerCase()
      .replace(/[’]/g, "'")
      .match(/[a-z']+/g) ?? [];
  return words.some((w) => NEGATIONS.has(w));
}

/** A verb negated once ("does not store", "is never shared"), not "not only", "no later than" or "unless". */
const DENIAL =
  /\b(?:(?:do|does|did|is|are|was|were|has|have|had|will|would|can|could|shall|should|may|must)\s+not|don't|doesn't|didn't|isn't|aren't|wasn't|weren't|hasn't|haven't|won't|can't|cannot|never)\b/;
const NOT_A_DENIAL =
  /\b(?:not\s+(?:only|just|limited|necessarily|all)|no\s+later|if\s+not|whether\s+or\s+not|unless|except|\w*n't\s+(?:have|need)\s+to|not\s+(?:have|need)\s+to|need\s+not|no\s+need)\b/;

/** Whether the sentence denies its own claim outright, once (a double negation decides nothing). */
export function deniesClaim(sentence: string): boolean {
  const text = sentence.toLowerCase().replace(/[’]/g, "'");
  if (!DENIAL.test(text) || NOT_A_DENIAL.test(text)) return false;
  const negations = (text.match(/[a-z']+/g) ?? []).filter((w) => NEGATIONS.has(w)).length;
  return negations === 1;
}

/** Evidence the sentences came from first, then the rest, re-ranked from 1. */
function orderEvidence(candidates: Candidate[], sentences: ScoredSentence[], decisive?: Candidate): Evidence[] {
  const used = [...new Set([...(decisive ? [decisive] : []), ...sentences.map((s) => s.candidate)])];
  const rest = candidates.filter((c) => !used.includes(c));
  return [...used, ...rest].slice(0, 5).map((c, i) => ({ ...c.evidence, rank: i + 1 }));
}

/** Evidence that states a question's claim in its own words. */
export interface StatedClaim {
  /** The sentence, or two adjacent sentences of one passage. */
  text: string;
  candidate: Candidate;
  /** Weighted share of the claim it holds. */
  share: number;
  /** The claim's concepts, for the reason. */
  matched: string;
}

/** Weighted share of the question's claim the evidence must hold for a paraphrased Yes. */
export const CLAIM_SHARE = 0.65;
/** Concepts weighing at least this share of the claim's heaviest are its core: none may be missing. */
const CORE_WEIGHT = 0.8;
/** A paraphrased Yes is medium trust at best: the wording differs, a person may want a look. */
const PARAPHRASE_MAX_SCORE = 68;
/** Below this share of the claim a paraphrased Yes is given but flagged for a person. */
const PARAPHRASE_SURE = 0.85;
/** Passages searched for the claim: the best few, where the quoted sentences come from too. */
const CLAIM_PASSAGES = 4;

/**
 * The best plain statement of the question's claim in the top evidence: one sentence or two adjacent
 * ones of a passage, holding at least CLAIM_SHARE of the claim's weight, none of them negated or
 * conditional. Null when the claim is too thin to judge (fewer than two concepts) or nothing states it.
 */
export function statedClaim(
  question: string,
  candidates: Candidate[],
  focus: QuestionFocus,
  accept: (text: string, candidate: Candidate) => boolean = () => true,
): StatedClaim | null {
  // "Will any data leave…", "Are there any browsers not supported": they ask about exceptions, and a
  // statement of the general practice does not settle them.
  if (/\bany\b/i.test(questionProper(question))) return null;
  const claim = questionClaim(question, focus.weights);
  if (claim.length < 2) return null;
  // The claim's distinctive concepts must all be there; only its common ones may be missing.
  const heaviest = Math.max(...claim.map((t) => t.weight));
  const core = claim.filter((t) => t.weight >= CORE_WEIGHT * heaviest);
  let best: StatedClaim | null = null;
  for (const candidate of candidates.slice(0, CLAIM_PASSAGES)) {
    if (candidate.evidence.type === 'qna') continue;
    const sentences = splitSentences(candidate.evidence.content).filter((s) => s.length >= 25 && s.length <= 400);
    const concepts = sentences.map((sentence) => evidenceConcepts(sentence, claim));
    for (let i = 0; i < sentences.length; i++) {
      for (const span of [1, 2]) {
        if (i + span > sentences.length) continue;
        const texts = sentences.slice(i, i + span);
        const held = span === 1 ? concepts[i]! : new Set([...concepts[i]!, ...concepts[i + 1]!]);
        const { share } = claimCoverage(claim, held);
        if (!core.every((t) => held.has(t.concept))) continue;
        // A pair must need both sentences: otherwise the single sentence is the better evidence.
        if (share < CLAIM_SHARE || (best && share <= best.share)) continue;
        if (!texts.every(statesPlainly) || texts.some((t) => rejectsClaim(t, claim)) || !texts.every((t) => accept(t, candidate))) continue;
        best = { text: texts.join(' '), candidate, share, matched: describeClaim(claim, held) };
      }
    }
  }
  return best;
}

function describeClaim(claim: ClaimTerm[], held: Set<string>): string {
  return claim
    .filter((t) => held.has(t.concept))
    .map((t) => t.word)
    .join(', ');
}

/** A third party's evidence (labelled by answer/ownership.ts) given as a draft: never a list answer about us. */
export function thirdPartyDraft(question: QuestionInput, thirdParty: Candidate[], focus?: QuestionFocus): AnswerResult | null {
  if (thirdParty.length === 0) return null;
  const textOnly = { ...question, answer_slots: question.answer_slots.filter((s) => !isListSlot(s)) };
  const draft = extractiveAnswer(textOnly, thirdParty, focus);
  if (!draft || draft.slot_responses.length === 0) return null;
  const parties = [...new Set(thirdParty.map((c) => c.evidence.third_party))].join(', ');
  const score = Math.min(draft.score, 40);
  const reason =
    `Only another organisation's document speaks to this (third party: ${parties}); it can support a statement about that ` +
    `organisation (e.g. "our hosting provider is certified"), not an answer about yours, so the list answer was left for review. ${draft.evaluation.reason}`;
  return {
    ...draft,
    text: question.answer_slots.some(isListSlot) ? '' : draft.text,
    score,
    evaluation: evaluation(score, reason, 'extractive'),
    flagged_for_review: true,
  };
}

/**
 * The last word on any answer built from evidence: a list value resting only on third-party evidence is
 * removed (and the answer flagged), and the third parties cited are named in `evaluation.third_party`.
 */
export function guardThirdParty(result: AnswerResult): AnswerResult {
  const parties = [...new Set(result.evidence.map((e) => e.third_party).filter((p): p is string => !!p))];
  if (parties.length === 0) return result;
  const evaluationOut = { ...result.evaluation, third_party: parties };
  const onlyThirdParty = result.evidence.length > 0 && result.evidence.every((e) => e.third_party);
  const listValues = new Set(['yes', 'no']);
  const listed = result.slot_responses.filter((r) => listValues.has(r.content.trim().toLowerCase()));
  if (!onlyThirdParty || listed.length === 0) return { ...result, evaluation: evaluationOut };
  const score = Math.min(result.score, 40);
  return {
    ...result,
    text: listed.some((r) => r.content === result.text) ? '' : result.text,
    slot_responses: result.slot_responses.filter((r) => !listed.includes(r)),
    score,
    flagged_for_review: true,
    evaluation: {
      ...evaluationOut,
      score,
      trust: evaluation(score, '', result.method).trust,
      reason: `${result.evaluation.reason}; every source is another organisation's (${parties.join(', ')}), so no Yes/No is given about yours`,
    },
  };
}
