// @vitest-environment happy-dom
/** Every count in the Fill pane is measured and named: cells apart from questions, answers apart from comments and drafts. */
import { render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from '@testing-library/preact';
import type { QuestionWithAnswers } from '../../src/api/schemas';
import type { WritePlan } from '../../src/fill/types';
import { headline, nothingWrittenAdvice } from '../../src/taskpane/panes/fill-report';
import { QuestionDetails } from '../../src/taskpane/review-list/QuestionDetails';
import { answeredByWrites, reviewState } from '../../src/taskpane/review';

afterEach(cleanup);

const question = (id: number, slots: { role: string; allowed?: string[] }[]): QuestionWithAnswers =>
  ({
    id,
    original_question_text: `Question ${id}?`,
    tab_name: 'S',
    answer_slots: slots.map((s, i) => ({
      role: s.role,
      header: s.role,
      coordinate: `${'CD'[i]}${id}`,
      ...(s.allowed ? { allowed_values: s.allowed, type: 'list' } : {}),
    })),
    answers: [{ id: id * 10, text: 'Yes', source_evidence: [], evaluation: { score: 20, trust: 'low', reason: 'Weak.' } }],
  }) as unknown as QuestionWithAnswers;

describe('counts', () => {
  it('names skipped cells apart from questions that have no answer cell', () => {
    const plan = (skipped: { reason: string }[]) => ({ writes: [], skipped, report: { skipped: skipped.length, byReason: {} } }) as unknown as WritePlan;
    expect(headline(plan([{ reason: 'occupied' }, { reason: 'no_value' }, { reason: 'no_slot' }]), { written: 181, failed: [] })).toBe(
      'Wrote 181 cells; skipped 2 cells and 1 question without an answer cell.',
    );
    expect(headline(plan([]), { written: 1, failed: [] })).toBe('Wrote 1 cell; skipped 0 cells.');
    expect(headline(plan([{ reason: 'no_slot' }]), { written: 0, failed: [] })).toBe('Wrote 0 cells; skipped 1 question without an answer cell.');
  });

  it('says how many cells each reason held back, so a full workbook is not called an empty library', () => {
    const plan = { writes: [], skipped: [], report: { skipped: 8, byReason: { occupied: 6, no_value: 2 } } } as unknown as WritePlan;
    expect(nothingWrittenAdvice(plan, { failed: [] })).toEqual([
      '6 answer cells already hold values. To replace them, tick "Overwrite…" and write again (you confirm first; Undo fill puts them back).',
      'Your library had no answer for 2 answer cells: add documents in Library, then fill again.',
    ]);
  });

  it('"answered" is a list answer, or a free-text answer where there is no list: not a comment alone, not a draft', () => {
    const questions = [
      question(1, [{ role: 'answer', allowed: ['Yes', 'No'] }, { role: 'comment' }]),
      question(2, [{ role: 'answer' }]),
      question(3, [{ role: 'answer' }]),
    ];
    const answered = answeredByWrites(
      [
        { questionId: 1, slotRole: 'comment' },
        { questionId: 2, slotRole: 'answer' },
        { questionId: 3, slotRole: 'answer', draft: true },
      ],
      questions,
    );
    expect([...answered]).toEqual([2]);
  });

  it('a second fill with overwrite off counts the answers already in their cells, not "0 answered"', () => {
    const questions = [
      question(1, [{ role: 'answer', allowed: ['Yes', 'No'] }, { role: 'comment' }]),
      question(2, [{ role: 'answer' }]),
      question(3, [{ role: 'answer' }]),
      question(4, [{ role: 'answer' }]),
    ];
    const answered = answeredByWrites([], questions, [
      { questionId: 1, slotRole: 'answer', reason: 'occupied', current: 'Yes' },
      { questionId: 2, slotRole: 'answer', reason: 'occupied', current: 0 },
      { questionId: 3, slotRole: 'answer', reason: 'no_value' },
      { questionId: 4, slotRole: 'comment', reason: 'occupied', current: 'A note' },
    ]);
    expect([...answered]).toEqual([1, 2]);
  });

  it('without the last fill\'s writes (a reopened pane), "answered" still means a list answer, or text where there is no list', () => {
    const trusted = (q: QuestionWithAnswers, text: string, slots: { slot_key: string; content: string }[] = []) =>
      ({
        ...q,
        answers: [{ id: 1, text, slot_responses: slots, source_evidence: [], evaluation: { score: 90, trust: 'high', reason: 'Stated.' } }],
      }) as QuestionWithAnswers;
    const listed = question(5, [{ role: 'answer', allowed: ['Yes', 'No'] }, { role: 'comment' }]);
    // Only a description for the list: a draft, not an answer.
    expect(reviewState(trusted(listed, '', [{ slot_key: 'comment', content: 'We encrypt with AES-256.' }]), null, undefined)).toBe('draft');
    expect(reviewState(trusted(listed, 'We encrypt everything with AES-256.'), null, undefined)).toBe('draft');
    expect(
      reviewState(
        trusted(listed, 'Yes', [
          { slot_key: 'answer', content: 'Yes' },
          { slot_key: 'comment', content: 'AES-256.' },
        ]),
        null,
        undefined,
      ),
    ).toBe('answered');
    expect(reviewState(trusted(question(6, [{ role: 'answer' }]), 'AES-256 at rest.'), null, undefined)).toBe('answered');
  });

  it('a corrected question says so instead of "Needs review"', () => {
    const q = question(4, [{ role: 'answer' }]);
    render(<QuestionDetails question={q} corrected={false} />);
    expect(screen.getByRole('article').textContent).toContain('Needs review.');
    cleanup();
    render(<QuestionDetails question={q} corrected />);
    expect(screen.getByRole('article').textContent).toContain('Corrected by you.');
    expect(screen.getByRole('article').textContent).not.toContain('Needs review.');
  });
});
