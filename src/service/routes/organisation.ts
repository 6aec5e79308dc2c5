/**
 * Not in the spec: the organisation's own names, which decide whose statement a document is
 * ("Instructure, Canvas": an AWS SOC 3 is then a third party's evidence). The pane's Library reads and
 * edits them; `qfill orgs set --names` does the same from the command line.
 *
 *   GET /api/v2/organisation/names/  -> {"names": ["Instructure", "Canvas"]}
 *   PUT /api/v2/organisation/names/  {"names": [...]} (admin or repository manager) -> {"names": [...]}
 */
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context';
import { principalOf, requireWritable } from '../http/auth';
import { badRequest, forbidden } from '../http/errors';

const MAX_NAMES = 50;
const MAX_NAME_LENGTH = 200;

/** Names from a JSON body `{"names": [...]}` or `{"names": "A, B"}`; 400 naming the problem otherwise. */
export function parseNames(body: unknown): string[] {
  const raw = (body as { names?: unknown } | null)?.names;
  const list = typeof raw === 'string' ? raw.split(',') : raw;
  if (!Array.isArray(list) || !list.every((n) => typeof n === 'string')) {
    throw badRequest('names: must be a list of strings (or one comma-separated string)');
  }
  const names = list.map((n) => n.trim()).filter((n) => n !== '');
  if (names.length > MAX_NAMES) throw badRequest(`names: at most ${MAX_NAMES} names`);
  const long = names.find((n) => n.length > MAX_NAME_LENGTH);
  if (long) throw badRequest(`names: "${long.slice(0, 40)}…" is longer than ${MAX_NAME_LENGTH} characters`);
  return names;
}

export function organisationRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  app.get('/organisation/names/', async (request) => {
    const p = principalOf(request);
    return { names: await ctx.knowledge.organisationNames(p.org.id) };
  });

  app.put('/organisation/names/', async (request) => {
    const p = principalOf(request);
    requireWritable(p, 'change the organisation\'s names');
    if (p.user.role === 'member') throw forbidden('only an admin or repository manager can change the organisation\'s names');
    return { names: await ctx.knowledge.setOrganisationNames(p.org.id, parseNames(request.body)) };
  });
}
