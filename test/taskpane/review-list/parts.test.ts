/**
 * The review list's pure parts: where a repeated question is answered, what choosing a side of a
 * conflict writes, which cells hold something else than the suggestion, and the Alt+N key.
 */
import { describe, expect, it } from 'vitest';
import type { QuestionWithAnswers } from '../../../src/api/schemas';
import { foldMirrors } from '../../../src/fill/mirrors';
import { type Alternative } from '../../../src/taskpane/review';
import { correctionTargets } from '../../../src/fill/session/targets';
import { answeredWhere } from '../../../src/taskpane/review-list/answered-where';
import { sideWrites } from '../../../src/taskpane/review-list/ConflictChoices';
import { isNextKey } from '../../../src/taskpane/review-list/hooks';
import { differingCells } from '../../../src/taskpane/review-list/QuestionDetails';

const q = (id: number, tab: string, slots: Record<string, unknown>[], text = 'Yes') =>
  ({
    id,
    original_question_text: `Question ${id}?`,
    tab_name: tab,
    answer_slots: slots,
    answers: [{ id, text, source_evidence: [], evaluation: { score: 90, trust: 'high', reason: 'Test.' } }],
  }) as unknown as QuestionWithAnswers;
const slot = (coordinate: string, extra: Record<string, unknown> = {}) => ({ role: 'answer', header: 'Answer', coordinate, is_blocked: false, ...extra });

describe('where a question is answered', () => {
  const own = q(1, 'START HERE', [slot('C10')]);
  const repeat = q(2, 'Data Privacy', [slot('C3', { is_blocked: true, mirror_of: "'START HERE'!C10" })]);
  const lone = q(3, 'Other', [slot('B2')]);
  const fold = foldMirrors([own, repeat, lone]);

  it('names its own cell and its repeats, and the repeat it was reached by', () => {
    expect(answeredWhere(fold, own, own)).toEqual({
      at: { tab: 'START HERE', address: 'C10' },
      mirrors: [{ tab: 'Data Privacy', address: 'C3' }],
      selected: null,
    });
    expect(answeredWhere(fold, own, repeat)?.selected).toEqual({ tab: 'Data Privacy', address: 'C3' });
  });

  it('says nothing of a question neither repeated nor answered elsewhere', () => {
    expect(answeredWhere(fold, lone, lone)).toBeUndefined();
  });
});

describe('choosing a side of a conflict', () => {
  const question = q(1, 'S', [slot('C1'), slot('D1', { role: 'comment', header: 'Comment' })]);
  const targets = correctionTargets(question);
  const side = (patch: Partial<Alternative>): Alternative => ({
    value: 'No',
    slot_key: 'answer',
    slot_responses: [],
    source_file: 'old.xlsx',
    questionnaire: 'Old',
    chosen: false,
    ...patch,
  });

  it("writes the side's response for each cell, else its value in its own slot", () => {
    expect(sideWrites(targets, side({})).map((w) => [w.target.cell.address, w.text])).toEqual([['C1', 'No']]);
    const both = side({
      slot_responses: [
        { slot_key: 'answer', content: 'No' },
        { slot_key: 'comment', content: 'Not hosted.' },
      ],
    });
    expect(sideWrites(targets, both).map((w) => [w.target.cell.address, w.text])).toEqual([
      ['C1', 'No'],
      ['D1', 'Not hosted.'],
    ]);
  });

  it('writes nothing for a side about another slot', () => {
    expect(sideWrites(targets, side({ slot_key: 'elsewhere' }))).toEqual([]);
  });
});

describe('what the cells hold now', () => {
  const question = q(1, 'S', [slot('C1')], 'Yes');

  it('names a cell holding something other than the suggestion, not an empty or matching one', () => {
    expect(differingCells(question, { 'S!C1': ' No ' }).map((t) => t.cell.address)).toEqual(['C1']);
    expect(differingCells(question, { 'S!C1': ' Yes ' })).toEqual([]);
    expect(differingCells(question, { 'S!C1': '  ' })).toEqual([]);
    expect(differingCells(question, undefined)).toEqual([]);
  });
});

describe('Alt+N', () => {
  const key = (patch: Partial<KeyboardEvent>) => ({ altKey: true, ctrlKey: false, metaKey: false, code: 'KeyN', key: 'n', ...patch });

  it('is Alt with N by position or by letter, and nothing with Ctrl or Cmd', () => {
    expect(isNextKey(key({}))).toBe(true);
    expect(isNextKey(key({ code: 'KeyB', key: 'N' }))).toBe(true); // another layout's N
    expect(isNextKey(key({ code: 'KeyN', key: '˜' }))).toBe(true); // Option+N on a Mac
    expect(isNextKey(key({ altKey: false }))).toBe(false);
    expect(isNextKey(key({ ctrlKey: true }))).toBe(false);
    expect(isNextKey(key({ metaKey: true }))).toBe(false);
  });
});
