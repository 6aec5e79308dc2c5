// @vitest-environment happy-dom
// @vitest-environment-options {"settings": {"fetch": {"disableSameOriginPolicy": true}}}
// Correcting answers from the review list, and the states that tell the analyst what to do next.
import { fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { beforeEach, describe, expect, it } from 'vitest';
import { describeUndo } from '../../src/taskpane/fill/view';
import { withCorrection } from '../../src/taskpane/review';
import { correctionTargets } from '../../src/fill/session/targets';
import { STORAGE_KEYS } from '../../src/taskpane/settings-store';
import { repositoryFile, sampleQuestions, type FakeService } from './fake-service';
import { renderApp, withFakeService } from './harness';
import { MemoryWorkbook, memoryStorage } from './memory-workbook';

let fake: FakeService;
withFakeService((f) => (fake = f));
beforeEach(() => {
  fake.questions = sampleQuestions();
  fake.progress = { status: 'complete', answers_expected: 3, answers_received: 3, percent: 100 };
  fake.files = [repositoryFile(3, 'security-overview.pdf')];
});

const fillButton = () => screen.getByRole('button', { name: /Fill this workbook|Filling/ });
const card = () => screen.getByRole('article', { name: 'Selected question' });
const questionList = () => screen.getByRole('list', { name: 'Questions' });

async function fillAndPick(workbook: MemoryWorkbook, question: RegExp): Promise<void> {
  fireEvent.click(fillButton());
  await screen.findByText(/Wrote \d+ cells?/);
  fireEvent.click(within(questionList()).getByText(question));
  await waitFor(() => expect(card().textContent).toMatch(question));
}

describe('correcting an answer from the review', () => {
  it('writes the edited answer into its cell, shows it, and Undo fill puts back the cell as it was before the fill', async () => {
    const workbook = new MemoryWorkbook();
    renderApp({ baseUrl: fake.origin, workbook });
    await fillAndPick(workbook, /Is MFA enforced for administrators\?/);
    expect(workbook.value('Security', 'C3')).toBe('Yes, for all administrative access.');

    const field = within(card()).getByLabelText(/Answer \(Security!C3\)/) as HTMLTextAreaElement;
    expect(field.value).toBe('Yes, for all administrative access.');
    fireEvent.input(field, { target: { value: 'Yes, with hardware keys for every administrator.' } });
    fireEvent.click(within(card()).getByRole('button', { name: 'Write to C3' }));
    await within(card()).findByText(/Written to Security!C3\. Undo fill puts back what was there before\./);
    expect(workbook.value('Security', 'C3')).toBe('Yes, with hardware keys for every administrator.');
    expect(workbook.corrections).toEqual([
      { ref: { tab: 'Security', address: 'C3' }, text: 'Yes, with hardware keys for every administrator.', overwrite: false },
    ]);
    // The review shows the corrected answer and marks the question.
    expect(within(card()).getByTestId('answer-text').textContent).toBe('Yes, with hardware keys for every administrator.');
    expect(
      within(questionList())
        .getByText(/Is MFA enforced/)
        .closest('button')!.textContent,
    ).toContain('corrected');

    // Undo fill would lose the correction: it says so, and the analyst chooses to undo everything.
    fireEvent.click(screen.getByRole('button', { name: 'Undo fill' }));
    const confirm = await screen.findByRole('group', { name: 'Confirm undo' });
    expect(confirm.textContent).toContain('1 cell was changed after the fill');
    expect(confirm.textContent).toContain('Security!C3: “Yes, with hardware keys for every administrator.”');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Undo everything' }));
    await screen.findByText('Undone: 2 cells restored.'); // the low-trust answer was a draft, never written
    expect(workbook.value('Security', 'C3')).toBeUndefined(); // empty, as before the fill
    expect(within(card()).getByTestId('answer-text').textContent).toBe('Yes, for all administrative access.');
    expect(
      within(questionList())
        .getByText(/Is MFA enforced/)
        .closest('button')!.textContent,
    ).not.toContain('corrected');
  });

  it('asks before replacing a value the analyst typed, and never writes over a formula', async () => {
    const workbook = new MemoryWorkbook();
    workbook.set('Security', 'C3', 'Typed by the analyst');
    workbook.cells.set(MemoryWorkbook.cellKey('Privacy', 'C2'), { value: 'No', hasFormula: true });
    renderApp({ baseUrl: fake.origin, workbook });
    await fillAndPick(workbook, /Is MFA enforced for administrators\?/);
    expect(workbook.value('Security', 'C3')).toBe('Typed by the analyst'); // the fill skipped it

    fireEvent.click(within(card()).getByRole('button', { name: 'Write to C3' }));
    await within(card()).findByText(/already holds a value that the fill did not write/);
    expect(workbook.value('Security', 'C3')).toBe('Typed by the analyst');
    fireEvent.click(within(card()).getByRole('button', { name: "Replace the cell's value" }));
    await within(card()).findByText(/Written to Security!C3/);
    expect(workbook.value('Security', 'C3')).toBe('Yes, for all administrative access.');
    expect(workbook.corrections.map((c) => c.overwrite)).toEqual([false, true]);

    fireEvent.click(within(questionList()).getByText(/Do you sell personal data\?/));
    await waitFor(() => expect(card().textContent).toContain('Do you sell personal data?'));
    fireEvent.click(within(card()).getByRole('button', { name: 'Write to C2' }));
    await within(card()).findByText(/holds a formula; it is never overwritten/);
    expect(within(card()).queryByRole('button', { name: "Replace the cell's value" })).toBeNull();
    expect(workbook.cells.get(MemoryWorkbook.cellKey('Privacy', 'C2'))).toEqual({ value: 'No', hasFormula: true });

    // Undo fill also restores the replaced value (after saying the correction would be lost).
    fireEvent.click(screen.getByRole('button', { name: 'Undo fill' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Undo everything' }));
    await screen.findByText(/^Undone: \d+ cells? restored\.$/);
    expect(workbook.value('Security', 'C3')).toBe('Typed by the analyst');
  });

  it('keeps a draft when the analyst looks at another question and comes back', async () => {
    const workbook = new MemoryWorkbook();
    renderApp({ baseUrl: fake.origin, workbook });
    await fillAndPick(workbook, /Is data encrypted at rest\?/);
    fireEvent.input(within(card()).getByLabelText(/Answer \(Security!C2\)/), { target: { value: 'Draft in progress' } });
    fireEvent.click(within(questionList()).getByText(/Do you sell personal data\?/));
    await waitFor(() => expect(card().textContent).toContain('Do you sell personal data?'));
    expect((within(card()).getByLabelText(/Answer \(Privacy!C2/) as HTMLTextAreaElement).value).toBe('No.');
    fireEvent.click(within(questionList()).getByText(/Is data encrypted at rest\?/));
    await waitFor(() => expect((within(card()).getByLabelText(/Answer \(Security!C2\)/) as HTMLTextAreaElement).value).toBe('Draft in progress'));
    expect(workbook.value('Security', 'C2')).toBe('Yes, AES-256.'); // nothing written until asked
  });

  it('offers the allowed values of a drop-down cell', async () => {
    const qs = sampleQuestions();
    qs[2]!.answer_slots![0]!.allowed_values = ['Yes', 'No', 'N/A'];
    qs[2]!.answers[0]!.text = 'No';
    fake.questions = qs;
    const workbook = new MemoryWorkbook();
    renderApp({ baseUrl: fake.origin, workbook });
    await fillAndPick(workbook, /Do you sell personal data\?/);
    const select = within(card()).getByLabelText(/Answer \(Privacy!C2/) as HTMLSelectElement;
    expect([...select.options].map((o) => o.value)).toEqual(['Yes', 'No', 'N/A']);
    fireEvent.change(select, { target: { value: 'N/A' } });
    fireEvent.click(within(card()).getByRole('button', { name: 'Write to C2' }));
    await within(card()).findByText(/Written to Privacy!C2/);
    expect(workbook.value('Privacy', 'C2')).toBe('N/A');
  });

  it('Undo fill asks about later edits, and "keeping my edits" puts back only the cells nobody edited', async () => {
    const workbook = new MemoryWorkbook();
    renderApp({ baseUrl: fake.origin, workbook });
    await fillAndPick(workbook, /Do you sell personal data\?/);
    expect(workbook.value('Security', 'C3')).toBe('Yes, for all administrative access.');
    workbook.set('Security', 'C2', 'Edited in the sheet');
    const field = within(card()).getByLabelText(/Answer \(Privacy!C2/) as HTMLTextAreaElement;
    fireEvent.input(field, { target: { value: 'Corrected in the review' } });
    fireEvent.click(within(card()).getByRole('button', { name: 'Write to C2' }));
    await within(card()).findByText(/Written to Privacy!C2/);
    const corrections = workbook.corrections.length;

    fireEvent.click(screen.getByRole('button', { name: 'Undo fill' }));
    const confirm = await screen.findByRole('group', { name: 'Confirm undo' });
    expect(confirm.textContent).toContain('2 cells were changed after the fill');
    expect(confirm.textContent).toContain('Security!C2: “Edited in the sheet”');
    expect(confirm.textContent).toContain('Privacy!C2: “Corrected in the review”');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Undo, keeping my 2 edits' }));
    await screen.findByText('Undone: 1 cell restored. Your 2 later edits were kept.');
    expect(workbook.value('Security', 'C3')).toBeUndefined(); // the fill's answer nobody touched is gone
    expect(workbook.value('Security', 'C2')).toBe('Edited in the sheet');
    expect(workbook.value('Privacy', 'C2')).toBe('Corrected in the review');
    expect(workbook.corrections).toHaveLength(corrections); // the kept edits are left alone, not written again
    expect(await workbook.canUndo()).toBe(false);
  });

  it('pre-fills a draft with the value the fill held back (fitted to the drop-down) and says so', async () => {
    const qs = sampleQuestions();
    qs[2]!.answer_slots![0]!.allowed_values = ['Yes', 'No', 'N/A'];
    qs[2]!.answers[0]!.text = 'No, we never sell personal data.';
    fake.questions = qs;
    const workbook = new MemoryWorkbook();
    renderApp({ baseUrl: fake.origin, workbook });
    await fillAndPick(workbook, /Do you sell personal data\?/);
    expect(workbook.value('Privacy', 'C2')).toBeUndefined(); // a low-trust draft is not written
    const select = within(card()).getByLabelText('Answer (Privacy!C2, held back as a draft)') as HTMLSelectElement;
    expect(select.value).toBe('No');
    fireEvent.click(within(card()).getByRole('button', { name: 'Write to C2' }));
    await within(card()).findByText(/Written to Privacy!C2/);
    expect(workbook.value('Privacy', 'C2')).toBe('No');
  });

  it('lists the sources of an answer by rank, whatever their order in the response', async () => {
    const qs = sampleQuestions();
    const evidence = qs[0]!.answers[0]!.source_evidence![0]!;
    qs[0]!.answers[0]!.source_evidence = [
      { ...evidence, id: 93, rank: 3, relevance_score: 0.9, filename: 'third.pdf' },
      { ...evidence, id: 91, rank: 1, relevance_score: 0.2, filename: 'first.pdf' },
      { ...evidence, id: 92, rank: 2, relevance_score: 0.5, filename: 'second.pdf' },
    ];
    fake.questions = qs;
    const workbook = new MemoryWorkbook();
    renderApp({ baseUrl: fake.origin, workbook });
    await fillAndPick(workbook, /Is data encrypted at rest\?/);
    expect([...card().querySelectorAll('.qf-sources li strong')].map((s) => s.textContent)).toEqual(['first.pdf', 'second.pdf', 'third.pdf']);
  });
});

describe('no dead ends', () => {
  it('says an empty library can answer nothing, and leads to the Library', async () => {
    fake.files = [];
    renderApp({ baseUrl: fake.origin });
    const note = await screen.findByText(/Your library has no documents yet, and answers come only from your documents: upload them in Library first\./);
    fireEvent.click(within(note.closest('div')!).getByRole('button', { name: 'Open Library' }));
    expect(screen.getByRole('tab', { name: 'Library' }).getAttribute('aria-selected')).toBe('true');
  });

  it('says when the library is still processing', async () => {
    fake.files = [repositoryFile(5, 'policy.pdf', { status: 'processing', status_display: 'Processing', processing_percent: 40 })];
    renderApp({ baseUrl: fake.origin });
    await screen.findByText(/Your library's 1 document is still being processed: fill once it shows Ready\./);
  });

  it('explains a fill that wrote nothing, and writes again once the analyst allows overwriting', async () => {
    const workbook = new MemoryWorkbook();
    for (const [tab, cell] of [
      ['Security', 'C2'],
      ['Security', 'C3'],
      ['Privacy', 'C2'],
    ] as const)
      workbook.set(tab, cell, 'Already answered');
    renderApp({ baseUrl: fake.origin, workbook });
    fireEvent.click(fillButton());
    await screen.findByText(/Wrote 0 cells; skipped 3 cells\./);
    expect(screen.getByText('Nothing was written.')).toBeTruthy();
    expect(screen.getByText(/3 answer cells already hold values\. To replace them, tick "Overwrite…" and write again \(you confirm first/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Undo fill' })).toBeNull();

    fireEvent.click(screen.getByLabelText(/Overwrite cells that already hold a value/));
    fireEvent.click(screen.getByRole('button', { name: 'Write again with these options' }));
    // Nothing is replaced before the analyst has seen what and said so.
    const confirm = await screen.findByRole('group', { name: 'Confirm overwrite' });
    // The low-trust answer for Privacy!C2 is a draft: overwriting never puts a draft over a value.
    expect(confirm.textContent).toContain('Overwrite will replace 2 existing values');
    expect(confirm.textContent).toContain('Security!C2 (SEC-01): “Already answered” → “Yes, AES-256.”');
    expect(workbook.value('Security', 'C2')).toBe('Already answered');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Replace 2 values' }));
    await screen.findByText(/Wrote 2 cells; skipped 1 cell\./);
    expect(workbook.value('Security', 'C2')).toBe('Yes, AES-256.');
    expect(workbook.value('Privacy', 'C2')).toBe('Already answered');
    fireEvent.click(await screen.findByRole('button', { name: 'Undo fill' }));
    await screen.findByText('Undone: 2 cells restored.');
    expect(workbook.value('Security', 'C2')).toBe('Already answered');
  });

  it('explains a fill where the knowledge base had no answers', async () => {
    fake.questions = sampleQuestions().map((q) => ({ ...q, answers: [] }));
    renderApp({ baseUrl: fake.origin });
    fireEvent.click(fillButton());
    await screen.findByText(/Wrote 0 cells; skipped 3 cells\./);
    expect(screen.getByText(/Your library had no answer for 3 answer cells: add documents in Library, then fill again\./)).toBeTruthy();
  });

  it('says when generation stops moving, and lets the analyst stop and check again later', async () => {
    fake.progress = { status: 'generating', answers_expected: 3, answers_received: 1, percent: 33 };
    const storage = memoryStorage();
    storage.setItem(STORAGE_KEYS.apiKey, 'qf_test_key_123');
    storage.setItem(STORAGE_KEYS.baseUrl, fake.origin);
    const { workbook } = renderApp({ baseUrl: fake.origin, storage, stallMs: 60 });
    fireEvent.click(fillButton());
    await screen.findByText(/The service has reported no progress for 1 s\. It may be busy with other work or stuck: wait/, {}, { timeout: 5000 });
    fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    await screen.findByText(/^Stopped\. The service keeps what it generated so far/);
    const steps = screen.getByRole('list', { name: 'Fill steps' });
    expect([...steps.querySelectorAll('li')].filter((li) => li.dataset.state === 'stopped').map((li) => li.textContent)).toEqual([
      expect.stringMatching(/^(Detecting questions|Generating answers) — stopped/),
    ]);
    expect(screen.queryByText(/failed/)).toBeNull();
    expect((fillButton() as HTMLButtonElement).disabled).toBe(false);
    expect(workbook.applied).toHaveLength(0);

    fake.progress = { status: 'complete', answers_expected: 3, answers_received: 3, percent: 100 };
    fireEvent.click(screen.getByRole('button', { name: 'Check again' }));
    await screen.findByText(/Wrote 2 cells; skipped 1 cell\./);
    expect(workbook.value('Security', 'C2')).toBe('Yes, AES-256.');
  });
});

describe('review helpers', () => {
  it('lists the writable answer cells of a question with what the answer says for each', () => {
    const q = sampleQuestions()[0]!;
    q.answer_slots = [
      { role: 'answer', header: 'Answer', coordinate: 'C2' },
      { role: 'comment', header: 'Comments', coordinate: "'Other sheet'!D2" },
      { role: 'evidence', header: 'Evidence', coordinate: 'E2', is_blocked: true },
      { role: 'notes', header: 'Notes', coordinate: 'not a cell' },
    ];
    q.answers[0]!.slot_responses = [{ slot_key: 'comment', content: 'See the policy.' }];
    expect(correctionTargets(q).map((t) => [t.cell, t.value])).toEqual([
      [{ tab: 'Security', address: 'C2' }, 'Yes, AES-256.'],
      [{ tab: 'Other sheet', address: 'D2' }, 'See the policy.'],
    ]);
    const corrected = withCorrection(q, q.answer_slots[1]!, 'See policy 4.2.');
    expect(correctionTargets(corrected).map((t) => t.value)).toEqual(['Yes, AES-256.', 'See policy 4.2.']);
    expect(q.answers[0]!.slot_responses![0]!.content).toBe('See the policy.'); // the original is untouched
    const primary = withCorrection(q, q.answer_slots[0]!, 'Yes.');
    expect(primary.answers[0]!.text).toBe('Yes.');
  });

  it('gives a question without an answer one when corrected', () => {
    const q = { ...sampleQuestions()[0]!, answers: [], selected_answer_id: null };
    const corrected = withCorrection(q, q.answer_slots![0]!, 'Written by hand.');
    expect(correctionTargets(corrected)[0]!.value).toBe('Written by hand.');
  });

  it('describes an undo, naming the cells Excel would not put back', () => {
    expect(describeUndo(null)).toBe('There was nothing to undo.');
    expect(describeUndo({ restored: 1 })).toBe('Undone: 1 cell restored.');
    expect(describeUndo({ restored: 2, failed: [{ tab: 'Security', address: 'C4', reason: 'The sheet is protected.' }] })).toBe(
      'Undone: 2 cells restored. 1 could not be put back: Security!C4 (The sheet is protected.). Fix that (e.g. unprotect the sheet) and choose Undo fill again.',
    );
  });
});
