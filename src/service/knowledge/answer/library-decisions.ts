/**
 * Fills follow what analysts decided in the answer library (src/service/domain/library.ts): a retired
 * entry is never used, nor any other entry of a question settled on a canonical one; an edited entry
 * answers with its latest version; a canonical or approved entry answers with high trust and no conflict
 * flag, whatever other past answers say; an entry past the review age answers at medium trust at most,
 * the reason saying since when its review is due.
 */
import { currentVersion, reviewState, sameEntry, type ReviewState } from '../../domain/library';
import type { LibraryRow, LibrarySettlement } from '../../storage/library';
import type { Candidate } from '../retrieval';
import { qaContent } from '../retrieval';
import { stemmedTerms } from '../text';
import type { AnswerResult, QuestionInput } from '../types';
import { trustFor } from './evaluation';
import { isCloseMatch, reuseAnswer, type LibraryMatch } from './library';

/** What the library decided about one entry, as the answering path needs it. */
export interface EntryDecision {
  row: LibraryRow;
  review: ReviewState;
  /** Canonical for its question, or approved: answers with high trust. */
  trusted: boolean;
  /** Chosen for its question for one of the questionnaire's offerings: answers as a canonical entry does. */
  settledFor?: LibrarySettlement;
}

export type LibraryDecisions = Map<number, EntryDecision>;

/** Where decisions are read from (the store's library repository). */
export interface LibraryDecisionSource {
  byIds(orgId: number, ids: number[]): Promise<LibraryRow[]>;
  canonicalKeys(orgId: number, qkeys: string[]): Promise<Set<string>>;
  settlements(orgId: number, qkeys: string[]): Promise<LibrarySettlement[]>;
  reviewAgeMonths(orgId: number): Promise<number | null>;
}

export const HIGH_TRUST_SCORE = 90;
/** The most a review-due entry scores: medium trust. */
export const REVIEW_DUE_SCORE = 65;

/**
 * The decisions about the library candidates among `candidates`, and the candidates the fill may use.
 * `offeringIds` are the questionnaire's: a question settled for one of them is answered by the entry
 * chosen for it alone; a settlement for any other offering changes nothing here.
 */
export async function decideCandidates(
  source: LibraryDecisionSource,
  orgId: number,
  candidates: Candidate[],
  defaultReviewMonths: number,
  now: Date,
  offeringIds: readonly number[] = [],
): Promise<{ candidates: Candidate[]; decisions: LibraryDecisions }> {
  const decisions: LibraryDecisions = new Map();
  const ids = candidates.filter((c) => c.library && c.evidence.qna_id !== null).map((c) => c.evidence.qna_id!);
  if (ids.length === 0) return { candidates, decisions };
  const rows = await source.byIds(orgId, ids);
  const settled = await source.canonicalKeys(
    orgId,
    rows.map((r) => r.qkey),
  );
  const forOffering =
    offeringIds.length === 0
      ? []
      : (
          await source.settlements(
            orgId,
            rows.map((r) => r.qkey),
          )
        ).filter((s) => offeringIds.includes(s.offering_id));
  const months = (await source.reviewAgeMonths(orgId)) ?? defaultReviewMonths;
  const rowOf = new Map(rows.map((r) => [r.id, r]));
  const kept: Candidate[] = [];
  for (const c of candidates) {
    const row = c.library && c.evidence.qna_id !== null ? rowOf.get(c.evidence.qna_id) : undefined;
    if (!row) {
      kept.push(c);
      continue;
    }
    const status = row.state?.status ?? 'active';
    // Retired: kept in the library's history, never an answer. Settled (for this questionnaire's offering,
    // else as a whole): only the chosen entry speaks.
    if (status === 'retired') continue;
    const offeringSettlements = forOffering.filter((s) => s.qkey === row.qkey);
    const settledFor = offeringSettlements.find((s) => sameEntry(row, s));
    if (offeringSettlements.length > 0 ? !settledFor : status !== 'canonical' && settled.has(row.qkey)) continue;
    const trusted = settledFor !== undefined || status === 'canonical' || row.state?.approved_at != null;
    decisions.set(row.id, { row, review: reviewState(row, months, now), trusted, ...(settledFor ? { settledFor } : {}) });
    kept.push(row.state?.edit_slots || row.state?.edit_question ? edited(c, row) : c);
  }
  return { candidates: kept, decisions };
}

/** The candidate answering with the entry's latest version. */
function edited(c: Candidate, row: LibraryRow): Candidate {
  const v = currentVersion(row);
  return {
    ...c,
    evidence: { ...c.evidence, content: qaContent(v.answer, v.slots), question_text: v.question },
    library: {
      ...c.library!,
      question: v.question,
      questionStems: v.question === row.question ? c.library!.questionStems : stemmedTerms(v.question),
      slots: v.slots,
    },
  };
}

/**
 * The answer from a canonical or approved entry among the matches (canonical first, then the closest),
 * or null when none is: then the library's usual rules apply. Its disagreeing peers are evidence, not a conflict.
 */
export function trustedLibraryAnswer(question: QuestionInput, matches: LibraryMatch[], decisions: LibraryDecisions): AnswerResult | null {
  const trusted = matches.filter((m) => decisions.get(m.candidate.evidence.qna_id ?? -1)?.trusted);
  if (trusted.length === 0) return null;
  const decisionOf = (m: LibraryMatch) => decisions.get(m.candidate.evidence.qna_id!)!;
  const forOffering = trusted.find((m) => decisionOf(m).settledFor);
  const canonical = forOffering ?? trusted.find((m) => decisionOf(m).row.state?.status === 'canonical');
  const pick = canonical ?? trusted[0]!;
  const decision = decisionOf(pick);
  const result = reuseAnswer(
    question,
    pick,
    matches.filter((m) => m !== pick),
  );
  const settlement = decision.settledFor;
  const by = settlement?.by_name ?? decision.row.state?.approved_by;
  const on = settlement?.at ?? decision.row.state?.approved_at;
  const who = by ? ` by ${by}` : '';
  const when = on ? ` on ${on.slice(0, 10)}` : '';
  const why = settlement
    ? `Settled in the answer library for this questionnaire's offering: chosen for this question${who}${when}`
    : canonical
      ? `Settled in the answer library: chosen for this question${who}${when}`
      : `Approved in the answer library${who}${when}`;
  // Only a clean reuse is raised: a near match, a list value that does not fit, a copied product name stay flagged.
  const score = !result.flagged_for_review && isCloseMatch(pick) ? Math.max(result.score, HIGH_TRUST_SCORE) : result.score;
  setScore(result, score, `${why}. ${result.evaluation.reason}`);
  return result;
}

/** A library answer whose entry is past its review age: medium trust at most, saying why. */
export function withReview(result: AnswerResult, decisions: LibraryDecisions): AnswerResult {
  if (result.method !== 'library' || result.text === '') return result;
  const used = result.evidence[0]?.qna_id;
  const review = used == null ? null : decisions.get(used)?.review;
  if (!review?.due) return result;
  setScore(result, Math.min(result.score, REVIEW_DUE_SCORE), `${result.evaluation.reason}; ${review.reason}`);
  return result;
}

function setScore(result: AnswerResult, score: number, reason: string): void {
  const clamped = Math.max(0, Math.min(100, Math.round(score)));
  result.score = clamped;
  result.evaluation = { ...result.evaluation, score: clamped, trust: trustFor(clamped), reason };
}
