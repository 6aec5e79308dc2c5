/**
 * `qfill replay`: how good the answer library is for this organisation. Starts a replay on a v2 service
 * with extension "answers.replay" (each past questionnaire in the library filled from the rest), waits for
 * it, and prints agreement and coverage per questionnaire and overall, the questions answered otherwise
 * with both answers, and the gaps of recent questionnaires by section. Exit codes: 0 done, 1 the service
 * refused or the run failed, 2 bad arguments.
 */
import { parseArgs } from 'node:util';
import { ApiClient, ApiError, describeError } from '../api';
import { asSentence } from '../api/errors';
import { ReplayClient } from '../api/replay-client';
import type { ReplayFigures, ReplayRun } from '../api/replay';
import { ConfigError, problemMessage, readConfig } from '../service/config/read';
import { devCaFetch } from './trusted-fetch';

export const REPLAY_USAGE = `Usage: qfill replay [options]

Replays the organisation's past questionnaires against its answer library: each completed questionnaire
in the library is blanked and filled from the rest (its own answers left out), with the answering a fill
uses. Prints agreement (answers the same as the questionnaire's) and coverage (questions answered) per
questionnaire and overall, the questions answered otherwise with both answers, and the questions of
recent questionnaires that nothing in the library answers, by section. Every run is kept by the service.

Options:
  --base URL         service address (default: $QFILL_BASE_URL; --url is the same)
  --key KEY          API key (default: $QFILL_API_KEY); starting a run needs an admin or repository manager
  --max N            replay at most N questionnaires, newest first (default 10, at most 50)
  --run ID           print a kept run instead of starting one (any member's key)
  --limit N          print the first N questions answered otherwise (default 10)
  --all              print every question answered otherwise and every gap
  --json             print the run as JSON (the service's own shape)
  --timeout SECONDS  give up waiting after this many seconds (default 600)
  -h, --help         show this help`;

export interface ReplayIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  env: Record<string, string | undefined>;
  fetch?: typeof fetch;
}

class UsageError extends Error {}

interface ReplayArgs {
  baseUrl: string | null;
  apiKey: string | null;
  max: number | undefined;
  run: number | null;
  limit: number;
  all: boolean;
  json: boolean;
  timeoutSeconds: number;
  help: boolean;
}

function positiveInt(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 1) throw new UsageError(`--${flag} must be a whole number of at least 1, not "${text}".`);
  return n;
}

export function parseReplayArgs(argv: string[], env: Record<string, string | undefined>): ReplayArgs {
  let values;
  try {
    values = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        base: { type: 'string' },
        url: { type: 'string' },
        key: { type: 'string' },
        max: { type: 'string' },
        run: { type: 'string' },
        limit: { type: 'string' },
        all: { type: 'boolean' },
        json: { type: 'boolean' },
        timeout: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const base = values.base ?? values.url;
  const fromEnv = [...(base === undefined ? (['QFILL_BASE_URL'] as const) : []), ...(values.key === undefined ? (['QFILL_API_KEY'] as const) : [])];
  let config: ReturnType<typeof readConfig>;
  try {
    config = readConfig(env, fromEnv);
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(`${error.problems.map(problemMessage).join('; ')}.`);
    throw error;
  }
  const max = positiveInt('max', values.max);
  if (max !== undefined && max > 50) throw new UsageError(`--max is at most 50, not ${max}.`);
  return {
    baseUrl: (base ?? config.QFILL_BASE_URL ?? '').trim() || null,
    apiKey: (values.key ?? config.QFILL_API_KEY ?? '').trim() || null,
    max,
    run: positiveInt('run', values.run) ?? null,
    limit: positiveInt('limit', values.limit) ?? 10,
    all: values.all === true,
    json: values.json === true,
    timeoutSeconds: positiveInt('timeout', values.timeout) ?? 600,
    help: values.help === true,
  };
}

// ---- Printing ----------------------------------------------------------------------------------------

const percent = (share: number | null) => (share === null ? '-' : `${(share * 100).toFixed(1)}%`);

function figuresRow(name: string, f: ReplayFigures): string[] {
  return [name, String(f.questions), String(f.answered), `${percent(f.agreement)} (${f.agreed}/${f.answered})`, percent(f.coverage), String(f.conflicts)];
}

function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) =>
    r
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join('  ')
      .trimEnd(),
  );
}

const clip = (text: string, n = 160) => {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length <= n ? t : `${t.slice(0, n - 1)}…`;
};

/** The run as a person reads it. */
export function replayLines(run: ReplayRun, opts: { limit: number; all: boolean }): string[] {
  const lines = [`Replay run ${run.id}: ${run.status}, started by ${run.started_by} at ${run.created_at}`];
  if (run.status === 'failed') return [...lines, run.error ?? 'The run failed.'];
  if (run.questionnaires.length === 0) {
    lines.push('', 'No completed questionnaire in the library to replay: upload past questionnaires with their answers to the library first.');
  } else {
    lines.push(
      '',
      ...table([
        ['Questionnaire', 'Questions', 'Answered', 'Agreement', 'Coverage', 'Conflicts'],
        ...run.questionnaires.map((q) => figuresRow(q.file_name, q)),
        ...(run.overall ? [figuresRow('Overall', run.overall)] : []),
      ]),
    );
  }
  const conflicts = run.overall?.conflicts ?? 0;
  if (conflicts > 0)
    lines.push(
      '',
      `Past answers disagreed on ${conflicts} question${conflicts === 1 ? '' : 's'}: settle each once in the library (Answers, or POST /answers/library/conflicts/settle/).`,
    );
  const shown = opts.all ? run.wrong : run.wrong.slice(0, opts.limit);
  lines.push(
    '',
    `Answered otherwise: ${run.wrong_count}${shown.length < run.wrong_count ? ` (the first ${shown.length} shown${opts.all ? '' : '; --all for all'})` : ''}`,
  );
  for (const w of shown) {
    lines.push(`  ${w.file_name}${w.original_id ? ` ${w.original_id}` : ''}: ${clip(w.question)}`);
    lines.push(`    questionnaire: ${clip(w.expected)}`, `    library:       ${clip(w.got)}`);
  }
  const gapCount = run.gap_count ?? 0;
  lines.push('', `Gaps: ${gapCount} question${gapCount === 1 ? '' : 's'} of recent questionnaires nothing in the library answers`);
  for (const section of run.gaps) {
    lines.push(`  ${section.section} (${section.questions.length})`);
    const questions = opts.all ? section.questions : section.questions.slice(0, opts.limit);
    for (const q of questions) lines.push(`    ${q.original_id ? `${q.original_id} ` : ''}${clip(q.question)} (${q.questionnaire})`);
    if (questions.length < section.questions.length) lines.push(`    … ${section.questions.length - questions.length} more (--all)`);
  }
  return lines;
}

// ---- Running -------------------------------------------------------------------------------------------

/** The service's own words first, then where. */
function failure(e: unknown): string {
  if (e instanceof ApiError && e.serverMessage) return `${asSentence(e.serverMessage)} (${e.status}, ${e.endpoint})`;
  return describeError(e);
}

export async function runReplay(argv: string[], io: Partial<ReplayIo> = {}): Promise<number> {
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  let args: ReplayArgs;
  try {
    args = parseReplayArgs(argv, io.env ?? process.env);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    stderr.write(`qfill replay: ${e.message}\n\n${REPLAY_USAGE}\n`);
    return 2;
  }
  if (args.help) return (stdout.write(`${REPLAY_USAGE}\n`), 0);
  if (!args.baseUrl) return (stderr.write('qfill replay: No service to ask: pass --base URL or set QFILL_BASE_URL.\n'), 2);
  if (!args.apiKey) return (stderr.write('qfill replay: No API key: pass --key KEY or set QFILL_API_KEY.\n'), 2);
  try {
    const fetchImpl = io.fetch ?? devCaFetch(args.baseUrl);
    const client = new ApiClient({ baseUrl: args.baseUrl, apiKey: args.apiKey, ...(fetchImpl ? { fetch: fetchImpl } : {}) });
    const replays = new ReplayClient(client.extensionTransport);
    const signal = AbortSignal.timeout(args.timeoutSeconds * 1000);
    let id = args.run;
    if (id === null) {
      const started = await replays.start(args.max === undefined ? {} : { max_questionnaires: args.max }, { signal });
      id = started.id;
      if (!args.json) stderr.write(`Replaying the answer library on ${client.baseUrl} (run ${id}) ...\n`);
    }
    const run = await replays.wait(id, { signal });
    stdout.write(args.json ? `${JSON.stringify(run, null, 2)}\n` : `${replayLines(run, args).join('\n')}\n`);
    return run.status === 'done' ? 0 : 1;
  } catch (e) {
    const timedOut = e instanceof Error && (e.name === 'TimeoutError' || (e instanceof ApiError && e.kind === 'aborted'));
    stderr.write(`qfill replay: ${timedOut ? `the run did not finish within ${args.timeoutSeconds} s (--timeout); it goes on in the service` : failure(e)}\n`);
    return 1;
  }
}
