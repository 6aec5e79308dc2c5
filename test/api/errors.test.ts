import { describe, expect, it } from 'vitest';
import { ApiClient, describeError, type ClientOptions } from '../../src/api';
import { failure, page, progress, serverPerTest, session, TestServer } from './server';

let server: TestServer;
serverPerTest((s) => (server = s));

function client(extra: Partial<ClientOptions> = {}) {
  return new ApiClient({ baseUrl: server.url, apiKey: 'qf_key', sleep: async () => {}, ...extra });
}

describe('HTTP error statuses of section 7', () => {
  it('400 carries the server message and says to correct the input', async () => {
    server.script({ status: 400, json: { error: 'message: too long' } });
    const e = await failure(client().sendMessage(3, { message: 'hi' }));
    expect(e).toMatchObject({ kind: 'http', status: 400, serverMessage: 'message: too long', endpoint: 'POST /chat/sessions/{id}/messages/' });
    expect(e.message).toContain('message: too long');
    expect(e.message).toMatch(/Check the values/);
    expect(describeError(e)).toBe(e.message);
  });

  it('403 explains the refused key or missing licence', async () => {
    server.script({ status: 403, json: { error: 'No active license' } });
    const e = await failure(client().uploadRepositoryFiles([{ name: 'a.pdf', data: new Uint8Array([1]) }]));
    expect(e).toMatchObject({ kind: 'http', status: 403, serverMessage: 'No active license', endpoint: 'POST /repository/files/' });
    expect(e.message).toContain('the API key was refused or the organisation has no active licence');
    expect(e.message).toContain('No active license');
  });

  it('403 without a key says that no key is set', async () => {
    server.script({ status: 403, json: { error: 'Authentication required' } });
    const e = await failure(client({ apiKey: '' }).listQuestionnaires());
    expect(server.last().headers['x-api-key']).toBeUndefined();
    expect(e.message).toMatch(/no API key is set/);
  });

  it('404 names the endpoint and says to check the id', async () => {
    server.script({ status: 404, json: { error: 'Questionnaire not found' } });
    const e = await failure(client().getQuestionnaire('999'));
    expect(e).toMatchObject({ kind: 'http', status: 404, serverMessage: 'Questionnaire not found', endpoint: 'GET /filler/questionnaires/{id}/' });
    expect(e.url).toBe(`${server.origin}/api/v2/filler/questionnaires/999/`);
    expect(e.message).toMatch(/Check the id/);
  });

  it('429 says quota exceeded and when to retry', async () => {
    server.script({ status: 429, json: { error: 'Quota exceeded' }, headers: { 'Retry-After': '3600' } });
    const e = await failure(client().ask({ question: 'q' }));
    expect(e).toMatchObject({ kind: 'http', status: 429, serverMessage: 'Quota exceeded', retryAfterSeconds: 3600 });
    expect(e.message).toContain('quota exceeded; retry after 3600 s');
    // Longer than maxRetryAfterMs: not waited for.
    expect(server.requests).toHaveLength(1);
  });

  it('reads a DRF-style {"detail"} body too', async () => {
    server.script({ status: 403, json: { detail: 'Invalid API key.' } });
    const e = await failure(client().getSession(1));
    expect(e.serverMessage).toBe('Invalid API key.');
  });

  it('an error status with an HTML body still gives a clear message', async () => {
    server.script({ status: 502, text: '<html>Bad gateway</html>', headers: { 'content-type': 'text/html' } });
    const e = await failure(client().createSession());
    expect(e).toMatchObject({ kind: 'http', status: 502, serverMessage: null });
    expect(e.message).toMatch(/The service failed \(502/);
    expect(e.message).not.toMatch(/undefined|null/);
  });

  it('a redirect is not followed (the key stays here) and says what to do', async () => {
    server.script({ status: 301, headers: { location: 'https://elsewhere.example/api/v2/chat/sessions/1/' } });
    const e = await failure(client().getSession(1));
    expect(e).toMatchObject({ kind: 'http', status: 301 });
    expect(e.message).toMatch(/redirect.*elsewhere\.example.*Set the base URL/);
  });
});

describe('responses that are not the contract', () => {
  it('a non-JSON 200 body is invalid_response quoting what came back', async () => {
    server.script({ status: 200, text: '<!doctype html><title>Login</title>', headers: { 'content-type': 'text/html' } });
    const e = await failure(client().listQuestionnaires());
    expect(e.kind).toBe('invalid_response');
    expect(e.message).toContain('not JSON');
    expect(e.message).toContain('text/html');
    expect(e.message).toContain('<!doctype html><title>Login</title>');
  });

  it('an empty 200 body is invalid_response', async () => {
    server.script({ status: 200, text: '' });
    const e = await failure(client().getStructure(1));
    expect(e.kind).toBe('invalid_response');
    expect(e.message).toMatch(/empty body/);
  });

  it('a body failing validation names the field', async () => {
    server.script({ json: { ...progress('generating', 1), status: 'thinking' } });
    const e = await failure(client().getAnswerProgress(4));
    expect(e.kind).toBe('invalid_response');
    expect(e.endpoint).toBe('GET /filler/questionnaires/{id}/answer-progress/');
    expect(e.message).toMatch(/status: Invalid option/);
  });

  it('names the nested path of a failing field in a page', async () => {
    server.script({ json: page([session(1), { ...session(2), id: 'two' }], null) });
    const e = await failure(client().listSessions());
    expect(e.message).toContain('results.1.id');
  });
});

describe('network failures', () => {
  it('connection refused: a readable message naming the address, after the retries', async () => {
    const gone = await TestServer.start();
    const base = gone.url;
    await gone.close();
    const delays: number[] = [];
    const c = new ApiClient({ baseUrl: base, apiKey: 'k', sleep: async (ms) => void delays.push(ms), retry: { retries: 2 } });
    const e = await failure(c.getSession(1));
    expect(e).toMatchObject({ kind: 'network', status: 0, endpoint: 'GET /chat/sessions/{id}/' });
    expect(e.message).toContain(`Could not reach the service at ${base}/api/v2/: connection refused`);
    expect(e.message).toContain('Gave up after 3 attempts');
    expect(delays).toHaveLength(2);
  });
});

describe('path ids are validated before any request', () => {
  it.each([[-1], [1.5], ['12a'], [''], [' 7'], ['-3'], [Number.NaN], [null], [{}]])('questionnaire id %j is refused', async (bad) => {
    const e = await failure(client().getQuestionnaire(bad as never));
    expect(e.kind).toBe('invalid_argument');
    expect(e.message).toMatch(/questionnaire id must be a non-negative integer or a string of digits/);
  });

  it.each([[0], [-2], [2.5], ['3']])('session id %j is refused', async (bad) => {
    const e = await failure(client().getSession(bad as never));
    expect(e).toMatchObject({ kind: 'invalid_argument', message: expect.stringMatching(/session id must be a positive integer/) });
  });

  it('repository file, answers, structure, progress and polling ids too', async () => {
    const c = client();
    for (const p of [
      c.getRepositoryFile('x'),
      c.getAnswers(-1),
      c.getStructure('1.0'),
      c.getAnswerProgress('a'),
      c.pollAnswerProgress('b'),
      c.sendMessage(0, { message: 'm' }),
    ]) {
      expect((await failure(p)).kind).toBe('invalid_argument');
    }
    expect(server.requests).toHaveLength(0);
  });

  it('accepts 0 and digit strings for questionnaires and repository files', async () => {
    server.script({ status: 404, json: { error: 'nope' } }, { status: 404, json: { error: 'nope' } });
    expect((await failure(client().getRepositoryFile('0042'))).status).toBe(404);
    expect((await failure(client().getQuestionnaire(0))).status).toBe(404);
    expect(server.requests.map((r) => r.path)).toEqual(['/api/v2/repository/files/0042/', '/api/v2/filler/questionnaires/0/']);
  });
});

describe('describeError', () => {
  it('always gives a sentence', () => {
    expect(describeError(new Error('boom'))).toBe('boom');
    expect(describeError('plain')).toBe('plain');
    expect(describeError(undefined)).toMatch(/unexpected error/);
    expect(describeError({ code: 1 })).toContain('{"code":1}');
    const abort = new DOMException('x', 'AbortError');
    expect(describeError(abort)).toBe('The operation was cancelled.');
  });
});
