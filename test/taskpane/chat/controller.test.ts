/** The Chat controllers without any DOM: the real ApiClient over loopback HTTP to the FakeService, a MemoryWorkbook. */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createChatController, type ChatController } from '../../../src/taskpane/chat/controller';
import { createSessionList, type SessionList } from '../../../src/taskpane/chat/sessions';
import { realClient } from '../client';
import { FakeService, repositoryFile, sampleQuestions } from '../fake-service';
import { MemoryWorkbook } from '../memory-workbook';

let fake: FakeService;
beforeAll(async () => (fake = await FakeService.start()));
afterAll(() => fake.close());

let chat: ChatController | null = null;
let sessions: SessionList | null = null;
beforeEach(() => {
  fake.requests.length = 0;
  fake.files = [repositoryFile(3, 'security-overview.pdf'), repositoryFile(4, 'draft.pdf', { status: 'processing' })];
  fake.sessions = [];
});
afterEach(() => {
  chat?.dispose();
  sessions?.dispose();
  fake.clearFailures();
});

const client = () => realClient({ baseUrl: fake.origin, apiKey: 'k' });
const until = (check: () => boolean) => vi.waitFor(() => expect(check()).toBe(true), { timeout: 5000, interval: 5 });

function start(workbook = new MemoryWorkbook(), questions = sampleQuestions()) {
  const c = (chat = createChatController());
  c.setInputs({ client: client(), workbook, questions, active: true });
  return c;
}

describe('Chat controller', () => {
  it('asks statelessly: the turn and its sources in, the box emptied; a failure keeps the question', async () => {
    const c = start();
    c.setInput('  Is data encrypted?  ');
    await c.send();
    expect(c.state.turns.map((t) => [t.sender, t.text])).toEqual([
      ['user', 'Is data encrypted?'],
      ['assistant', 'Data is encrypted at rest with AES-256.'],
    ]);
    expect(c.state.turns[1]!.sources[0]).toMatchObject({ filename: 'security.pdf', page: 4 });
    expect([c.state.input, c.state.busy]).toEqual(['', false]);

    fake.fail('POST', /chat\/ask/, { status: 400, json: { error: 'question is empty' } });
    c.setInput('Again?');
    await c.send();
    expect(c.state.input).toBe('Again?');
    expect(c.state.turns).toHaveLength(2);
    expect(String((c.state.error as Error).message)).toMatch(/question is empty/);
  });

  it('refuses an over-long question before sending it', async () => {
    const c = start();
    c.setInput('x'.repeat(20_000));
    await c.send();
    expect(String(c.state.error)).toMatch(/^The question is 20000 characters long; the service accepts at most \d+\. Shorten it\.$/);
    expect(fake.requestsTo('POST', /chat/)).toHaveLength(0);
  });

  it('keeps a conversation: one session, continued; turning keep off ends it', async () => {
    const c = start();
    c.setKeep(true);
    c.setInput('First');
    await c.send();
    c.setInput('Second');
    await c.send();
    expect(fake.requestsTo('POST', /chat\/sessions\/$/)).toHaveLength(1);
    expect(c.state.turns.map((t) => t.text)).toContain('Data is encrypted at rest with AES-256. (turn 2)');
    expect(c.state.sessionsVersion).toBe(2);
    c.setKeep(false);
    expect(c.state.sessionId).toBeNull();
    c.setKeep(true);
    c.setInput('Third');
    await c.send();
    expect(fake.requestsTo('POST', /chat\/sessions\/$/)).toHaveLength(2);
  });

  it('restricts answers to a file; lists only ready files, and only once shown', async () => {
    const c = (chat = createChatController());
    c.setInputs({ client: client(), workbook: new MemoryWorkbook(), questions: [], active: false });
    await new Promise((r) => setTimeout(r, 30));
    expect(fake.requestsTo('GET', /repository\/files/)).toHaveLength(0);
    c.setInputs({ client: client(), workbook: new MemoryWorkbook(), questions: [], active: true });
    await until(() => c.state.files.length > 0);
    expect(c.state.files.map((f) => f.id)).toEqual([3]);
    c.setFileId('3');
    c.setInput('RTO?');
    await c.send();
    expect(JSON.parse(fake.requestsTo('POST', /chat\/ask/).at(-1)!.body)).toEqual({ question: 'RTO?', file_id: 3 });
  });

  it("asks about the selected cell's question, or says why it cannot", async () => {
    const workbook = new MemoryWorkbook();
    const questions = sampleQuestions();
    const c = start(workbook, questions);
    expect(await c.askAboutSelection()).toBe(false);
    expect(c.state.hint).toBe('Select a cell of a question in the sheet first.');
    workbook.userSelects({ tab: 'Security', address: 'Z99' });
    expect(await c.askAboutSelection()).toBe(false);
    expect(c.state.hint).toBe('The selected cell Security!Z99 does not belong to a question of this questionnaire.');
    const q = questions[0]!;
    workbook.userSelects({ tab: q.tab_name, address: q.question_coordinate! });
    expect(await c.askAboutSelection()).toBe(true);
    expect([c.state.input, c.state.hint]).toEqual([q.original_question_text, null]);

    const none = start(workbook, []);
    expect(await none.askAboutSelection()).toBe(false);
    expect(none.state.hint).toMatch(/^No questionnaire is known for this workbook yet/);
  });

  it('opens a stored conversation, and a new one starts empty', async () => {
    fake.sessions = [
      {
        id: 9,
        title: 'Old',
        created_at: '2025-01-01T00:00:00Z',
        updated_at: '2025-01-01T00:00:00Z',
        is_archived: false,
        message_count: 0,
        messages: [
          { id: 1, sender: 'user', content: 'Q', created_at: '2025-01-01T00:00:00Z', is_edited: false, metadata: null, sources: [] },
          { id: 2, sender: 'assistant', content: 'A', created_at: '2025-01-01T00:00:00Z', is_edited: false, metadata: { trust: 'high' }, sources: [] },
        ],
      },
    ];
    const c = start();
    await c.openSession(9);
    expect([c.state.sessionId, c.state.keep, c.state.turns.map((t) => t.trust)]).toEqual([9, true, [null, 'high']]);
    c.newConversation();
    expect([c.state.sessionId, c.state.turns]).toEqual([null, []]);
  });
});

describe('Conversations list', () => {
  it('lists when shown, searches after a pause, pages, and lists again when told', async () => {
    fake.sessions = Array.from({ length: 12 }, (_, i) => ({
      id: i + 1,
      title: i === 4 ? 'Encryption' : `Chat ${i + 1}`,
      created_at: '2025-01-01T00:00:00Z',
      updated_at: '2025-01-01T00:00:00Z',
      is_archived: false,
      message_count: 2,
      messages: [],
    }));
    const s = (sessions = createSessionList({ searchDelayMs: 10 }));
    const api = client();
    s.setInputs({ client: api, active: false, refreshKey: 0 });
    await new Promise((r) => setTimeout(r, 30));
    expect(fake.requestsTo('GET', /chat\/sessions/)).toHaveLength(0);
    s.setInputs({ client: api, active: true, refreshKey: 0 });
    await until(() => s.state.data?.count === 12 && !s.state.loading);
    expect([s.state.data!.results.length, s.state.data!.hasNext]).toEqual([10, true]);
    s.setPage(2);
    await until(() => s.state.data?.results.length === 2);
    s.setSearch('encrypt');
    expect(s.state.page).toBe(1);
    await until(() => s.state.data?.count === 1);
    expect(
      fake
        .requestsTo('GET', /chat\/sessions/)
        .at(-1)!
        .query.get('search'),
    ).toBe('encrypt');
    const before = fake.requestsTo('GET', /chat\/sessions/).length;
    s.setInputs({ client: api, active: true, refreshKey: 1 });
    await until(() => fake.requestsTo('GET', /chat\/sessions/).length === before + 1);
  });
});
