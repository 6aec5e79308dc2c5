/**
 * The `qfill` command line: serve the local knowledge service, administer keys and organisations,
 * and fill questionnaires (the `fill` command lives in ./fill).
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { resolve } from 'node:path';
import { addTeamMember, createKey, createOffering, setOrg, setOrgNames } from '../service/admin';
import { ConfigError, problemMessage, readConfig } from '../service/config/read';
import { originOf } from '../service/http/origin';

const DEFAULT_DATA = './.qfill-data';

export const USAGE = `Usage: qfill <command> [options]

Commands:
  serve [--port 3000] [--host 127.0.0.1] [--data DIR] [--database URL] [--files DIR] [--pool-size N] [--http] [--no-static]
        [--cors-origin ORIGIN]... [--public-url URL] [--metrics] [--log-requests]
      Run the local knowledge service (HTTPS with office-addin-dev-certs certificates unless --http).
      --cors-origin (repeatable) lets a page of that origin call the API; --public-url is the address
      clients use (e.g. behind a proxy), for the links to further pages. GET /healthz and /readyz need
      no key; GET /metrics (Prometheus) needs an admin key unless --metrics opens it to the network;
      --log-requests logs one line per request (id, route, status, time).
  keys create --org ORG --user USER [--role admin|repository_manager|member] [--read-only] [--name NAME] [--data DIR]
      Create an API key (creates the organization and user when missing); prints the key alone.
  orgs set --org ORG [--license active|inactive] [--quota REQUESTS_PER_MINUTE] [--upload-requires-manager true|false] [--names "A, B"] [--data DIR]
      Change an organization's licence, quota (0 = none), upload permission or own names (documents about anyone else are third-party evidence).
  teams add-member --org ORG --team TEAM --user USER [--data DIR]
      Add a user to a team (created when missing); prints the team id.
  offerings create --org ORG --name NAME [--type service|product|module] [--data DIR]
      Create an offering; prints its id.
  migrate --from-data DIR --database URL [--files DIR]
      Copy a SQLite data folder (organisations, keys, files, questionnaires, answers, chats, jobs) into
      PostgreSQL, ids kept; prints counts; running it again copies only what is new.
  fill ...
      Fill a questionnaire workbook from the command line (see qfill fill --help).
  replay [--base URL] [--key KEY] [--max N] [--run ID] [--limit N] [--all] [--json]
      How good the answer library is: past questionnaires filled from the rest of the library, agreement,
      coverage, the questions answered otherwise and the gaps (see qfill replay --help).
  config
      Print the effective configuration (the QFILL_* variables; API keys and passwords masked) and where
      each value comes from (environment, default, or the variable it falls back to); exit code 2 when a
      value is bad. qfill serve refuses to start with a bad value, naming it.
  doctor   (also: llm test)
      Check the language-model and embeddings endpoints configured by QFILL_LLM_* / QFILL_EMBEDDINGS_*
      (reachable, key, model, structured output, latency); exit code 1 when the service cannot use them.

Every command but fill and replay takes --database postgres://USER@HOST:PORT/DB (or QFILL_DATABASE_URL) to keep
all state in PostgreSQL, shared by several service processes; without it, SQLite under --data.
Default data folder: ${DEFAULT_DATA}`;

class UsageError extends Error {}

function parse<T extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: T) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

function required(values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value.trim();
}

function oneOf<T extends string>(value: unknown, name: string, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw new UsageError(`--${name} must be one of ${allowed.join(', ')}`);
  }
  return value as T;
}

function integer(value: unknown, name: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}`);
  }
  return Number(value);
}

/** An origin flag's value as `scheme://host[:port]`. */
function originOption(value: string, name: string): string {
  try {
    return originOf(value, `--${name}`);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

const dataOption = { data: { type: 'string' }, database: { type: 'string' } } as const;

/** Where the state is: `--database` (or QFILL_DATABASE_URL) for PostgreSQL, else SQLite under `--data`. */
function storageOf(values: { data?: string; database?: string }): { dataDir: string; databaseUrl: string | null } {
  const url = (values.database ?? readConfig(process.env, ['QFILL_DATABASE_URL']).QFILL_DATABASE_URL ?? '').trim();
  if (url !== '' && !/^postgres(ql)?:\/\//.test(url)) {
    throw new UsageError('--database must be a PostgreSQL URL such as postgres://user@127.0.0.1:5432/qfill');
  }
  return { dataDir: resolve(values.data ?? DEFAULT_DATA), databaseUrl: url === '' ? null : url };
}

type Out = (line: string) => void;

/** A command: its arguments (after its name) in, its exit code out. */
export type Command = (args: string[], out: Out) => Promise<number>;

async function serveCommand(rest: string[], out: Out): Promise<number> {
  if (rest.includes('--help')) return (out(USAGE), 0);
  const v = parse(rest, {
    ...dataOption,
    port: { type: 'string' },
    host: { type: 'string' },
    http: { type: 'boolean' },
    'no-static': { type: 'boolean' },
    'pool-size': { type: 'string' },
    files: { type: 'string' },
    'cors-origin': { type: 'string', multiple: true },
    'public-url': { type: 'string' },
    metrics: { type: 'boolean' },
    'log-requests': { type: 'boolean' },
  });
  const { serve, checkServiceConfig } = await import('./serve');
  // Every bad setting at once, before anything is opened or listened on.
  if (!checkServiceConfig(process.env, (line) => process.stderr.write(line + '\n'))) return 2;
  const corsOrigins = (v['cors-origin'] ?? []).map((o) => originOption(o, 'cors-origin'));
  const publicUrl = v['public-url'] === undefined ? null : originOption(v['public-url'], 'public-url');
  return serve({
    port: integer(v.port, 'port', 0, 65535) ?? 3000,
    host: v.host ?? '127.0.0.1',
    ...storageOf(v),
    poolSize: integer(v['pool-size'], 'pool-size', 1, 1000),
    filesDir: v.files ? resolve(v.files) : undefined,
    http: v.http ?? false,
    staticDir: v['no-static'] ? null : undefined,
    corsOrigins,
    publicUrl,
    metrics: v.metrics ? 'open' : 'admin',
    logRequests: v['log-requests'] ?? false,
  });
}

/** The arguments of `<command> <sub> ...` when `sub` is the one subcommand it has. */
function subcommand(command: string, rest: string[], only: string): string[] {
  const [sub, ...args] = rest;
  if (sub !== only) throw new UsageError(`unknown command "${command} ${sub ?? ''}"; use "${command} ${only}"`);
  return args;
}

async function keysCommand(rest: string[], out: Out): Promise<number> {
  const v = parse(subcommand('keys', rest, 'create'), {
    ...dataOption,
    org: { type: 'string' },
    user: { type: 'string' },
    role: { type: 'string' },
    'read-only': { type: 'boolean' },
    name: { type: 'string' },
  });
  const key = await createKey(storageOf(v), {
    org: required(v, 'org'),
    user: required(v, 'user'),
    role: oneOf(v.role, 'role', ['admin', 'repository_manager', 'member'] as const),
    readOnly: v['read-only'] ?? false,
    name: v.name,
  });
  out(key);
  return 0;
}

async function orgsCommand(rest: string[], out: Out): Promise<number> {
  const v = parse(subcommand('orgs', rest, 'set'), {
    ...dataOption,
    org: { type: 'string' },
    license: { type: 'string' },
    quota: { type: 'string' },
    'upload-requires-manager': { type: 'string' },
    names: { type: 'string' },
  });
  const urm = oneOf(v['upload-requires-manager'], 'upload-requires-manager', ['true', 'false'] as const);
  const org = await setOrg(storageOf(v), {
    org: required(v, 'org'),
    license: oneOf(v.license, 'license', ['active', 'inactive'] as const),
    quota: integer(v.quota, 'quota', 0, 1_000_000),
    uploadRequiresManager: urm === undefined ? undefined : urm === 'true',
  });
  const names = v.names === undefined ? undefined : await setOrgNames(storageOf(v), org.name, v.names.split(','));
  if (names) out(`organization ${org.name}: own names ${names.length ? names.join(', ') : '(none)'}`);
  out(
    `organization ${org.name}: license ${org.license}, quota ${org.quota_per_minute ?? 'none'}${org.quota_per_minute ? ' requests/minute' : ''}, upload requires manager ${org.upload_requires_manager}`,
  );
  return 0;
}

async function teamsCommand(rest: string[], out: Out): Promise<number> {
  const v = parse(subcommand('teams', rest, 'add-member'), { ...dataOption, org: { type: 'string' }, team: { type: 'string' }, user: { type: 'string' } });
  out(String(await addTeamMember(storageOf(v), { org: required(v, 'org'), team: required(v, 'team'), user: required(v, 'user') })));
  return 0;
}

async function offeringsCommand(rest: string[], out: Out): Promise<number> {
  const v = parse(subcommand('offerings', rest, 'create'), { ...dataOption, org: { type: 'string' }, name: { type: 'string' }, type: { type: 'string' } });
  const name = required(v, 'name');
  if (name.length > 200) throw new UsageError('--name must be at most 200 characters (the limit of an offering name)');
  const id = await createOffering(storageOf(v), {
    org: required(v, 'org'),
    name,
    type: oneOf(v.type, 'type', ['service', 'product', 'module'] as const),
  });
  out(String(id));
  return 0;
}

async function migrateCommand(rest: string[], out: Out): Promise<number> {
  const v = parse(rest, { 'from-data': { type: 'string' }, database: { type: 'string' }, files: { type: 'string' } });
  const target = storageOf({ database: v.database });
  if (!target.databaseUrl) throw new UsageError('--database (or QFILL_DATABASE_URL) is required: the PostgreSQL database to copy into');
  const { migrateDataFolder } = await import('../service/storage/migrate');
  await migrateDataFolder({
    fromData: required(v, 'from-data'),
    databaseUrl: target.databaseUrl,
    filesDir: v.files ? resolve(v.files) : undefined,
    log: out,
  });
  const { reindexMigrated } = await import('../service/admin');
  await reindexMigrated({
    fromData: resolve(required(v, 'from-data')),
    target: { dataDir: resolve(required(v, 'from-data')), databaseUrl: target.databaseUrl, filesDir: v.files ? resolve(v.files) : undefined },
    log: out,
  });
  out('done');
  return 0;
}

async function configCommand(rest: string[], out: Out): Promise<number> {
  if (rest.includes('--help')) return (out(USAGE), 0);
  parse(rest, {});
  const { configReport } = await import('./config');
  const report = configReport();
  for (const line of report.lines) out(line);
  return report.ok ? 0 : 2;
}

async function doctorCommand(rest: string[], out: Out): Promise<number> {
  parse(rest, {});
  const { doctor } = await import('./doctor');
  const result = await doctor();
  for (const line of result.lines) out(line);
  return result.ok ? 0 : 1;
}

async function fillCommand(rest: string[]): Promise<number> {
  let fill: { runFill(argv: string[]): Promise<number> };
  try {
    // A variable specifier keeps the type checker from requiring the module before it exists.
    const specifier = './fill';
    fill = (await import(/* @vite-ignore */ specifier)) as typeof fill;
  } catch (error) {
    process.stderr.write(`qfill: the fill command is not available (${error instanceof Error ? error.message : String(error)})\n`);
    return 1;
  }
  return fill.runFill(rest);
}

/** Every command by its name (USAGE describes each). */
export const COMMANDS: Readonly<Record<string, Command>> = {
  serve: serveCommand,
  keys: keysCommand,
  orgs: orgsCommand,
  teams: teamsCommand,
  offerings: offeringsCommand,
  migrate: migrateCommand,
  fill: fillCommand,
  replay: async (rest) => (await import('./replay')).runReplay(rest),
  config: configCommand,
  doctor: doctorCommand,
  llm: (rest, out) => {
    if (rest[0] !== 'test') throw new UsageError(`unknown command "llm ${rest[0] ?? ''}"; use "llm test" or "doctor"`);
    return doctorCommand(rest.slice(1), out);
  },
};

async function run(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const out: Out = (line) => process.stdout.write(line + '\n');
  if (command === undefined) {
    process.stderr.write(USAGE + '\n');
    return 2;
  }
  if (command === '--help' || command === '-h' || command === 'help') return (out(USAGE), 0);
  const handler = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!handler) throw new UsageError(`unknown command "${command}"; run "qfill --help"`);
  return handler(rest, out);
}

export async function main(argv: string[]): Promise<number> {
  try {
    return await run(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`qfill: ${error.message}\n`);
      return 2;
    }
    if (error instanceof ConfigError) {
      for (const problem of error.problems) process.stderr.write(`qfill: ${problemMessage(problem)}\n`);
      return 2;
    }
    process.stderr.write(`qfill: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
