/** Path ids and pagination shared by the routes. */
import type { FastifyRequest } from 'fastify';
import { LIMITS } from '../../api/schemas';
import { notFound } from './errors';
import { linkOrigin } from './origin';

export interface PageRequest {
  page: number;
  pageSize: number;
  limit: number;
  offset: number;
}

export function pageRequest(q: { page?: number; page_size?: number }): PageRequest {
  const page = q.page ?? LIMITS.pageDefault;
  const pageSize = q.page_size ?? LIMITS.pageSizeDefault;
  return { page, pageSize, limit: pageSize, offset: (page - 1) * pageSize };
}

/**
 * The pagination envelope (2.15) with absolute `next`/`previous` links that keep the other filters.
 * `nextCursor`: where the next page starts, for a list that reads it from there (the `cursor` parameter,
 * an extension); `previous` asks by page number alone.
 */
export function pageEnvelope<T>(request: FastifyRequest, p: PageRequest, count: number, results: T[], nextCursor?: string | null) {
  const lastPage = Math.max(1, Math.ceil(count / p.pageSize));
  if (p.page > lastPage) throw notFound(`page: page ${p.page} does not exist; there ${lastPage === 1 ? 'is 1 page' : `are ${lastPage} pages`}`);
  // Only the path and query come from the request; the origin is ours (never the Host header as sent).
  const asked = new URL(request.url, 'http://path.invalid');
  const link = (page: number, cursor?: string | null) => {
    const u = new URL(`${asked.pathname}${asked.search}`, linkOrigin(request));
    u.searchParams.set('page', String(page));
    if (cursor) u.searchParams.set('cursor', cursor);
    else u.searchParams.delete('cursor');
    return u.toString();
  };
  return {
    count,
    next: p.page < lastPage ? link(p.page + 1, nextCursor) : null,
    previous: p.page > 1 ? link(p.page - 1) : null,
    results,
  };
}
