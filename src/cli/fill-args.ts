/** `qfill fill` command line: flags, defaults from the environment, and the usage text. */
import { ConfigError, problemMessage, readConfig } from '../service/config/read';

export interface FillArgs {
  input: string;
  out: string;
  baseUrl: string | null;
  apiKey: string | null;
  overwrite: boolean;
  /** Also write drafts (answers the planner holds back for review) into cells. */
  writeDrafts: boolean;
  /** Past answers that disagree: the most recently uploaded questionnaire decides. */
  preferRecent: boolean;
  /** The add-in's fill options, written into the file: trust colours, and notes naming the sources. */
  highlight: boolean;
  sourceNotes: boolean;
  reportPath: string | null;
  /** Replace an existing --report file even when it is not an earlier report. */
  force: boolean;
  /** Seconds to wait for answers; null waits as long as the service keeps making progress. */
  timeoutSeconds: number | null;
  help: boolean;
}

export const FILL_USAGE = `Usage: qfill fill <questionnaire.xlsx> --out <filled.xlsx> [options]

Uploads the questionnaire to a v2 knowledge service, waits for its answers and writes them into a
copy of the workbook; the input file is never modified. By default only the answer cells' values
change; --highlight and --source-notes add what the Excel add-in adds (the --report file lists each
answer's sources either way).

Options:
  --out FILE         where to write the filled workbook (required; must differ from the input)
  --base URL         service address (default: $QFILL_BASE_URL)
  --key KEY          API key (default: $QFILL_API_KEY)
  --overwrite        also replace cells that already hold a value (never formulas or locked cells)
  --write-drafts     also write drafts: low-trust answers and free text without a list answer beside it
  --prefer-recent    where past answers in the library disagree, take the most recently uploaded
                     questionnaire's (otherwise such answers are left for review)
  --highlight        colour each written answer by its trust (green high, yellow medium, red low),
                     as the add-in does; not on protected sheets
  --source-notes     add a note to each written answer naming its sources and trust, as the add-in
                     does; not on protected sheets, and a cell's existing note is kept
  --report FILE      write the per-cell report as JSON (an existing file is replaced only when it
                     is an earlier report, never through a symbolic link)
  --force            replace an existing --report file even when it is not an earlier report
  --timeout SECONDS  give up waiting for answers after this many seconds
  -h, --help         show this help`;

export class UsageError extends Error {
  override name = 'UsageError';
}

/** Parses argv (without the `fill` word). Flags accept `--flag value` and `--flag=value`. */
export function parseFillArgs(argv: readonly string[], env: Record<string, string | undefined>): FillArgs {
  const args: FillArgs = {
    input: '',
    out: '',
    baseUrl: null,
    apiKey: null,
    overwrite: false,
    writeDrafts: false,
    preferRecent: false,
    highlight: false,
    sourceNotes: false,
    reportPath: null,
    force: false,
    timeoutSeconds: null,
    help: false,
  };
  let baseGiven = false;
  let keyGiven = false;
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const raw = argv[i]!;
    if (raw === '--') {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (!raw.startsWith('-') || raw === '-') {
      positional.push(raw);
      continue;
    }
    const eq = raw.indexOf('=');
    const flag = eq > 0 ? raw.slice(0, eq) : raw;
    const inline = eq > 0 ? raw.slice(eq + 1) : undefined;
    const value = (): string => {
      if (inline !== undefined) return inline;
      const next = argv[i + 1];
      if (next === undefined || (next.startsWith('--') && next.length > 2)) throw new UsageError(`${flag} needs a value.`);
      i++;
      return next;
    };
    switch (flag) {
      case '--out':
      case '-o':
        args.out = value();
        break;
      case '--base':
        args.baseUrl = value().trim() || null;
        baseGiven = true;
        break;
      case '--key':
        args.apiKey = value().trim() || null;
        keyGiven = true;
        break;
      case '--report':
        args.reportPath = value();
        break;
      case '--timeout': {
        const text = value();
        const n = Number(text);
        if (!Number.isFinite(n) || n <= 0) throw new UsageError(`--timeout must be a positive number of seconds, not "${text}".`);
        args.timeoutSeconds = n;
        break;
      }
      case '--overwrite':
        if (inline !== undefined) throw new UsageError('--overwrite takes no value.');
        args.overwrite = true;
        break;
      case '--prefer-recent':
        if (inline !== undefined) throw new UsageError('--prefer-recent takes no value.');
        args.preferRecent = true;
        break;
      case '--highlight':
        if (inline !== undefined) throw new UsageError('--highlight takes no value.');
        args.highlight = true;
        break;
      case '--source-notes':
        if (inline !== undefined) throw new UsageError('--source-notes takes no value.');
        args.sourceNotes = true;
        break;
      case '--write-drafts':
        if (inline !== undefined) throw new UsageError('--write-drafts takes no value.');
        args.writeDrafts = true;
        break;
      case '--force':
        if (inline !== undefined) throw new UsageError('--force takes no value.');
        args.force = true;
        break;
      case '--help':
      case '-h':
        args.help = true;
        break;
      default:
        throw new UsageError(`Unknown option ${flag}.`);
    }
  }
  if (args.help) return args;
  // The environment only where a flag did not say: a bad QFILL_BASE_URL does not matter beside --base.
  const fromEnv = [...(baseGiven ? [] : (['QFILL_BASE_URL'] as const)), ...(keyGiven ? [] : (['QFILL_API_KEY'] as const))];
  try {
    const c = readConfig(env, fromEnv);
    if (!baseGiven) args.baseUrl = c.QFILL_BASE_URL ?? null;
    if (!keyGiven) args.apiKey = c.QFILL_API_KEY ?? null;
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(`${error.problems.map(problemMessage).join('; ')}.`);
    throw error;
  }
  if (positional.length === 0) throw new UsageError('Name the questionnaire to fill, e.g. qfill fill questionnaire.xlsx --out filled.xlsx.');
  if (positional.length > 1) throw new UsageError(`One questionnaire at a time; got ${positional.length} files (${positional.join(', ')}).`);
  args.input = positional[0]!;
  if (!args.out) throw new UsageError('--out is required: the input is never modified, so name the file to write.');
  return args;
}
