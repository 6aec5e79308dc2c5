/** Errors as sentences a person can act on, and the few error facts the panes branch on. */
import { ApiError, describeError } from '../api/errors';
import type { RetryNotice } from '../api/http';

export function explainError(e: unknown): string {
  if (e instanceof ApiError) {
    if (e.kind === 'http' && e.status === 429) {
      const wait = e.retryAfterSeconds !== null ? `wait ${e.retryAfterSeconds} s` : 'wait a moment';
      // The client already retried what it could; say so, so nobody hammers the button.
      return `${e.message} The service's quota is exhausted for now: ${wait} and try again (short waits are retried automatically).`;
    }
    return e.message;
  }
  // A fetch TypeError reaching us unwrapped means the request never got an answer.
  if (e instanceof TypeError && /fetch|network|load failed/i.test(e.message)) {
    return `Could not reach the service (${e.message}). The address may be wrong or the service down, or — if it runs on another origin — it may not allow this add-in's origin (CORS).`;
  }
  return describeError(e);
}

/** What is going on while the client waits to repeat a call by itself. */
export function explainRetry(n: RetryNotice): string {
  const wait = `${Math.max(1, Math.ceil(n.delayMs / 1000))} s`;
  const e = n.error;
  if (e.kind === 'http' && e.status === 429) return `The service's quota is exhausted for now (429): waiting ${wait}, then retrying automatically.`;
  if (e.kind === 'http') return `The service failed (${e.status}): retrying automatically in ${wait}.`;
  return `The service did not answer: retrying automatically in ${wait}.`;
}

/** True for the 403 a read-only key, a missing repository-manager right or a missing licence gives on upload. */
export function isForbidden(e: unknown): e is ApiError {
  return e instanceof ApiError && e.kind === 'http' && (e.status === 403 || e.status === 401);
}

export function isAborted(e: unknown): boolean {
  return (e instanceof ApiError && e.kind === 'aborted') || (e instanceof Error && e.name === 'AbortError');
}

/** The service said the key itself is read-only (ours: "this API key is read-only and cannot …"). */
export function isReadOnlyRefusal(e: ApiError): boolean {
  return /read[- ]?only/i.test(e.serverMessage ?? '');
}

/** The reason shown beside disabled upload buttons after the service refused an upload. */
export function uploadRefusedReason(e: ApiError): string {
  const said = e.serverMessage ? ` The service said: "${e.serverMessage}".` : '';
  if (isReadOnlyRefusal(e)) {
    return `Uploads are disabled: this API key is read-only (${e.status}).${said} A read-only key can ask questions in Chat but cannot upload workbooks or documents; to fill or upload, save a key that is not read-only in Settings.`;
  }
  return `Uploads are disabled: the service refused an upload with this API key (${e.status}). The key is probably read-only or lacks repository-manager rights.${said} Asking questions still works; use another key in Settings to upload.`;
}

/**
 * A refused questionnaire upload in the analyst's terms. A 400 there means the service could not use
 * the workbook (no questions found, not an .xlsx, too large): its reason, and what to check.
 */
export function explainQuestionnaireUploadError(e: unknown): unknown {
  if (!(e instanceof ApiError) || e.kind !== 'http' || e.status !== 400) return e;
  const reason = e.serverMessage ? ` The service said: "${e.serverMessage}".` : '';
  return new Error(
    `The service could not use this workbook as a questionnaire.${reason} A questionnaire is a sheet with a column of questions ` +
      'and a column for answers (e.g. "Answer", "Response", "Yes/No", "Comments") under a header row. Check the workbook, or fill a copy ' +
      'that keeps only the questionnaire sheets.',
  );
}
