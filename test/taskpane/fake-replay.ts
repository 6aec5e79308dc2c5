/**
 * Replays of the answer library (extension "answers.replay") for the FakeService: kept runs in memory,
 * shaped as src/api/replay.ts says. A run started is queued, then done with `nextResult` once it has been
 * read `readsUntilDone` times (a test watches the pane follow it).
 */
import type { ReplayRun } from '../../src/api/replay';

type Reply = [number, unknown];

export function replayRun(id: number, patch: Partial<ReplayRun> = {}): ReplayRun {
  return {
    id,
    status: 'done',
    started_by: 'Alice',
    created_at: `2026-01-${String(10 + id).padStart(2, '0')}T10:00:00Z`,
    finished_at: `2026-01-${String(10 + id).padStart(2, '0')}T10:01:00Z`,
    error: null,
    max_questionnaires: 10,
    overall: { questions: 10, answered: 8, agreed: 6, agreement: 0.75, coverage: 0.8, conflicts: 1 },
    gap_count: 0,
    questionnaires: [],
    wrong: [],
    wrong_count: 0,
    conflicted: [],
    gaps: [],
    ...patch,
  };
}

export class FakeReplay {
  runs: ReplayRun[] = [];
  /** What a started run holds once done. */
  nextResult: Partial<ReplayRun> = {};
  readsUntilDone = 1;
  private reads = 0;

  route(method: string, p: string): Reply | null {
    if (!p.startsWith('/answers/library/replay/')) return null;
    const pending = this.runs.find((r) => r.status === 'queued');
    if (pending && method === 'GET' && ++this.reads > this.readsUntilDone)
      Object.assign(pending, { status: 'done', finished_at: '2026-01-30T10:01:00Z', ...this.nextResult });
    if (method === 'POST' && p === '/answers/library/replay/') {
      const run = replayRun(Math.max(0, ...this.runs.map((r) => r.id)) + 1, {
        status: 'queued',
        overall: null,
        gap_count: null,
        finished_at: null,
        created_at: '2026-01-30T10:00:00Z',
      });
      this.runs.push(run);
      this.reads = 0;
      return [200, run];
    }
    if (method === 'GET' && p === '/answers/library/replay/') {
      const results = [...this.runs].reverse().map(({ questionnaires: _q, wrong: _w, wrong_count: _c, conflicted: _x, gaps: _g, ...summary }) => summary);
      return [200, { count: results.length, next: null, previous: null, results }];
    }
    const m = p.match(/^\/answers\/library\/replay\/(\d+)\/$/);
    const run = m ? this.runs.find((r) => r.id === Number(m[1])) : undefined;
    if (method === 'GET' && m) return run ? [200, run] : [404, { error: `replay run ${m[1]} not found` }];
    return null;
  }
}
