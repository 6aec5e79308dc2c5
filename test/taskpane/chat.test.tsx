// @vitest-environment happy-dom
// @vitest-environment-options {"settings": {"fetch": {"disableSameOriginPolicy": true}}}
import { fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ChatSession } from '../../src/api/schemas';
import { type FakeService, repositoryFile, sampleQuestions } from './fake-service';
import { renderApp, withFakeService } from './harness';

let fake: FakeService;
withFakeService((f) => (fake = f));
beforeEach(() => {
  fake.requests.length = 0;
  fake.files = [repositoryFile(3, 'security-overview.pdf'), repositoryFile(4, 'draft.pdf', { status: 'processing' })];
  fake.sessions = [];
  fake.answerText = 'Data is encrypted at rest with AES-256.';
  fake.questions = sampleQuestions();
  fake.progress = { status: 'complete', answers_expected: 3, answers_received: 3, percent: 100 };
  fake.askTrust = null;
  fake.askSources = [{ filename: 'security.pdf', page_number: 4, content: 'All data is encrypted at rest (AES-256).' }];
});

const box = () => screen.getByLabelText('Question') as HTMLTextAreaElement;
const type = (text: string) => fireEvent.input(box(), { target: { value: text } });
// A live log named for screen readers: new answers are read out as they arrive.
const log = () => screen.getByRole('log', { name: 'Conversation' });

function session(id: number, title: string): ChatSession {
  return { id, title, created_at: '2025-01-01T00:00:00Z', updated_at: '2025-01-01T00:00:00Z', is_archived: false, message_count: 2, messages: [] };
}

describe('Chat', () => {
  it('tells a first-time analyst what Chat does and how to ask a questionnaire question', async () => {
    renderApp({ baseUrl: fake.origin, initialTab: 'chat' });
    expect(screen.getByText(/answers come from the documents in your library, each with its\s+sources/)).toBeTruthy();
  });

  it('asks statelessly with Enter, shows the answer and its sources; Shift+Enter does not send', async () => {
    renderApp({ baseUrl: fake.origin, initialTab: 'chat' });
    type('Is data encrypted?');
    const before = fake.requestsTo('POST', /chat\/ask/).length;
    fireEvent.keyDown(box(), { key: 'Enter', shiftKey: true });
    expect(fake.requestsTo('POST', /chat\/ask/).length).toBe(before);

    fireEvent.keyDown(box(), { key: 'Enter' });
    await within(log()).findByText('Data is encrypted at rest with AES-256.');
    const asks = fake.requestsTo('POST', /chat\/ask/).slice(before);
    expect(asks).toHaveLength(1);
    expect(JSON.parse(asks[0]!.body)).toEqual({ question: 'Is data encrypted?' });
    expect(box().value).toBe(''); // cleared once answered
    const sources = log().querySelector('details')!;
    expect(sources.open).toBe(false);
    expect(sources.querySelector('summary')!.textContent).toBe('1 source');
    expect(sources.textContent).toContain('security.pdf, page 4');
    expect(sources.textContent).toContain('All data is encrypted at rest (AES-256).');
    expect(fake.requestsTo('POST', /chat\/sessions/)).toHaveLength(0);
  });

  it('restricts the answer to a ready file from the library', async () => {
    renderApp({ baseUrl: fake.origin, initialTab: 'chat' });
    const select = screen.getByLabelText('Answer from') as HTMLSelectElement;
    await waitFor(() => expect(select.options.length).toBe(2));
    expect([...select.options].map((o) => o.textContent)).toEqual(['The whole library', 'security-overview.pdf']);
    const listing = fake.requestsTo('GET', /repository\/files/).at(-1)!;
    expect(listing.query.get('status')).toBe('ready');
    fireEvent.change(select, { target: { value: '3' } });
    type('What is the RTO?');
    fireEvent.click(screen.getByRole('button', { name: 'Ask' }));
    await within(log()).findByText('Data is encrypted at rest with AES-256.');
    expect(JSON.parse(fake.requestsTo('POST', /chat\/ask/).at(-1)!.body)).toEqual({ question: 'What is the RTO?', file_id: 3 });
  });

  it('"keep conversation" creates a session once and continues it', async () => {
    renderApp({ baseUrl: fake.origin, initialTab: 'chat' });
    fireEvent.click(screen.getByLabelText(/Keep conversation/));
    type('First question');
    fireEvent.keyDown(box(), { key: 'Enter' });
    await within(log()).findByText(/\(turn 1\)/);
    type('Second question');
    fireEvent.keyDown(box(), { key: 'Enter' });
    await within(log()).findByText(/\(turn 2\)/);
    expect(fake.requestsTo('POST', /\/chat\/sessions\/$/)).toHaveLength(1);
    const sent = fake.requestsTo('POST', /\/messages\/$/);
    expect(sent.map((r) => JSON.parse(r.body).message)).toEqual(['First question', 'Second question']);
    expect(new Set(sent.map((r) => r.path)).size).toBe(1);
    // The whole conversation, with the session's sources.
    expect(within(log()).getByText('First question')).toBeTruthy();
    expect(log().textContent).toContain('policy.md, page 1');
    expect(fake.requestsTo('POST', /chat\/ask/)).toHaveLength(0);
  });

  it('lists sessions with search and paging, and opens one', async () => {
    fake.sessions = Array.from({ length: 13 }, (_, i) => session(200 + i, i === 12 ? 'Encryption review' : `Conversation ${i + 1}`));
    fake.sessions[12]!.messages = [
      { id: 1, sender: 'user', content: 'Old question', created_at: '2025-01-01T00:00:00Z', is_edited: false, metadata: null, sources: [] },
      { id: 2, sender: 'assistant', content: 'Old answer', created_at: '2025-01-01T00:00:00Z', is_edited: false, metadata: null, sources: [] },
    ];
    renderApp({ baseUrl: fake.origin, initialTab: 'chat' });
    await screen.findByText('Conversations (13)');
    expect(screen.getByText('Page 1 of 2')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Page 2 of 2');
    await waitFor(() =>
      expect(
        fake
          .requestsTo('GET', /chat\/sessions\/$/)
          .at(-1)!
          .query.get('page'),
      ).toBe('2'),
    );
    await screen.findByRole('button', { name: /Conversation 11/ });

    fireEvent.input(screen.getByLabelText('Search conversations'), { target: { value: 'encryption' } });
    await screen.findByText('Conversations (1)');
    expect(screen.queryByRole('button', { name: /Conversation 11/ })).toBeNull();
    expect(
      fake
        .requestsTo('GET', /chat\/sessions\/$/)
        .at(-1)!
        .query.get('search'),
    ).toBe('encryption');
    expect(
      fake
        .requestsTo('GET', /chat\/sessions\/$/)
        .at(-1)!
        .query.get('page'),
    ).toBe('1');
    fireEvent.click(screen.getByRole('button', { name: /Encryption review/ }));
    await within(log()).findByText('Old answer');
    expect((screen.getByLabelText(/Keep conversation/) as HTMLInputElement).checked).toBe(true);
    type('Follow-up');
    fireEvent.keyDown(box(), { key: 'Enter' });
    await within(log()).findByText(/\(turn 2\)/);
    expect(fake.requestsTo('POST', /\/messages\/$/).at(-1)!.path).toBe('/api/v2/chat/sessions/212/messages/');
  });

  it('inserts an answer into the selected cell, safely, and offers to replace a filled cell', async () => {
    const { workbook } = renderApp({ baseUrl: fake.origin, initialTab: 'chat' });
    type('Is data encrypted?');
    fireEvent.keyDown(box(), { key: 'Enter' });
    await within(log()).findByText('Data is encrypted at rest with AES-256.');
    workbook.selection = { tab: 'Security', address: 'D9' };
    fireEvent.click(screen.getByRole('button', { name: 'Insert into selected cell' }));
    await screen.findByText('Inserted into the selected cell.');
    expect(workbook.inserts.at(-1)).toEqual({ text: 'Data is encrypted at rest with AES-256.', overwrite: false });
    expect(workbook.value('Security', 'D9')).toBe('Data is encrypted at rest with AES-256.');

    workbook.set('Security', 'D9', 'Mine');
    fireEvent.click(screen.getByRole('button', { name: 'Insert into selected cell' }));
    await screen.findByText('D9 already holds a value.');
    expect(workbook.value('Security', 'D9')).toBe('Mine');
    fireEvent.click(screen.getByRole('button', { name: "Replace the cell's value" }));
    await screen.findByText('Inserted into the selected cell.');
    expect(workbook.inserts.at(-1)!.overwrite).toBe(true);
  });

  it("asks about the selected question: pre-fills the row's question text", async () => {
    const { workbook } = renderApp({ baseUrl: fake.origin });
    // Without a known questionnaire it says what to do.
    fireEvent.click(screen.getByRole('tab', { name: 'Chat' }));
    workbook.selection = { tab: 'Security', address: 'C3' };
    fireEvent.click(screen.getByRole('button', { name: 'Ask about the selected question' }));
    await screen.findByText(/No questionnaire is known for this workbook yet/);

    fireEvent.click(screen.getByRole('tab', { name: 'Fill' }));
    fireEvent.click(screen.getByRole('button', { name: 'Fill this workbook' }));
    await screen.findByText(/Wrote 2 cells/); // the third answer is a low-trust draft, kept for review
    fireEvent.click(screen.getByRole('tab', { name: 'Chat' }));
    workbook.selection = { tab: 'Security', address: 'B3' }; // the question cell of the MFA row
    fireEvent.click(screen.getByRole('button', { name: 'Ask about the selected question' }));
    await waitFor(() => expect(box().value).toBe('Is MFA enforced for administrators?'));
    // Any cell of a question's row will do: here its id column.
    workbook.selection = { tab: 'Security', address: 'A2' };
    fireEvent.click(screen.getByRole('button', { name: 'Ask about the selected question' }));
    await waitFor(() => expect(box().value).toBe('Is data encrypted at rest?'));
    workbook.selection = { tab: 'Security', address: 'Z99' };
    fireEvent.click(screen.getByRole('button', { name: 'Ask about the selected question' }));
    await screen.findByText(/Security!Z99 does not belong to a question/);
    expect(box().value).toBe('Is data encrypted at rest?');
  });

  it.each([
    [400, { error: 'question: must not be empty' }, {}, /^Question: must not be empty\.Details400 · POST \/chat\/ask\//],
    [403, { error: 'no active licence' }, {}, /^No active licence\. The organisation's licence is inactive/],
    [404, { error: 'file not found' }, {}, /^File not found\. It does not exist, or this key cannot see it\./],
    [429, { error: 'quota exceeded' }, { 'Retry-After': '90' }, /^Quota exceeded\. The service asks to wait 90 s and try again.*429 · POST/],
  ])('shows a %i as a sentence and keeps the typed question', async (status, json, headers, message) => {
    fake.fail('POST', /chat\/ask/, { status, json, headers }, 5);
    renderApp({ baseUrl: fake.origin, initialTab: 'chat' });
    type('Keep me');
    fireEvent.keyDown(box(), { key: 'Enter' });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(message);
    expect(box().value).toBe('Keep me');
  });

  it('says while a 429 is being waited out and retried automatically, then answers', async () => {
    fake.fail('POST', /chat\/ask/, { status: 429, json: { error: 'quota exceeded' }, headers: { 'Retry-After': '1' } });
    renderApp({ baseUrl: fake.origin, initialTab: 'chat' });
    type('Is data encrypted?');
    fireEvent.keyDown(box(), { key: 'Enter' });
    const notice = await screen.findByText('Quota exceeded. Waiting 1 s, then retrying automatically.');
    expect(notice.getAttribute('role')).toBe('status');
    await within(log()).findByText('Data is encrypted at rest with AES-256.');
    expect(screen.queryByRole('alert')).toBeNull();
    // Gone once the wait is over.
    await waitFor(() => expect(screen.queryByText(/retrying automatically/)).toBeNull(), { timeout: 5000 });
  });

  it('shows a dropped connection as a sentence and keeps the typed question', async () => {
    fake.fail('POST', /chat\/ask/, 'reset', 5);
    renderApp({ baseUrl: fake.origin, initialTab: 'chat' });
    type('Still here');
    fireEvent.keyDown(box(), { key: 'Enter' });
    const alert = await screen.findByRole('alert', {}, { timeout: 10_000 });
    expect(alert.textContent).toMatch(/Could not reach the service|connection/i);
    expect(box().value).toBe('Still here');
  });

  it('renders an answer containing HTML as text', async () => {
    fake.answerText = '<img src=x onerror="globalThis.__chatPwned=1">';
    const { container } = renderApp({ baseUrl: fake.origin, initialTab: 'chat' });
    type('x');
    fireEvent.keyDown(box(), { key: 'Enter' });
    await within(log()).findByText('<img src=x onerror="globalThis.__chatPwned=1">');
    expect(container.querySelector('img')).toBeNull();
    expect((globalThis as { __chatPwned?: number }).__chatPwned).toBeUndefined();
  });
});

describe('Chat trust and whose evidence', () => {
  it("shows trust per answer and labels a third party's source", async () => {
    fake.askTrust = 'low';
    fake.askSources = [
      { filename: 'aws-soc3.pdf', page_number: 2, content: 'AWS Backup encrypts backups.', third_party: 'Amazon Web Services' },
      { filename: 'security.pdf', page_number: 4, content: 'Backups are taken daily.' },
    ];
    renderApp({ baseUrl: fake.origin, initialTab: 'chat' });
    type('Are backups encrypted?');
    fireEvent.keyDown(box(), { key: 'Enter' });
    await within(log()).findByText('Data is encrypted at rest with AES-256.');
    const answer = within(log()).getByText('Data is encrypted at rest with AES-256.').closest('.qf-bubble')!;
    expect(answer.textContent).toMatch(/low trust the sources do not clearly state this\./);
    expect(answer.querySelector('summary')!.textContent).toBe('2 sources (1 from a third party)');
    const items = [...answer.querySelectorAll('li')].map((li) => li.textContent);
    expect(items[0]).toMatch(/^aws-soc3\.pdf, page 2third party: Amazon Web Services/);
    expect(items[1]).not.toMatch(/third party/);

    // Another answer, high trust, no third party: each answer shows its own.
    fake.askTrust = 'high';
    fake.askSources = [{ filename: 'security.pdf', page_number: 4, content: 'All data is encrypted at rest (AES-256).' }];
    fake.answerText = 'Yes, AES-256.';
    type('Is data encrypted?');
    fireEvent.keyDown(box(), { key: 'Enter' });
    const second = (await within(log()).findByText('Yes, AES-256.')).closest('.qf-bubble')!;
    expect(second.textContent).toMatch(/high trust the sources state this\./);
    expect(second.querySelector('summary')!.textContent).toBe('1 source');
    expect(answer.textContent).toMatch(/low trust/);
  });

  it('reads trust and the third-party label back from a stored conversation', async () => {
    fake.sessions = [session(300, 'Backups')];
    fake.sessions[0]!.messages = [
      { id: 1, sender: 'user', content: 'Are backups encrypted?', created_at: '2025-01-01T00:00:00Z', is_edited: false, metadata: null, sources: [] },
      {
        id: 2,
        sender: 'assistant',
        content: 'Stored answer',
        created_at: '2025-01-01T00:00:00Z',
        is_edited: false,
        metadata: { trust: 'medium' },
        sources: [
          {
            id: 9,
            type: 'passage',
            relevance_score: 0.8,
            content: 'AWS Backup…',
            source_file: 'aws-soc3.pdf',
            page_number: 3,
            context_header: 'third party: Amazon Web Services · Backups',
            source_url: '',
          },
        ],
      },
    ];
    renderApp({ baseUrl: fake.origin, initialTab: 'chat' });
    fireEvent.click(await screen.findByRole('button', { name: /Backups/ }));
    const answer = (await within(log()).findByText('Stored answer')).closest('.qf-bubble')!;
    expect(answer.textContent).toMatch(/medium trust check the sources\./);
    expect(answer.textContent).toMatch(/third party: Amazon Web Services/);
  });
});

describe('whose evidence, wherever sources are listed', () => {
  it('reads the third party from the field or the heading trail, and the list says how many', async () => {
    const { thirdPartyOf, Sources } = await import('../../src/taskpane/components/Sources');
    expect(thirdPartyOf({ third_party: 'Amazon Web Services' })).toBe('Amazon Web Services');
    expect(thirdPartyOf({ context_header: 'third party: Deloitte · Opinion' })).toBe('Deloitte');
    expect(thirdPartyOf({ context_header: 'Security overview · Encryption' })).toBeNull();
    const { render } = await import('@testing-library/preact');
    const { container } = render(
      <Sources
        open
        sources={[
          { filename: 'soc3.pdf', page: 1, excerpt: 'x', thirdParty: 'AWS' },
          { filename: 'ours.pdf', page: 0, excerpt: 'y' },
        ]}
      />,
    );
    expect(container.querySelector('summary')!.textContent).toBe('2 sources (1 from a third party)');
    expect(container.querySelectorAll('li')[0]!.textContent).toBe('soc3.pdf, page 1third party: AWSx');
    expect(container.querySelectorAll('li')[1]!.textContent).toBe('ours.pdfy');
  });
});
