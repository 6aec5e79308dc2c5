/**
 * The v2 API (../shared/spec/interface-v2.md) as one Fastify plugin, registered under `/api/v2`: its
 * routes are written without the prefix, and authentication and the organisation's quota are hooks
 * of this plugin, so they cover exactly the API (its unknown paths too) and nothing else the server
 * carries (the add-in's static files).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ServiceContext } from '../context';
import { authenticate, enforceQuota } from '../http/auth';
import { notFoundHandler } from '../http/errors';
import { chatRoutes } from './chat';
import { keyRoutes } from './keys';
import { libraryRoutes } from './library';
import { libraryReplayRoutes } from './library-replay';
import { organisationRoutes } from './organisation';
import { questionnaireRoutes } from './questionnaires';
import { repositoryRoutes } from './repository';

export const API_PREFIX = '/api/v2';

export interface ApiOptions {
  ctx: ServiceContext;
}

export const apiPlugin: FastifyPluginAsync<ApiOptions> = async (api, { ctx }) => {
  api.decorateRequest('principal', null);
  api.addHook('onRequest', authenticate(ctx.store));
  api.addHook('onRequest', enforceQuota(ctx.store.quota));
  // Here as well as on the server, so an unknown API path needs a key like the known ones.
  api.setNotFoundHandler(notFoundHandler);

  chatRoutes(api, ctx);
  questionnaireRoutes(api, ctx);
  repositoryRoutes(api, ctx);
  organisationRoutes(api, ctx);
  libraryRoutes(api, ctx);
  libraryReplayRoutes(api, ctx);
  keyRoutes(api);
};
