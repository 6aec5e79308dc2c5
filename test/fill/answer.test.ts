import { describe, expect, it } from 'vitest';
import type { AnswerSlot } from '../../src/api/schemas';
import { bySourceRank, isListSlot, matchAllowed, pickAnswer, primarySlot, slotResponseFor, slotValue } from '../../src/fill';

const slot = (role: string, extra: Partial<AnswerSlot> = {}): AnswerSlot => ({ role, header: '', coordinate: 'C5', ...extra });

describe('pickAnswer', () => {
  it('takes the selected answer wherever it is', () => {
    const answers = [{ id: 1 }, { id: 2 }, { id: 3 }];
    expect(pickAnswer({ selected_answer_id: 2, answers })?.id).toBe(2);
  });

  it('without a selection: approved before draft, then the most recently updated, then the highest id; order does not matter', () => {
    const draftNew = { id: 1, status: 'draft', updated_at: '2026-01-03T00:00:00Z' };
    const approvedOld = { id: 2, status: 'approved', updated_at: '2026-01-01T00:00:00Z' };
    const draftOld = { id: 3, status: 'draft', updated_at: '2026-01-02T00:00:00Z' };
    for (const answers of [
      [draftNew, approvedOld, draftOld],
      [draftOld, draftNew, approvedOld],
      [approvedOld, draftOld, draftNew],
    ]) {
      expect(pickAnswer({ answers })?.id).toBe(2);
      expect(pickAnswer({ answers: answers.filter((a) => a !== approvedOld) })?.id).toBe(1);
    }
    expect(pickAnswer({ answers: [{ id: 7 }, { id: 9 }, { id: 8 }] })?.id).toBe(9);
    expect(
      pickAnswer({
        answers: [
          { id: 9, created_at: '2020-01-01T00:00:00Z' },
          { id: 4, created_at: '2024-01-01T00:00:00Z' },
        ],
      })?.id,
    ).toBe(4);
  });

  it('falls back when the selected id names no answer, and is null without answers', () => {
    expect(pickAnswer({ selected_answer_id: 99, answers: [{ id: 5 }] })?.id).toBe(5);
    expect(pickAnswer({ answers: [] })).toBeNull();
    expect(pickAnswer({})).toBeNull();
  });
});

describe('bySourceRank', () => {
  it('orders by rank where given, by relevance where not, and keeps the order of ties', () => {
    const evidence = [
      { id: 'c', rank: 3, relevance_score: 0.9 },
      { id: 'a', rank: 1, relevance_score: 0.1 },
      { id: 'b', rank: 2, relevance_score: 0.5 },
    ];
    expect(bySourceRank(evidence).map((s) => s.id)).toEqual(['a', 'b', 'c']);
    const chat = [
      { id: 'low', relevance_score: 0.2 },
      { id: 'high', relevance_score: 0.9 },
      { id: 'mid', relevance_score: 0.5 },
    ];
    expect(bySourceRank(chat).map((s) => s.id)).toEqual(['high', 'mid', 'low']);
    const bare = [
      { id: 'first', rank: null },
      { id: 'second', rank: null },
    ];
    expect(bySourceRank(bare).map((s) => s.id)).toEqual(['first', 'second']);
    expect(
      bySourceRank([
        { id: 'unranked', relevance_score: 1 },
        { id: 'ranked', rank: 1, relevance_score: 0 },
      ]).map((s) => s.id),
    ).toEqual(['ranked', 'unranked']);
    expect(evidence.map((s) => s.id)).toEqual(['c', 'a', 'b']); // the input is not reordered
  });
});

describe('primarySlot', () => {
  it('role answer (any spelling), else the first list slot, else the first slot', () => {
    const list = slot('vendor_response', { allowed_values: ['Yes', 'No'] });
    expect(primarySlot([slot('comment'), slot('ANSWER')])?.role).toBe('ANSWER');
    expect(primarySlot([slot('comment'), list])).toBe(list);
    expect(primarySlot([slot('comment'), slot('notes')])?.role).toBe('comment');
    expect(primarySlot([])).toBeNull();
  });

  it('a list of blank values is not a list', () => {
    expect(isListSlot(slot('x', { allowed_values: ['', ' '] }))).toBe(false);
    expect(primarySlot([slot('comment'), slot('x', { allowed_values: [''] })])?.role).toBe('comment');
  });
});

describe('slotResponseFor / slotValue', () => {
  const s = slot('compliance', { header: 'Vendor Answer', coordinate: '$D$12' });
  it('matches by role, then header, then coordinate, ignoring case, spaces, _ and -', () => {
    expect(
      slotResponseFor(
        [
          { slot_key: 'Compliance', content: 'a' },
          { slot_key: 'vendor answer', content: 'b' },
        ],
        s,
      )?.content,
    ).toBe('a');
    expect(
      slotResponseFor(
        [
          { slot_key: 'other', content: 'a' },
          { slot_key: 'vendor-answer', content: 'b' },
        ],
        s,
      )?.content,
    ).toBe('b');
    expect(slotResponseFor([{ slot_key: 'd12', content: 'c' }], s)?.content).toBe('c');
    expect(slotResponseFor([{ slot_key: 'other', content: 'x' }], s)).toBeNull();
  });

  it('the answer text goes to the primary slot only', () => {
    const answer = { text: 'Yes', slot_responses: [] };
    expect(slotValue(answer, s, true)).toBe('Yes');
    expect(slotValue(answer, s, false)).toBeNull();
  });
});

describe('matchAllowed (strict) vs coerceToAllowed (lenient)', () => {
  it('matches whole values only: a sentence that opens with No is not a No', () => {
    expect(matchAllowed('y', ['Yes', 'No'])).toBe('Yes');
    expect(matchAllowed('N/A', ['Yes', 'No', 'NA'])).toBe('NA');
    expect(matchAllowed('No personal data is stored', ['Yes', 'No'])).toBeNull();
    expect(matchAllowed('  ', ['Yes', 'No'])).toBeNull();
  });
});
