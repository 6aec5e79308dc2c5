/**
 * The one error type the client throws, and the sentences people read. The task pane and the CLI
 * show `describeError(e)` directly, so every message says what happened and what to do next.
 */
import type { RetryNotice } from './http';

export type ApiErrorKind = 'http' | 'network' | 'invalid_response' | 'aborted' | 'invalid_argument';

export interface ApiErrorInit {
  kind: ApiErrorKind;
  message: string;
  status?: number;
  endpoint?: string;
  serverMessage?: string | null;
  retryAfterSeconds?: number | null;
  url?: string | null;
  cause?: unknown;
}

export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  /** HTTP status, 0 when there was none (network, aborted, invalid argument). */
  readonly status: number;
  /** Method and path template, e.g. 'GET /chat/sessions/{id}/'; '' when no request was involved. */
  readonly endpoint: string;
  /** The server's `{"error": ...}` string (or DRF's `detail`), when it sent one. */
  readonly serverMessage: string | null;
  readonly retryAfterSeconds: number | null;
  /** The absolute URL requested, when there was one. */
  readonly url: string | null;

  constructor(init: ApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ApiError';
    this.kind = init.kind;
    this.status = init.status ?? 0;
    this.endpoint = init.endpoint ?? '';
    this.serverMessage = init.serverMessage ?? null;
    this.retryAfterSeconds = init.retryAfterSeconds ?? null;
    this.url = init.url ?? null;
  }
}

export function isApiError(e: unknown, kind?: ApiErrorKind): e is ApiError {
  return e instanceof ApiError && (kind === undefined || e.kind === kind);
}

export function invalidArgument(message: string, endpoint = ''): ApiError {
  return new ApiError({ kind: 'invalid_argument', message, endpoint });
}

export function abortedError(endpoint: string, url: string | null, cause?: unknown): ApiError {
  return new ApiError({ kind: 'aborted', message: `The request ${endpoint} was cancelled.`, endpoint, url, cause });
}

const quote = (s: string) => `"${s.length > 300 ? `${s.slice(0, 300)}…` : s}"`;

/** The sentence for an HTTP error status: what it means for the person and what to do about it. */
export function httpErrorMessage(p: {
  status: number;
  endpoint: string;
  serverMessage: string | null;
  retryAfterSeconds: number | null;
  baseUrl: string;
  hasApiKey: boolean;
  redirected?: boolean;
}): string {
  const said = p.serverMessage ? ` The service said: ${quote(p.serverMessage)}.` : '';
  const on = `${p.endpoint} at ${p.baseUrl}`;
  if (p.redirected) {
    return `The service answered ${on} with a redirect${p.serverMessage ? ` (${p.serverMessage})` : ''}. ` + 'Set the base URL to the address it redirects to.';
  }
  switch (p.status) {
    case 400:
      return `The service rejected the request as invalid (400, ${on}).${said} Check the values sent and try again.`;
    case 401:
    case 403:
      return p.hasApiKey
        ? `Access denied (${p.status}, ${on}): the API key was refused or the organisation has no active licence.${said} ` +
            'Check the API key in the settings, that it is not read-only when uploading, that it has repository-manager ' +
            'rights for repository uploads, and that the licence is active.'
        : `Access denied (${p.status}, ${on}): no API key is set.${said} Enter an API key in the settings.`;
    case 404:
      return (
        `Not found (404, ${on}): the item does not exist or this API key cannot see it.${said} ` + `Check the id, and that the base URL points at a v2 service.`
      );
    case 429:
      return (
        `The request was refused (429, ${on}): quota exceeded; ` +
        (p.retryAfterSeconds !== null ? `retry after ${p.retryAfterSeconds} s.` : 'retry later.') +
        said
      );
    default:
      if (p.status >= 500) {
        return `The service failed (${p.status}, ${on}).${said} Try again later; if it keeps failing, check the service's logs.`;
      }
      return `The service answered ${on} with unexpected status ${p.status}.${said}`;
  }
}

/** A sentence a person can act on, for any thrown value. Never empty, never "undefined". */
export function describeError(e: unknown): string {
  if (e instanceof ApiError) return e.message;
  if (e instanceof Error) {
    if (e.name === 'AbortError') return 'The operation was cancelled.';
    return e.message || e.name || 'An unexpected error occurred.';
  }
  if (typeof e === 'string' && e.trim()) return e;
  if (e === undefined || e === null) return 'An unexpected error occurred (no details were given).';
  try {
    return `An unexpected error occurred: ${JSON.stringify(e)}`;
  } catch {
    return `An unexpected error occurred: ${String(e)}`;
  }
}

/** A server's sentence as a sentence: capitalised, ending with a full stop. */
export function asSentence(text: string): string {
  const t = text.trim();
  if (!t) return t;
  const first = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?…]$/.test(first) ? first : `${first}.`;
}

/** What is going on while the client waits to repeat a call by itself. */
export function describeRetry(n: RetryNotice): string {
  const wait = `${Math.max(1, Math.ceil(n.delayMs / 1000))} s`;
  const e = n.error;
  if (e.kind === 'http' && e.status === 429) {
    // The service's own sentence says whose turn it is (a quota, or uploads taking turns).
    if (e.serverMessage) return `${asSentence(e.serverMessage)} Waiting ${wait}, then retrying automatically.`;
    return `The service's quota is exhausted for now (429): waiting ${wait}, then retrying automatically.`;
  }
  if (e.kind === 'http') return `The service failed (${e.status}): retrying automatically in ${wait}.`;
  return `The service did not answer: retrying automatically in ${wait}.`;
}
