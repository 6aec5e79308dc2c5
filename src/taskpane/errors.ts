/**
 * Errors as a person reads them: the service's own sentence first, in plain words; then what it means,
 * only when the evidence supports it; the technical facts (status, method, path, address) kept apart for
 * a "details" toggle. Every pane shows errors through `presentError` (via components/Message).
 */
import { ApiError, asSentence, describeError } from '../api/errors';

export { asSentence };

export interface PresentedError {
  /** What happened, leading with the service's own words when it gave any. */
  lead: string;
  /** What it means or what to do, when the evidence supports saying so; null otherwise. */
  hint: string | null;
  /** Status, method and path, address: for whoever debugs it, behind a toggle. */
  details: string | null;
}

/** "invalid API key" → "Invalid API key." */

const isReadRequest = (endpoint: string) => /^GET\b/.test(endpoint) || /^POST \/chat\//.test(endpoint);

/** The meaning of a refusal (401/403), from the service's words and which request it refused. */
function refusalHint(e: ApiError): string {
  const said = e.serverMessage ?? '';
  if (/read[- ]?only/i.test(said))
    return 'This key is read-only: it can ask questions in Chat but cannot upload. Save a key that is not read-only in Settings to fill or upload.';
  if (/manager|role|permission|right/i.test(said))
    return 'This key lacks the rights for this (repository uploads may need the repository-manager or admin role).';
  if (/licen[cs]e/i.test(said)) return "The organisation's licence is inactive: ask your administrator to renew it.";
  if (!said && !e.endpoint) return 'Check the API key in Settings.';
  // A refused read (list, ask) cannot be about write rights: the key itself or the licence is the problem.
  if (isReadRequest(e.endpoint)) return "This key is not valid or the organisation's licence is inactive. Check the key in Settings.";
  return 'The service refused this request with this key. Use Test connection in Settings to check the key.';
}

function httpLead(e: ApiError): string {
  if (e.serverMessage) return asSentence(e.serverMessage);
  switch (e.status) {
    case 400:
      return 'The service rejected the request as invalid.';
    case 401:
    case 403:
      return 'The service refused access.';
    case 404:
      return 'Not found.';
    case 429:
      return "The service's quota is exhausted for now.";
    default:
      return e.status >= 500 ? 'The service failed.' : `The service answered with status ${e.status}.`;
  }
}

function httpHint(e: ApiError): string | null {
  if (e.status === 401 || e.status === 403) return refusalHint(e);
  if (e.status === 404) return 'It does not exist, or this key cannot see it.';
  if (e.status === 429) {
    const wait = e.retryAfterSeconds !== null ? `wait ${e.retryAfterSeconds} s` : 'wait a moment';
    // The client already retried what it could; say so, so nobody hammers the button.
    return `The service asks to ${wait} and try again (short waits are retried automatically).`;
  }
  if (e.status >= 300 && e.status < 400) return 'The address redirects: set the base URL to the address it redirects to.';
  if (e.status >= 500) return "Try again later; if it keeps failing, check the service's logs.";
  return null;
}

function detailsOf(e: ApiError): string | null {
  const parts = [e.status ? String(e.status) : '', e.endpoint, e.url ?? ''].filter(Boolean);
  return parts.length ? parts.join(' · ') : null;
}

/** An error already put in words by the pane that saw it (e.g. with a connection diagnosis added). */
export class ExplainedError extends Error {
  constructor(readonly presented: PresentedError) {
    super(presented.hint ? `${presented.lead} ${presented.hint}` : presented.lead);
    this.name = 'ExplainedError';
  }
}

export function presentError(e: unknown): PresentedError {
  if (e instanceof ExplainedError) return e.presented;
  if (e instanceof ApiError) {
    if (e.kind === 'http') return { lead: httpLead(e), hint: httpHint(e), details: detailsOf(e) };
    return { lead: e.message, hint: null, details: detailsOf(e) };
  }
  // A fetch TypeError reaching us unwrapped means the request never got an answer; nothing says why.
  if (e instanceof TypeError && /fetch|network|load failed/i.test(e.message)) {
    return { lead: 'Could not reach the service.', hint: 'Check the address in Settings and that the service is running.', details: e.message };
  }
  return { lead: describeError(e), hint: null, details: null };
}

/** The whole message as one line (titles, logs, tests): lead and hint, without the details. */
export function explainError(e: unknown): string {
  const p = presentError(e);
  return p.hint ? `${p.lead} ${p.hint}` : p.lead;
}

/** What is going on while the client waits to repeat a call by itself (the pane and `qfill` say the same). */
export { describeRetry as explainRetry } from '../api/errors';

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

/**
 * Why uploads are refused, from the evidence: what the service said, and whether a read with the same
 * key still works (`readsWork`: true, false, or null when that could not be checked).
 * - 'read-only': the service said so; Chat works.
 * - 'invalid': reads are refused too: the key is not valid or the licence inactive; nothing works.
 * - 'refused': reads work, uploads do not (rights); the service's words say which.
 */
export type UploadRefusal = 'read-only' | 'invalid' | 'refused';

export function classifyUploadRefusal(e: ApiError, readsWork: boolean | null): UploadRefusal {
  if (isReadOnlyRefusal(e)) return 'read-only';
  if (readsWork === false) return 'invalid';
  return 'refused';
}

/** The reason shown beside disabled upload buttons after the service refused an upload. */
export function uploadRefusedReason(e: ApiError, kind: UploadRefusal): string {
  const said = e.serverMessage ? `${asSentence(e.serverMessage)} ` : '';
  switch (kind) {
    case 'read-only':
      return `${said}Uploads are disabled: this API key is read-only. It can ask questions in Chat; to fill or upload, save a key that is not read-only in Settings.`;
    case 'invalid':
      return `${said}This key is not valid or the organisation's licence is inactive: the service refuses every request with it, Chat included. Save a valid key in Settings.`;
    case 'refused':
      return `${said}Uploads are disabled: the service refuses uploads with this key${/manager|role/i.test(said) ? '' : ' (it may lack repository-manager rights)'}. Asking questions in Chat works; use another key in Settings to upload.`;
  }
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
