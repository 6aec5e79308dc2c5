/**
 * What a load balancer and Prometheus ask, outside the versioned API and without data: `GET /healthz`
 * (the process answers), `GET /readyz` (its database answers and the job worker runs) and `GET /metrics`
 * (open when the operator chose so, otherwise for an admin key); and the API's own description,
 * `GET /api/v2/openapi.json`, which holds no data either.
 */
import type { FastifyInstance } from 'fastify';
import { openApiDocument } from '../../api/openapi';
import { hashKey } from '../keys';
import type { ServiceMetrics } from '../metrics';
import type { Store } from '../storage/types';
import { forbidden } from './errors';

export interface HealthOptions {
  store: Store;
  metrics: ServiceMetrics;
  /** 'open': anyone who can reach the port may scrape; 'admin': an admin API key is needed. */
  metricsAccess: 'open' | 'admin';
  workerState(): 'running' | 'standby' | 'stopped';
}

export function registerHealth(app: FastifyInstance, opts: HealthOptions): void {
  app.get('/healthz', async () => ({ status: 'ok' }));

  const description = openApiDocument('/api/v2');
  app.get('/api/v2/openapi.json', async () => description);

  app.get('/readyz', async (_request, reply) => {
    let database = 'ok';
    try {
      // A primary-key lookup: cheap, and it needs the connection and the migrated schema.
      await opts.store.jobs.get(0);
    } catch (error) {
      database = `unreachable: ${error instanceof Error ? error.message : String(error)}`;
    }
    const worker = opts.workerState();
    const ready = database === 'ok' && worker !== 'stopped';
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready', checks: { database, worker } });
  });

  app.get('/metrics', async (request, reply) => {
    if (opts.metricsAccess !== 'open') {
      const header = request.headers['x-api-key'];
      const key = typeof header === 'string' ? header.trim() : '';
      const principal = key ? await opts.store.keys.resolve(hashKey(key)) : null;
      if (!principal || principal.user.role !== 'admin') {
        throw forbidden('metrics need an admin API key in the X-API-Key header (or start the service with --metrics to expose them to its network)');
      }
    }
    return reply.type(opts.metrics.contentType).send(await opts.metrics.text());
  });
}
