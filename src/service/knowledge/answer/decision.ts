/**
 * A Yes or No for a list question from the organisation's own explicit statement, when the passage
 * shown states it in its own words: a practice stated as done ("Employees utilize unique user IDs to
 * authenticate to systems"), a policy or procedure that exists for the question's subject (the heading
 * "Password Policy" over "Instructure maintains policies and procedures…"), a certification held. No
 * only from an explicit statement of absence or of a weaker practice ("a one-time, opportunistic
 * write-up rather than a scheduled recurring process", "not supported").
 *
 * Never from a third party's document (the caller passes the organisation's own evidence only), a
 * template (passages with placeholders or guidance), a question's text (sentences asking or instructing)
 * or a passage on another subject (every core concept of the question's claim must be there, and the
 * sentence itself must hold part of the claim, not only its heading).
 *
 * A decision whose sentence holds nearly all of the claim is `sure` (a written answer); one holding
 * less is a draft for a person to confirm.
 */
import type { Candidate, QuestionFocus } from '../retrieval';
import { NEGATIONS, stem } from '../text';
import { isTemplateText } from '../template-text';
import { isStatement, quotableSentences } from './sentences';
import { claimCoverage, evidenceConcepts, withAllData, questionClaim, questionProper, statesPlainly, WEAKER_PRACTICE, type ClaimTerm } from './claim';

export interface Decision {
  value: 'yes' | 'no';
  /** The deciding sentence, quoted in the comment. */
  text: string;
  candidate: Candidate;
  /** Weighted share of the question's claim the sentence (with its heading) holds. */
  share: number;
  /** Nearly all of the claim is stated: the decision may be written; otherwise it is a draft. */
  sure: boolean;
  /** The claim's words the sentence holds, for the reason. */
  matched: string;
}

/** Passages read: the top few shown to the analyst. */
const DECISION_PASSAGES = 4;
/** Share of the claim (sentence and heading) a decision needs at all, and to be written rather than drafted. */
const DECIDE_SHARE = 0.5;
const SURE_SHARE = 0.85;
/** Share of the claim a denial must hold: it denies this claim, not a neighbour of it. */
const DENY_SHARE = 0.7;
/** Share of the claim a decision needs when one of its core concepts is not stated. */
const MISSING_CORE_SHARE = 0.5;
/** Concepts of how any policy, programme or practice is kept, whatever its subject (claim.ts folds policy/procedure/plan into "plan"; a programme "developed and implemented" is any programme's life). */
const LIFECYCLE = new Set([
  'plan',
  'develop',
  'implement',
  'review',
  'updat',
  'least',
  'annual',
  'test',
  'period',
  'regular',
  'approv',
  'communic',
  'evalu',
  'year',
  'month',
  'exist',
]);
/** Share of the claim the sentence must hold by itself: a heading alone does not state a practice. */
const OWN_SHARE = 0.34;
/** Share of the referred-to subject a passage must be about. */
const SUBJECT_SHARE = 0.5;
/** Concepts weighing this share of the heaviest are the claim's core: at most one may be missing. */
const CORE_WEIGHT = 0.8;

/** A verb negated once: "does not store", "is never shared" (not "not only", "no later than"). */
const DENIAL =
  /\b(?:(?:do|does|did|is|are|was|were|has|have|had|will|can|could|shall)\s+not|don't|doesn't|didn't|isn't|aren't|wasn't|weren't|hasn't|haven't|won't|can't|cannot|never)\b/i;
const NOT_A_DENIAL =
  /\b(?:not\s+(?:only|just|limited|necessarily|all)|no\s+later|if\s+not|whether\s+or\s+not|unless|except|\w*n't\s+(?:have|need)\s+to|not\s+(?:have|need)\s+to|need\s+not|no\s+need)\b/i;
/** "Will any data leave…", "Are there any browsers not supported": a general practice does not settle them. */
const ASKS_ABOUT_EXCEPTIONS =
  /^\W*(?:[\w&.-]+\s*[:.)]\s+)?(?:will|is|are|does|do|has|have|can|could|would)\s+(?:there\s+)?any\b|\bany\b[^?]{0,60}\b(?:leave|outside|not|other than|except|exceptions?)\b/i;
/** Prompts and questions state nothing about anyone. */
const NOT_A_STATEMENT = /\?\s*$|^\s*(?:do|does|is|are|has|have|can|will)\s+(?:you|your|the)\b/i;

/**
 * The decision the organisation's own evidence states for a Yes/No question, or null. Questions about
 * exceptions ("Will any data leave…") are not settled by a statement of the general practice.
 */
export function decideFromStatement(question: string, own: Candidate[], focus: QuestionFocus, subject: string | null = null): Decision | null {
  const claim = questionClaim(question, focus.weights);
  if (claim.length === 0) return null;
  // A question referring back ("Are the policies… reviewed?") is decided only by a passage on the subject it refers to.
  const subjectClaim = subject ? questionClaim(subject, focus.weights) : [];
  const asksAboutExceptions = ASKS_ABOUT_EXCEPTIONS.test(questionProper(question));
  const heaviest = Math.max(...claim.map((t) => t.weight));
  const core = claim.filter((t) => t.weight >= CORE_WEIGHT * heaviest);
  const subjectOfClaim = claim.filter((t) => !LIFECYCLE.has(t.concept));
  // The claim's most distinctive concept is its subject's: a generic one ("strategies", "policy", folded
  // into "plan") may weigh most in a corpus that seldom says it, and must not let the subject's own
  // concepts go unstated ("the power of digital badging … strategy" for "Are redundant power strategies tested?").
  const mostDistinctive = subjectOfClaim.length ? Math.max(...subjectOfClaim.map((t) => t.weight)) : heaviest;
  let best: Decision | null = null;
  for (const candidate of own.slice(0, DECISION_PASSAGES)) {
    if (candidate.evidence.type !== 'passage' || candidate.evidence.third_party || isTemplateText(candidate.evidence.content)) continue;
    if (!isAbout(subjectClaim, candidate)) continue;
    // The headings name what the passage is about ("Business Continuity > Password Policy").
    const heading = evidenceConcepts(candidate.evidence.section_path.join('\n'), claim);
    const subjectHeading = subjectConcepts(subjectClaim, candidate);
    let passageConcepts: Set<string> | null = null;
    const passage = () => (passageConcepts ??= evidenceConcepts(`${candidate.evidence.context_header}\n${candidate.evidence.content}`, claim));
    // Whole sentences only: a fragment cut by a page break or a form's labels states nothing.
    for (const sentence of quotableSentences(candidate.evidence.content)
      .filter(isStatement)
      .map((s) => s.text)) {
      if (sentence.length < 25 || sentence.length > 400 || NOT_A_STATEMENT.test(sentence)) continue;
      const said = withAllData(sentence, evidenceConcepts(sentence, claim), claim);
      const held = new Set([...said, ...heading]);
      const { share } = claimCoverage(claim, held);
      if (share < DECIDE_SHARE || claimCoverage(claim, said).share < OWN_SHARE) continue;
      // A claim that is all lifecycle ("Are the policies… reviewed?") is about the subject it refers back to:
      // the sentence (with its headings) must name that subject, not only a policy on another one.
      if (subjectOfClaim.length === 0 && !namesSubjectClaim(subjectClaim, sentence, subjectHeading)) continue;
      // One core concept may go unstated in the sentence (a draft then) when the rest of the claim is there
      // and either its passage speaks of it (the sentence leaves it implied) or it is not the claim's most
      // distinctive concept (weighed among its subject's, see mostDistinctive) and the knowledge base knows it.
      const missing = core.filter((t) => !held.has(t.concept));
      if (missing.length > 1) continue;
      if (missing.length === 1) {
        const unstated = missing[0]!;
        if (
          share < MISSING_CORE_SHARE ||
          !(passage().has(unstated.concept) || (unstated.weight < mostDistinctive && !focus.absent?.has(stem(unstated.word.toLowerCase()))))
        )
          continue;
        // What it holds must include the subject, not only how any policy lives ("a policy reviewed
        // annually" is no answer to "are application security policies reviewed annually?").
        if (subjectOfClaim.length > 0 && claimCoverage(subjectOfClaim, held).share < MISSING_CORE_SHARE) continue;
      }
      // A No must deny this very claim: every core concept stated and nearly all of it ("does not store
      // cardholder data" denies nothing about "critical data").
      const deniesThis = missing.length === 0 && share >= DENY_SHARE && (denies(sentence) || rejectsClaim(sentence, claim));
      const value = deniesThis
        ? 'no'
        : denies(sentence) || rejectsClaim(sentence, claim)
          ? null
          : statesPlainly(sentence) && !asksAboutExceptions
            ? 'yes'
            : null;
      if (!value || (best && share <= best.share)) continue;
      // A No from a practice set aside ("instead of providing backups") is a draft: the sentence speaks of what is done instead.
      const sure = share >= SURE_SHARE && missing.length === 0 && !(value === 'no' && !denies(sentence));
      best = { value, text: sentence, candidate, share, sure, matched: describe(claim, held) };
    }
  }
  return best;
}

/**
 * Whether the sentence sets part of the claim aside for something else: "Instead of providing full or
 * partial backups, customers can extract … data" rejects a backup; "we use X rather than Y" rejects Y.
 * A concept of the claim named only in the set-aside clause is rejected.
 */
export function rejectsClaim(sentence: string, claim: readonly ClaimTerm[]): boolean {
  const aside = SET_ASIDE.exec(sentence);
  if (!aside) return false;
  const setAside = evidenceConcepts(aside[1]!, claim);
  const rest = evidenceConcepts(sentence.replace(aside[0], ' '), claim);
  return claim.some((t) => setAside.has(t.concept) && !rest.has(t.concept));
}
const SET_ASIDE = /\b(?:instead of|rather than|in place of|as opposed to)\s+([^,.;:]+)/i;

/**
 * Whether a sentence (with its headings) names the subject a question refers back to, when the question's
 * own claim is all lifecycle ("Are the policies and procedures reviewed and updated at least annually?"):
 * a passage on two subjects states the lifecycle of one of them only.
 */
export function namesSubject(question: string, subject: string, sentence: string, candidate: Candidate, focus: QuestionFocus): boolean {
  if (questionClaim(question, focus.weights).some((t) => !LIFECYCLE.has(t.concept))) return true;
  const subjectClaim = questionClaim(subject, focus.weights);
  return namesSubjectClaim(subjectClaim, sentence, subjectConcepts(subjectClaim, candidate));
}

function subjectConcepts(subjectClaim: ClaimTerm[], candidate: Candidate): Set<string> {
  return evidenceConcepts(candidate.evidence.section_path.join('\n'), subjectClaim);
}

/** The subject's own words, not its "policies and procedures": a Disaster Recovery Plan names no logging policy. */
function namesSubjectClaim(subjectClaim: ClaimTerm[], sentence: string, heading: Set<string>): boolean {
  const named = subjectClaim.filter((t) => !LIFECYCLE.has(t.concept));
  return named.length === 0 || claimCoverage(named, new Set([...evidenceConcepts(sentence, named), ...heading])).share >= SUBJECT_SHARE;
}

/** Whether the passage is about the subject a question refers back to (any passage is, when it refers to none). */
export function aboutSubject(subject: string | null, candidate: Candidate, focus: QuestionFocus): boolean {
  return isAbout(subject ? questionClaim(subject, focus.weights) : [], candidate);
}

function isAbout(subjectClaim: ClaimTerm[], candidate: Candidate): boolean {
  if (subjectClaim.length === 0) return true;
  const concepts = evidenceConcepts(`${candidate.evidence.context_header}\n${candidate.evidence.content}`, subjectClaim);
  return claimCoverage(subjectClaim, concepts).share >= SUBJECT_SHARE;
}

/** An explicit absence or a weaker practice, stated once (a double negation decides nothing). */
function denies(sentence: string): boolean {
  if (WEAKER_PRACTICE.test(sentence)) return true;
  const text = sentence.toLowerCase().replace(/[’]/g, "'");
  return DENIAL.test(text) && !NOT_A_DENIAL.test(text) && (text.match(/[a-z']+/g) ?? []).filter((w) => NEGATIONS.has(w)).length === 1;
}

function describe(claim: ClaimTerm[], held: Set<string>): string {
  return claim
    .filter((t) => held.has(t.concept))
    .map((t) => t.word)
    .join(', ');
}
