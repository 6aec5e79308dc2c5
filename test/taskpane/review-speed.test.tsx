// @vitest-environment happy-dom
// @vitest-environment-options {"settings": {"fetch": {"disableSameOriginPolicy": true}}}
// Review at speed: where the work stands, the next question needing review from the keyboard, what a
// cell holds beside the suggestion, conflicts as one-click choices, and saving the reviewed workbook.
import { fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { beforeEach, describe, expect, it } from 'vitest';
import type { QuestionWithAnswers } from '../../src/api/schemas';
import { nextNeedingReview, reviewCounts } from '../../src/taskpane/review';
import { repositoryFile, sampleQuestions, type FakeService } from './fake-service';
import { renderApp, withFakeService } from './harness';
import { MemoryWorkbook } from './memory-workbook';

let fake: FakeService;
withFakeService((f) => (fake = f));

/** Five questions: two answered well, one weak (needs review), one flagged with a conflict, one unanswered. */
function reviewQuestions(): QuestionWithAnswers[] {
  const qs = sampleQuestions();
  const base = qs[0]!;
  const conflict: QuestionWithAnswers = {
    ...base,
    id: 4,
    original_id: 'SEC-03',
    original_question_text: 'Do you perform annual penetration tests?',
    row: 4,
    question_coordinate: 'B4',
    order: 4,
    selected_answer_id: 40,
    flagged_for_review: true,
    answer_slots: [{ role: 'answer', header: 'Answer', coordinate: 'C4', value: null, is_blocked: false, type: 'list', allowed_values: ['Yes', 'No'] }],
    answers: [
      {
        ...base.answers![0]!,
        id: 40,
        text: '',
        evaluation: {
          score: 40,
          trust: 'low',
          reason: 'Past answers disagree: Canvas Catalog: No · Canvas Studio: Yes',
          conflict: { slot_key: 'answer', rule: null, sides: 'Canvas Catalog: No · Canvas Studio: Yes' },
          alternatives: [
            {
              value: 'No',
              slot_key: 'answer',
              slot_responses: [{ slot_key: 'answer', content: 'No' }],
              source_file: 'catalog.xlsx',
              file_id: 5,
              questionnaire: 'Canvas Catalog',
              question: 'q',
              location: '',
              chosen: false,
            },
            {
              value: 'Yes',
              slot_key: 'answer',
              slot_responses: [{ slot_key: 'answer', content: 'Yes' }],
              source_file: 'studio.xlsx',
              file_id: 6,
              questionnaire: 'Canvas Studio',
              question: 'q',
              location: '',
              chosen: false,
            },
          ],
        },
      },
    ],
  };
  const unanswered: QuestionWithAnswers = {
    ...base,
    id: 5,
    original_id: 'SEC-04',
    original_question_text: 'Do you sponsor a football team?',
    row: 5,
    question_coordinate: 'B5',
    order: 5,
    selected_answer_id: null,
    answer_slots: [{ role: 'answer', header: 'Answer', coordinate: 'C5', value: null, is_blocked: false, type: 'text' }],
    answers: [],
  };
  return [qs[0]!, qs[1]!, conflict, unanswered, qs[2]!];
}

beforeEach(() => {
  fake.questions = reviewQuestions();
  fake.progress = { status: 'complete', answers_expected: 5, answers_received: 5, percent: 100 };
  fake.files = [repositoryFile(3, 'security-overview.pdf')];
});

const fillButton = () => screen.getByRole('button', { name: /Fill this workbook|Filling/ });
const card = () => screen.getByRole('article', { name: 'Selected question' });

describe('review at speed', () => {
  it('says where the work stands and moves to the next question needing review with Alt+N', async () => {
    const workbook = new MemoryWorkbook();
    renderApp({ baseUrl: fake.origin, workbook });
    fireEvent.click(fillButton());
    await screen.findByText(/Wrote 2 cells/);
    const headline = screen.getByLabelText('Where the review stands');
    expect(headline.textContent).toBe('2 answered · 2 drafts · 1 untouched — 3 need review');

    const next = screen.getByRole('button', { name: 'Next needing review (Alt+N)' });
    expect(next.getAttribute('aria-keyshortcuts')).toBe('Alt+N');
    fireEvent.click(next);
    await waitFor(() => expect(card().textContent).toContain('Do you perform annual penetration tests?'));
    expect(workbook.selects.at(-1)).toEqual({ tab: 'Security', address: 'C4' });
    expect(document.activeElement).toBe(card());

    // From the keyboard alone, wherever the focus is.
    fireEvent.keyDown(document.body, { key: 'n', code: 'KeyN', altKey: true });
    await waitFor(() => expect(card().textContent).toContain('Do you sponsor a football team?'));
    fireEvent.keyDown(card(), { key: 'n', code: 'KeyN', altKey: true });
    await waitFor(() => expect(card().textContent).toContain('Do you sell personal data?'));
    fireEvent.keyDown(document.body, { key: 'n', code: 'KeyN', altKey: true });
    await waitFor(() => expect(card().textContent).toContain('Do you perform annual penetration tests?')); // wraps around
  });

  it('offers both sides of a conflict as one-click choices, and writes the one chosen', async () => {
    const workbook = new MemoryWorkbook();
    renderApp({ baseUrl: fake.origin, workbook });
    fireEvent.click(fillButton());
    await screen.findByText(/Wrote 2 cells/);
    fireEvent.click(within(screen.getByRole('list', { name: 'Questions' })).getByText(/annual penetration tests/));
    const sides = await within(card()).findByRole('group', { name: 'Past answers disagree' });
    expect(sides.textContent).toContain('Past answers disagree: Canvas Catalog: No · Canvas Studio: Yes.');
    expect(workbook.value('Security', 'C4')).toBeUndefined(); // never chosen silently
    fireEvent.click(within(sides).getByRole('button', { name: 'Use “Yes” (Canvas Studio)' }));
    await within(sides).findByText(/Written: “Yes” from Canvas Studio/);
    expect(workbook.value('Security', 'C4')).toBe('Yes');
    await waitFor(() => expect(screen.getByLabelText('Where the review stands').textContent).toMatch(/^3 answered .* 2 need review$/));
  });

  it('shows what the cell holds beside the suggestion when it holds something else', async () => {
    const workbook = new MemoryWorkbook();
    workbook.set('Security', 'C3', 'Only for some admins');
    renderApp({ baseUrl: fake.origin, workbook });
    fireEvent.click(fillButton());
    await screen.findByText(/Wrote 1 cell/);
    fireEvent.click(within(screen.getByRole('list', { name: 'Questions' })).getByText(/Is MFA enforced/));
    const now = await within(card()).findByTestId('cell-now');
    expect(now.textContent).toBe('Security!C3 already holds something else: “Only for some admins” (the suggestion is “Yes, for all administrative access.”).');
    // The correction is pre-filled and open: edit, never retype.
    expect((within(card()).getByLabelText(/Answer \(Security!C3\)/) as HTMLTextAreaElement).value).toBe('Yes, for all administrative access.');

    // An unanswered question's correction starts from what its cell holds.
    workbook.set('Security', 'C5', 'Typed earlier');
    fireEvent.click(within(screen.getByRole('list', { name: 'Questions' })).getByText(/football team/));
    await waitFor(() => expect((within(card()).getByLabelText(/Answer \(Security!C5\)/) as HTMLTextAreaElement).value).toBe('Typed earlier'));
  });

  it('groups skipped cells by reason, with empty cells in one line', async () => {
    const workbook = new MemoryWorkbook();
    workbook.set('Security', 'C2', 'Typed');
    renderApp({ baseUrl: fake.origin, workbook });
    fireEvent.click(fillButton());
    await screen.findByText(/Wrote 1 cell; skipped 4 cells\./);
    const skipped = screen.getByRole('list', { name: 'Skipped cells' });
    expect([...skipped.children].map((li) => (li.querySelector('summary') ?? li).textContent)).toEqual([
      '2 skipped: no answer for this cell (see the review)',
      '1 skipped: cell already filled (overwrite is off)',
      '1 skipped: a draft, kept for review (not defensible as it is) (see the review)',
    ]);
    expect([...skipped.querySelectorAll('details li')].map((li) => li.textContent)).toEqual(['Security!C2 (SEC-01): Security!C2 already holds "Typed".']);
  });

  it('saves what was reviewed: the answer cells as they are now, after saying what the library will learn', async () => {
    const { workbook } = renderApp({ baseUrl: fake.origin });
    fireEvent.click(fillButton());
    await screen.findByText(/Wrote 2 cells/);
    // The analyst corrects one answer in the sheet after the fill.
    workbook.set('Security', 'C2', 'No, only for administrators.');
    const before = fake.requestsTo('POST', /\/repository\/files\/$/).length;
    fireEvent.click(await screen.findByRole('button', { name: 'Save to library' }));
    const confirm = await screen.findByRole('group', { name: 'Confirm save' });
    expect(confirm.textContent).toMatch(/The library will learn 2 answers from 'Security', 1 corrected by you\./);
    expect(fake.requestsTo('POST', /\/repository\/files\/$/).length).toBe(before);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Learn 2 answers' }));
    await screen.findByText(/Saved 2 answers to your library as questionnaire \(reviewed answers\)\.csv: once it is Ready there, the next fill reuses them/);
    const uploads = fake.requestsTo('POST', /\/repository\/files\/$/).slice(before);
    expect(uploads).toHaveLength(1);
    expect(uploads[0]!.body).toContain('filename="questionnaire (reviewed answers).csv"');
    expect(uploads[0]!.body).toContain('completed-questionnaire');
    expect(uploads[0]!.body).toContain('"Security","Security!B2","SEC-01"');
    expect(uploads[0]!.body).toContain('"No, only for administrators."');
  });

  it('asks before learning: Cancel sends nothing', async () => {
    renderApp({ baseUrl: fake.origin });
    fireEvent.click(fillButton());
    await screen.findByText(/Wrote 2 cells/);
    const before = fake.requestsTo('POST', /\/repository\/files\/$/).length;
    fireEvent.click(await screen.findByRole('button', { name: 'Save to library' }));
    fireEvent.click(within(await screen.findByRole('group', { name: 'Confirm save' })).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('group', { name: 'Confirm save' })).toBeNull();
    expect(fake.requestsTo('POST', /\/repository\/files\/$/).length).toBe(before);
  });

  it('counts and steps through the review in questionnaire order (units)', () => {
    const qs = reviewQuestions();
    expect(reviewCounts(qs, new Set([1, 2, 3]), new Set())).toEqual({ answered: 3, draft: 1, untouched: 1, needsReview: 3 });
    expect(reviewCounts(qs, null, new Set([4]))).toEqual({ answered: 3, draft: 1, untouched: 1, needsReview: 2 });
    expect(nextNeedingReview(qs, null, new Set())?.id).toBe(4);
    expect(nextNeedingReview(qs, 4, new Set())?.id).toBe(5);
    expect(nextNeedingReview(qs, 3, new Set([4]))?.id).toBe(5);
    expect(nextNeedingReview(qs, 5, new Set([4, 3]))?.id).toBeUndefined();
  });
});
