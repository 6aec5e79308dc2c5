// @vitest-environment happy-dom
// @vitest-environment-options {"settings": {"fetch": {"disableSameOriginPolicy": true}}}
/**
 * One review item per question, on the real local service: a workbook built the way HECVAT 4 is (START
 * HERE questions repeated by formula on other tabs, an analyst reference sheet) is filled; the repeated
 * questions are not counted or listed again, selecting one's cell brings up its question answered at
 * START HERE, and "Solution Provider Name" takes the organisation's name.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call, client, startService, uploadKnowledge, type Service } from '../service/helpers';
import { HECVAT4_LIKE, hecvat4LikeWorkbook, startHereRow } from '../service/detect/hecvat4-like';
import { cleanup, renderApp } from './harness';
import { MemoryWorkbook } from './memory-workbook';
import type { QuestionWithAnswers } from '../../src/api/schemas';
import { foldMirrors } from '../../src/fill/mirrors';
import { reviewCounts } from '../../src/taskpane/review';

let service: Service;
let key: string;

beforeAll(async () => {
  service = await startService();
  key = await service.key({ org: 'acme', user: 'alice', role: 'admin' });
  await uploadKnowledge(client(service, key));
  const names = await call(service.base, key, 'PUT', '/api/v2/organisation/names/', { names: ['Acme Learning', 'Acme LMS'] });
  expect(names.status).toBe(200);
});
afterAll(() => service.destroy());
afterEach(cleanup);

const TABS = ['START HERE', 'Organization', 'Application', 'Data Privacy', 'Analyst Reference'];
const headlineCounts = () => {
  const text = screen.getByLabelText('Where the review stands').textContent!;
  const n = (word: string) => Number(new RegExp(`(\\d+) ${word}`).exec(text)?.[1] ?? 0);
  return { answered: n('answered'), drafts: n('drafts?'), untouched: n('untouched'), needReview: n('needs? review') };
};

describe('a questionnaire that repeats its questions by formula', () => {
  it("reviews each question once, where it is answered, and fills the identity question from the organisation's names", async () => {
    const workbook = new MemoryWorkbook(TABS, 'hecvat4-like', hecvat4LikeWorkbook());
    renderApp({ baseUrl: service.base.replace(/\/$/, ''), apiKey: key, workbook });
    fireEvent.click(screen.getByRole('button', { name: 'Fill this workbook' }));
    await screen.findByText(/Wrote \d+ cells?/, {}, { timeout: 60_000 });

    // 32 questions in the service's structure, 6 of them repeats: 26 items, and every count adds up to 26.
    const items = HECVAT4_LIKE.questions - HECVAT4_LIKE.mirrors;
    expect([HECVAT4_LIKE.questions, HECVAT4_LIKE.mirrors, items]).toEqual([32, 6, 26]);
    expect(screen.getByText(/^\d+ of \d+ questions$/).textContent).toBe(`${items} of ${items} questions`);
    // The service's structure keeps every question, the repeats included.
    const listed = await call(service.base, key, 'GET', '/api/v2/filler/questionnaires/');
    expect(listed.body).toHaveLength(1);
    const id = listed.body[0].id;
    const structure = await call(service.base, key, 'GET', `/api/v2/filler/questionnaires/${id}/structure/`);
    expect(structure.body.total_question_count).toBe(HECVAT4_LIKE.questions);
    const counts = headlineCounts();
    // Before the fold the review listed every question: the repeats were counted as work too.
    const all = (await call(service.base, key, 'GET', `/api/v2/filler/questionnaires/${id}/answers/`)).body as QuestionWithAnswers[];
    // The service gives each repeat its original's answer: they never disagree.
    const fold = foldMirrors(all);
    expect(fold.originalOf.size).toBe(HECVAT4_LIKE.mirrors);
    for (const [mirror, original] of fold.originalOf) {
      const text = (id: number) => all.find((x) => x.id === id)!.answers[0]?.text ?? null;
      expect(text(mirror)).toBe(text(original));
    }
    const before = reviewCounts(all, null, undefined);
    expect(reviewCounts(foldMirrors(all).items, null, undefined).needsReview).toBe(counts.needReview);
    expect(before.needsReview).toBeGreaterThan(counts.needReview);
    expect(counts.answered + counts.drafts + counts.untouched).toBe(items);
    expect(counts.needReview).toBeLessThanOrEqual(items);
    const list = screen.getByRole('list', { name: 'Questions' });
    expect(within(list).getAllByText(/Does the solution process payment card data\?/)).toHaveLength(1);

    // The organisation's name answers "Solution Provider Name"; the product's name stays a draft to confirm.
    expect(workbook.value('START HERE', `C${startHereRow('GNRL-01')}`)).toBe('Acme Learning');
    expect(workbook.value('START HERE', `C${startHereRow('GNRL-02')}`) ?? '').toBe('');

    // The repeat's cell on another tab brings up its question, answered at START HERE.
    workbook.userSelects({ tab: 'Data Privacy', address: 'C3' });
    const card = await screen.findByRole('article', { name: 'Selected question' });
    await waitFor(() => expect(card.textContent).toContain('GNRL-09'));
    expect(within(card).getByTestId('answered-at').textContent).toBe(
      `Data Privacy!C3 repeats this question by formula. Answered at START HERE!C${startHereRow('GNRL-09')}; shown again by formula at Organization!C3, Data Privacy!C3.`,
    );
    expect(list.querySelector('[aria-current="true"]')!.textContent).toMatch(/GNRL-09/);

    // "Next needing review" walks the questions, never a repeat (their ids are the other tabs').
    const seen = new Set<string>();
    for (let i = 0; i < counts.needReview; i++) {
      fireEvent.keyDown(document, { key: 'n', code: 'KeyN', altKey: true });
      await waitFor(() => expect(screen.getByRole('article', { name: 'Selected question' }).textContent).not.toBe(''));
      seen.add(screen.getByRole('article', { name: 'Selected question' }).querySelector('p')!.textContent!);
    }
    expect([...seen].some((where) => /ORGA-|DATA-0[12]\b|APPL-0[12]\b/.test(where))).toBe(false);
  }, 120_000);
});
