// @vitest-environment happy-dom
// @vitest-environment-options {"settings": {"fetch": {"disableSameOriginPolicy": true}}}
/**
 * The Library pane's Answers view (extension "answers.library"), through the whole pane and the real
 * client over loopback HTTP to the FakeService's answer library.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { beforeEach, describe, expect, it } from 'vitest';
import { libraryEntry } from '../fake-library';
import { FakeLibrary } from '../fake-library';
import { type FakeService, repositoryFile } from '../fake-service';
import { renderApp, withFakeService } from '../harness';

let fake: FakeService;
withFakeService((f) => (fake = f));
beforeEach(() => {
  fake.requests.length = 0;
  fake.extensions = ['answers.library', 'offerings.list'];
  fake.offerings = [{ id: 7, name: 'Studio', type: 'module' }];
  fake.files = [repositoryFile(1, 'hecvat-2024.xlsx', { document_type: 'qna', qa_count: 3 }), repositoryFile(2, 'policy.pdf')];
  fake.library = new FakeLibrary('Alice');
  fake.library.entries = [
    libraryEntry(1, 'Is data encrypted at rest?', 'Yes', { offering_ids: [7] }),
    libraryEntry(2, 'Is MFA enforced?', 'Yes', {
      review_due: true,
      review_reason: 'approved on 2024-01-10, review due since 2025-01-10',
      approved_by: 'Bob',
      approved_at: '2024-01-10T00:00:00Z',
    }),
    libraryEntry(3, 'Do you sell personal data?', 'No', { source: { file_id: 9, file_name: 'old-2021.xlsx', tab_name: 'Privacy', location: 'row 4' } }),
    libraryEntry(4, 'Do you sell personal data?', 'Yes', { as_of: '2021-03-01' }),
  ];
});

const answers = () => screen.getByRole('listbox', { name: 'Answers' });
const options = () => within(answers()).getAllByRole('option');

async function openAnswers() {
  renderApp({ baseUrl: fake.origin, initialTab: 'library' });
  fireEvent.click(await screen.findByRole('button', { name: 'Answers' }));
  await within(await screen.findByRole('listbox', { name: 'Answers' }, { timeout: 8000 })).findByText('Is data encrypted at rest?');
}

describe('Answers view', () => {
  it('is offered only where the service lists answers.library', async () => {
    fake.extensions = ['repository.delete'];
    renderApp({ baseUrl: fake.origin, initialTab: 'library' });
    await within(screen.getByRole('list', { name: 'Files' })).findByText('policy.pdf');
    await waitFor(() => expect(fake.requestsTo('GET', /\/extensions\//).length).toBeGreaterThan(0));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole('button', { name: 'Answers' })).toBeNull();
    expect(fake.requestsTo('GET', /answers\/library/)).toHaveLength(0);
  });

  it('lists the entries with source and as-of, searches, filters by kind, offering and source', async () => {
    await openAnswers();
    expect(screen.getByRole('button', { name: 'Answers' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByText(/^4 answers/)).toBeTruthy();
    // The Files view's upload is not shown beside it.
    expect(screen.queryByLabelText('Choose files to upload')).toBeNull();
    const mfa = within(answers()).getByText('Is MFA enforced?').closest('li')!;
    expect(mfa.textContent).toMatch(/Approved.*Review due/);
    expect(mfa.textContent).toContain('hecvat-2024.xlsx · Security · row 3 · as of 2025-06-01');
    expect(within(answers()).getAllByText('Conflict')).toHaveLength(2);

    fireEvent.input(screen.getByLabelText('Search answers'), { target: { value: 'encrypted' } });
    await waitFor(() => expect(options()).toHaveLength(1));
    expect(
      fake
        .requestsTo('GET', /answers\/library\/$/)
        .at(-1)!
        .query.get('q'),
    ).toBe('encrypted');
    fireEvent.input(screen.getByLabelText('Search answers'), { target: { value: '' } });
    await waitFor(() => expect(options()).toHaveLength(4));

    fireEvent.change(screen.getByLabelText('Filter answers'), { target: { value: 'review_due' } });
    await waitFor(() => expect(options()).toHaveLength(1));
    expect(options()[0]!.textContent).toContain('Is MFA enforced?');
    fireEvent.change(screen.getByLabelText('Filter answers'), { target: { value: 'unapproved' } });
    await waitFor(() => expect(options()).toHaveLength(3));
    fireEvent.change(screen.getByLabelText('Filter answers'), { target: { value: '' } });

    const offering = screen.getByLabelText('Filter by offering') as HTMLSelectElement;
    await waitFor(() => expect([...offering.options].map((o) => o.textContent)).toEqual(['Any offering', 'Studio']));
    fireEvent.change(offering, { target: { value: '7' } });
    await waitFor(() => expect(options()).toHaveLength(1));
    expect(
      fake
        .requestsTo('GET', /answers\/library\/$/)
        .at(-1)!
        .query.get('offering_id'),
    ).toBe('7');
    fireEvent.change(offering, { target: { value: '' } });

    // Sources are the files that gave reusable answers, by name.
    const source = screen.getByLabelText('Filter by source') as HTMLSelectElement;
    await waitFor(() => expect([...source.options].map((o) => o.textContent)).toEqual(['Any source', 'hecvat-2024.xlsx']));
    fireEvent.change(source, { target: { value: '1' } });
    await waitFor(() => expect(options()).toHaveLength(3));
    expect(
      fake
        .requestsTo('GET', /answers\/library\/$/)
        .at(-1)!
        .query.get('file_id'),
    ).toBe('1');
  });

  it('moves with the arrow keys and opens with Enter: source, offering, as of, approval, review, history', async () => {
    await openAnswers();
    expect(options()[0]!.getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(answers(), { key: 'ArrowDown' });
    fireEvent.keyDown(answers(), { key: 'ArrowDown' });
    fireEvent.keyDown(answers(), { key: 'ArrowUp' });
    expect(options().map((o) => o.getAttribute('aria-selected'))).toEqual(['false', 'true', 'false', 'false']);
    expect(answers().getAttribute('aria-activedescendant')).toBe('qf-answer-2');
    fireEvent.keyDown(answers(), { key: 'Enter' });
    const entry = await screen.findByRole('region', { name: 'Answer library entry' });
    await within(entry).findByRole('heading', { name: 'Is MFA enforced?' });
    expect(entry.textContent).toContain('Sourcehecvat-2024.xlsx · Security · row 3');
    expect(entry.textContent).toContain('OfferingAny offering');
    expect(entry.textContent).toContain('As of2025-06-01');
    expect(entry.textContent).toContain('ApprovalApproved by Bob on 2024-01-10');
    expect(within(entry).getByText('approved on 2024-01-10, review due since 2025-01-10')).toBeTruthy();
    fireEvent.click(within(entry).getByRole('button', { name: 'Back to the list' }));
    // The keyboard is back on the list, at the entry it opened.
    const list = await screen.findByRole('listbox', { name: 'Answers' });
    await waitFor(() => expect(document.activeElement).toBe(list));
    expect(list.getAttribute('aria-activedescendant')).toBe('qf-answer-2');
  });

  it('settles a conflict once with "Use this answer", and undoes it', async () => {
    await openAnswers();
    fireEvent.change(screen.getByLabelText('Filter answers'), { target: { value: 'conflicts' } });
    const group = await screen.findByRole('group', { name: 'Do you sell personal data?' });
    // Under a header naming the section of its source questionnaire.
    const section = screen.getByRole('region', { name: 'Section Privacy' });
    expect(within(section).getByRole('heading', { name: 'Privacy' })).toBeTruthy();
    expect(section.contains(group)).toBe(true);
    const sides = within(group).getAllByRole('button', { name: 'Use this answer' });
    expect(sides).toHaveLength(2);
    expect(group.textContent).toContain('old-2021.xlsx · Privacy · row 4');
    fireEvent.click(sides[0]!); // "No", from old-2021.xlsx
    await screen.findByText(/^Settled "Do you sell personal data\?": fills use the chosen answer with high trust/);
    expect(fake.requestsTo('POST', /conflicts\/settle/).map((r) => JSON.parse(r.body))).toEqual([{ entry_id: 3 }]);
    expect(within(group).getByText('Settled')).toBeTruthy();
    expect(within(group).getByText('Chosen')).toBeTruthy();
    expect(within(group).queryByRole('button', { name: 'Use this answer' })).toBeNull();
    expect(fake.library.entries.find((e) => e.id === 4)!.status).toBe('retired');

    fireEvent.click(within(group).getByRole('button', { name: 'Undo' }));
    await screen.findByText(/^Undone: "Do you sell personal data\?" is open again\./);
    expect(within(group).getAllByRole('button', { name: 'Use this answer' })).toHaveLength(2);
    expect(fake.library.entries.map((e) => e.status)).toEqual(['active', 'active', 'active', 'active']);
  });

  it('with an offering chosen, settles a conflict for that offering alone, and undoes it', async () => {
    await openAnswers();
    fireEvent.change(screen.getByLabelText('Filter answers'), { target: { value: 'conflicts' } });
    await screen.findByRole('group', { name: 'Do you sell personal data?' });
    const offering = screen.getByLabelText('Filter by offering') as HTMLSelectElement;
    await waitFor(() => expect(offering.options.length).toBe(2));
    fireEvent.change(offering, { target: { value: '7' } });
    await waitFor(() =>
      expect(
        fake
          .requestsTo('GET', /conflicts\/$/)
          .at(-1)!
          .query.get('offering_id'),
      ).toBe('7'),
    );
    const group = await screen.findByRole('group', { name: 'Do you sell personal data?' });
    fireEvent.click(within(group).getAllByRole('button', { name: 'Use this answer' })[1]!); // "Yes"
    await screen.findByText(/for this offering's questionnaires; other offerings are not affected\.$/);
    expect(fake.requestsTo('POST', /conflicts\/settle/).map((r) => JSON.parse(r.body))).toEqual([{ entry_id: 4, offering_id: 7 }]);
    const settled = screen.getByRole('group', { name: 'Do you sell personal data?' });
    expect(within(settled).getByText('Chosen')).toBeTruthy();
    expect(within(settled).getByText('Not for this offering')).toBeTruthy();
    // Nothing retired: the other answer may be right for another offering.
    expect(fake.library.entries.map((e) => e.status)).toEqual(['active', 'active', 'active', 'active']);
    fireEvent.click(within(settled).getByRole('button', { name: 'Undo' }));
    await screen.findByText(/^Undone: "Do you sell personal data\?" is open again\./);
    expect(JSON.parse(fake.requestsTo('POST', /conflicts\/undo/).at(-1)!.body)).toEqual({ entry_id: 4, offering_id: 7 });
  });

  it("edits an entry's slots as a new version, approves it, retires and restores it", async () => {
    await openAnswers();
    fireEvent.click(within(answers()).getByText('Is data encrypted at rest?'));
    const entry = await screen.findByRole('region', { name: 'Answer library entry' });
    fireEvent.click(await within(entry).findByRole('button', { name: 'Edit' }));
    const form = within(entry).getByRole('form', { name: 'Edit answer' });
    fireEvent.input(within(form).getByLabelText('Answer'), { target: { value: 'Yes, AES-256 for all customer data.' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save as a new version' }));
    await within(entry).findByText('Saved as version 2; the earlier version is kept.');
    expect(JSON.parse(fake.requestsTo('PUT', /answers\/library\/1\/$/)[0]!.body)).toEqual({
      slots: [{ slot_key: 'answer', header: 'Answer', content: 'Yes, AES-256 for all customer data.' }],
    });
    expect(within(entry).getByText('Yes, AES-256 for all customer data.')).toBeTruthy();
    expect(within(entry).getByText('Earlier versions (1)').closest('details')!.textContent).toContain('Version 1: Yes');

    fireEvent.click(within(entry).getByRole('button', { name: 'Approve' }));
    await within(entry).findByText('Approved by Alice: fills use it with high trust.');
    expect(within(entry).queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(within(entry).getByText('History (2)').closest('details')!.textContent).toMatch(/Alice: edited \(version 2\).*Alice: approved/);

    fireEvent.click(within(entry).getByRole('button', { name: 'Retire' }));
    await within(entry).findByText('Retired: kept in the library, never used by fills.');
    fireEvent.click(within(entry).getByRole('button', { name: 'Restore' }));
    await within(entry).findByText('Restored: fills may use it again.');
    // Back in the list, the entry shows as it is now.
    fireEvent.click(within(entry).getByRole('button', { name: 'Back to the list' }));
    expect(
      (await within(await screen.findByRole('listbox', { name: 'Answers' })).findByText('Yes, AES-256 for all customer data.')).closest('li')!.textContent,
    ).toContain('Approved');
  });

  it("sets an entry's owner and its own review interval; an unknown owner is the service's sentence", async () => {
    await openAnswers();
    fireEvent.click(within(answers()).getByText('Is MFA enforced?'));
    const entry = await screen.findByRole('region', { name: 'Answer library entry' });
    const edit = await within(entry).findByRole('button', { name: 'Owner and review…' });
    // Who approved it and when, beside who owns it.
    expect(entry.textContent).toContain('ApprovalApproved by Bob on 2024-01-10');
    expect(entry.textContent).toContain("Owner and reviewNo owner · reviewed at the organisation's review age");
    fireEvent.click(edit);
    const form = within(entry).getByRole('form', { name: 'Owner and review' });
    fireEvent.input(within(form).getByLabelText(/^Owner/), { target: { value: 'zed' } });
    fireEvent.input(within(form).getByLabelText(/^Review every/), { target: { value: '6' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save owner and review' }));
    expect((await within(entry).findByRole('alert')).textContent).toMatch(/^Owner: no user "zed" in this organisation\./);
    fireEvent.input(within(form).getByLabelText(/^Owner/), { target: { value: 'bob' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save owner and review' }));
    await within(entry).findByText('Owned by bob; reviewed every 6 months.');
    expect(JSON.parse(fake.requestsTo('PUT', /answers\/library\/2\/review\/$/).at(-1)!.body)).toEqual({ owner: 'bob', review_months: 6 });
    expect(entry.textContent).toContain('Owner and reviewOwned by bob · reviewed every 6 months');
    expect(within(entry).getByText('History (1)').closest('details')!.textContent).toMatch(/Alice: review changed \(owner: nobody → bob\)/);
    expect(within(entry).queryByRole('form', { name: 'Owner and review' })).toBeNull();

    // The whole sheet at once: every answer learned from it gets the owner.
    fireEvent.click(within(entry).getByRole('button', { name: 'Owner and review…' }));
    const again = within(entry).getByRole('form', { name: 'Owner and review' });
    fireEvent.input(within(again).getByLabelText(/^Owner/), { target: { value: 'alice' } });
    fireEvent.click(within(again).getByLabelText('Every answer of sheet "Security" in hecvat-2024.xlsx'));
    fireEvent.click(within(again).getByRole('button', { name: 'Save owner and review' }));
    await within(entry).findByText('Owned by alice; reviewed every 6 months: 3 of the 3 answers of sheet "Security" changed.');
    expect(JSON.parse(fake.requestsTo('PUT', /sections\/review\/$/).at(-1)!.body)).toEqual({
      file_id: 1,
      tab_name: 'Security',
      owner: 'alice',
      review_months: 6,
    });
    expect(fake.library.entries.filter((e) => e.owner === 'alice').map((e) => e.id)).toEqual([1, 2, 4]);
  });

  it('groups conflicts and the review-due list by the section within the sheet; an owner for one section only', async () => {
    const sheet = { file_id: 1, file_name: 'hecvat-2024.xlsx', tab_name: 'Security' };
    const at = (location: string) => ({ ...sheet, location });
    fake.library.entries = [
      libraryEntry(1, 'Is data encrypted at rest?', 'Yes', { section: 'Data Protection', source: at('row 2') }),
      libraryEntry(11, 'Is data at rest encrypted?', 'No', {
        question_key: 'is data encrypted at rest?',
        section: 'Data Protection',
        source: { ...at('row 2'), file_id: 9, file_name: 'old-2021.xlsx' },
      }),
      libraryEntry(2, 'Is MFA enforced?', 'Yes', { section: 'Identity', source: at('row 9'), review_due: true }),
      libraryEntry(12, 'Is MFA enforced?', 'No', { section: 'Identity', source: { ...at('row 9'), file_id: 9, file_name: 'old-2021.xlsx' } }),
      libraryEntry(3, 'Are backups tested?', 'Yes', { section: 'Data Protection', source: at('row 3'), review_due: true }),
      libraryEntry(4, 'Is SSO offered?', 'Yes', { section: 'Identity', source: at('row 10'), review_due: true }),
    ];
    await openAnswers();

    // Conflicts: one heading per section of the sheet, not one for the whole sheet.
    fireEvent.change(screen.getByLabelText('Filter answers'), { target: { value: 'conflicts' } });
    const data = await screen.findByRole('region', { name: 'Section Security › Data Protection' });
    const identity = screen.getByRole('region', { name: 'Section Security › Identity' });
    expect(within(data).getByRole('group', { name: 'Is data encrypted at rest?' })).toBeTruthy();
    expect(within(identity).getByRole('group', { name: 'Is MFA enforced?' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Section Security' })).toBeNull();

    // Review due: worked through section by section, the keyboard still moving over every answer.
    fireEvent.change(screen.getByLabelText('Filter answers'), { target: { value: 'review_due' } });
    await waitFor(() => expect(options()).toHaveLength(3));
    const groups = within(answers()).getAllByRole('group');
    expect(
      groups.map((g) => [
        g.getAttribute('aria-label'),
        within(g)
          .getAllByRole('option')
          .map((o) => o.id),
      ]),
    ).toEqual([
      ['Section Security › Identity', ['qf-answer-2']],
      ['Section Security › Data Protection', ['qf-answer-3']],
      ['Section Security › Identity', ['qf-answer-4']],
    ]);
    fireEvent.keyDown(answers(), { key: 'ArrowDown' });
    expect(answers().getAttribute('aria-activedescendant')).toBe('qf-answer-3');

    // An owner for the entry's section alone: the sheet's other section keeps none.
    fireEvent.keyDown(answers(), { key: 'Enter' });
    const entry = await screen.findByRole('region', { name: 'Answer library entry' });
    await within(entry).findByRole('heading', { name: 'Are backups tested?' });
    expect(entry.textContent).toContain('SectionData Protection');
    fireEvent.click(within(entry).getByRole('button', { name: 'Owner and review…' }));
    const form = within(entry).getByRole('form', { name: 'Owner and review' });
    fireEvent.input(within(form).getByLabelText(/^Owner/), { target: { value: 'bob' } });
    fireEvent.click(within(form).getByLabelText('Every answer of section "Data Protection" of sheet "Security" in hecvat-2024.xlsx'));
    fireEvent.click(within(form).getByRole('button', { name: 'Save owner and review' }));
    await within(entry).findByText(
      'Owned by bob; reviewed at the organisation\'s review age: 2 of the 2 answers of section "Data Protection" of sheet "Security" changed.',
    );
    expect(JSON.parse(fake.requestsTo('PUT', /sections\/review\/$/).at(-1)!.body)).toEqual({
      file_id: 1,
      tab_name: 'Security',
      section: 'Data Protection',
      owner: 'bob',
      review_months: null,
    });
    expect(fake.library.entries.filter((e) => e.owner === 'bob').map((e) => e.id)).toEqual([1, 3]);
  });

  it('adds an answer by hand, and shows a refusal in the service words', async () => {
    await openAnswers();
    fireEvent.click(screen.getByText('Add an answer by hand'));
    const form = screen.getByRole('form', { name: 'Add an answer' });
    fireEvent.input(within(form).getByLabelText('Question'), { target: { value: 'Do you have a bug bounty?' } });
    fireEvent.input(within(form).getByLabelText('Answer'), { target: { value: 'Yes' } });
    fireEvent.input(within(form).getByLabelText('Comment (optional)'), { target: { value: 'Run with HackerOne since 2023.' } });
    fireEvent.click(within(form).getByLabelText('Studio'));
    fake.fail('POST', /answers\/library\/$/, { status: 403, json: { error: 'this API key is read-only and cannot change the answer library' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add to the library' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/^This API key is read-only and cannot change the answer library\./);
    expect((within(form).getByLabelText('Question') as HTMLTextAreaElement).value).toBe('Do you have a bug bounty?');

    fireEvent.click(within(form).getByRole('button', { name: 'Add to the library' }));
    const entry = await screen.findByRole('region', { name: 'Answer library entry' });
    await within(entry).findByRole('heading', { name: 'Do you have a bug bounty?' });
    expect(JSON.parse(fake.requestsTo('POST', /answers\/library\/$/).at(-1)!.body)).toEqual({
      question: 'Do you have a bug bounty?',
      slots: [
        { slot_key: 'answer', header: 'Answer', content: 'Yes' },
        { slot_key: 'comment', header: 'Comment', content: 'Run with HackerOne since 2023.' },
      ],
      offering_ids: [7],
    });
    expect(entry.textContent).toContain('SourceAdded by hand');
    expect(entry.textContent).toContain('OfferingStudio');
  });

  it('lists the entries again when the analyst comes back to the Library tab', async () => {
    await openAnswers();
    fireEvent.change(screen.getByLabelText('Filter answers'), { target: { value: 'unapproved' } });
    await waitFor(() => expect(options()).toHaveLength(3));
    fireEvent.click(screen.getByRole('tab', { name: 'Chat' }));
    fake.library.entries.push(libraryEntry(5, 'Do you carry cyber insurance?', 'Yes'));
    fireEvent.click(screen.getByRole('tab', { name: 'Library' }));
    await waitFor(() => expect(within(answers()).getByText('Do you carry cyber insurance?')).toBeTruthy());
    expect(screen.getByRole('button', { name: 'Answers' }).getAttribute('aria-pressed')).toBe('true');
    // The analyst's filter stayed through the visit to another tab.
    expect((screen.getByLabelText('Filter answers') as HTMLSelectElement).value).toBe('unapproved');
  });

  it("shows and sets the organisation's review age; a refusal is the service's sentence", async () => {
    await openAnswers();
    const summary = await screen.findByText('Review age: 12 months');
    fireEvent.click(summary);
    const form = screen.getByRole('form', { name: 'Review age' });
    const months = within(form).getByLabelText(/Months after approval/) as HTMLInputElement;
    fireEvent.input(months, { target: { value: '0' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save review age' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/^The review age is a whole number of months from 1 to 120\./);
    expect(fake.requestsTo('PUT', /settings/)).toHaveLength(0);
    fake.fail('PUT', /answers\/library\/settings\/$/, { status: 403, json: { error: 'only an admin or repository manager can change the review age' } });
    fireEvent.input(months, { target: { value: '6' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save review age' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toMatch(/^Only an admin or repository manager can change the review age\./));
    fireEvent.click(within(form).getByRole('button', { name: 'Save review age' }));
    await screen.findByText('Saved: answers are due for review 6 months after approval or their as-of date.');
    expect(JSON.parse(fake.requestsTo('PUT', /settings/).at(-1)!.body)).toEqual({ review_age_months: 6 });
    expect(fake.library.reviewAgeMonths).toBe(6);
  });

  it('shows a list the key cannot read as the service sentence, not as an empty library', async () => {
    fake.fail('GET', /answers\/library\/$/, { status: 429, json: { error: 'quota exhausted for this organisation' }, headers: { 'Retry-After': '300' } }, 5);
    renderApp({ baseUrl: fake.origin, initialTab: 'library' });
    fireEvent.click(await screen.findByRole('button', { name: 'Answers' }));
    const region = await screen.findByRole('region', { name: 'Answers found' }, { timeout: 8000 });
    expect((await within(region).findByRole('alert')).textContent).toMatch(/^Quota exhausted for this organisation\./);
    expect(within(region).queryByText(/No reusable answers yet/)).toBeNull();
  });
});
