/**
 * The service's own origin, for the absolute `next`/`previous` links and for CORS: the configured
 * public URL, else the address the connection arrived at (and `localhost` beside a loopback address).
 * The request's Host header is never copied into a link; it only picks among these origins, so a
 * client that called `localhost` is sent on to `localhost`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest } from './errors';

export interface OriginOptions {
  /** `https://qfill.example.com`: the origin clients use (behind a proxy, on a name); null for the listening address. */
  publicUrl?: string | null;
  /** Browser origins besides the service's own that may call the API (CORS). */
  corsOrigins?: readonly string[];
}

interface Origins {
  publicOrigin: string | null;
  cors: Set<string>;
}

declare module 'fastify' {
  interface FastifyInstance {
    qfillOrigins: Origins;
  }
}

/** `scheme://host[:port]` of a URL given in configuration; throws with the option named when it is not one. */
export function originOf(url: string, option: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new Error(`${option}: "${url}" is not a URL such as https://qfill.example.com`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error(`${option}: "${url}" must start with http:// or https://`);
  return u.origin;
}

export function installOrigins(app: FastifyInstance, opts: OriginOptions): void {
  app.decorate('qfillOrigins', {
    publicOrigin: opts.publicUrl ? originOf(opts.publicUrl, 'public URL') : null,
    cors: new Set((opts.corsOrigins ?? []).map((o) => originOf(o, '--cors-origin'))),
  });
  // Host is reg-name or IP literal, optional port (RFC 9110 7.2); anything else is a malformed request.
  app.addHook('onRequest', async (request) => {
    const host = request.headers.host;
    if (host !== undefined && !HOST_RE.test(host)) throw badRequest(`Host: malformed header ${JSON.stringify(host.slice(0, 100))}`);
  });
}

const HOST_RE = /^(?:\[[0-9A-Fa-f:.]{2,45}\]|[A-Za-z0-9._~!$&'()*+,;=-]{1,253})(?::\d{1,5})?$/;

function hostForUrl(address: string): string {
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4.includes(':') ? `[${v4}]` : v4;
}

const LOOPBACK = new Set(['127.0.0.1', '[::1]']);

/** The origins this request may be answered from, preferred first. */
export function ownOrigins(request: FastifyRequest): string[] {
  const configured = request.server.qfillOrigins?.publicOrigin;
  if (configured) return [configured];
  const socket = request.raw.socket;
  const host = hostForUrl(socket.localAddress ?? '127.0.0.1');
  const scheme = request.protocol;
  const port = socket.localPort;
  const origin = (h: string) => `${scheme}://${h}${port && port !== (scheme === 'https' ? 443 : 80) ? `:${port}` : ''}`;
  return LOOPBACK.has(host) ? [origin(host), origin('localhost')] : [origin(host)];
}

/** The origin for links in a response: the one of ours the client called, else our first. */
export function linkOrigin(request: FastifyRequest): string {
  const origins = ownOrigins(request);
  const host = request.headers.host?.toLowerCase();
  return origins.find((o) => host !== undefined && new URL(o).host === host) ?? origins[0]!;
}

/** CORS: the service's own origin and the configured ones; never `null`, never any other. */
export function corsAllows(request: FastifyRequest, origin: string | undefined): boolean {
  if (!origin || origin === 'null') return false;
  return request.server.qfillOrigins?.cors.has(origin) === true || ownOrigins(request).includes(origin);
}
