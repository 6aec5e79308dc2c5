/** Score, trust and flag of an answer, so every method reports confidence the same way. */
import type { Evaluation, TrustLevel } from '../../../api/schemas';
import type { AnswerResult } from '../types';

export function trustFor(score: number): TrustLevel {
  return score >= 80 ? 'high' : score >= 50 ? 'medium' : 'low';
}

export function evaluation(score: number, reason: string, method: AnswerResult['method']): Evaluation {
  const clamped = Math.max(0, Math.min(100, Math.round(score)));
  return { score: clamped, trust: trustFor(clamped), reason, method };
}

export function noAnswer(reason: string): AnswerResult {
  return {
    text: '',
    slot_responses: [],
    score: 0,
    evaluation: evaluation(0, reason, 'none'),
    flagged_for_review: true,
    evidence: [],
    method: 'none',
  };
}

/** "Security Overview p.4" / "HECVAT.xlsx (Vendor Response!C12)" for reasons a person reads. */
export function describeSource(e: { filename: string; page_number: number; type: string; source_location?: string }): string {
  const name = e.filename.replace(/\.[A-Za-z0-9]+$/, '');
  if (e.type === 'qna') return e.source_location ? `${name} (${e.source_location})` : name;
  return e.page_number > 1 || /\.pdf$/i.test(e.filename) ? `${name} p.${e.page_number}` : name;
}
