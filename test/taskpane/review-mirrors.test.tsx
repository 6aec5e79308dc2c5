// @vitest-environment happy-dom
/** The review list folds questions repeated by formula into the question they show: one item, counted once. */
import { cleanup, fireEvent, render, screen, within } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import type { QuestionWithAnswers } from '../../src/api/schemas';
import { ReviewList } from '../../src/taskpane/panes/ReviewList';

afterEach(cleanup);

const answer = (text: string, trust: 'high' | 'low') => [
  { id: 1, text, source_evidence: [], evaluation: { score: trust === 'high' ? 90 : 20, trust, reason: 'Test.' } },
];
const q = (id: number, tab: string, text: string, slots: Record<string, unknown>[], answers = answer('', 'low')) =>
  ({
    id,
    original_id: `${tab.slice(0, 4).toUpperCase()}-${id}`,
    original_question_text: text,
    tab_name: tab,
    answer_slots: slots,
    answers,
  }) as unknown as QuestionWithAnswers;
const slot = (coordinate: string, extra: Record<string, unknown> = {}) => ({ role: 'answer', header: 'Answer', coordinate, is_blocked: false, ...extra });

const QUESTIONS = [
  q(1, 'START HERE', 'Is the solution hosted by a third party?', [slot('C11')], answer('Yes', 'high')),
  q(2, 'START HERE', 'Does the solution process payment card data?', [slot('C10')]),
  q(3, 'Organization', 'Is the solution hosted by a third party?', [slot('C2', { is_blocked: true, mirror_of: "'START HERE'!C11" })], answer('No', 'low')),
  q(4, 'Data Privacy', 'Does the solution process payment card data?', [slot('C3', { is_blocked: true, mirror_of: "'START HERE'!C10" })]),
  q(5, 'Organization', 'Which data centre region is used?', [slot('C5', { is_blocked: true, mirror_of: "'Cover'!B2" })]),
];

describe('review of a questionnaire that repeats questions by formula', () => {
  it('lists and counts each question once; a repeat of no question says where it is answered', () => {
    render(<ReviewList questions={QUESTIONS} selectedId={null} onPick={() => {}} written={null} />);
    const list = screen.getByRole('list', { name: 'Questions' });
    expect(
      within(list)
        .getAllByRole('button')
        .map((b) => b.textContent!.split(' ')[0]),
    ).toEqual(['STAR-1', 'STAR-2', 'ORGA-5']);
    expect(screen.getByText(/^\d+ of \d+ questions$/).textContent).toBe('3 of 3 questions');
    // The repeat's own (disagreeing, low-trust) answer is not a question to review: 2 need review, not 4.
    expect(screen.getByLabelText('Where the review stands').textContent).toBe('1 answered · 0 drafts · 2 untouched — 2 need review');
    expect(within(list).getAllByRole('button')[2]!.textContent).toContain('answered at Cover!B2');
  });

  it('brings up the question a selected repeat shows, answered at its own cell, and walks Alt+N past repeats', () => {
    const picked: number[] = [];
    const { rerender } = render(<ReviewList questions={QUESTIONS} selectedId={4} onPick={(x) => picked.push(x.id)} written={null} />);
    const card = screen.getByRole('article', { name: 'Selected question' });
    expect(card.textContent).toContain('STAR-2');
    expect(within(card).getByTestId('answered-at').textContent).toBe(
      'Data Privacy!C3 repeats this question by formula. Answered at START HERE!C10; shown again by formula at Data Privacy!C3.',
    );
    expect(screen.getByRole('list', { name: 'Questions' }).querySelector('[aria-current="true"]')!.textContent).toContain('STAR-2');
    fireEvent.click(screen.getByRole('button', { name: 'Next needing review (Alt+N)' }));
    expect(picked).toEqual([5]);
    rerender(<ReviewList questions={QUESTIONS} selectedId={5} onPick={(x) => picked.push(x.id)} written={null} />);
    fireEvent.click(screen.getByRole('button', { name: 'Next needing review (Alt+N)' }));
    expect(picked).toEqual([5, 2]);
  });
});
