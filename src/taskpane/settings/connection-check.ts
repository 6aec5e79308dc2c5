/**
 * Checking a connection before it is saved: whether the typed address can be a service address, whether
 * it would send the key unencrypted, one cheap call with the settings, and what a failure means here
 * (CORS, nothing answering, not a v2 service). Where the service says whose key it is (extension
 * "keys.current"), the result names the organisation and user.
 */
import { ApiError } from '../../api/errors';
import { EXTENSION, type KeyIdentity } from '../../api/schemas';
import { ExplainedError, presentError } from '../errors';
import type { TaskpaneApi } from '../types';

/** The origin of an address (relative to `base`); null when it is not one. */
export function originOf(url: string, base: string): string | null {
  try {
    return new URL(url, base).origin;
  } catch {
    return null;
  }
}

/** A no-cors request resolves (opaquely) whenever something answers, whatever its CORS headers. */
export async function defaultProbe(origin: string): Promise<boolean> {
  try {
    await fetch(origin, { mode: 'no-cors', cache: 'no-store' });
    return true;
  } catch {
    return false;
  }
}

/**
 * The connection test's failure with what it means here, said only when the evidence supports it: a
 * cross-origin service that answers a no-cors probe but not our call does not allow this origin (CORS);
 * one that answers nothing is unreachable (down, wrong address, untrusted certificate), not CORS.
 */
export async function explainConnectionFailure(
  e: unknown,
  baseUrl: string,
  pageOrigin: string,
  probe: (origin: string) => Promise<boolean> = defaultProbe,
): Promise<unknown> {
  if (!(e instanceof ApiError)) return e;
  const p = presentError(e);
  if (e.kind === 'network') {
    const target = originOf(baseUrl, pageOrigin || 'http://localhost');
    const crossOrigin = !!(target && pageOrigin && target !== pageOrigin);
    if (crossOrigin && target && (await probe(target))) {
      return new ExplainedError({
        ...p,
        hint: `The service at ${target} answers, but does not allow this pane's origin (${pageOrigin}) to call it (CORS): its administrator must allow it (qfill serve --cors-origin ${pageOrigin}).`,
      });
    }
    return new ExplainedError({
      ...p,
      hint: 'Nothing answered there: check the address, that the service runs, and that this computer trusts its certificate.',
    });
  }
  if (e.kind === 'http' && e.status === 404) {
    return new ExplainedError({ ...p, hint: 'The address answers, but not as a v2 questionnaire service: check the base URL.' });
  }
  return e;
}

/** Whose key it is, in the analyst's words: "Alice Smith (repository manager) in Acme". */
export function describeKeyOwner(k: KeyIdentity): string {
  const who = `This key is ${k.user.name}'s (${k.user.role.replace(/_/g, ' ')}) in ${k.organization.name}`;
  return k.read_only ? `${who}, read-only: it can ask questions but not upload.` : `${who}.`;
}

/** A sentence when the typed address cannot be a service address; null when it can. */
export function checkBaseUrl(text: string): string | null {
  const value = text.trim();
  if (!value) return 'Enter the address of the service, e.g. https://qfill.example.com.';
  if (!/^https?:\/\//i.test(value)) return `The service address "${value}" must be a full address starting with https:// (or http://).`;
  try {
    const url = new URL(value);
    if (!url.hostname) throw new Error('no host');
  } catch {
    return `The service address "${value}" is not a valid address; use e.g. https://qfill.example.com.`;
  }
  return null;
}

/** An http:// address on another machine: a key sent there travels unencrypted. */
export function isInsecureRemote(text: string): boolean {
  try {
    const url = new URL(text.trim());
    if (url.protocol !== 'http:') return false;
    const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    return !(host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\./.test(host));
  } catch {
    return false;
  }
}

/** The pane is served over https: a browser then blocks calls to plain http addresses other than localhost. */
export function pageIsHttps(origin: string): boolean {
  return /^https:/i.test(origin);
}

export interface ConnectionOk {
  /** What was checked, in words: the service, the library's size, the engine that answers. */
  text: string;
  owner?: KeyIdentity | undefined;
}

/**
 * One cheap call with these settings (the library's first page), then what the service says of itself:
 * a plain v2 service has no GET /extensions/ (404), and then no engine and no owner, nothing else lost.
 * Throws what the first call threw.
 */
export async function checkConnection(
  client: Pick<TaskpaneApi, 'listRepositoryFiles' | 'getExtensions' | 'getCurrentKey'>,
  shownAddress: string,
): Promise<ConnectionOk> {
  const page = await client.listRepositoryFiles({ page_size: 1 });
  const ext = await client.getExtensions().catch(() => undefined);
  const a = ext?.answering as { model?: string } | undefined;
  const owner = ext?.extensions.includes(EXTENSION.keysCurrent) ? await client.getCurrentKey().catch(() => undefined) : undefined;
  const text = `Connected to ${shownAddress}: the key was accepted; the library holds ${page.count} file${page.count === 1 ? '' : 's'}.${a ? ` Answers by ${a.model ?? 'extraction, no language model'}.` : ''}`;
  return { text, owner };
}
