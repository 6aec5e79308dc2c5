import { describe, expect, it } from 'vitest';
import { ApiClient, ApiError, type ClientOptions } from '../../src/api';
import { type TestServer, page, parseMultipart, serverPerTest, progress, question, questionnaire, repoFile, session, structure } from './server';

let server: TestServer;
serverPerTest((s) => (server = s));

const noWait = async () => {};
function client(extra: Partial<ClientOptions> = {}) {
  return new ApiClient({ baseUrl: server.url, apiKey: 'qf_test_key', sleep: noWait, ...extra });
}

describe('authentication', () => {
  it('sends X-API-Key by default and nothing in Authorization', async () => {
    server.script({ json: session(1) });
    await client().getSession(1);
    expect(server.last().headers['x-api-key']).toBe('qf_test_key');
    expect(server.last().headers.authorization).toBeUndefined();
  });

  it('sends the legacy Authorization: Api-Key form when asked', async () => {
    server.script({ json: session(1) });
    await client({ authScheme: 'authorization' }).getSession(1);
    expect(server.last().headers.authorization).toBe('Api-Key qf_test_key');
    expect(server.last().headers['x-api-key']).toBeUndefined();
  });

  it('asks for JSON', async () => {
    server.script({ json: session(1) });
    await client().getSession(1);
    expect(server.last().headers.accept).toBe('application/json');
  });

  it('rejects a key that cannot travel in a header', () => {
    expect(() => new ApiClient({ baseUrl: server.url, apiKey: 'abc\ndef' })).toThrow(/API key contains characters/);
  });
});

describe('base URL normalisation', () => {
  it.each([
    ['', '/api/v2/'],
    ['/', '/api/v2/'],
    ['//', '/api/v2/'],
    ['/api/v2', '/api/v2/'],
    ['/api/v2/', '/api/v2/'],
    ['/tenant', '/tenant/api/v2/'],
    ['/tenant/api/v2/', '/tenant/api/v2/'],
  ])('%j becomes %j and requests go below it', async (suffix, path) => {
    const c = client({ baseUrl: `  ${server.url}${suffix} ` });
    expect(c.baseUrl).toBe(`${server.origin}${path}`);
    server.script({ json: session(3) });
    await c.getSession(3);
    expect(server.last().path).toBe(`${path}chat/sessions/3/`);
  });

  it.each([['not a url'], ['ftp://example.com'], ['   ']])('rejects %j with invalid_argument', (bad) => {
    let caught: unknown;
    try {
      new ApiClient({ baseUrl: bad, apiKey: 'k' });
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(ApiError);
    expect((caught as ApiError).kind).toBe('invalid_argument');
    expect((caught as ApiError).message).toMatch(/base URL/);
  });
});

describe('every endpoint: method and path', () => {
  const cases: Array<[string, string, string, unknown, (c: ApiClient) => Promise<unknown>]> = [
    ['ask', 'POST', '/api/v2/chat/ask/', { answer: 'a', sources: [], session_id: null }, (c) => c.ask({ question: 'q?' })],
    ['listSessions', 'GET', '/api/v2/chat/sessions/', page([session(1)], null), (c) => c.listSessions()],
    ['createSession', 'POST', '/api/v2/chat/sessions/', session(5), (c) => c.createSession()],
    ['getSession', 'GET', '/api/v2/chat/sessions/5/', session(5), (c) => c.getSession(5)],
    ['sendMessage', 'POST', '/api/v2/chat/sessions/5/messages/', session(5), (c) => c.sendMessage(5, { message: 'hi' })],
    ['listQuestionnaires', 'GET', '/api/v2/filler/questionnaires/', [questionnaire(1)], (c) => c.listQuestionnaires()],
    [
      'uploadQuestionnaires',
      'POST',
      '/api/v2/filler/questionnaires/',
      { file_ids: [1], questionnaire_ids: [2] },
      (c) => c.uploadQuestionnaires([{ name: 'q.xlsx', data: new Uint8Array([1]) }]),
    ],
    ['getQuestionnaire', 'GET', '/api/v2/filler/questionnaires/7/', questionnaire(7), (c) => c.getQuestionnaire(7)],
    ['getAnswerProgress', 'GET', '/api/v2/filler/questionnaires/7/answer-progress/', progress('idle', 0), (c) => c.getAnswerProgress('7')],
    ['getAnswers', 'GET', '/api/v2/filler/questionnaires/7/answers/', [question], (c) => c.getAnswers(7)],
    ['getStructure', 'GET', '/api/v2/filler/questionnaires/7/structure/', structure, (c) => c.getStructure('7')],
    ['listRepositoryFiles', 'GET', '/api/v2/repository/files/', page([repoFile(1)], null), (c) => c.listRepositoryFiles()],
    [
      'uploadRepositoryFiles',
      'POST',
      '/api/v2/repository/files/',
      { count: 1, failed: [] },
      (c) => c.uploadRepositoryFiles([{ name: 'p.pdf', data: new Uint8Array([1]) }]),
    ],
    ['getRepositoryFile', 'GET', '/api/v2/repository/files/0/', repoFile(0), (c) => c.getRepositoryFile(0)],
  ];

  it.each(cases)('%s is %s %s and returns the validated body', async (_name, method, path, reply, call) => {
    server.script({ json: reply });
    const result = await call(client());
    expect(server.requests).toHaveLength(1);
    expect(server.last().method).toBe(method);
    expect(server.last().path).toBe(path);
    expect(result).toEqual(reply);
  });
});

describe('request bodies', () => {
  it('ask sends JSON by default', async () => {
    server.script({ json: { answer: 'Yes.', sources: [{ filename: 'a.pdf', page_number: 2, content: 'x' }], session_id: 4 } });
    const res = await client().ask({ question: 'Do you encrypt?', session_id: 4, file_id: 9, offering_ids: [1, 2] });
    expect(res.answer).toBe('Yes.');
    expect(res.sources[0]!.page_number).toBe(2);
    const rec = server.last();
    expect(rec.headers['content-type']).toBe('application/json');
    expect(JSON.parse(rec.body.toString())).toEqual({ question: 'Do you encrypt?', session_id: 4, file_id: 9, offering_ids: [1, 2] });
  });

  it('ask sends form-encoded fields with arrays repeated when asked', async () => {
    server.script({ json: { answer: 'Yes.', sources: [], session_id: null } });
    await client().ask({ question: 'Do you & we encrypt?', offering_ids: [3, 4] }, { encoding: 'form' });
    const rec = server.last();
    expect(rec.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    const form = new URLSearchParams(rec.body.toString());
    expect(form.get('question')).toBe('Do you & we encrypt?');
    expect(form.getAll('offering_ids')).toEqual(['3', '4']);
    expect(form.has('session_id')).toBe(false);
  });

  it('createSession sends {} when empty and the given fields otherwise', async () => {
    server.script({ json: session(1) }, { json: session(2, { title: 'Audit', is_archived: true }) });
    const c = client();
    await c.createSession();
    expect(JSON.parse(server.last().body.toString())).toEqual({});
    const s = await c.createSession({ title: 'Audit', is_archived: true });
    expect(JSON.parse(server.last().body.toString())).toEqual({ title: 'Audit', is_archived: true });
    expect(s.title).toBe('Audit');
  });

  it('sendMessage sends every field of 2.6', async () => {
    server.script({ json: session(5) });
    await client().sendMessage(5, { message: 'Hello', file_id: null, context: 'ctx', offering_ids: [8] });
    expect(JSON.parse(server.last().body.toString())).toEqual({ message: 'Hello', file_id: null, context: 'ctx', offering_ids: [8] });
  });

  it('rejects input the contract forbids before sending, naming the field', async () => {
    const c = client();
    await expect(c.ask({ question: '   ' })).rejects.toMatchObject({ kind: 'invalid_argument', message: /question/ });
    await expect(c.sendMessage(1, { message: 'x'.repeat(4001) })).rejects.toMatchObject({ kind: 'invalid_argument', message: /message/ });
    await expect(c.listRepositoryFiles({ page_size: 500 })).rejects.toMatchObject({ kind: 'invalid_argument', message: /page_size/ });
    expect(server.requests).toHaveLength(0);
  });
});

describe('multipart uploads', () => {
  it('questionnaires: repeated files and every field of 4.7', async () => {
    server.script({ json: { file_ids: [11, 12], questionnaire_ids: [21, 22] } });
    const xlsx = new Uint8Array([0x50, 0x4b, 3, 4, 0, 255]);
    const blob = new Blob(['second,file\n'], { type: 'text/csv' });
    const res = await client().uploadQuestionnaires(
      [
        { name: 'CAIQ v4.xlsx', data: xlsx },
        { name: 'extra.csv', data: blob },
      ],
      {
        client: 'ACME Corp',
        document_type: 'security_questionnaire',
        visibility: 'team',
        team_id: 3,
        reviewer_ids: [4, 5],
        advanced_options: { language: 'en', nested: { a: 1 } },
      },
    );
    expect(res).toEqual({ file_ids: [11, 12], questionnaire_ids: [21, 22] });
    const rec = server.last();
    const form = await parseMultipart(rec);
    const files = form.getAll('files') as File[];
    expect(files.map((f) => f.name)).toEqual(['CAIQ v4.xlsx', 'extra.csv']);
    expect(new Uint8Array(await files[0]!.arrayBuffer())).toEqual(xlsx);
    expect(files[0]!.type).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(await files[1]!.text()).toBe('second,file\n');
    expect(files[1]!.type).toBe('text/csv');
    expect(form.get('client')).toBe('ACME Corp');
    expect(form.get('document_type')).toBe('security_questionnaire');
    expect(form.get('visibility')).toBe('team');
    expect(form.get('team_id')).toBe('3');
    expect(form.getAll('reviewer_ids')).toEqual(['4', '5']);
    expect(JSON.parse(form.get('advanced_options') as string)).toEqual({ language: 'en', nested: { a: 1 } });
    expect([...form.keys()].filter((k) => k !== 'files' && k !== 'reviewer_ids').sort()).toEqual([
      'advanced_options',
      'client',
      'document_type',
      'team_id',
      'visibility',
    ]);
  });

  it('repository: repeated tags and offerings, booleans as true/false, analysis_type', async () => {
    server.script({ json: { count: 2, failed: [] } }, { json: { count: 1, failed: ['x'] } });
    const c = client();
    const bytes = new TextEncoder().encode('%PDF-1.4 policy');
    // A view into a larger buffer: only the viewed bytes may be sent.
    const big = new Uint8Array(100);
    big.set([7, 8, 9], 10);
    await c.uploadRepositoryFiles(
      [
        { name: 'policy.pdf', data: bytes },
        { name: 'raw.bin', data: big.subarray(10, 13), type: 'application/x-custom' },
      ],
      { tags: ['security', 'iso'], analysis_type: 'deep', relevant_offerings: [7, 9], scope_includes_company: false },
    );
    let form = await parseMultipart(server.last());
    const files = form.getAll('files') as File[];
    expect(files.map((f) => [f.name, f.type])).toEqual([
      ['policy.pdf', 'application/pdf'],
      ['raw.bin', 'application/x-custom'],
    ]);
    expect(await files[0]!.text()).toBe('%PDF-1.4 policy');
    expect(new Uint8Array(await files[1]!.arrayBuffer())).toEqual(new Uint8Array([7, 8, 9]));
    expect(form.getAll('tags')).toEqual(['security', 'iso']);
    expect(form.getAll('relevant_offerings')).toEqual(['7', '9']);
    expect(form.get('scope_includes_company')).toBe('false');
    expect(form.get('analysis_type')).toBe('deep');

    const res = await c.uploadRepositoryFiles([{ name: 'a.txt', data: new Uint8Array([65]) }], { scope_includes_company: true });
    expect(res).toEqual({ count: 1, failed: ['x'] });
    form = await parseMultipart(server.last());
    expect(form.get('scope_includes_company')).toBe('true');
    expect(form.has('tags')).toBe(false);
  });

  it('sends a Node Buffer (a view into the shared pool) and a browser File as their own bytes', async () => {
    server.script({ json: { count: 2, failed: [] } });
    // Small Buffers are slices of one shared 8 KB pool: only the slice may travel.
    const buffer = Buffer.from('policy text from disk');
    expect(buffer.byteOffset > 0 || buffer.buffer.byteLength > buffer.length).toBe(true);
    const file = new File(['<h1>Handbook</h1>'], 'ignored-own-name.html', { type: 'text/html' });
    await client().uploadRepositoryFiles([
      { name: 'policy.txt', data: buffer },
      { name: 'handbook.html', data: file },
    ]);
    const files = (await parseMultipart(server.last())).getAll('files') as File[];
    expect(files.map((f) => [f.name, f.type])).toEqual([
      ['policy.txt', 'text/plain'],
      ['handbook.html', 'text/html'],
    ]);
    expect(await files[0]!.text()).toBe('policy text from disk');
    expect(await files[1]!.text()).toBe('<h1>Handbook</h1>');
  });

  it('rejects uploads without files or with nameless/dataless files before sending', async () => {
    const c = client();
    await expect(c.uploadRepositoryFiles([])).rejects.toMatchObject({ kind: 'invalid_argument', message: /at least one file/ });
    await expect(c.uploadRepositoryFiles([{ name: ' ', data: new Uint8Array() }])).rejects.toMatchObject({ message: /no name/ });
    await expect(c.uploadQuestionnaires([{ name: 'a.xlsx', data: 'text' as unknown as Blob }])).rejects.toMatchObject({ message: /"a.xlsx" has no data/ });
    await expect(c.uploadRepositoryFiles([{ name: 'a.pdf', data: new Uint8Array() }], { tags: ['x'.repeat(51)] })).rejects.toMatchObject({ message: /tags/ });
    expect(server.requests).toHaveLength(0);
  });
});

describe('query parameters', () => {
  it('sessions: page, page_size, search; undefined omitted', async () => {
    server.script({ json: page([], null) }, { json: page([], null) });
    const c = client();
    await c.listSessions({ page: 2, page_size: 10, search: 'soc 2 & iso' });
    expect(Object.fromEntries(server.last().query)).toEqual({ page: '2', page_size: '10', search: 'soc 2 & iso' });
    await c.listSessions({ search: undefined });
    expect(server.last().query.toString()).toBe('');
  });

  it('questionnaires: team_id and visibility', async () => {
    server.script({ json: [] });
    await client().listQuestionnaires({ team_id: 4, visibility: 'organization' });
    expect(Object.fromEntries(server.last().query)).toEqual({ team_id: '4', visibility: 'organization' });
  });

  it('answers: tab and section, combinable', async () => {
    server.script({ json: [question] }, { json: [] });
    const c = client();
    const answers = await c.getAnswers('12', { tab: 'Security & Privacy', section: 'A.1' });
    expect(answers[0]!.answers[0]!.text).toBe('Yes, AES-256.');
    expect(Object.fromEntries(server.last().query)).toEqual({ tab: 'Security & Privacy', section: 'A.1' });
    await c.getAnswers(12, { section: 'B' });
    expect(Object.fromEntries(server.last().query)).toEqual({ section: 'B' });
  });

  it('repository files: every parameter of 4.12', async () => {
    server.script({ json: page([], null) });
    await client().listRepositoryFiles({ document_type: 'documentation', ordering: '-created_at', page: 3, page_size: 200, search: 'iso', status: 'failed' });
    expect(Object.fromEntries(server.last().query)).toEqual({
      document_type: 'documentation',
      ordering: '-created_at',
      page: '3',
      page_size: '200',
      search: 'iso',
      status: 'failed',
    });
  });
});

describe('pagination', () => {
  it('iterates sessions across 3 pages following absolute next links', async () => {
    const base = `${server.origin}/api/v2/chat/sessions/`;
    server.script(
      { json: page([session(1), session(2)], `${base}?page=2&search=x`, 5) },
      { json: page([session(3), session(4)], `${base}?page=3&search=x`, 5) },
      { json: page([session(5)], null, 5) },
    );
    const ids: number[] = [];
    for await (const s of client().iterateSessions({ search: 'x' })) ids.push(s.id);
    expect(ids).toEqual([1, 2, 3, 4, 5]);
    expect(server.requests.map((r) => `${r.path}?${r.query}`)).toEqual([
      '/api/v2/chat/sessions/?search=x',
      '/api/v2/chat/sessions/?page=2&search=x',
      '/api/v2/chat/sessions/?page=3&search=x',
    ]);
    expect(server.requests.every((r) => r.headers['x-api-key'] === 'qf_test_key')).toBe(true);
  });

  it('iterates repository files across 3 pages', async () => {
    const base = `${server.origin}/api/v2/repository/files/`;
    server.script(
      { json: page([repoFile(1)], `${base}?page=2&status=ready`) },
      { json: page([repoFile(2)], `${base}?page=3&status=ready`) },
      { json: page([repoFile(3)], null) },
    );
    const names: string[] = [];
    for await (const f of client().iterateRepositoryFiles({ status: 'ready' })) names.push(f.original_filename ?? '');
    expect(names).toEqual(['doc-1.pdf', 'doc-2.pdf', 'doc-3.pdf']);
    expect(server.requests.map((r) => r.query.get('page'))).toEqual([null, '2', '3']);
  });

  it('refuses a next link on another origin, never sending the key there', async () => {
    server.script({ json: page([session(1)], 'http://evil.example:9/api/v2/chat/sessions/?page=2') });
    const seen: number[] = [];
    const run = async () => {
      for await (const s of client().iterateSessions()) seen.push(s.id);
    };
    await expect(run()).rejects.toMatchObject({ kind: 'invalid_response', message: /another origin/ });
    expect(seen).toEqual([1]);
    expect(server.requests).toHaveLength(1);
  });

  it('stops a next link that loops back to a page already read', async () => {
    const base = `${server.origin}/api/v2/repository/files/`;
    server.script({ json: page([repoFile(1)], `${base}?page=2`) }, { json: page([repoFile(2)], `${base}?page=2`) });
    const run = async () => {
      for await (const _ of client().iterateRepositoryFiles()) void _;
    };
    await expect(run()).rejects.toMatchObject({ kind: 'invalid_response', message: /repeats a page/ });
    expect(server.requests).toHaveLength(2);
  });
});

describe('getCurrentKey (extension "keys.current")', () => {
  const identity = { organization: { id: 3, name: 'Acme' }, user: { id: 9, name: 'Alice Smith', role: 'admin' }, read_only: false };

  it('is GET /keys/current/ and returns whose key it is', async () => {
    server.script({ json: identity });
    expect(await client().getCurrentKey()).toEqual(identity);
    expect(server.last().method).toBe('GET');
    expect(server.last().path).toBe('/api/v2/keys/current/');
    expect(server.last().headers['x-api-key']).toBe('qf_test_key');
  });

  it('refuses an answer without the organisation or user as an invalid response', async () => {
    server.script({ json: { organization: { id: 3, name: 'Acme' }, read_only: false } });
    await expect(client().getCurrentKey()).rejects.toMatchObject({ kind: 'invalid_response' });
  });

  it('a plain v2 service (404) is an http error the caller can feature-detect', async () => {
    server.script({ status: 404, json: { error: 'not found' } });
    await expect(client().getCurrentKey()).rejects.toMatchObject({ kind: 'http', status: 404 });
  });
});
