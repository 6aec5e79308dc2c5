/**
 * `qfill fill` against the local service over HTTPS: Node's fetch trusts only the system roots, and the
 * office-addin-dev-certs CA is rarely installed system-wide (installing needs administrator rights).
 * This fetch also trusts that one CA file, and only for https URLs; everything else is plain fetch.
 */
import { existsSync, readFileSync } from 'node:fs';
import https from 'node:https';
import { homedir } from 'node:os';
import path from 'node:path';
import tls from 'node:tls';

export const DEV_CA_PATH = path.join(homedir(), '.office-addin-dev-certs', 'ca.crt');

export function createTrustingFetch(extraCa: Buffer | string): typeof fetch {
  // Keep whatever Node already trusts: the bundled roots and NODE_EXTRA_CA_CERTS (e.g. a corporate proxy's CA).
  const extra = process.env.NODE_EXTRA_CA_CERTS && existsSync(process.env.NODE_EXTRA_CA_CERTS) ? [readFileSync(process.env.NODE_EXTRA_CA_CERTS, 'utf8')] : [];
  const ca = [...tls.rootCertificates, ...extra, extraCa.toString()];
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.protocol !== 'https:') return fetch(request);
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    return new Promise<Response>((resolve, reject) => {
      const req = https.request(url, { method: request.method, headers: Object.fromEntries(request.headers), ca, signal: request.signal }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', (e) => reject(new TypeError('fetch failed', { cause: e })));
        res.on('end', () => {
          const headers = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
          const status = res.statusCode ?? 0;
          const noBody = status === 204 || status === 304 || request.method === 'HEAD';
          resolve(new Response(noBody ? null : new Uint8Array(Buffer.concat(chunks)), { status, statusText: res.statusMessage, headers }));
        });
      });
      // Same shape as undici's failures, so the client's error handling (refused, reset) applies unchanged.
      req.on('error', (e) => reject(e.name === 'AbortError' ? e : new TypeError('fetch failed', { cause: e })));
      req.end(body);
    });
  }) as typeof fetch;
}

/** A fetch that trusts the development CA when it exists, for https base URLs; undefined otherwise. */
export function devCaFetch(baseUrl: string, caPath = DEV_CA_PATH): typeof fetch | undefined {
  if (!/^https:/i.test(baseUrl) || !existsSync(caPath)) return undefined;
  return createTrustingFetch(readFileSync(caPath));
}
