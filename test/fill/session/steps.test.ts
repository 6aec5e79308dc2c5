// The fill session's parts on their own: the link's rules, the overwrite's replacements, the run, the store.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { textHash } from '../../../src/fill/session';
import { earlierCellsSkipped, laterEditsOf, linkAfterUndo, linkAfterWrite, trackedCells } from '../../../src/fill/session/link';
import { replacementCandidates, replacementsOf } from '../../../src/fill/session/replacements';
import { createRunner } from '../../../src/fill/session/runner';
import { createStore, initialState } from '../../../src/fill/session/state';
import type { FillLink } from '../../../src/fill/session';
import type { CellWrite, SkippedSlot, WritePlan } from '../../../src/fill/types';

const write = (address: string, value: string): CellWrite =>
  ({
    tab: 'S',
    address,
    value,
    questionId: 1,
    originalId: 'Q-1',
    slotRole: 'answer',
    slotHeader: 'Answer',
    score: 80,
    trust: 'high',
    sources: [],
    forceText: false,
  }) as CellWrite;
const occupied = (address: string, current?: string): SkippedSlot => ({
  tab: 'S',
  address,
  questionId: 1,
  originalId: 'Q-1',
  slotRole: 'answer',
  reason: 'occupied',
  // A detail that names another value than the data: the replacement must come from `current`, never from the prose.
  detail: `S!${address} already holds "something else".`,
  ...(current !== undefined ? { current } : {}),
});
const plan = (writes: CellWrite[], skipped: SkippedSlot[] = []): WritePlan => ({ writes, skipped }) as unknown as WritePlan;

describe('the link', () => {
  const link: FillLink = {
    questionnaireId: 7,
    startedAt: 't0',
    fileName: 'q.xlsx',
    cells: { 'S!C1': textHash('Old') },
    cellsWrittenAt: 't-1',
    corrected: ['S!C9'],
  };

  it('remembers what a write put in each cell, but not the cells that failed', () => {
    const next = linkAfterWrite(
      link,
      plan([write('C2', 'Yes'), write('C3', 'No')]),
      { written: 1, failed: [{ tab: 'S', address: 'C3', reason: 'locked' }] },
      't1',
    );
    expect(next).toEqual({
      questionnaireId: 7,
      startedAt: 't0',
      fileName: 'q.xlsx',
      writtenAt: 't1',
      cells: { 'S!C1': textHash('Old'), 'S!C2': textHash('Yes') },
      cellsWrittenAt: 't1',
      corrected: ['S!C9'],
    });
    // A write of nothing keeps when the cells were written.
    expect(linkAfterWrite(link, plan([]), { written: 0, failed: [] }, 't2').cellsWrittenAt).toBe('t-1');
  });

  it("counts the occupied cells that hold an earlier fill's answers, and forgets the fill after an undo", () => {
    expect(earlierCellsSkipped(plan([], [occupied('C1'), occupied('C5')]), link)).toBe(1);
    expect(linkAfterUndo(link, 't3')).toEqual({ questionnaireId: 7, startedAt: 't0', fileName: 'q.xlsx', undoneAt: 't3' });
  });

  it('finds the cells changed after the fill, and every corrected one', () => {
    const tracked = trackedCells(link);
    expect(tracked.refs).toEqual([
      { tab: 'S', address: 'C1' },
      { tab: 'S', address: 'C9' },
    ]);
    expect(laterEditsOf(link, tracked, ['Old', 'Corrected'])).toEqual([{ tab: 'S', address: 'C9', value: 'Corrected' }]);
    expect(laterEditsOf(link, tracked, ['Typed over', 'Corrected']).map((e) => e.address)).toEqual(['C1', 'C9']);
  });
});

describe('replacements', () => {
  it('are the occupied cells the overwrite writes with something else, told from the values the plan read', () => {
    const keep = plan([write('C2', 'Yes')], [occupied('C3', 'Maybe'), occupied('C4', ' Same '), occupied('C5', 'Kept'), occupied('C6')]);
    const all = plan([write('C2', 'Yes'), write('C3', 'No'), write('C4', 'Same'), write('C6', 'x')]);
    const candidates = replacementCandidates(keep, all);
    expect(candidates.map((c) => c.write.address)).toEqual(['C3', 'C4', 'C6']);
    // C4 already says it; C6 (the empty column of a marked answer, held back with its group) holds nothing to lose.
    expect(replacementsOf(candidates)).toEqual([{ tab: 'S', address: 'C3', questionId: 1, originalId: 'Q-1', current: 'Maybe', next: 'No' }]);
  });
});

describe('the run', () => {
  afterEach(() => vi.useRealTimers());

  it("one at a time: a new run silences the old one; a failure is the run's outcome, on its step", () => {
    const store = createStore(initialState());
    const run = createRunner(store, { now: Date.now });
    const first = run.begin();
    run.step('upload', 'active');
    const second = run.begin();
    expect(first.signal.aborted).toBe(true);
    run.fail(new Error('stale'), first);
    expect(store.state.outcome).toBeNull();
    run.step('detect', 'active');
    run.fail(new Error('down'), second);
    expect(store.state.outcome).toMatchObject({ kind: 'failed', step: 'detect' });
    expect(store.state.steps.detect.state).toBe('failed');
    run.end(second);
    expect(store.state.phase).toBe('settled');
    run.dispose();
  });

  it('a wait with no progress is stalled, and progress ends it; stop marks the step', () => {
    vi.useFakeTimers();
    let t = 0;
    const store = createStore(initialState());
    const run = createRunner(store, { now: () => t, stallMs: 100 });
    run.begin();
    run.step('generate', 'active');
    t = 150;
    vi.advanceTimersByTime(50);
    expect(store.state.stalled).toBe(true);
    run.moved();
    expect(store.state.stalled).toBe(false);
    expect(run.stop()).toBe(true);
    expect(store.state.steps.generate.state).toBe('stopped');
    expect(run.stop()).toBe(false);
  });

  it('the store tells every listener each new state', () => {
    const store = createStore(initialState());
    const seen: string[] = [];
    const off = store.subscribe((s) => seen.push(s.phase));
    store.update({ phase: 'running' });
    off();
    store.update({ phase: 'settled' });
    expect(seen).toEqual(['running']);
  });
});
