/**
 * One HTTP exchange with retries: timeout, cancellation, status to ApiError, JSON parsing and
 * response validation. Retrying follows one rule: repeat only what cannot have had an effect
 * (the server refused it with 429, the connection was refused before a byte was sent) or what is
 * safe to repeat (GET).
 */
import type { z } from 'zod/mini';
import { describeIssue } from './schemas';
import { ApiError, abortedError, httpErrorMessage } from './errors';
import { backoffDelay, parseRetryAfter, type RetryPolicy, type Sleep } from './retry';

/** Said before the client waits to repeat a call, so a person is not left looking at a frozen screen. */
export interface RetryNotice {
  /** Method and path template of the call being repeated. */
  endpoint: string;
  /** The failure that is retried (a 429 carries `retryAfterSeconds`). */
  error: ApiError;
  /** How long the client waits before the next attempt. */
  delayMs: number;
  /** The number of the attempt about to be made (2 = the first repeat). */
  nextAttempt: number;
}

export interface Transport {
  fetch: typeof fetch;
  onRetry?: (notice: RetryNotice) => void;
  baseUrl: string;
  authHeaders: Record<string, string>;
  retry: RetryPolicy;
  /** Per-attempt limit for ordinary calls; null = none. */
  timeoutMs: number | null;
  sleep: Sleep;
  random: () => number;
}

export interface Call<S extends z.ZodMiniType> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Method and path template, for messages: 'GET /chat/sessions/{id}/'. */
  endpoint: string;
  url: string;
  schema: S;
  body?: RequestInit['body'];
  contentType?: string;
  signal?: AbortSignal;
  /** Overrides the policy's retry count (polling does its own). */
  retries?: number;
  /** Overrides the transport's timeout; null = none (uploads of large files). */
  timeoutMs?: number | null;
  /** A download: a successful answer's bytes are returned as they are (a Uint8Array), not parsed. */
  binary?: boolean;
}

/** Which requests may be repeated after this failure. */
type Repeat = 'any' | 'get' | 'none';
type Attempt<T> = { ok: true; value: T } | { ok: false; error: ApiError; repeat: Repeat };

// Transient failures before the request is written: repeating even a POST cannot duplicate anything.
const RETRY_BEFORE_SEND = new Set(['ECONNREFUSED', 'EAI_AGAIN']);
const TRUST = 'Trust the certificate (in Node: NODE_EXTRA_CA_CERTS).';
const RETRYABLE_STATUS_FOR_GET = new Set([502, 503, 504]);

export async function send<S extends z.ZodMiniType>(t: Transport, call: Call<S>): Promise<z.output<S>> {
  const retries = Math.max(0, call.retries ?? t.retry.retries);
  for (let attempt = 0; ; attempt++) {
    if (call.signal?.aborted) throw abortedError(call.endpoint, call.url, call.signal.reason);
    const result = await attemptOnce(t, call);
    if (result.ok) return result.value;
    const { error, repeat } = result;
    const repeatable = repeat === 'any' || (repeat === 'get' && call.method === 'GET');
    if (!repeatable || attempt >= retries) {
      if (attempt > 0) error.message += ` Gave up after ${attempt + 1} attempts.`;
      throw error;
    }
    let wait = backoffDelay(attempt, t.retry, t.random);
    if (error.retryAfterSeconds !== null) {
      wait = error.retryAfterSeconds * 1000;
      if (wait > t.retry.maxRetryAfterMs) throw error;
    }
    try {
      t.onRetry?.({ endpoint: call.endpoint, error, delayMs: wait, nextAttempt: attempt + 2 });
    } catch {
      /* a listener's failure must not change the call's outcome */
    }
    try {
      await t.sleep(wait, call.signal);
    } catch (e) {
      if (call.signal?.aborted) throw abortedError(call.endpoint, call.url, e);
      throw e;
    }
  }
}

async function attemptOnce<S extends z.ZodMiniType>(t: Transport, call: Call<S>): Promise<Attempt<z.output<S>>> {
  const controller = new AbortController();
  const onAbort = () => controller.abort(call.signal!.reason);
  call.signal?.addEventListener('abort', onAbort, { once: true });
  const timeoutMs = call.timeoutMs === undefined ? t.timeoutMs : call.timeoutMs;
  let timedOut = false;
  const timer =
    timeoutMs && timeoutMs > 0
      ? setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, timeoutMs)
      : undefined;

  const lost = (cause: unknown, phase: 'connect' | 'read'): Attempt<never> => {
    if (call.signal?.aborted) return { ok: false, error: abortedError(call.endpoint, call.url, cause), repeat: 'none' };
    const base = { kind: 'network' as const, endpoint: call.endpoint, url: call.url, cause };
    if (timedOut) {
      const message = `The service at ${t.baseUrl} did not answer ${call.endpoint} within ${timeoutMs! / 1000} s. Try again; if it keeps happening, check the service.`;
      return { ok: false, error: new ApiError({ ...base, message }), repeat: 'get' };
    }
    const code = errorCode(cause);
    // Browsers give no code ("Failed to fetch"), so only a Node code can tell a cut-off upload apart.
    const mayHaveArrived = call.method !== 'GET' && (phase === 'read' || (code !== null && !REASONS[code]?.[2]));
    const reason = networkReason(cause, code, !mayHaveArrived);
    const note = mayHaveArrived ? ' The request may have reached the service, so it was not repeated; check its result before sending it again.' : '';
    const message =
      phase === 'read'
        ? `The connection to the service at ${t.baseUrl} broke while reading the answer to ${call.endpoint}: ${reason}${note}`
        : mayHaveArrived
          ? `The connection to the service at ${t.baseUrl} broke during ${call.endpoint}: ${reason}${note}`
          : `Could not reach the service at ${t.baseUrl}: ${reason}`;
    const repeat = phase === 'connect' && code !== null && RETRY_BEFORE_SEND.has(code) ? 'any' : 'get';
    return { ok: false, error: new ApiError({ ...base, message }), repeat };
  };

  try {
    const headers: Record<string, string> = { Accept: 'application/json', ...t.authHeaders };
    if (call.contentType) headers['Content-Type'] = call.contentType;
    let response: Response;
    try {
      // 'manual': following a redirect to another origin would hand it the X-API-Key header.
      response = await t.fetch(call.url, {
        method: call.method,
        headers,
        body: call.body,
        signal: controller.signal,
        redirect: 'manual',
      });
    } catch (e) {
      return lost(e, 'connect');
    }
    if (call.binary && response.ok && response.status < 300) {
      try {
        return { ok: true, value: new Uint8Array(await response.arrayBuffer()) as z.output<S> };
      } catch (e) {
        return lost(e, 'read');
      }
    }
    let text: string;
    try {
      text = await response.text();
    } catch (e) {
      return lost(e, 'read');
    }
    return interpret(t, call, response, text);
  } finally {
    clearTimeout(timer);
    call.signal?.removeEventListener('abort', onAbort);
  }
}

function interpret<S extends z.ZodMiniType>(t: Transport, call: Call<S>, response: Response, text: string): Attempt<z.output<S>> {
  const base = { endpoint: call.endpoint, url: call.url };
  const redirected = response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400);
  if (redirected || !response.ok) {
    const serverMessage = readServerMessage(text);
    const retryAfterSeconds = parseRetryAfter(response.headers.get('retry-after'));
    const location = response.headers.get('location');
    const message = httpErrorMessage({
      status: response.status,
      endpoint: call.endpoint,
      serverMessage: redirected && location ? `redirect to ${location}` : serverMessage,
      retryAfterSeconds,
      baseUrl: t.baseUrl,
      hasApiKey: Object.keys(t.authHeaders).length > 0,
      redirected,
    });
    const error = new ApiError({ ...base, kind: 'http', status: response.status, serverMessage, retryAfterSeconds, message });
    const repeat: Repeat = response.status === 429 ? 'any' : RETRYABLE_STATUS_FOR_GET.has(response.status) ? 'get' : 'none';
    return { ok: false, error, repeat };
  }

  let json: unknown;
  try {
    if (!text.trim()) throw new Error('empty');
    json = JSON.parse(text);
  } catch {
    const type = response.headers.get('content-type') || 'no content type';
    const shown = text.trim() ? `: "${text.replace(/\s+/g, ' ').trim().slice(0, 120)}"` : ' an empty body';
    const message = `The service at ${t.baseUrl} answered ${call.endpoint} with something that is not JSON (${response.status}, ${type})${shown}. Check that the base URL points at the v2 service.`;
    return { ok: false, error: new ApiError({ ...base, kind: 'invalid_response', status: response.status, message }), repeat: 'none' };
  }

  const parsed = call.schema.safeParse(json);
  if (!parsed.success) {
    const message = `The service's answer to ${call.endpoint} does not match the v2 interface: ${describeIssue(parsed.error)}. The service may run an incompatible version.`;
    return { ok: false, error: new ApiError({ ...base, kind: 'invalid_response', status: response.status, message }), repeat: 'none' };
  }
  return { ok: true, value: parsed.data };
}

/** `{"error": "..."}` per the spec; DRF-style `{"detail": "..."}` is read too. */
function readServerMessage(text: string): string | null {
  try {
    const body = JSON.parse(text) as unknown;
    if (body && typeof body === 'object') {
      const { error, detail } = body as { error?: unknown; detail?: unknown };
      if (typeof error === 'string' && error.trim()) return error;
      if (typeof detail === 'string' && detail.trim()) return detail;
    }
  } catch {
    /* not JSON: no server message */
  }
  return null;
}

/** The system error code (ECONNREFUSED, ...) somewhere in the cause chain of a fetch failure. */
function errorCode(e: unknown): string | null {
  for (let depth = 0, cur = e; cur && typeof cur === 'object' && depth < 5; depth++) {
    const { code, errors, cause } = cur as { code?: unknown; errors?: unknown; cause?: unknown };
    if (typeof code === 'string') return code;
    if (Array.isArray(errors) && errors.length) cur = errors[0];
    else cur = cause;
  }
  return null;
}

// What went wrong, and what a person can do about it.
// What went wrong, what a person can do about it, and whether it happens before any byte is sent.
const REASONS: Record<string, [what: string, hint: string, beforeSend: boolean]> = {
  ECONNREFUSED: ['connection refused', 'Is the service running, and is the address right?', true],
  ENOTFOUND: ['host name not found', 'Check the base URL.', true],
  EAI_AGAIN: ['host name lookup failed', 'Check the network connection.', true],
  ETIMEDOUT: ['connection timed out', 'Check the network connection.', true],
  EHOSTUNREACH: ['host unreachable', 'Check the network connection.', true],
  ENETUNREACH: ['network unreachable', 'Check the network connection.', true],
  ECONNRESET: ['connection reset', 'Try again.', false],
  EPIPE: ['connection closed while sending', 'Try again.', false],
  UND_ERR_SOCKET: ['connection closed unexpectedly', 'Try again.', false],
  DEPTH_ZERO_SELF_SIGNED_CERT: ['its TLS certificate is self-signed and not trusted', TRUST, true],
  SELF_SIGNED_CERT_IN_CHAIN: ['its TLS certificate is not trusted', TRUST, true],
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: ['its TLS certificate could not be verified', TRUST, true],
  ERR_TLS_CERT_ALTNAME_INVALID: ['its TLS certificate is for another host name', 'Check the base URL.', true],
  CERT_HAS_EXPIRED: ['its TLS certificate has expired', 'Renew the certificate.', true],
};

/** "what (CODE). Hint." or, when the request may have arrived, without the generic hint. */
function networkReason(e: unknown, code: string | null, withHint: boolean): string {
  const known = code ? REASONS[code] : undefined;
  if (known) return `${known[0]} (${code}).${withHint ? ` ${known[1]}` : ''}`;
  let inner: unknown = e;
  while (inner instanceof Error && inner.cause instanceof Error) inner = inner.cause;
  const text = (inner instanceof Error ? inner.message : String(e)).replace(/\.$/, '') || 'unknown network error';
  // Browsers say only "Failed to fetch"; the usual causes are these.
  if (/failed to fetch|networkerror|load failed/i.test(text)) {
    return `${text}. Check the address, that the service is running, and that it allows this add-in's origin (CORS).`;
  }
  return `${text}${code ? ` (${code})` : ''}.`;
}
