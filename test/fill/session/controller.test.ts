// The fill session on its own: a scripted v2 client and a workbook of plain cells, no DOM, no Office.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/api/errors';
import type { Progress, QuestionWithAnswers } from '../../../src/api/schemas';
import { planFill } from '../../../src/fill/plan';
import { createFillSession, type FillLink, type LinkStore, type SessionApi, type WorkbookPort } from '../../../src/fill/session';

function questions(): QuestionWithAnswers[] {
  const q = (id: number, cell: string, text: string) =>
    ({
      id,
      original_id: `Q-${id}`,
      original_question_text: `Question ${id}?`,
      tab_name: 'Sheet1',
      answer_slots: [{ role: 'answer', header: 'Answer', coordinate: cell, is_blocked: false }],
      answers: [{ id: id * 10, text, source_evidence: [], evaluation: { score: 80, trust: 'high', reason: 'Grounded.' } }],
    }) as unknown as QuestionWithAnswers;
  return [q(1, 'C2', 'Yes.'), q(2, 'C3', 'No.'), q(3, 'C4', 'Yes, yearly.')];
}

/** A v2 client whose answer progress the test moves; a poll that never completes waits for its abort. */
class ScriptedApi implements SessionApi {
  uploads = 0;
  polls = 0;
  complete = true;
  failUpload: unknown = null;
  failAnswers: unknown = null;
  known = new Set([7]);

  async uploadQuestionnaires() {
    this.uploads++;
    if (this.failUpload) throw this.failUpload;
    return { file_ids: [1], questionnaire_ids: [7] };
  }

  async pollAnswerProgress(id: number | string, opts: { signal?: AbortSignal; onProgress?: (p: Progress) => void } = {}) {
    this.polls++;
    if (!this.known.has(Number(id))) throw new ApiError({ kind: 'http', status: 404, message: 'Not found (404)' } as never);
    const done: Progress = { status: 'complete', answers_expected: 3, answers_received: 3, percent: 100 };
    opts.onProgress?.({ status: 'generating', answers_expected: 3, answers_received: 1, percent: 33 });
    while (!this.complete) {
      if (opts.signal?.aborted) throw new ApiError({ kind: 'aborted', message: 'aborted' } as never);
      await new Promise((r) => setTimeout(r, 5));
    }
    opts.onProgress?.(done);
    return done;
  }

  async getAnswers() {
    if (this.failAnswers) throw this.failAnswers;
    return questions();
  }

  async getQuestionnaire(id: number | string) {
    if (!this.known.has(Number(id))) throw new ApiError({ kind: 'http', status: 404, message: 'Not found (404)' } as never);
    return { id: Number(id) } as never;
  }
}

/** Cells in a map; the same plan rules as every writer; an undo snapshot of what the fill touched. */
class Cells implements WorkbookPort {
  cells = new Map<string, string>();
  applied = 0;
  private snapshot: Map<string, string | undefined> | null = null;

  async readFile() {
    return { bytes: new Uint8Array(10), fileName: 'q.xlsx' };
  }
  async plan(qs: QuestionWithAnswers[], options: { overwrite?: boolean }) {
    return planFill(
      qs,
      { sheetNames: ['Sheet1'], cell: (tab, a) => (this.cells.has(`${tab}!${a}`) ? { value: this.cells.get(`${tab}!${a}`)!, hasFormula: false } : undefined) },
      options,
    );
  }
  async apply(plan: Awaited<ReturnType<Cells['plan']>>) {
    this.applied++;
    if (plan.writes.length === 0) return { written: 0, failed: [] };
    this.snapshot = new Map();
    for (const w of plan.writes) {
      const k = `${w.tab}!${w.address}`;
      this.snapshot.set(k, this.cells.get(k));
      this.cells.set(k, w.value);
    }
    return { written: plan.writes.length, failed: [] };
  }
  async canUndo() {
    return this.snapshot !== null;
  }
  async undo(options: { keep?: readonly { tab: string; address: string }[] } = {}) {
    if (!this.snapshot) return null;
    const keep = new Set((options.keep ?? []).map((c) => `${c.tab}!${c.address}`));
    let restored = 0;
    for (const [k, v] of this.snapshot) {
      if (keep.has(k)) continue;
      v === undefined ? this.cells.delete(k) : this.cells.set(k, v);
      restored++;
    }
    this.snapshot = null;
    return { restored };
  }
  writes = 0;
  async writeCell(ref: { tab: string; address: string }, text: string) {
    this.writes++;
    const k = `${ref.tab}!${ref.address}`;
    this.snapshot ??= new Map();
    if (!this.snapshot.has(k)) this.snapshot.set(k, this.cells.get(k));
    this.cells.set(k, text);
    return { written: true };
  }
  async readValues(refs: { tab: string; address: string }[]) {
    return refs.map((r) => this.cells.get(`${r.tab}!${r.address}`) ?? '');
  }
}

function memoryLinks(initial: FillLink | null = null): LinkStore & { link: FillLink | null } {
  const store = {
    link: initial,
    read: async () => store.link,
    write: async (l: FillLink) => void (store.link = l),
    clear: async () => void (store.link = null),
  };
  return store;
}

const setup = (links = memoryLinks()) => {
  const api = new ScriptedApi();
  const workbook = new Cells();
  const session = createFillSession({ api, workbook, links, confirmOverwrite: true, stallMs: 40 });
  return { api, workbook, session, links };
};

describe('FillSession', () => {
  it('fills: every step done, cells written, the link marked written', async () => {
    const { workbook, session, links } = setup();
    const state = await session.fill();
    expect(state.phase).toBe('settled');
    expect(state.outcome).toEqual({ kind: 'written' });
    expect(Object.values(state.steps).map((s) => s.state)).toEqual(['done', 'done', 'done', 'done', 'done']);
    expect(state.steps.write.detail).toBe('3 cells written');
    expect(workbook.cells.get('Sheet1!C2')).toBe('Yes.');
    expect(links.link?.writtenAt).toBeTypeOf('string');
    expect(Object.keys(links.link?.cells ?? {})).toEqual(['Sheet1!C2', 'Sheet1!C3', 'Sheet1!C4']);
    expect(state.canUndo).toBe(true);
  });

  it('a failure, then a success: the state is the last result, with no trace of the failure', async () => {
    const { api, session } = setup();
    api.failAnswers = new ApiError({ kind: 'http', status: 500, message: 'boom' } as never);
    let state = await session.fill();
    expect(state.outcome).toMatchObject({ kind: 'failed', step: 'generate' });
    expect(state.steps.generate.state).toBe('failed');
    expect(state.report).toBeNull();
    api.failAnswers = null;
    state = await session.fill();
    expect(state.outcome).toEqual({ kind: 'written' });
    expect(Object.values(state.steps).every((s) => s.state === 'done')).toBe(true);
  });

  it('a Stop is "stopped", not a failure, and can be picked up again', async () => {
    const { api, workbook, session } = setup();
    api.complete = false;
    const seen: string[] = [];
    session.subscribe((s) => s.stalled && seen.push('stalled'));
    const run = session.fill();
    await new Promise((r) => setTimeout(r, 120));
    expect(seen).toContain('stalled');
    session.stop();
    await run;
    expect(session.state.outcome).toEqual({ kind: 'stopped', resumable: true });
    expect(session.state.steps.generate.state).toBe('stopped');
    expect(workbook.applied).toBe(0);
    api.complete = true;
    await session.continueInterrupted();
    expect(session.state.outcome).toEqual({ kind: 'written' });
    expect(session.state.report?.resumed).toBe(true);
    expect(api.uploads).toBe(1);
  });

  it('an interrupted fill is offered, never continued unasked; discard forgets it', async () => {
    const { api, workbook, session, links } = setup(memoryLinks({ questionnaireId: 7, startedAt: '2025-01-01T00:00:00Z' }));
    await session.open();
    expect(session.state.phase).toBe('interrupted');
    expect(session.state.interruptedAt).toBe('2025-01-01T00:00:00Z');
    expect(api.polls).toBe(0);
    expect(workbook.applied).toBe(0);
    await session.discardInterrupted();
    expect(session.state.outcome).toEqual({ kind: 'discarded' });
    expect(links.link).toBeNull();
  });

  it('a link to a questionnaire the service no longer has is forgotten on open', async () => {
    const { session, links } = setup(memoryLinks({ questionnaireId: 99, startedAt: '2025-01-01T00:00:00Z' }));
    await session.open();
    expect(session.state.outcome).toEqual({ kind: 'link-gone' });
    expect(links.link).toBeNull();
  });

  it('overwrite waits for a confirmation naming what it replaces; keep, cancel and replace do what they say', async () => {
    const { workbook, session } = setup();
    workbook.cells.set('Sheet1!C3', 'Vendor value');
    workbook.cells.set('Sheet1!C4', 'Yes, yearly.'); // the same text: nothing would be lost
    session.setOptions({ overwrite: true });
    await session.fill();
    expect(session.state.phase).toBe('confirm-overwrite');
    expect(session.state.replacements).toEqual([{ tab: 'Sheet1', address: 'C3', questionId: 2, originalId: 'Q-2', current: 'Vendor value', next: 'No.' }]);
    expect(workbook.applied).toBe(0);

    await session.confirmOverwrite('cancel');
    expect(session.state.outcome).toEqual({ kind: 'overwrite-declined' });
    expect(workbook.applied).toBe(0);

    await session.rewrite();
    await session.confirmOverwrite('keep');
    expect(workbook.cells.get('Sheet1!C3')).toBe('Vendor value');
    expect(workbook.cells.get('Sheet1!C2')).toBe('Yes.');

    await session.undo(false);
    await session.rewrite();
    await session.confirmOverwrite('replace');
    expect(workbook.cells.get('Sheet1!C3')).toBe('No.');
    expect(session.state.report?.plan.writes).toHaveLength(3);
  });

  it("without readValues, names what an overwrite replaces from the plan's data, whole: long text and quotes included", async () => {
    const workbook = new Cells();
    const noRead: WorkbookPort = { readFile: () => workbook.readFile(), plan: (qs, o) => workbook.plan(qs, o), apply: (p) => workbook.apply(p) };
    const session = createFillSession({ api: new ScriptedApi(), workbook: noRead, links: memoryLinks(), confirmOverwrite: true, stallMs: 40 });
    const long = `The vendor said "no" ${'and then some more words '.repeat(5)}\nsecond line.`;
    workbook.cells.set('Sheet1!C3', long);
    session.setOptions({ overwrite: true });
    await session.fill();
    expect(session.state.phase).toBe('confirm-overwrite');
    expect(session.state.replacements).toEqual([{ tab: 'Sheet1', address: 'C3', questionId: 2, originalId: 'Q-2', current: long, next: 'No.' }]);
  });

  it('undo says which later edits it would discard, and can keep them', async () => {
    const { workbook, session, links } = setup();
    await session.fill();
    workbook.cells.set('Sheet1!C2', 'Edited in the sheet');
    const q = session.state.questions[1]!;
    await session.correct(q, { slot: q.answer_slots![0]!, cell: { tab: 'Sheet1', address: 'C3' } }, 'Corrected here', false);
    expect(session.state.corrected.has(2)).toBe(true);

    await session.requestUndo();
    expect(session.state.phase).toBe('confirm-undo');
    expect(session.state.laterEdits).toEqual([
      { tab: 'Sheet1', address: 'C2', value: 'Edited in the sheet' },
      { tab: 'Sheet1', address: 'C3', value: 'Corrected here' },
    ]);
    session.cancelUndo();
    expect(workbook.cells.get('Sheet1!C4')).toBe('Yes, yearly.');

    await session.requestUndo();
    const writes = workbook.writes;
    await session.undo(true);
    // Only the cell nobody edited goes back; the edits are left untouched, not written again.
    expect(session.state.outcome).toEqual({ kind: 'undone', result: { restored: 1 }, kept: 2 });
    expect(workbook.writes).toBe(writes);
    expect(workbook.cells.get('Sheet1!C4')).toBeUndefined();
    expect(workbook.cells.get('Sheet1!C2')).toBe('Edited in the sheet');
    expect(workbook.cells.get('Sheet1!C3')).toBe('Corrected here');
    expect(links.link?.undoneAt).toBeTypeOf('string');
    expect(links.link?.corrected).toBeUndefined();
    expect(session.state.canUndo).toBe(false);
  });

  it('a second fill over its own answers says they were already there', async () => {
    const { session } = setup();
    await session.fill();
    const state = await session.fill();
    expect(state.report?.result.written).toBe(0);
    expect(state.report?.earlier).toBe(3);
    expect(state.report?.earlierAt).toBeTypeOf('string');
  });

  it('an external abort (the CLI --timeout) is the run result', async () => {
    const { api, session } = setup();
    api.complete = false;
    const state = await session.fill(AbortSignal.timeout(30));
    expect(state.outcome).toMatchObject({ kind: 'failed', step: 'generate' });
  });
});
