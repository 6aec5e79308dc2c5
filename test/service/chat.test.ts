import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AskResponse, ChatSession, LIMITS, paginated } from '../../src/api/schemas';
import { createOffering } from '../../src/service/admin';
import { client, expectError, expectShape, files, KB_TEXT, startWithTwoOrgs, waitForFile, type Service } from './helpers';

let service: Service;
let api: ReturnType<typeof client>;
let other: ReturnType<typeof client>;
let fileId: number;
let otherFileId: number;

beforeAll(async () => {
  ({ service, api, other } = await startWithTwoOrgs('bob'));
  const up = await api.post('/api/v2/repository/files/', files(['security.txt', KB_TEXT, 'text/plain']));
  expect(up.status).toBe(200);
  fileId = up.body.file_ids[0];
  const other2 = await api.post(
    '/api/v2/repository/files/',
    files(['hr.md', '# People\n\nAll employees complete security awareness training every year.', 'text/markdown']),
  );
  const otherUp = await other.post('/api/v2/repository/files/', files(['globex.txt', 'Globex keeps its data in Antarctica.', 'text/plain']));
  otherFileId = otherUp.body.file_ids[0];
  for (const id of [fileId, other2.body.file_ids[0]]) expect((await waitForFile(api, id)).body.status).toBe('ready');
  expect((await waitForFile(other, otherFileId)).body.status).toBe('ready');
});

afterAll(async () => {
  await service.destroy();
});

describe('POST /chat/ask/', () => {
  it('answers statelessly with sources from the knowledge base', async () => {
    const res = await api.post('/api/v2/chat/ask/', { question: 'Is customer data encrypted at rest?' });
    expect(res.status).toBe(200);
    const body = expectShape(AskResponse, res.body);
    expect(body.session_id).toBeNull();
    expect(body.answer).toMatch(/AES-256/);
    expect(body.sources.length).toBeGreaterThan(0);
    expect(body.sources[0]).toMatchObject({ filename: 'security.txt', page_number: 1, file_id: fileId });
    expect(body.sources[0]!.content).toMatch(/AES-256/);
  });

  it('accepts a form-encoded body with the same field names', async () => {
    const form = new URLSearchParams({ question: 'How often are access rights reviewed?', file_id: String(fileId) });
    const res = await api.post('/api/v2/chat/ask/', form);
    expect(res.status).toBe(200);
    expectShape(AskResponse, res.body);
    expect(res.body.answer).toMatch(/quarterly/);
  });

  it('restricts grounding to file_id', async () => {
    const res = await api.post('/api/v2/chat/ask/', { question: 'security awareness training every year', file_id: fileId });
    expect(res.status).toBe(200);
    for (const s of res.body.sources) expect(s.file_id).toBe(fileId);
  });

  it("never grounds on another organization's documents", async () => {
    const res = await api.post('/api/v2/chat/ask/', { question: 'Where does Globex keep its data? Antarctica?' });
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).not.toMatch(/Antarctica is|globex\.txt/);
    expect(res.body.sources.every((s: { filename: string }) => s.filename !== 'globex.txt')).toBe(true);
  });

  it("rejects another organization's file_id as not found", async () => {
    expectError(await api.post('/api/v2/chat/ask/', { question: 'anything', file_id: otherFileId }), 404, /file_id/);
  });

  it('rejects unknown offering ids', async () => {
    expectError(await api.post('/api/v2/chat/ask/', { question: 'anything', offering_ids: [999] }), 400, /offering_ids: unknown offering 999/);
  });

  it('accepts known offering ids', async () => {
    const id = await createOffering(service.storage, { org: 'acme', name: 'Cloud', type: 'service' });
    const res = await api.post('/api/v2/chat/ask/', { question: 'encryption', offering_ids: [id] });
    expect(res.status).toBe(200);
    expectShape(AskResponse, res.body);
  });

  it('continues a session when session_id is given', async () => {
    const session = await api.post('/api/v2/chat/sessions/', {});
    const res = await api.post('/api/v2/chat/ask/', { question: 'Is customer data encrypted at rest?', session_id: session.body.id });
    expect(res.status).toBe(200);
    expect(res.body.session_id).toBe(session.body.id);
    const after = await api.get(`/api/v2/chat/sessions/${session.body.id}/`);
    expect(after.body.message_count).toBe(2);
    expect(after.body.title).toBe('Is customer data encrypted at rest?');
  });

  it('404s an unknown session', async () => {
    expectError(await api.post('/api/v2/chat/ask/', { question: 'x', session_id: 987654 }), 404, /session/);
  });
});

describe('chat sessions', () => {
  it('creates an empty session with defaults, including from an empty body', async () => {
    const res = await api.post('/api/v2/chat/sessions/');
    expect(res.status).toBe(200);
    const s = expectShape(ChatSession, res.body);
    expect(s).toMatchObject({ title: 'New Chat', is_archived: false, message_count: 0, last_message: {}, messages: [] });
  });

  it('keeps a title set by the user and the archived flag', async () => {
    const res = await api.post('/api/v2/chat/sessions/', { title: 'Vendor review', is_archived: true });
    expect(res.body).toMatchObject({ title: 'Vendor review', is_archived: true });
    const msg = await api.post(`/api/v2/chat/sessions/${res.body.id}/messages/`, { message: 'Is data encrypted?' });
    expect(msg.body.title).toBe('Vendor review');
  });

  it('sends messages, carries context across turns, and records sources with relevance scores', async () => {
    const created = await api.post('/api/v2/chat/sessions/', {});
    const id = created.body.id;
    const first = await api.post(`/api/v2/chat/sessions/${id}/messages/`, { message: 'How is customer data encrypted at rest?' });
    expect(first.status).toBe(200);
    const s1 = expectShape(ChatSession, first.body);
    expect(s1.message_count).toBe(2);
    expect(s1.title).toBe('How is customer data encrypted at rest?');
    expect(s1.messages!.map((m) => m.sender)).toEqual(['user', 'assistant']);
    const answer = s1.messages![1]!;
    expect(answer.content).toMatch(/AES-256/);
    expect(answer.sources.length).toBeGreaterThan(0);
    for (const src of answer.sources) {
      expect(src.relevance_score).toBeGreaterThan(0);
      expect(src.source_file).toBe('security.txt');
    }
    expect(s1.last_message).toMatchObject({ sender: 'assistant', content: answer.content });

    // A follow-up that only makes sense with the earlier turn.
    const second = await api.post(`/api/v2/chat/sessions/${id}/messages/`, { message: 'And in transit?' });
    expect(second.status).toBe(200);
    expect(second.body.message_count).toBe(4);
    // The earlier turn travels with the follow-up: the searched query includes it, and the answer is
    // about encryption.
    expect(second.body.messages[3].metadata.resolved_query).toMatch(/encrypt/i);
    // Metadata carries the confidence: the best source's relevance.
    const best = Math.max(...(second.body.messages[3].sources as { relevance_score: number }[]).map((x) => x.relevance_score));
    expect(second.body.messages[3].metadata).toMatchObject({ confidence: best, source_count: second.body.messages[3].sources.length });
    expect(second.body.messages[3].content).toMatch(/encrypt|TLS/);
    expect(second.body.title).toBe('How is customer data encrypted at rest?');
    expect(Date.parse(second.body.updated_at)).toBeGreaterThan(Date.parse(created.body.updated_at));

    const fetched = await api.get(`/api/v2/chat/sessions/${id}/`);
    expect(fetched.status).toBe(200);
    const s = expectShape(ChatSession, fetched.body);
    expect(s.messages).toHaveLength(4);
    expect(s.messages![1]!.sources[0]!.id).toBeGreaterThan(0);
  });

  it('trims a generated title to 200 characters', async () => {
    const created = await api.post('/api/v2/chat/sessions/', {});
    const long = 'encryption '.repeat(60).trim();
    const res = await api.post(`/api/v2/chat/sessions/${created.body.id}/messages/`, { message: long });
    expect(res.status).toBe(200);
    expect(res.body.title.length).toBeLessThanOrEqual(LIMITS.sessionTitleLength);
    expect(res.body.title.startsWith('encryption encryption')).toBe(true);
  });

  it('accepts context and a null file_id, enforces the limits of section 8', async () => {
    const created = await api.post('/api/v2/chat/sessions/', {});
    const path = `/api/v2/chat/sessions/${created.body.id}/messages/`;
    expect((await api.post(path, { message: 'backups?', context: 'We talk about our backup policy.', file_id: null })).status).toBe(200);
    expect((await api.post(path, { message: 'x'.repeat(4000) })).status).toBe(200);
    expectError(await api.post(path, { message: 'x'.repeat(4001) }), 400, /^message:/);
    expectError(await api.post(path, { message: 'ok', context: 'x'.repeat(8001) }), 400, /^context:/);
    expectError(await api.post('/api/v2/chat/sessions/', { title: 't'.repeat(201) }), 400, /^title:/);
    expectError(await api.post(path, { message: 'ok', file_id: otherFileId }), 404, /file_id/);
  });

  it('lists sessions newest activity first, paginated with absolute links, searchable', async () => {
    api = client(service, await service.key({ org: 'pager', user: 'pat' }));
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push((await api.post('/api/v2/chat/sessions/', { title: `Session ${i}` })).body.id);
    // Activity on the oldest one moves it to the top.
    await api.post(`/api/v2/chat/sessions/${ids[0]}/messages/`, { message: 'Tell me about zebra backups' });

    const page1 = await api.get('/api/v2/chat/sessions/?page_size=2');
    expect(page1.status).toBe(200);
    const p1 = expectShape(paginated(ChatSession), page1.body);
    expect(p1.count).toBe(5);
    expect(p1.results.map((s) => s.id)).toEqual([ids[0], ids[4]]);
    expect(p1.previous).toBeNull();
    expect(p1.next).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v2\/chat\/sessions\/\?page_size=2&page=2$/);
    const page2 = await api.get(new URL(p1.next!).pathname + new URL(p1.next!).search);
    expect(page2.body.results.map((s: { id: number }) => s.id)).toEqual([ids[3], ids[2]]);
    expect(page2.body.previous).toMatch(/page=1/);
    const page3 = await api.get('/api/v2/chat/sessions/?page_size=2&page=3');
    expect(page3.body.results.map((s: { id: number }) => s.id)).toEqual([ids[1]]);
    expect(page3.body.next).toBeNull();
    expectError(await api.get('/api/v2/chat/sessions/?page_size=2&page=4'), 404, /page/);
    expectError(await api.get('/api/v2/chat/sessions/?page_size=201'), 400, /page_size/);

    const byTitle = await api.get('/api/v2/chat/sessions/?search=Session%203');
    expect(byTitle.body.results.map((s: { id: number }) => s.id)).toEqual([ids[3]]);
    const byMessage = await api.get('/api/v2/chat/sessions/?search=zebra');
    expect(byMessage.body.results.map((s: { id: number }) => s.id)).toEqual([ids[0]]);
  });

  it("does not show one user's sessions to another organization", async () => {
    const mine = await api.post('/api/v2/chat/sessions/', { title: 'private' });
    expectError(await other.get(`/api/v2/chat/sessions/${mine.body.id}/`), 404);
    expectError(await other.post(`/api/v2/chat/sessions/${mine.body.id}/messages/`, { message: 'hi' }), 404);
    const list = await other.get('/api/v2/chat/sessions/');
    expect(list.body.results.some((s: { id: number }) => s.id === mine.body.id)).toBe(false);
  });
});
