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
import type { Principal } from '../storage/types';
import { route } from './route';

const MAX_NAMES = 50;
const MAX_NAME_LENGTH = 200;

/** The names as given (a list, or one comma-separated string), trimmed, without empty ones; 400 when too many or too long. */
export function parseNames(given: string | string[]): string[] {
  const list = typeof given === 'string' ? given.split(',') : given;
  const names = list.map((n) => n.trim()).filter((n) => n !== '');
  if (names.length > MAX_NAMES) throw badRequest(`names: at most ${MAX_NAMES} names`);
  const long = names.find((n) => n.length > MAX_NAME_LENGTH);
  if (long) throw badRequest(`names: "${long.slice(0, 40)}…" is longer than ${MAX_NAME_LENGTH} characters`);
  return names;
}

function requireNamesEditor(p: Principal): void {
  requireWritable(p, "change the organisation's names");
  if (p.user.role === 'member') throw forbidden("only an admin or repository manager can change the organisation's names");
}

export function organisationRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  route(app, 'getOrganisationNames', async (request) => {
    const p = principalOf(request);
    return { names: await ctx.knowledge.organisationNames(p.org.id) };
  });

  route(app, 'setOrganisationNames', { allow: requireNamesEditor }, async (request) => {
    const p = principalOf(request);
    return { names: await ctx.knowledge.setOrganisationNames(p.org.id, parseNames(request.body.names)) };
  });
}
