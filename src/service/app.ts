/**
 * Assembles the local knowledge service: database, storage, job queue, knowledge base, routes and the
 * background worker. `buildApp` does not listen; the CLI and tests call `app.listen`.
 */
import cors from '@fastify/cors';
import formbody from '@fastify/formbody';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { JOB_KINDS, type ServiceContext } from './context';
import { corsAllows, installOrigins } from './http/origin';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './http/depth';
import { badRequest, clientErrorHandler, installErrorHandlers } from './http/errors';
import { parseUrlencodedBody } from './http/form';
import { registerHealth } from './http/health';
import { registerUploads, type UploadLimits } from './http/multipart';
import { ServiceMetrics } from './metrics';
import { libraryReplayHandler } from './jobs/replay';
import { generateAnswersHandler } from './jobs/generate';
import { INGEST_CONCURRENCY, ingestFileHandler } from './jobs/ingest';
import { JobWorker } from './jobs/worker';
import { KnowledgeBase, knowledgeOptionsFromEnv } from './knowledge';
import { readLimitsFromEnv } from './files/limits';
import { readConfig } from './config/read';
import { ReaderSandbox, type SandboxOptions } from './sandbox';
import { apiPlugin, API_PREFIX } from './routes';
import { openStorage } from './storage/open';

export interface BuildAppOptions {
  dataDir: string;
  /** PostgreSQL (`postgres://…`) holding all state; without it, SQLite under `dataDir`. */
  databaseUrl?: string | null;
  /** PostgreSQL connections per process (default 10). */
  poolSize?: number;
  /** Where uploaded bytes live (`files/` inside it); default `dataDir`. Shared by every process on PostgreSQL. */
  filesDir?: string;
  /** How long a claimed job is held without a heartbeat before another process may take it (default 30 s). */
  jobLeaseMs?: number;
  /** Folder of the built add-in to serve at `/`; default `dist/` of the project when it exists; null for none. */
  staticDir?: string | null;
  /** Log warnings and errors (level from QFILL_LOG_LEVEL, default `warn`). */
  logger?: boolean;
  /** An access log: one line per request with its id, route, status and time (`qfill serve --log-requests`). */
  logRequests?: boolean;
  /** `GET /metrics` open to whoever reaches the port ('open', `qfill serve --metrics`) or for admin keys only (default). */
  metrics?: 'open' | 'admin';
  startWorkers?: boolean;
  /** How often the background-job lease is renewed or, by a standby process, tried (default 10 s). */
  leaseCheckMs?: number;
  /** How long a write waits for another process's lock before the request gets 429 (default 5 s). */
  busyTimeoutMs?: number;
  /** Time, memory and size limits for reading uploaded files (default: `DEFAULT_READ_LIMITS`, then the environment). */
  reading?: SandboxOptions;
  /** Size of one upload request and uploads received at once (default `DEFAULT_UPLOAD_LIMITS`). */
  uploads?: Partial<UploadLimits>;
  /** The origin clients use (`https://qfill.example.com`), for `next`/`previous` links; default the listening address. */
  publicUrl?: string | null;
  /** Browser origins besides the service's own allowed to call the API (CORS), e.g. a hosted add-in's. */
  corsOrigins?: readonly string[];
  /** TLS key and certificate; plain HTTP without. */
  https?: { key: Buffer; cert: Buffer } | null;
}

export interface BuiltApp {
  app: FastifyInstance;
  /**
   * Every route the app serves (HEAD and OPTIONS aside), as registered, with the endpoint it was declared from
   * (src/service/routes/route.ts): the OpenAPI test checks them.
   */
  routes: { method: string; url: string; endpoint?: string }[];
  close(): Promise<void>;
}

const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

function isDirectory(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}

/** The Fastify instance, HTTPS when given a key and certificate, with the service's request ids and limits. */
function createFastify(opts: BuildAppOptions): FastifyInstance {
  const common = {
    // Fastify logs each request and answer at `info`: the access log is that level.
    logger: opts.logger ? { level: opts.logRequests ? 'info' : readConfig(process.env, ['QFILL_LOG_LEVEL']).QFILL_LOG_LEVEL } : false,
    // A caller's own request id is kept when it is a plain token, so one id follows a request through proxies.
    requestIdHeader: false as const,
    genReqId: (req: { headers: Record<string, string | string[] | undefined> }) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.:-]{1,64}$/.test(given) ? given : randomUUID();
    },
    routerOptions: { ignoreTrailingSlash: true },
    bodyLimit: 1024 * 1024,
    clientErrorHandler,
  };
  // The HTTPS instance has another generic type; routes do not care which server carries them.
  return (opts.https ? Fastify({ ...common, https: opts.https }) : Fastify(common)) as unknown as FastifyInstance;
}

/** Every route as it is registered (HEAD and OPTIONS aside), with the endpoint it was declared from. */
function collectRoutes(app: FastifyInstance): BuiltApp['routes'] {
  const routes: BuiltApp['routes'] = [];
  app.addHook('onRoute', (route) => {
    const endpoint = route.config?.endpoint;
    for (const method of [route.method].flat()) if (method !== 'HEAD' && method !== 'OPTIONS') routes.push({ method, url: route.url, endpoint });
  });
  return routes;
}

/** The background worker: ingestion and answer generation, under a lease shared with other processes. */
function createWorker(
  ctx: ServiceContext,
  storage: Awaited<ReturnType<typeof openStorage>>,
  opts: BuildAppOptions,
  log: (message: string, error?: unknown) => void,
): JobWorker {
  const { store } = storage;
  return new JobWorker(
    store.jobs,
    {
      [JOB_KINDS.ingestFile]: ingestFileHandler(ctx),
      [JOB_KINDS.generateAnswers]: generateAnswersHandler(ctx, log),
      [JOB_KINDS.libraryReplay]: libraryReplayHandler(ctx, log),
    },
    {
      log,
      lease: store.workerLease ?? undefined,
      leaseCheckMs: opts.leaseCheckMs,
      // Well within the job's lease, so a live worker never loses its job to another.
      heartbeatMs: Math.max(20, Math.floor((opts.jobLeaseMs ?? 30_000) / 3)),
      jobLeaseMs: opts.jobLeaseMs ?? 30_000,
      concurrency: { [JOB_KINDS.ingestFile]: INGEST_CONCURRENCY },
    },
  );
}

/**
 * Our own JSON parser: an empty body is "no fields" (POST /chat/sessions/ may be empty), and a
 * malformed one gets a message that says so. No endpoint takes plain text; without a parser it is a
 * clear "unsupported content type".
 */
function installBodyParsers(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      return done(badRequest(`body: malformed JSON (${error instanceof Error ? error.message : 'parse error'})`), undefined);
    }
    if (nestsDeeperThan(parsed, MAX_JSON_DEPTH)) return done(badRequest(`body: JSON nested deeper than ${MAX_JSON_DEPTH} levels`), undefined);
    done(null, parsed);
  });
}

/** Every answer carries its request id; every request is counted in the metrics. */
function installRequestHooks(app: FastifyInstance, metrics: ServiceMetrics): void {
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.addHook('onResponse', async (request, reply) => {
    metrics.request(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
  });
}

/** CORS for our own origin and the configured ones only; any other page (or `null`, a sandboxed one) gets no CORS headers. */
async function registerCors(app: FastifyInstance): Promise<void> {
  await app.register(cors, {
    delegator: (request, callback) =>
      callback(null, {
        origin: corsAllows(request, request.headers.origin) ? request.headers.origin : false,
        methods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
        allowedHeaders: ['Content-Type', 'X-API-Key', 'Authorization'],
        exposedHeaders: ['Retry-After', 'X-Request-Id'],
        maxAge: 600,
      }),
  });
}

/** The built add-in's files at `/`: routes for the files there (no catch-all), so a path no file serves reaches the API's own 404. */
async function registerStatic(app: FastifyInstance, staticDir: string | null | undefined): Promise<void> {
  const dir = staticDir === undefined ? join(PROJECT_ROOT, 'dist') : staticDir;
  if (dir && isDirectory(dir)) await app.register(fastifyStatic, { root: resolve(dir), prefix: '/', index: ['taskpane.html', 'index.html'], wildcard: false });
}

export async function buildApp(opts: BuildAppOptions): Promise<BuiltApp> {
  const storage = await openStorage({
    dataDir: opts.dataDir,
    databaseUrl: opts.databaseUrl,
    busyTimeoutMs: opts.busyTimeoutMs,
    poolSize: opts.poolSize,
    filesDir: opts.filesDir,
    jobLeaseMs: opts.jobLeaseMs,
  });
  const { store } = storage;
  if (!storage.knowledgeIndex) {
    await store.close();
    throw new Error('the knowledge index has no PostgreSQL implementation yet');
  }
  const knowledge = new KnowledgeBase(storage.knowledgeIndex, { ...knowledgeOptionsFromEnv(), library: store.library });
  const sandbox = new ReaderSandbox({ ...readLimitsFromEnv(), ...opts.reading });
  const app = createFastify(opts);
  const routes = collectRoutes(app);

  let worker: JobWorker | null = null;
  let uploadGate: Awaited<ReturnType<typeof registerUploads>> | null = null;
  const metrics = new ServiceMetrics({
    jobCounts: () => store.jobs.counts(),
    uploads: () => ({ receiving: uploadGate?.inFlight ?? 0, waiting: uploadGate?.queued ?? 0 }),
  });
  const ctx: ServiceContext = {
    metrics,
    store,
    blobs: storage.blobs,
    knowledge,
    extract: (source, filename) => sandbox.extract(source, filename),
    detect: (source, filename) => sandbox.detect(source, filename),
    wake: (kind) => worker?.notify(kind),
  };
  const running = createWorker(ctx, storage, opts, (message, error) => app.log.warn({ err: error }, message));
  worker = running;

  installBodyParsers(app);
  installErrorHandlers(app);
  installRequestHooks(app, metrics);
  registerHealth(app, {
    store,
    metrics,
    metricsAccess: opts.metrics ?? 'admin',
    workerState: () => (!running.started ? 'stopped' : running.active ? 'running' : 'standby'),
  });
  installOrigins(app, { publicUrl: opts.publicUrl, corsOrigins: opts.corsOrigins });
  await registerCors(app);
  await app.register(formbody, { parser: parseUrlencodedBody });
  uploadGate = await registerUploads(app, ctx.blobs, opts.uploads);
  await app.register(apiPlugin, { prefix: API_PREFIX, ctx });
  await registerStatic(app, opts.staticDir);

  await app.ready();
  if (opts.startWorkers !== false) running.start();

  let closed = false;
  return {
    app,
    routes,
    async close() {
      if (closed) return;
      closed = true;
      // Readers first: a job waiting on a worker thread returns at once, so the job loop can stop.
      await sandbox.close();
      await running.stop();
      await app.close();
      await store.close();
    },
  };
}
