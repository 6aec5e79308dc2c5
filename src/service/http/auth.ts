/**
 * Authentication and the organisation-wide gates of section 5: API key (X-API-Key or
 * `Authorization: Api-Key`), licence and quota. Per-action permissions are checked by the routes with
 * the helpers below.
 */
import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { hashKey } from '../keys';
import type { Principal, Store } from '../storage/types';
import { forbidden, HttpError } from './errors';
import type { RateLimiter } from './quota';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

function keyFrom(request: FastifyRequest): string | null {
  const header = request.headers['x-api-key'];
  if (typeof header === 'string' && header.trim() !== '') return header.trim();
  const authorization = request.headers.authorization;
  if (typeof authorization === 'string') {
    const match = /^Api-Key\s+(\S+)\s*$/i.exec(authorization);
    if (match) return match[1]!;
  }
  return null;
}

/**
 * onRequest hook of the API plugin: the caller's key, its user and organisation, and the licence.
 * CORS preflights (OPTIONS) carry no key by design and are answered before this.
 */
export function authenticate(store: Store): onRequestAsyncHookHandler {
  return async (request) => {
    if (request.method === 'OPTIONS') return;
    const key = keyFrom(request);
    if (!key && typeof request.headers.authorization === 'string') {
      throw forbidden('the Authorization header must be "Api-Key <your key>"; or send the key alone in the X-API-Key header');
    }
    if (!key) throw forbidden('authentication required: send your API key in the X-API-Key header');
    const principal = await store.keys.resolve(hashKey(key));
    if (!principal) throw forbidden('invalid API key');
    if (principal.org.license !== 'active') throw forbidden(`organization "${principal.org.name}" has no active license`);
    request.principal = principal;
  };
}

/** onRequest hook of the API plugin, after `authenticate`: the organisation's requests per minute. */
export function enforceQuota(limiter: RateLimiter): onRequestAsyncHookHandler {
  return async (request) => {
    const org = request.principal?.org;
    if (!org || org.quota_per_minute === null) return;
    const decision = await limiter.hit(org.id, org.quota_per_minute);
    if (!decision.allowed) {
      throw new HttpError(429, `quota exceeded: ${org.quota_per_minute} requests per minute for this organization; retry in ${decision.retryAfterSeconds} s`, {
        'retry-after': String(decision.retryAfterSeconds),
      });
    }
  };
}

export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw forbidden('authentication required');
  return request.principal;
}

/** For anything that stores or changes data other than chat. */
export function requireWritable(p: Principal, what: string): void {
  if (p.read_only) throw forbidden(`this API key is read-only and cannot ${what}`);
}

export function requireRepositoryUpload(p: Principal): void {
  requireWritable(p, 'upload files');
  if (p.org.upload_requires_manager && p.user.role === 'member') {
    throw forbidden('uploading to the repository requires the repository manager role in this organization');
  }
}
