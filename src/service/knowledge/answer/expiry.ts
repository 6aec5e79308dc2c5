/**
 * Evidence from a document past its validity (a SOC report after its period, a certificate after its
 * expiry: ../extract/document-dates.ts) still says what it says, but an answer resting on it is not one
 * an analyst could defend as current: medium trust at most, the reason naming the document and since when.
 */
import type { FileDates } from '../../storage/knowledge-index';
import { isExpired } from '../extract/document-dates';
import type { AnswerResult } from '../types';
import { trustFor } from './evaluation';

/** The most an answer resting on an expired document scores: medium trust. */
export const EXPIRED_SCORE = 60;

/** Expired files by id: the last day each was valid for, and the words that say so. */
export type ExpiredFiles = Map<number, Pick<FileDates, 'valid_until' | 'valid_said'>>;

export function expiredFiles(dates: ReadonlyMap<number, FileDates>, now: Date): ExpiredFiles {
  const expired: ExpiredFiles = new Map();
  for (const [fileId, d] of dates) if (isExpired(d.valid_until, now)) expired.set(fileId, { valid_until: d.valid_until, valid_said: d.valid_said });
  return expired;
}

/** The answer with lower trust when evidence it rests on comes from an expired document, the reason naming it. */
export function withExpiry(result: AnswerResult, expired: ExpiredFiles | undefined): AnswerResult {
  if (!expired || expired.size === 0 || result.text === '') return result;
  const used = result.evidence.find((e) => expired.has(e.file_id));
  if (!used) return result;
  const d = expired.get(used.file_id)!;
  const said = d.valid_said ? ` (${d.valid_said})` : '';
  const score = Math.min(result.score, EXPIRED_SCORE);
  const reason = `${result.evaluation.reason}; it rests on "${used.filename}", expired since ${d.valid_until}${said}`;
  return { ...result, score, evaluation: { ...result.evaluation, score, trust: trustFor(score), reason } };
}
