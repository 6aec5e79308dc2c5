/**
 * `npm run eval:answers` part 1c (EVAL_ONLY=replay for it alone): the answer library as an analyst keeps it,
 * measured with its own replay (extension "answers.replay"). Every completed fixture questionnaire goes
 * into one organisation's library; a replay fills each from the others (leave-one-out) with the fill's own
 * answering. Then every conflict the library lists is settled once through the library's endpoints by a
 * stated rule, "the most recently uploaded questionnaire's answer wins", and the library is replayed again.
 * Printed per fill (each questionnaire): agreement, coverage, conflicts surfaced, flags (conflicts no rule
 * decided, left for review), and the flags left on the questions that were settled (the library's conflict
 * groups: one question key each). Targets: 0 flags on settled questions, agreement not lower.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ApiClient } from '../src/api/client';
import { LibraryClient } from '../src/api/library-client';
import type { LibraryConflict } from '../src/api/library';
import type { ReplayRun } from '../src/api/replay';
import { ReplayClient } from '../src/api/replay-client';

const pct = (share: number | null) => (share === null ? '-' : `${(share * 100).toFixed(1)}%`);

export interface ReplayEvalResult {
  rows: Record<string, string | number>[];
  before: ReplayRun;
  after: ReplayRun;
  settled: number;
  flagsOnSettled: number;
}

/** Every conflict group the library lists, each settled on the entry of the most recently uploaded file. */
async function settleByMostRecent(library: LibraryClient): Promise<{ settled: number; keys: Set<string> }> {
  const keys = new Set<string>();
  for (;;) {
    // Settled groups leave the list, so the first page is read again until it is empty.
    const page = await library.conflicts({ page_size: 200 });
    const open = page.results.filter((g: LibraryConflict) => g.canonical_id === null && !keys.has(g.question_key));
    if (open.length === 0) break;
    for (const group of open) {
      const live = group.entries.filter((e) => e.status !== 'retired' && e.source);
      // Uploaded last: the highest file id (files are numbered as they arrive).
      const newest = live.reduce((a, b) => (b.source!.file_id > a.source!.file_id ? b : a));
      await library.settle(newest.id);
      keys.add(group.question_key);
    }
  }
  return { settled: keys.size, keys };
}

function row(
  label: string,
  q: { file_name: string; questions: number; answered: number; agreed: number; agreement: number | null; coverage: number | null; conflicts: number },
  forReview: number,
  settledFlags: number,
) {
  return {
    fill: `${q.file_name.replace(/-completed\.xlsx$/, '')}: ${label}`,
    questions: q.questions,
    coverage: `${pct(q.coverage)} (${q.answered})`,
    agreement: `${pct(q.agreement)} (${q.agreed}/${q.answered})`,
    'conflicts (surfaced)': q.conflicts,
    'flags (left for review)': forReview,
    'flags on settled questions': settledFlags,
  };
}

export async function libraryReplayEval(
  api: ApiClient,
  questionnairesDir: string,
  upload: (api: ApiClient, paths: string[]) => Promise<void>,
  waitForRepository: (api: ApiClient, expected: number) => Promise<{ failed: string[] }>,
): Promise<ReplayEvalResult> {
  const completed = readdirSync(questionnairesDir)
    .filter((f) => /completed\.xlsx$/.test(f))
    .sort();
  // One at a time, in name order: "most recent" is then the last name, whatever the upload batching does.
  for (const file of completed) await upload(api, [join(questionnairesDir, file)]);
  const repo = await waitForRepository(api, completed.length);
  if (repo.failed.length) console.log(`  failed: ${repo.failed.join('; ')}`);
  const replays = new ReplayClient(api.extensionTransport);
  const library = new LibraryClient(api.extensionTransport);
  const replay = async () => replays.wait((await replays.start({ max_questionnaires: completed.length })).id, { intervalMs: 200 });

  const before = await replay();
  if (before.status !== 'done') throw new Error(`the replay failed: ${before.error}`);
  const { settled, keys } = await settleByMostRecent(library);
  const after = await replay();
  if (after.status !== 'done') throw new Error(`the replay failed: ${after.error}`);

  // A flag: a conflict no rule decided, the list answer left for review (a rule's decision is surfaced, not flagged).
  const flags = (run: ReplayRun, fileId: number | null) => run.conflicted.filter((c) => c.rule === null && (fileId === null || c.file_id === fileId));
  const forReview = (run: ReplayRun, fileId: number | null) => flags(run, fileId).length;
  const flagsOn = (run: ReplayRun, fileId: number | null) => flags(run, fileId).filter((c) => keys.has(c.question_key)).length;
  const rows: Record<string, string | number>[] = [];
  for (const q of before.questionnaires) {
    rows.push(row('conflicts as today', q, forReview(before, q.file_id), flagsOn(before, q.file_id)));
    const settledQ = after.questionnaires.find((x) => x.file_id === q.file_id);
    if (settledQ) rows.push(row('after settling (most recent wins)', settledQ, forReview(after, q.file_id), flagsOn(after, q.file_id)));
  }
  if (before.overall) rows.push(row('conflicts as today', { ...before.overall, file_name: 'all' }, forReview(before, null), flagsOn(before, null)));
  if (after.overall)
    rows.push(
      row(`after settling ${settled} conflicts (most recent wins)`, { ...after.overall, file_name: 'all' }, forReview(after, null), flagsOn(after, null)),
    );
  return { rows, before, after, settled, flagsOnSettled: flagsOn(after, null) };
}
