/** The Fill pane's view of a session's state: its buttons and labels, the error shown, the drafts held back, the library hint. */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/api/errors';
import { initialState, SessionError, type FillState } from '../../../src/fill/session';
import type { SkippedSlot, WritePlan } from '../../../src/fill/types';
import { errorOf, fillControls, heldBackValues, libraryHint } from '../../../src/taskpane/fill/view';

const skipped = (patch: Partial<SkippedSlot>): SkippedSlot => ({
  tab: 'Security',
  address: 'C5',
  questionId: 1,
  originalId: null,
  slotRole: 'answer',
  reason: 'draft',
  detail: '',
  ...patch,
});

function reported(written: number, byReason: WritePlan['report']['byReason'], skip: SkippedSlot[] = []): NonNullable<FillState['report']> {
  const plan: WritePlan = { writes: [], skipped: skip, report: { written, skipped: skip.length, byReason, tabs: [] } };
  return { plan, result: { written, failed: [] }, earlier: 0, earlierAt: null, resumed: false };
}

const state = (patch: Partial<FillState>): FillState => ({ ...initialState(), ...patch });

describe('Fill controls', () => {
  it('before anything: not started, fill enabled only with a connection and uploads allowed', () => {
    expect(fillControls(state({}), true, null)).toEqual({ started: false, busy: false, fillDisabled: false, nothingWritten: false, undoLabel: 'Undo fill' });
    expect(fillControls(state({}), false, null).fillDisabled).toBe(true);
    expect(fillControls(state({}), true, 'read-only key').fillDisabled).toBe(true);
  });

  it('busy while running, undoing or asking', () => {
    for (const phase of ['running', 'undoing', 'confirm-overwrite', 'confirm-undo'] as const) {
      expect(fillControls(state({ phase }), true, null)).toMatchObject({ busy: true, fillDisabled: true });
    }
    expect(fillControls(state({ phase: 'settled' }), true, null).busy).toBe(false);
  });

  it('offers writing again only when other options or the sheet could change what was written', () => {
    const occupied = state({ outcome: { kind: 'written' }, report: reported(0, { occupied: 3 }) });
    const missing = state({ outcome: { kind: 'written' }, report: reported(0, { no_value: 2, blocked: 1 }) });
    expect(fillControls(occupied, true, null).nothingWritten).toBe(true);
    expect(fillControls(missing, true, null).nothingWritten).toBe(false);
  });

  it('says "Undo the earlier fill" when the last run wrote nothing', () => {
    const wrote = state({ outcome: { kind: 'written' }, report: reported(2, {}) });
    const wroteNothing = state({ outcome: { kind: 'written' }, report: reported(0, { occupied: 1 }) });
    expect(fillControls(wrote, true, null).undoLabel).toBe('Undo fill');
    expect(fillControls(wroteNothing, true, null).undoLabel).toBe('Undo the earlier fill');
    expect(fillControls(state({ outcome: { kind: 'stopped', resumable: true } }), true, null).undoLabel).toBe('Undo the earlier fill');
    expect(fillControls(state({ outcome: { kind: 'already-written', writtenAt: '2025-01-01T00:00:00Z' } }), true, null).undoLabel).toBe('Undo fill');
  });
});

describe('Fill view', () => {
  it('keeps the drafts the fill held back by cell, and nothing else', () => {
    const report = reported(0, {}, [
      skipped({ address: 'C5', value: 'Yes' }),
      skipped({ address: 'C6', reason: 'occupied', value: 'No' }),
      skipped({ address: null, value: 'lost' }),
      skipped({ address: 'C7' }),
    ]);
    expect(heldBackValues(report)).toEqual({ 'Security!C5': 'Yes' });
    expect(heldBackValues(null)).toEqual({});
  });

  it("shows a failure in the analyst's terms, and no error for other outcomes", () => {
    expect(errorOf(null)).toBeNull();
    expect(errorOf({ kind: 'written' })).toBeNull();
    expect(String(errorOf({ kind: 'link-gone' }))).toMatch(/no longer exists on the service/);
    const none = errorOf({ kind: 'failed', step: 'detect', error: new SessionError('no-questionnaire', 'x') });
    expect(String(none)).toMatch(/made no questionnaire of it/);
    const refused = new ApiError({ kind: 'http', status: 400, serverMessage: 'not a workbook', message: 'Bad request' });
    expect(String(errorOf({ kind: 'failed', step: 'upload', error: refused }))).toMatch(
      /could not use this workbook as a questionnaire\. The service said: "not a workbook"/,
    );
    const other = new Error('offline');
    expect(errorOf({ kind: 'failed', step: 'generate', error: other })).toBe(other);
    expect(errorOf({ kind: 'undo-failed', error: other })).toBe(other);
  });

  it('warns of an empty library, or one still processing, before a fill', () => {
    expect(libraryHint(null)).toBeNull();
    expect(libraryHint({ ready: 2, total: 2 })).toBeNull();
    expect(libraryHint({ ready: 0, total: 0 })).toMatch(/^Your library has no documents yet/);
    expect(libraryHint({ ready: 0, total: 1 })).toBe("Your library's 1 document is still being processed: fill once it shows Ready.");
    expect(libraryHint({ ready: 0, total: 3 })).toBe("Your library's 3 documents are still being processed: fill once they show Ready.");
  });
});
