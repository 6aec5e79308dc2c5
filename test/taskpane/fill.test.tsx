// @vitest-environment happy-dom
// @vitest-environment-options {"settings": {"fetch": {"disableSameOriginPolicy": true}}}
import { fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { beforeEach, describe, expect, it } from 'vitest';
import { ErrorBoundary } from '../../src/taskpane/components/ErrorBoundary';
import { STORAGE_KEYS } from '../../src/taskpane/settings-store';
import { type FakeService, sampleQuestions } from './fake-service';
import { API_KEY, cleanup, renderApp, withFakeService } from './harness';
import { MemoryWorkbook, memoryStorage } from './memory-workbook';

let fake: FakeService;
withFakeService((f) => (fake = f));
beforeEach(() => {
  fake.questions = sampleQuestions();
  fake.progress = { status: 'complete', answers_expected: 3, answers_received: 3, percent: 100 };
  fake.questionnaireId = 7;
  fake.warnings = [];
});

const fillButton = () => screen.getByRole('button', { name: /Fill this workbook|Filling/ });
const step = (label: RegExp) =>
  within(screen.getByRole('list', { name: 'Fill steps' }))
    .getByText(label)
    .closest('li')!;

describe('Fill', () => {
  it('reads, uploads, shows generation progress with time left, writes, summarises and undoes', async () => {
    fake.progress = { status: 'generating', answers_expected: 0, answers_received: 0, percent: 0 };
    const { workbook, storage } = renderApp({ baseUrl: fake.origin });
    const uploadsBefore = fake.requestsTo('POST', /questionnaires/).length;
    fireEvent.click(fillButton());

    await waitFor(() => expect(step(/Detecting questions/).dataset.state).toBe('active'));
    expect(step(/Reading the workbook/).dataset.state).toBe('done');
    expect(step(/Reading the workbook/).textContent).toContain('questionnaire.xlsx, 2.4 KB');
    expect(step(/Uploading/).textContent).toContain('2.4 KB sent');
    const uploads = fake.requestsTo('POST', /\/filler\/questionnaires\/$/).slice(uploadsBefore);
    expect(uploads).toHaveLength(1);
    expect(uploads[0]!.headers['x-api-key']).toBe(API_KEY);
    expect(uploads[0]!.headers['content-type']).toMatch(/^multipart\/form-data/);
    expect(uploads[0]!.body).toContain('filename="questionnaire.xlsx"');
    // The link that lets a reopened pane resume is stored before generation.
    expect(JSON.parse(storage.getItem(`${STORAGE_KEYS.fillPrefix}doc-1`)!)).toMatchObject({ questionnaireId: 7 });

    fake.progress = { status: 'generating', answers_expected: 3, answers_received: 1, percent: 33 };
    const bar = await screen.findByRole('progressbar', { name: 'Answers generated' });
    await waitFor(() => expect(bar.getAttribute('aria-valuetext')).toBe('1 of 3 answers'));
    expect(bar.getAttribute('aria-valuenow')).toBe('1');
    expect(bar.getAttribute('aria-valuemax')).toBe('3');
    expect(step(/Detecting questions/).textContent).toContain('3 questions found');

    fake.progress = { status: 'generating', answers_expected: 3, answers_received: 2, percent: 66 };
    await waitFor(() => expect(bar.getAttribute('aria-valuetext')).toMatch(/^2 of 3 answers, about \d+ s left$/));
    expect(bar.getAttribute('aria-valuenow')).toBe('2');
    expect(screen.getByText(/^2 of 3 answers, about \d+ s left$/)).toBeTruthy();

    fake.progress = { status: 'complete', answers_expected: 3, answers_received: 3, percent: 100 };
    // The low-trust answer is a draft: shown in the review, not written (no "Also write drafts").
    await screen.findByText(/Wrote 2 cells; skipped 1 cell\./);
    expect(workbook.value('Security', 'C2')).toBe('Yes, AES-256.');
    expect(workbook.value('Security', 'C3')).toBe('Yes, for all administrative access.');
    expect(workbook.value('Privacy', 'C2')).toBeUndefined();
    expect(workbook.applied).toEqual([{ highlight: true, sourceNotes: true }]);
    expect(JSON.parse(storage.getItem(`${STORAGE_KEYS.fillPrefix}doc-1`)!).writtenAt).toBeTypeOf('string');

    // Where the review stands: two answers in cells, the low-trust one a draft needing a look.
    expect(screen.getByLabelText('Where the review stands').textContent).toBe('2 answered · 1 draft · 0 untouched — 1 needs review');

    const undo = screen.getByRole('button', { name: 'Undo fill' }) as HTMLButtonElement;
    await waitFor(() => expect(undo.disabled).toBe(false)); // enabled once the fill has finished
    fireEvent.click(undo);
    await screen.findByText('Undone: 2 cells restored.');
    expect(workbook.value('Security', 'C2')).toBeUndefined();
    expect(screen.queryByRole('button', { name: 'Undo fill' })).toBeNull();
    // The answers are still known: they can be written again.
    fireEvent.click(screen.getByRole('button', { name: 'Write answers into the workbook' }));
    await screen.findByText(/Wrote 2 cells/);
    expect(workbook.value('Security', 'C2')).toBe('Yes, AES-256.');
  });

  it('writes drafts too when the analyst asks for them', async () => {
    const { workbook } = renderApp({ baseUrl: fake.origin });
    fireEvent.click(screen.getByLabelText(/Also write drafts into cells/));
    fireEvent.click(fillButton());
    await screen.findByText(/Wrote 3 cells; skipped 0 cells\./);
    expect(workbook.value('Privacy', 'C2')).toBe('No.');
  });

  it('says in the report which answers went in without their colour or note, and why', async () => {
    const workbook = new MemoryWorkbook();
    const apply = workbook.apply.bind(workbook);
    workbook.apply = async (plan, options) => ({
      ...(await apply(plan, options)),
      annotationGaps: [{ kind: 'colour', why: 'protected', tab: 'Security', count: 2 }],
      warnings: ['2 answers on "Security" have no trust colour: the sheet is protected.'],
    });
    renderApp({ baseUrl: fake.origin, workbook });
    fireEvent.click(fillButton());
    await screen.findByText(/Wrote 2 cells/);
    expect(screen.getByTestId('write-warnings').textContent).toBe('2 answers on "Security" have no trust colour: the sheet is protected.');
  });

  it('says in the report what the language model cost, from the answers the service sent', async () => {
    for (const [i, q] of fake.questions.entries()) {
      const e = q.answers[0]!.evaluation as Record<string, unknown>;
      q.answers[0]!.evaluation = { ...e, model: 'gpt-4o-mini', ...(i === 0 ? { llm_usage: { requests: 2, tokens: 1800, questions: 3 } } : {}) };
    }
    renderApp({ baseUrl: fake.origin });
    fireEvent.click(fillButton());
    await screen.findByText(/Wrote 2 cells/);
    expect(screen.getByText('Model gpt-4o-mini: 2 requests, 1800 tokens.')).toBeTruthy();
  });

  it('says what the service noted about the workbook, e.g. a sheet it skipped and why', async () => {
    fake.warnings = ['Sheet "Lookups" was skipped: it has no answer column.'];
    renderApp({ baseUrl: fake.origin });
    fireEvent.click(fillButton());
    await screen.findByText(/Wrote 2 cells/);
    const note = screen.getByText(/The service noted about this workbook/);
    expect(note.textContent).toContain('Sheet "Lookups" was skipped: it has no answer column.');
    const asked = fake.requestsTo('GET', /\/filler\/questionnaires\/7\/$/);
    expect(asked.length).toBeGreaterThan(0);

    // The notes are only a hint: when the service cannot give them, the fill still completes, without them.
    cleanup();
    fake.fail('GET', /\/filler\/questionnaires\/7\/$/, { status: 500, json: { error: 'boom' } }, 5);
    renderApp({ baseUrl: fake.origin });
    fireEvent.click(fillButton());
    await screen.findByText(/Wrote 2 cells/);
    expect(screen.queryByText(/The service noted/)).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("never overwrites the analyst's values unless asked, and reports why a cell was skipped", async () => {
    const workbook = new MemoryWorkbook();
    workbook.set('Security', 'C3', 'Typed by the analyst');
    renderApp({ baseUrl: fake.origin, workbook });
    fireEvent.click(screen.getByLabelText(/Highlight answers by trust/));
    fireEvent.click(fillButton());
    await screen.findByText(/Wrote 1 cell; skipped 2 cells\./);
    expect(screen.getByText(/1 skipped: cell already filled \(overwrite is off\)/)).toBeTruthy();
    expect(workbook.value('Security', 'C3')).toBe('Typed by the analyst');
    expect(workbook.applied.at(-1)).toEqual({ highlight: false, sourceNotes: true });

    fireEvent.click(screen.getByLabelText(/Overwrite cells that already hold a value/));
    fireEvent.click(fillButton());
    // The analyst's value is shown before it is replaced, and stays unless the analyst confirms.
    let confirm = await screen.findByRole('group', { name: 'Confirm overwrite' });
    expect(confirm.textContent).toContain('Overwrite will replace 1 existing value in this workbook.');
    expect(confirm.textContent).toContain('Security!C3 (SEC-02): “Typed by the analyst” → “Yes, for all administrative access.”');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await screen.findByText(/Nothing was written: no existing value was replaced/);
    expect(workbook.value('Security', 'C3')).toBe('Typed by the analyst');

    fireEvent.click(fillButton());
    confirm = await screen.findByRole('group', { name: 'Confirm overwrite' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Replace 1 value' }));
    await screen.findByText(/Wrote 2 cells; skipped 1 cell\./);
    expect(workbook.value('Security', 'C3')).toBe('Yes, for all administrative access.');
    expect(screen.queryByRole('group', { name: 'Confirm overwrite' })).toBeNull();
  });

  it('keeps drafts in the review unless "Also write drafts into cells" is ticked, and counts earlier and new writes together', async () => {
    const { workbook } = renderApp({ baseUrl: fake.origin });
    fireEvent.click(fillButton());
    await screen.findByText(/Wrote 2 cells; skipped 1 cell\./);
    expect(workbook.value('Privacy', 'C2')).toBeUndefined(); // low trust: a draft, not a cell value

    fireEvent.click(screen.getByLabelText(/Also write drafts into cells/));
    fireEvent.click(fillButton());
    await screen.findByText(/Wrote 1 cell; skipped 2 cells\. 2 more already held the earlier fill's answers: 3 answer cells in all\./);
    expect(workbook.value('Privacy', 'C2')).toBe('No.');
  });

  it('review: clicking a question selects its cell; selecting a cell in the sheet shows its question', async () => {
    const { workbook } = renderApp({ baseUrl: fake.origin });
    fireEvent.click(fillButton());
    await screen.findByText(/Wrote 2 cells/);
    const list = screen.getByRole('list', { name: 'Questions' });
    fireEvent.click(within(list).getByText(/Is MFA enforced for administrators\?/));
    await waitFor(() => expect(workbook.selects.at(-1)).toEqual({ tab: 'Security', address: 'C3' }));
    const card = screen.getByRole('article', { name: 'Selected question' });
    expect(card.textContent).toContain('Yes, for all administrative access.');
    expect(card.textContent).toContain('Score 64/100. Grounded in two passages.');
    expect(card.textContent).toContain('Security › Encryption · SEC-02');
    const sources = card.querySelector('details')!;
    expect(sources.textContent).toContain('security-overview.pdf, page 3');
    expect(sources.textContent).toContain('Excerpt for question 2.');

    // The analyst clicks the question cell of another row in the sheet.
    workbook.userSelects({ tab: 'privacy', address: 'B2' });
    await waitFor(() => expect(screen.getByRole('article', { name: 'Selected question' }).textContent).toContain('Do you sell personal data?'));
    // ...and an answer cell, as a range.
    workbook.userSelects({ tab: 'Security', address: 'C2:D2' });
    await waitFor(() => expect(screen.getByRole('article', { name: 'Selected question' }).textContent).toContain('Is data encrypted at rest?'));
    expect(
      within(list)
        .getByText(/Is data encrypted at rest\?/)
        .closest('button')!
        .getAttribute('aria-current'),
    ).toBe('true');

    // Filters.
    fireEvent.change(screen.getByLabelText('Filter by trust'), { target: { value: 'low' } });
    expect(within(list).getAllByRole('button')).toHaveLength(1);
    expect(within(list).getByText(/Do you sell personal data\?/)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Filter by trust'), { target: { value: '' } });
    fireEvent.change(screen.getByLabelText('Filter by tab'), { target: { value: 'Security' } });
    expect(within(list).getAllByRole('button')).toHaveLength(2);
    fireEvent.click(screen.getByLabelText('Needs review'));
    expect(within(list).queryAllByRole('button')).toHaveLength(0);
    fireEvent.change(screen.getByLabelText('Filter by tab'), { target: { value: '' } });
    expect(within(list).getAllByRole('button')).toHaveLength(1);
  });

  it('asks before resuming an interrupted fill, writes nothing unasked, and continues or discards on request', async () => {
    const storage = memoryStorage();
    storage.setItem(STORAGE_KEYS.apiKey, API_KEY);
    storage.setItem(STORAGE_KEYS.baseUrl, fake.origin);
    const link = JSON.stringify({ questionnaireId: 7, startedAt: '2025-01-01T10:00:00Z' });
    storage.setItem(`${STORAGE_KEYS.fillPrefix}doc-1`, link);
    fake.progress = { status: 'generating', answers_expected: 3, answers_received: 2, percent: 66 };
    const uploadsBefore = fake.requestsTo('POST', /questionnaires/).length;
    const pollsBefore = fake.requestsTo('GET', /answer-progress/).length;
    const { workbook } = renderApp({ baseUrl: fake.origin, storage });
    const prompt = await screen.findByRole('group', { name: 'Interrupted fill' });
    expect(prompt.textContent).toMatch(/^A fill of this workbook was interrupted \(started .+\)\. Nothing is written until you choose/);
    // Asked, not acted on: no polling, no writing, however long the analyst looks.
    fake.progress = { status: 'complete', answers_expected: 3, answers_received: 3, percent: 100 };
    await new Promise((r) => setTimeout(r, 150));
    expect(workbook.applied).toHaveLength(0);
    expect(workbook.value('Security', 'C2')).toBeUndefined();
    expect(fake.requestsTo('GET', /answer-progress/).length).toBe(pollsBefore);

    // Discard: forgotten, nothing written.
    fireEvent.click(within(prompt).getByRole('button', { name: 'Discard it' }));
    await screen.findByText(/The interrupted fill was discarded; nothing was written/);
    expect(storage.getItem(`${STORAGE_KEYS.fillPrefix}doc-1`)).toBeNull();
    expect(screen.queryByRole('group', { name: 'Interrupted fill' })).toBeNull();
    expect(workbook.applied).toHaveLength(0);
    cleanup();

    // Reopened with the link again: Continue picks the fill up without a new upload, and writes.
    storage.setItem(`${STORAGE_KEYS.fillPrefix}doc-1`, link);
    fake.progress = { status: 'generating', answers_expected: 3, answers_received: 2, percent: 66 };
    renderApp({ baseUrl: fake.origin, storage, workbook });
    fireEvent.click(await screen.findByRole('button', { name: 'Continue the fill' }));
    const bar = await screen.findByRole('progressbar', { name: 'Answers generated' });
    expect(bar.getAttribute('aria-valuetext')).toBe('2 of 3 answers');
    fake.progress = { status: 'complete', answers_expected: 3, answers_received: 3, percent: 100 };
    await screen.findByText(/Wrote 2 cells/);
    expect(workbook.value('Security', 'C2')).toBe('Yes, AES-256.');
    expect(fake.requestsTo('POST', /questionnaires/).length).toBe(uploadsBefore);
    cleanup();

    // Reopened again after writing: the answers are shown for review, not written twice.
    const applied = workbook.applied.length;
    renderApp({ baseUrl: fake.origin, storage, workbook });
    await screen.findByText(/Answers were written into this workbook on/);
    await screen.findByRole('list', { name: 'Questions' });
    expect(workbook.applied.length).toBe(applied);
    expect(screen.getByRole('button', { name: 'Undo fill' })).toBeTruthy();

    // Filling again: the cells hold the earlier fill's answers, and the report says so (not "no answers").
    fireEvent.click(fillButton());
    await screen.findByText(/Wrote 0 cells; skipped 3 cells\./);
    expect(screen.getByText(/2 answer cells already hold the answers of the earlier fill of this workbook .*: there was nothing new to write\./)).toBeTruthy();
    expect(screen.queryByText(/Your library had no answer/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Undo the earlier fill' })).toBeTruthy();
    // The review counts the answers in their cells, not "0 answered".
    expect(screen.getByLabelText('Where the review stands').textContent).toMatch(/^2 answered/);
  });

  it('forgets a link to a questionnaire the service no longer has', async () => {
    const storage = memoryStorage();
    storage.setItem(STORAGE_KEYS.apiKey, API_KEY);
    storage.setItem(STORAGE_KEYS.baseUrl, fake.origin);
    storage.setItem(`${STORAGE_KEYS.fillPrefix}doc-1`, JSON.stringify({ questionnaireId: 999, startedAt: '2025-01-01T10:00:00Z' }));
    renderApp({ baseUrl: fake.origin, storage });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/no longer exists on the service\. Fill the workbook again\./);
    expect(storage.getItem(`${STORAGE_KEYS.fillPrefix}doc-1`)).toBeNull();
    expect(screen.queryByRole('group', { name: 'Interrupted fill' })).toBeNull();
    expect((fillButton() as HTMLButtonElement).disabled).toBe(false);
  });

  it('a 403 on upload disables uploads with the reason, here and in the Library', async () => {
    fake.fail('POST', /\/filler\/questionnaires\/$/, { status: 403, json: { error: 'read-only API key' } });
    const { storage } = renderApp({ baseUrl: fake.origin });
    fireEvent.click(fillButton());
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/^Read-only API key\. This key is read-only: it can ask questions in Chat but cannot upload/);
    expect(step(/Uploading/).dataset.state).toBe('failed');
    await waitFor(() => expect((fillButton() as HTMLButtonElement).disabled).toBe(true));
    expect(screen.getAllByText(/Uploads are disabled: this API key is read-only\./).length).toBeGreaterThan(0);
    expect(storage.getItem(STORAGE_KEYS.uploadBlocked)).toContain('Uploads are disabled');

    fireEvent.click(screen.getByRole('tab', { name: 'Library' }));
    const library = screen.getByRole('tabpanel', { name: 'Library' });
    expect((within(library).getByRole('button', { name: /^Upload/ }) as HTMLButtonElement).disabled).toBe(true);
    expect(within(library).getByText(/Uploads are disabled/)).toBeTruthy();

    // Settings shows the key as read-only, and offers to try again (e.g. after the key was given upload rights).
    fireEvent.click(screen.getByRole('tab', { name: 'Settings' }));
    const keyField = screen.getByLabelText('API key');
    const described = document.getElementById(keyField.getAttribute('aria-describedby') ?? '');
    expect(described?.textContent).toMatch(/^Read-only key It can ask questions in Chat; the service refuses uploads with it/);
    fireEvent.click(screen.getByRole('button', { name: 'Try uploads again' }));
    expect(storage.getItem(STORAGE_KEYS.uploadBlocked)).toBeNull();
    expect(screen.queryByText('Read-only key')).toBeNull();
    fireEvent.click(screen.getByRole('tab', { name: 'Fill' }));
    expect((fillButton() as HTMLButtonElement).disabled).toBe(false);
  });

  it('a 403 for missing upload rights disables uploads without calling the key read-only', async () => {
    fake.fail('POST', /\/filler\/questionnaires\/$/, { status: 403, json: { error: 'repository-manager permission required' } });
    renderApp({ baseUrl: fake.origin });
    fireEvent.click(fillButton());
    await screen.findByRole('alert');
    // Reads still work with this key (checked), so it is about rights, in the service's words; never "read-only".
    await waitFor(() =>
      expect(
        screen.getAllByText(
          /^Repository-manager permission required\. Uploads are disabled: the service refuses uploads with this key\. Asking questions in Chat works/,
        ).length,
      ).toBeGreaterThan(0),
    );
    fireEvent.click(screen.getByRole('tab', { name: 'Settings' }));
    expect(screen.queryByText('Read-only key')).toBeNull();
    expect(screen.getByLabelText('API key').getAttribute('aria-describedby')).toBeNull();
  });

  it.each([
    [
      '400 on upload',
      'POST',
      /\/filler\/questionnaires\/$/,
      { status: 400, json: { error: 'files: q.xlsx: no questions found' } },
      /could not use this workbook as a questionnaire\. The service said: "files: q\.xlsx: no questions found"\. A questionnaire is a sheet with a column of questions/,
      /Uploading/,
    ],
    [
      '404 on answers',
      'GET',
      /\/answers\/$/,
      { status: 404, json: { error: 'questionnaire not found' } },
      /^Questionnaire not found\. It does not exist, or this key cannot see it\./,
      /Generating answers/,
    ],
    [
      '429 with a long Retry-After',
      'POST',
      /\/filler\/questionnaires\/$/,
      { status: 429, json: { error: 'quota exceeded' }, headers: { 'Retry-After': '120' } },
      /Quota exceeded.*wait 120 s and try again/,
      /Uploading/,
    ],
    ['a dropped connection', 'POST', /\/filler\/questionnaires\/$/, 'reset' as const, /connection|reach/i, /Uploading/],
  ] as const)('shows %s as a sentence and marks the step failed', async (_name, method, path, reply, message, failedStep) => {
    fake.fail(method, path, reply, 5);
    renderApp({ baseUrl: fake.origin });
    fireEvent.click(fillButton());
    const alert = await screen.findByRole('alert', {}, { timeout: 10_000 });
    expect(alert.textContent).toMatch(message);
    expect(alert.textContent).not.toMatch(/at \w+ \(|\.ts:\d+/); // no stack trace
    expect(step(failedStep).dataset.state).toBe('failed');
    expect((fillButton() as HTMLButtonElement).disabled).toBe(false);
    fake.clearFailures();
  });

  it('renders answer text as text, never as HTML', async () => {
    const evil = '<img src=x onerror="globalThis.__pwned=1"><b>bold</b>';
    fake.questions = sampleQuestions();
    fake.questions[0]!.answers[0]!.text = evil;
    fake.questions[0]!.original_question_text = '<script>globalThis.__pwned=2</script>Question?';
    fake.questions[0]!.answers[0]!.source_evidence![0]!.content = '<iframe src="javascript:alert(1)"></iframe>';
    const { container } = renderApp({ baseUrl: fake.origin });
    fireEvent.click(fillButton());
    await screen.findByText(/Wrote 2 cells/);
    fireEvent.click(within(screen.getByRole('list', { name: 'Questions' })).getByText(/<script>/));
    const card = await screen.findByRole('article', { name: 'Selected question' });
    expect(card.textContent).toContain(evil);
    expect(card.textContent).toContain('<iframe src="javascript:alert(1)"></iframe>');
    expect(container.querySelector('img, script, iframe, b')).toBeNull();
    expect((globalThis as { __pwned?: number }).__pwned).toBeUndefined();
  });

  it('an error boundary turns a crashing pane into a sentence and a way back', () => {
    let crash = true;
    function Bomb() {
      if (crash) throw new Error('layout exploded');
      return <p>recovered</p>;
    }
    render(
      <ErrorBoundary name="Fill">
        <Bomb />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('alert').textContent).toContain('The Fill pane ran into a problem and stopped: layout exploded');
    crash = false;
    fireEvent.click(screen.getByRole('button', { name: 'Show the Fill pane again' }));
    expect(screen.getByText('recovered')).toBeTruthy();
  });
});
