// @vitest-environment happy-dom
// @vitest-environment-options {"settings": {"fetch": {"disableSameOriginPolicy": true}}}
/**
 * The Answers view's "How good is the library for us?" card (extension "answers.replay"), through the whole
 * pane and the real client over loopback HTTP to the FakeService: the last run's agreement and coverage, the
 * trend over kept runs, the gaps by section, "Run again" for those who may start one.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { beforeEach, describe, expect, it } from 'vitest';
import { FakeLibrary, libraryEntry } from '../fake-library';
import { FakeReplay, replayRun } from '../fake-replay';
import type { FakeService } from '../fake-service';
import { API_KEY, renderApp, withFakeService } from '../harness';

let fake: FakeService;
withFakeService((f) => (fake = f));
beforeEach(() => {
  fake.requests.length = 0;
  fake.extensions = ['answers.library', 'answers.replay', 'keys.current'];
  fake.keyOwners.set(API_KEY, { organization: { id: 1, name: 'Acme' }, user: { id: 1, name: 'Alice', role: 'repository_manager' }, read_only: false });
  fake.library = new FakeLibrary('Alice');
  fake.library.entries = [libraryEntry(1, 'Is data encrypted at rest?', 'Yes')];
  fake.replay = new FakeReplay();
  fake.replay.runs = [
    replayRun(1, { overall: { questions: 10, answered: 7, agreed: 5, agreement: 0.7143, coverage: 0.7, conflicts: 2 } }),
    replayRun(2, {
      questionnaires: [{ file_id: 4, file_name: 'hecvat-2024.xlsx', questions: 10, answered: 8, agreed: 6, agreement: 0.75, coverage: 0.8, conflicts: 1 }],
      wrong: [
        {
          file_id: 4,
          file_name: 'hecvat-2024.xlsx',
          question: 'Do you sell personal data?',
          original_id: 'PR-01',
          expected: 'No',
          got: 'Yes',
          reason: 'Reused…',
        },
      ],
      wrong_count: 1,
      gap_count: 3,
      gaps: [
        {
          section: 'Data security',
          questions: [{ questionnaire_id: 9, questionnaire: 'vendor-2026.xlsx', question: 'Do you rotate HSM keys quarterly?', original_id: 'DS-09' }],
        },
        {
          section: 'Privacy',
          questions: [
            { questionnaire_id: 9, questionnaire: 'vendor-2026.xlsx', question: 'Do you appoint a data protection officer?', original_id: null },
            { questionnaire_id: 9, questionnaire: 'vendor-2026.xlsx', question: 'Do you keep a record of processing?', original_id: null },
          ],
        },
      ],
    }),
  ];
});

async function openCard() {
  renderApp({ baseUrl: fake.origin, initialTab: 'library' });
  fireEvent.click(await screen.findByRole('button', { name: 'Answers' }));
  const card = await screen.findByRole('region', { name: 'How good is the library for us?' }, { timeout: 8000 });
  await within(card).findByText(/Agreement 75\.0%/);
  return card;
}

describe('How good is the library for us?', () => {
  it('shows the last run, the trend over kept runs, what differed and the gaps by section', async () => {
    const card = await openCard();
    expect(card.textContent).toContain('coverage 80.0%');
    expect(card.textContent).toContain('8 of 10 past answers given again, 6 the same; 1 questionnaire, 2026-01-12 by Alice');
    expect(within(card).getByLabelText('Agreement over time').textContent).toBe('Trend: 71.4% (2026-01-11) → 75.0% (2026-01-12)');
    expect(within(card).getByText('Answered otherwise (1)')).toBeTruthy();
    expect(
      within(within(card).getByRole('list', { name: 'Answered otherwise' }))
        .getByText('Do you sell personal data?')
        .closest('li')!.textContent,
    ).toContain('hecvat-2024.xlsx: No · library: Yes');
    expect(within(card).getByText('Nothing in the library answers (3)')).toBeTruthy();
    const privacy = within(card).getByRole('region', { name: 'Gaps in Privacy' });
    expect(within(privacy).getByRole('heading').textContent).toBe('Privacy (2)');
    expect(
      within(privacy)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Do you appoint a data protection officer? (vendor-2026.xlsx)', 'Do you keep a record of processing? (vendor-2026.xlsx)']);
    expect(within(within(card).getByRole('region', { name: 'Gaps in Data security' })).getByRole('listitem').textContent).toBe(
      'DS-09 Do you rotate HSM keys quarterly? (vendor-2026.xlsx)',
    );
  });

  it('runs again for a repository manager: queued, followed, then the new figures join the trend', async () => {
    fake.replay.nextResult = {
      overall: { questions: 12, answered: 11, agreed: 10, agreement: 0.9091, coverage: 0.9167, conflicts: 0 },
      questionnaires: [
        { file_id: 4, file_name: 'hecvat-2024.xlsx', questions: 12, answered: 11, agreed: 10, agreement: 0.9091, coverage: 0.9167, conflicts: 0 },
      ],
      gap_count: 0,
    };
    const card = await openCard();
    fireEvent.click(within(card).getByRole('button', { name: 'Run again' }));
    await within(card).findByText('Replaying the library (queued)…');
    expect(fake.requestsTo('POST', /answers\/library\/replay\/$/)).toHaveLength(1);
    await within(card).findByText(/Agreement 90\.9%/, undefined, { timeout: 8000 });
    expect(within(card).queryByText(/Replaying the library/)).toBeNull();
    expect(within(card).getByLabelText('Agreement over time').textContent).toBe('Trend: 71.4% (2026-01-11) → 75.0% (2026-01-12) → 90.9% (2026-01-30)');
    expect(within(card).getByText('The library answers every question of your recent questionnaires.')).toBeTruthy();
  });

  it('offers no run to a member, and says why a run could not start', async () => {
    fake.keyOwners.set(API_KEY, { organization: { id: 1, name: 'Acme' }, user: { id: 2, name: 'Mo', role: 'member' }, read_only: false });
    const card = await openCard();
    await waitFor(() => expect(fake.requestsTo('GET', /keys\/current\/$/).length).toBeGreaterThan(0));
    expect(within(card).queryByRole('button', { name: /Run/ })).toBeNull();

    // A key the service refuses when it starts (its role changed meanwhile): the service's sentence is shown.
    fake.keyOwners.set(API_KEY, { organization: { id: 1, name: 'Acme' }, user: { id: 1, name: 'Alice', role: 'admin' }, read_only: false });
    fake.fail('POST', /answers\/library\/replay\/$/, {
      status: 403,
      json: { error: 'only an admin or repository manager can start a replay of the answer library' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Files' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Answers' }));
    const again = await screen.findByRole('region', { name: 'How good is the library for us?' });
    fireEvent.click(await within(again).findByRole('button', { name: 'Run again' }));
    await within(again).findByText(/only an admin or repository manager can start a replay/i);
  });

  it('is not shown, and neither replays nor the key are asked for, where the service does not announce them', async () => {
    fake.extensions = ['answers.library'];
    renderApp({ baseUrl: fake.origin, initialTab: 'library' });
    fireEvent.click(await screen.findByRole('button', { name: 'Answers' }));
    await within(await screen.findByRole('listbox', { name: 'Answers' }, { timeout: 8000 })).findByText('Is data encrypted at rest?');
    expect(screen.queryByRole('region', { name: 'How good is the library for us?' })).toBeNull();
    expect(fake.requestsTo('GET', /answers\/library\/replay\//)).toEqual([]);
    expect(fake.requestsTo('GET', /keys\/current\/$/)).toEqual([]);
  });

  it('announced without "keys.current": the card is shown and the service decides who may run (no key asked for)', async () => {
    fake.extensions = ['answers.library', 'answers.replay'];
    const card = await openCard();
    expect(within(card).getByRole('button', { name: 'Run again' })).toBeTruthy();
    expect(fake.requestsTo('GET', /keys\/current\/$/)).toEqual([]);
  });
});
