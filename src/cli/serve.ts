/** `qfill serve`: runs the local knowledge service until SIGINT/SIGTERM. */
import { buildApp } from '../service/app';
import { configProblems, namesOf, problemMessage, readConfig, unknownVariables, type Env } from '../service/config/read';
import { ensureDevCertificates, trustInstructions } from './certs';

export interface ServeOptions {
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL holding all state; null for SQLite under `dataDir`. */
  databaseUrl?: string | null;
  poolSize?: number;
  /** Where uploaded bytes live (shared by every process on PostgreSQL); default the data folder. */
  filesDir?: string;
  http: boolean;
  staticDir?: string | null;
  /** Browser origins besides the service's own allowed to call the API (`--cors-origin`). */
  corsOrigins?: readonly string[];
  /** The origin clients use, for `next`/`previous` links (`--public-url`). */
  publicUrl?: string | null;
  /** `GET /metrics` open to the network ('open') or for admin keys only. */
  metrics?: 'open' | 'admin';
  logRequests?: boolean;
  out?: (line: string) => void;
  err?: (line: string) => void;
}

export async function serve(opts: ServeOptions): Promise<number> {
  const out = opts.out ?? ((line: string) => process.stdout.write(line + '\n'));
  const err = opts.err ?? ((line: string) => process.stderr.write(line + '\n'));
  let https: { key: Buffer; cert: Buffer } | null = null;
  if (!opts.http) {
    try {
      const certs = await ensureDevCertificates();
      https = { key: certs.key, cert: certs.cert };
      // We cannot install the CA without administrator rights; say how once, then a reminder.
      err(
        certs.generated ? trustInstructions(certs.caPath) : `HTTPS with the development CA ${certs.caPath} (trust it once: npx office-addin-dev-certs install)`,
      );
    } catch (error) {
      err(`qfill: could not prepare HTTPS certificates (${error instanceof Error ? error.message : String(error)}); use --http for plain HTTP`);
      return 1;
    }
  }

  let built: Awaited<ReturnType<typeof buildApp>>;
  try {
    built = await buildApp({
      dataDir: opts.dataDir,
      databaseUrl: opts.databaseUrl,
      poolSize: opts.poolSize,
      filesDir: opts.filesDir,
      jobLeaseMs: leaseFromEnv(),
      staticDir: opts.staticDir,
      corsOrigins: opts.corsOrigins,
      publicUrl: opts.publicUrl,
      logger: true,
      logRequests: opts.logRequests,
      metrics: opts.metrics,
      https,
    });
  } catch (error) {
    err(`qfill: cannot open the service's storage: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  // Handlers go in before the URL is printed: whoever reads that line may signal us right away.
  let stopping = false;
  const stopped = new Promise<number>((resolve) => {
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      err(`qfill: ${signal} received, stopping`);
      built.close().then(
        () => resolve(0),
        (error) => {
          err(`qfill: error while stopping: ${error instanceof Error ? error.message : String(error)}`);
          resolve(1);
        },
      );
    };
    // `on`, not `once`: keep a listener for the whole shutdown so a second signal cannot kill us mid-close.
    process.on('SIGINT', () => stop('SIGINT'));
    process.on('SIGTERM', () => stop('SIGTERM'));
  });

  let address: string;
  try {
    address = await built.app.listen({ port: opts.port, host: opts.host });
  } catch (error) {
    stopping = true;
    await built.close();
    err(`qfill: cannot listen on ${opts.host}:${opts.port} (${error instanceof Error ? error.message : String(error)})`);
    return 1;
  }
  out(`Listening on ${address}`);
  out(opts.databaseUrl ? `Database: ${redactUrl(opts.databaseUrl)} (data folder ${opts.dataDir})` : `Data folder: ${opts.dataDir}`);
  return stopped;
}

/** The URL without its password, for messages. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'the given database';
  }
}

/** QFILL_JOB_LEASE_SECONDS: how long a job stays with a process that stopped renewing it. */
function leaseFromEnv(): number {
  return Math.round(readConfig(process.env, ['QFILL_JOB_LEASE_SECONDS']).QFILL_JOB_LEASE_SECONDS * 1000);
}

/**
 * The service's settings checked before anything is opened: each bad value named with what it expects (the
 * caller exits with 2), and each undeclared `QFILL_` variable reported as a likely misspelling.
 */
export function checkServiceConfig(env: Env, err: (line: string) => void): boolean {
  for (const unknown of unknownVariables(env)) {
    err(`qfill: ${unknown.name} is not a setting of qfill, so it is ignored${unknown.nearest ? ` (did you mean ${unknown.nearest}?)` : ''}`);
  }
  const problems = configProblems(env, namesOf('service'));
  for (const problem of problems) err(`qfill: ${problemMessage(problem)}`);
  if (problems.length > 0) err('qfill: the configuration above is invalid; nothing was started (qfill config shows every setting)');
  return problems.length === 0;
}
