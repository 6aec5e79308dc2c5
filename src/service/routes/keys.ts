/**
 * Not in the spec: whose key a request carries, so the pane can say which organisation and user it works
 * as before anyone uploads into the wrong library. It reports only the caller's own key.
 *
 *   GET /api/v2/keys/current/ -> {"organization": {"id", "name"}, "user": {"id", "name", "role"}, "read_only": false}
 */
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../http/auth';
import type { UserRecord } from '../storage/types';
import { route } from './route';

/** The user's full name when the organisation recorded one, else the name they sign in with. */
export function displayName(user: UserRecord): string {
  return `${user.first_name} ${user.last_name}`.trim() || user.username;
}

export function keyRoutes(app: FastifyInstance): void {
  route(app, 'currentKey', async (request) => {
    const p = principalOf(request);
    return {
      organization: { id: p.org.id, name: p.org.name },
      user: { id: p.user.id, name: displayName(p.user), role: p.user.role },
      read_only: p.read_only,
    };
  });
}
