/**
 * The fixtures knowledge base end to end over HTTP, shared by the service bench and the SQLite/PostgreSQL
 * bench: every file under kb/ uploaded and ingested, the CAIQ from upload to `complete`, then
 * `POST /chat/ask/` once per CAIQ question (200 at most), one client.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { ApiClient } from '../src/api/client';

export const FIXTURES = path.resolve(process.env.FIXTURES_DIR ?? '../shared/fixtures');

export function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

async function waitFor<T>(what: string, fn: () => Promise<T | null>, timeoutMs = 600_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== null) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface EndToEnd {
  ingest: { files: number; ready: number; failed: number; rejected: string[]; ms: number };
  caiq: { questions: number; ms: number };
  /** Sorted ask times (ms), and the questions asked (for further runs). */
  asks: { times: number[]; questions: string[] };
}

/** A smaller run (the quick bench): the `kbFiles` smallest knowledge-base files, `asks` questions asked. */
export interface EndToEndSize {
  kbFiles?: number;
  asks?: number;
}

export async function fixturesEndToEnd(client: ApiClient, log: (line: string) => void, size: EndToEndSize = {}): Promise<EndToEnd> {
  const all = filesUnder(path.join(FIXTURES, 'kb'));
  const kb = size.kbFiles === undefined ? all : all.sort((a, b) => statSync(a).size - statSync(b).size || a.localeCompare(b)).slice(0, size.kbFiles);
  log(`ingesting ${kb.length} knowledge-base files…`);
  let t = performance.now();
  const rejected: string[] = [];
  for (let i = 0; i < kb.length; i += 20) {
    const batch = kb.slice(i, i + 20).map((f) => ({ name: path.basename(f), data: new Uint8Array(readFileSync(f)) }));
    const result = await client.uploadRepositoryFiles(batch, { scope_includes_company: true });
    rejected.push(...(result.failed ?? []));
  }
  // Done when every accepted file is in a final state, read in one listing: two counts taken one after
  // the other miss a file that moves between them.
  const accepted = kb.length - rejected.length;
  const states = await waitFor('ingestion', async () => {
    const seen: string[] = [];
    for await (const f of client.iterateRepositoryFiles({ page_size: 200 })) seen.push(f.status);
    return seen.length === accepted && seen.every((s) => s === 'ready' || s === 'failed') ? seen : null;
  });
  const ready = states.filter((s) => s === 'ready').length;
  const ingest = { files: kb.length, ready, failed: states.length - ready, rejected, ms: Math.round(performance.now() - t) };

  log('filling the CAIQ…');
  t = performance.now();
  const caiqPath = path.join(FIXTURES, 'questionnaires', 'caiq-v4.0.3-blank.xlsx');
  const upload = await client.uploadQuestionnaires([{ name: 'caiq.xlsx', data: new Uint8Array(readFileSync(caiqPath)) }]);
  const id = upload.questionnaire_ids[0]!;
  const progress = await client.pollAnswerProgress(id, { minIntervalMs: 50, maxIntervalMs: 100 });
  const caiq = { questions: progress.answers_expected, ms: Math.round(performance.now() - t) };

  const questions = (await client.getAnswers(id)).map((q) => q.original_question_text).slice(0, size.asks ?? 200);
  const times: number[] = [];
  for (const q of questions) {
    const s = performance.now();
    await client.ask({ question: q.slice(0, 4000) });
    times.push(performance.now() - s);
  }
  times.sort((a, b) => a - b);
  return { ingest, caiq, asks: { times, questions } };
}
