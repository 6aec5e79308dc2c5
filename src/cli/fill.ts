/**
 * `qfill fill <questionnaire.xlsx> --out <filled.xlsx>`: upload a workbook to a v2 service, wait
 * for its answers, plan with `src/fill` (the add-in's rules) and write the plan losslessly with
 * `src/xlsx`. Exit codes: 0 done, 1 service or output failure, 2 bad arguments or bad input file.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { ApiClient, ApiError, describeError, describeRetry } from '../api';
import { devCaFetch } from './trusted-fetch';
import type { Progress, QuestionWithAnswers } from '../api/schemas';
import { planFillWithMarks, withMarksWritable } from '../fill/plan-marks';
import { createFillSession, SessionError, type WorkbookPort } from '../fill/session';
import { XlsxPackage, isXlsxError } from '../xlsx';
import { FILL_USAGE, UsageError, parseFillArgs, type FillArgs } from './fill-args';
import { checkReportTarget, FileRefused, readQuestionnaire, writeReport } from './fill-files';
import { createProgressDisplay, type ProgressStream } from './fill-progress';
import { annotatedWrites } from './fill-annotate';
import { buildFillReport, summaryLines, type ReportAnnotations } from './fill-report';
import { anchorSlotsInPackage, workbookView } from './fill-view';

export interface FillIo {
  stdout: ProgressStream;
  stderr: ProgressStream;
  env: Record<string, string | undefined>;
  /** Injected in tests; defaults to global fetch. */
  fetch?: typeof fetch;
}

/** How to get a service when none is configured. Kept in one place: other commands show it too. */
export const LOCAL_SERVICE_HELP = [
  'To use the local knowledge service on this machine:',
  '  1. start it:       npx qfill serve --http      (listens on http://127.0.0.1:3000; keep it running)',
  '  2. create a key:   npx qfill keys create --org <your-org> --user <you>',
  '  3. then:           export QFILL_BASE_URL=http://127.0.0.1:3000 QFILL_API_KEY=<the key>',
  'or pass --base URL --key KEY for any other v2 service.',
].join('\n');

const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

class FillFailure extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2,
  ) {
    super(message);
  }
}

export async function runFill(argv: string[], io: Partial<FillIo> = {}): Promise<number> {
  const out: FillIo = {
    stdout: io.stdout ?? process.stdout,
    stderr: io.stderr ?? process.stderr,
    env: io.env ?? process.env,
    fetch: io.fetch,
  };
  try {
    await fill(argv, out);
    return 0;
  } catch (e) {
    if (e instanceof UsageError) {
      out.stderr.write(`qfill fill: ${e.message}\n\n${FILL_USAGE}\n`);
      return 2;
    }
    if (e instanceof FillFailure) {
      out.stderr.write(`qfill fill: ${e.message}\n`);
      return e.exitCode;
    }
    if (isXlsxError(e)) {
      out.stderr.write(`qfill fill: ${e.message}\n`);
      return 2;
    }
    out.stderr.write(`qfill fill: ${describeError(e)}\n`);
    return 1;
  }
}

function readInput(path: string): Uint8Array {
  try {
    return readQuestionnaire(path);
  } catch (e) {
    throw e instanceof FileRefused ? new FillFailure(e.message, 2) : e;
  }
}

/** Whether two paths name the same file, whatever the spelling (relative, symlink, hard link). */
function sameFile(a: string, b: string): boolean {
  const pa = resolve(a);
  const pb = resolve(b);
  if (pa === pb) return true;
  if (!existsSync(pa) || !existsSync(pb)) return false;
  try {
    const sa = statSync(pa);
    const sb = statSync(pb);
    return realpathSync(pa) === realpathSync(pb) || (sa.ino === sb.ino && sa.dev === sb.dev);
  } catch {
    return false;
  }
}

/** Refuses an output that is the input itself, or a folder, or in a folder that does not exist. */
function checkOutput(input: string, output: string): void {
  if (sameFile(input, output)) throw new FillFailure(`--out must differ from the input: ${output} is the questionnaire itself, which is never modified.`, 2);
  const b = resolve(output);
  if (existsSync(b) && statSync(b).isDirectory()) throw new FillFailure(`--out ${output} is a folder; name a file.`, 2);
  if (!existsSync(dirname(b))) throw new FillFailure(`The folder of --out (${dirname(b)}) does not exist.`, 2);
}

/** The JSON report must not land on the questionnaire or on the filled workbook. */
function checkReport(input: string, output: string, report: string, force: boolean): void {
  if (sameFile(input, report)) throw new FillFailure(`--report must differ from the input: ${report} is the questionnaire itself, which is never modified.`, 2);
  if (sameFile(output, report)) throw new FillFailure(`--report must differ from --out: both name ${report}.`, 2);
  const b = resolve(report);
  if (existsSync(b) && statSync(b).isDirectory()) throw new FillFailure(`--report ${report} is a folder; name a file.`, 2);
  if (!existsSync(dirname(b))) throw new FillFailure(`The folder of --report (${dirname(b)}) does not exist.`, 2);
  try {
    checkReportTarget(b, force);
  } catch (e) {
    throw e instanceof FileRefused ? new FillFailure(e.message, 2) : e;
  }
}

/**
 * The name the workbook is uploaded under. A macro-enabled workbook or template is the same
 * spreadsheet package as an .xlsx (its VBA part is ignored by answering and stays only in the local
 * output), and services accept questionnaires as .xlsx: so it travels as `<name>.xlsx`.
 */
export function uploadName(fileName: string): string {
  return /\.xlsx$/i.test(fileName) ? fileName : `${fileName.replace(/\.(xlsm|xltx|xltm)$/i, '')}.xlsx`;
}

function writeAtomically(path: string, bytes: Uint8Array): void {
  const tmp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    writeFileSync(tmp, bytes);
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw new FillFailure(`Cannot write ${path}: ${(e as Error).message}`, 1);
  }
}

/** Statuses with which a service refuses the uploaded file itself (not a questionnaire, too large, wrong type). */
const INPUT_REFUSED = new Set([400, 413, 415, 422]);

function serviceFailure(e: unknown, baseUrl: string, step: 'upload' | 'answers'): FillFailure {
  if (e instanceof ApiError) {
    if (e.kind === 'invalid_argument') return new FillFailure(e.message, 2);
    // The workbook is the bad input here, as much as a file that is not a zip: exit 2.
    if (step === 'upload' && e.kind === 'http' && INPUT_REFUSED.has(e.status)) return new FillFailure(e.message, 2);
    if (e.kind === 'network') {
      return new FillFailure(`${e.message}\nIs the service running at ${baseUrl}?\n${LOCAL_SERVICE_HELP}`, 1);
    }
    return new FillFailure(e.message, 1);
  }
  return new FillFailure(describeError(e), 1);
}

async function fill(argv: string[], io: FillIo): Promise<void> {
  const args: FillArgs = parseFillArgs(argv, io.env);
  if (args.help) {
    io.stdout.write(`${FILL_USAGE}\n`);
    return;
  }
  const inputBytes = readInput(args.input);
  checkOutput(args.input, args.out);
  if (args.reportPath) checkReport(args.input, args.out, args.reportPath, args.force);
  const name = basename(args.input);
  // Validate the file before anything leaves the machine: bad input gets its own message and code 2.
  const pkg = XlsxPackage.open(inputBytes, name);
  if (!args.baseUrl) throw new FillFailure(`No service to ask: pass --base URL or set QFILL_BASE_URL.\n${LOCAL_SERVICE_HELP}`, 2);
  if (!args.apiKey) throw new FillFailure(`No API key: pass --key KEY or set QFILL_API_KEY.\n${LOCAL_SERVICE_HELP}`, 2);

  let client: ApiClient;
  try {
    const fetchImpl = io.fetch ?? devCaFetch(args.baseUrl);
    client = new ApiClient({
      baseUrl: args.baseUrl,
      apiKey: args.apiKey,
      ...(fetchImpl ? { fetch: fetchImpl } : {}),
      // Waiting is said, never silent: a 429 or a dropped connection is repeated after the wait shown.
      onRetry: (notice) => io.stderr.write(`qfill: ${describeRetry(notice)}\n`),
    });
  } catch (e) {
    throw new FillFailure(describeError(e), 2);
  }
  const timeout = args.timeoutSeconds !== null ? AbortSignal.timeout(args.timeoutSeconds * 1000) : undefined;
  const progress = createProgressDisplay(io.stderr);

  // The workbook as the fill session sees it: the input package, planned and written losslessly.
  let anchored: QuestionWithAnswers[] = [];
  let written: ReturnType<XlsxPackage['applyWrites']> | null = null;
  let annotations: ReportAnnotations | undefined;
  const port: WorkbookPort = {
    readFile: async () => ({ bytes: inputBytes, fileName: uploadName(name), type: XLSX_MIME }),
    plan: async (questions, options) => {
      anchored = anchorSlotsInPackage(questions, pkg);
      return planFillWithMarks(anchored, workbookView(pkg, withMarksWritable(anchored)), options);
    },
    apply: async (plan, options) => {
      const wanted = { highlight: !!options.highlight, sourceNotes: !!options.sourceNotes };
      const annotated = annotatedWrites(pkg, plan, wanted);
      written = pkg.applyWrites(annotated.writes, annotated.options);
      writeAtomically(resolve(args.out), written.bytes);
      annotations = { ...wanted, coloured: annotated.coloured, noted: annotated.noted, gaps: annotated.gaps };
      return { written: plan.writes.length, failed: [] };
    },
  };
  const session = createFillSession(
    { api: client, workbook: port },
    { overwrite: args.overwrite, writeDrafts: args.writeDrafts, preferRecent: args.preferRecent, highlight: args.highlight, sourceNotes: args.sourceNotes },
  );
  let shown: Progress | null = null;
  const off = session.subscribe((s) => {
    if (s.progress && s.progress !== shown) progress.update((shown = s.progress));
    if (s.steps.generate.state === 'done' || s.outcome) progress.done();
  });
  io.stderr.write(`Uploading ${name} to ${client.baseUrl} ...\n`);
  const state = await session.fill(timeout);
  off();
  session.dispose();
  progress.done();
  const outcome = state.outcome;
  if (outcome?.kind === 'failed') {
    const e = outcome.error;
    if (e instanceof FillFailure) throw e;
    if (e instanceof SessionError && e.code === 'no-questionnaire')
      throw new FillFailure(`The service accepted ${name} but created no questionnaire from it.`, 1);
    if (outcome.step !== 'write' && timeout?.aborted) {
      throw new FillFailure(`The answers were not ready within ${args.timeoutSeconds} s; nothing was written. Try again with a longer --timeout.`, 1);
    }
    if (outcome.step === 'write') throw e;
    throw serviceFailure(e, client.baseUrl, outcome.step === 'upload' || outcome.step === 'read' ? 'upload' : 'answers');
  }
  const questionnaireId = state.questionnaireId;
  if (!state.report || !written || questionnaireId === null) throw new FillFailure('The fill ended without writing the output.', 1);
  const plan = state.report.plan;
  const result: ReturnType<XlsxPackage['applyWrites']> = written;

  const report = buildFillReport(plan, anchored, {
    input: resolve(args.input),
    output: resolve(args.out),
    service: client.baseUrl,
    questionnaireId,
    overwrite: args.overwrite,
    changedParts: [...result.changedParts, ...result.addedParts],
    notes: result.notes,
    ...(annotations ? { annotations } : {}),
  });
  if (args.reportPath) {
    try {
      writeReport(resolve(args.reportPath), `${JSON.stringify(report, null, 2)}\n`, args.force);
    } catch (e) {
      throw new FillFailure(`Wrote ${args.out}, but cannot write the report ${args.reportPath}: ${(e as Error).message}`, 1);
    }
  }
  io.stdout.write(`${summaryLines(plan, report).join('\n')}\n`);
  io.stdout.write(
    `Wrote ${args.out}${args.reportPath ? ` and the report ${args.reportPath}` : ''}. ` +
      `${report.highlighted || report.source_notes ? 'Only the answer cells, their colours and notes changed' : 'Only the answer cells changed'}; formulas recalculate when the workbook is opened.\n`,
  );
}
