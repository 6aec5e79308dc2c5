import { describe, expect, it } from 'vitest';
import { ApiClient, backoffDelay, DEFAULT_RETRY_POLICY, parseRetryAfter, sleep, type ClientOptions, type RetryNotice, type Sleep } from '../../src/api';
import { failure, recordingSleep, serverPerTest, session, TestServer, type Reply } from './server';

let server: TestServer;
serverPerTest((s) => (server = s));

function client(extra: Partial<ClientOptions> = {}) {
  return new ApiClient({ baseUrl: server.url, apiKey: 'k', sleep: async () => {}, random: () => 0.5, ...extra });
}

const quota = (retryAfter?: string): Reply => ({
  status: 429,
  json: { error: 'Quota exceeded' },
  headers: retryAfter === undefined ? {} : ({ 'Retry-After': retryAfter } as Record<string, string>),
});

describe('429 and Retry-After', () => {
  it('waits the seconds of Retry-After, then succeeds', async () => {
    const sleep = recordingSleep();
    server.script(quota('2'), quota('0'), { json: session(1) });
    const s = await client({ sleep: sleep.fn }).getSession(1);
    expect(s.id).toBe(1);
    expect(sleep.delays).toEqual([2000, 0]);
    expect(server.requests).toHaveLength(3);
  });

  it('tells onRetry about each automatic repeat before waiting, and a throwing listener changes nothing', async () => {
    const notices: RetryNotice[] = [];
    server.script(quota('2'), 'reset', { json: session(1) });
    const s = await client({
      onRetry: (n) => {
        notices.push(n);
        throw new Error('a broken listener');
      },
    }).getSession(1);
    expect(s.id).toBe(1);
    expect(notices.map((n) => ({ endpoint: n.endpoint, delayMs: n.delayMs, nextAttempt: n.nextAttempt, kind: n.error.kind, status: n.error.status }))).toEqual([
      { endpoint: 'GET /chat/sessions/{id}/', delayMs: 2000, nextAttempt: 2, kind: 'http', status: 429 },
      { endpoint: 'GET /chat/sessions/{id}/', delayMs: 450, nextAttempt: 3, kind: 'network', status: 0 },
    ]);
    // The second wait is the backoff of a second attempt: 0.75 x min(cap, 300 ms x 2).
    expect(notices[0]!.error.retryAfterSeconds).toBe(2);
  });

  it('honours Retry-After as an HTTP date', async () => {
    const sleep = recordingSleep();
    server.script(quota(new Date(Date.now() + 5000).toUTCString()), { json: session(1) });
    await client({ sleep: sleep.fn }).getSession(1);
    expect(sleep.delays).toHaveLength(1);
    expect(sleep.delays[0]).toBeGreaterThanOrEqual(3000);
    expect(sleep.delays[0]).toBeLessThanOrEqual(5000);
  });

  it('without Retry-After backs off exponentially with a cap, and stops at the retry limit', async () => {
    const sleep = recordingSleep();
    server.fallback = quota();
    const e = await failure(client({ sleep: sleep.fn, retry: { retries: 3, baseDelayMs: 100, maxDelayMs: 300 } }).listQuestionnaires());
    // random = 0.5: half fixed + a quarter => 0.75 x min(cap, base * 2^n)
    expect(sleep.delays).toEqual([75, 150, 225]);
    expect(server.requests).toHaveLength(4);
    expect(e).toMatchObject({ kind: 'http', status: 429, serverMessage: 'Quota exceeded' });
    expect(e.message).toMatch(/quota exceeded; retry later\..*Gave up after 4 attempts\.$/);
  });

  it('retries a POST on 429, since the server refused it', async () => {
    server.script(quota('1'), { json: { answer: 'A', sources: [], session_id: null } });
    const res = await client().ask({ question: 'q' });
    expect(res.answer).toBe('A');
    expect(server.requests.map((r) => r.method)).toEqual(['POST', 'POST']);
    expect(server.requests[1]!.body.toString()).toBe('{"question":"q"}');
  });

  it('retries an upload on 429 with the whole body again', async () => {
    server.script(quota('1'), { json: { count: 1, failed: [] } });
    await client().uploadRepositoryFiles([{ name: 'a.txt', data: new TextEncoder().encode('hello') }]);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.body.toString()).toContain('hello');
    expect(server.requests[1]!.body.equals(server.requests[0]!.body)).toBe(false); // new boundary, same content
    expect(server.requests[1]!.body.length).toBe(server.requests[0]!.body.length);
  });
});

describe('what is not repeated', () => {
  it('an upload that failed with 500 is not retried', async () => {
    server.script({ status: 500, json: { error: 'disk full' } }, { json: { file_ids: [1], questionnaire_ids: [1] } });
    const e = await failure(client().uploadQuestionnaires([{ name: 'q.xlsx', data: new Uint8Array([1, 2]) }]));
    expect(e).toMatchObject({ kind: 'http', status: 500, serverMessage: 'disk full' });
    expect(server.requests).toHaveLength(1);
  });

  it('an upload whose connection was reset mid-body is not retried', async () => {
    server.script('reset', { json: { count: 1 } });
    const big = new Uint8Array(512 * 1024).fill(65);
    const e = await failure(client().uploadRepositoryFiles([{ name: 'big.txt', data: big }]));
    expect(e.kind).toBe('network');
    expect(e.message).toMatch(/broke during POST \/repository\/files\/: .*may have reached the service, so it was not repeated/);
    expect(server.requests).toHaveLength(1);
  });

  it('a POST that failed with 503 is not retried, a GET is', async () => {
    server.script({ status: 503, json: { error: 'busy' } }, { status: 503, json: { error: 'busy' } }, { json: session(2) });
    expect((await failure(client().createSession())).status).toBe(503);
    expect(server.requests).toHaveLength(1);
    expect((await client().getSession(2)).id).toBe(2);
    expect(server.requests).toHaveLength(3);
  });

  it('a GET whose connection was reset is retried', async () => {
    server.script('reset', { json: session(4) });
    expect((await client().getSession(4)).id).toBe(4);
    expect(server.requests).toHaveLength(2);
  });

  it('400, 403, 404 are never retried', async () => {
    for (const status of [400, 403, 404]) {
      server.script({ status, json: { error: `e${status}` } });
      expect((await failure(client().getSession(1))).serverMessage).toBe(`e${status}`);
    }
    expect(server.requests).toHaveLength(3);
  });
});

describe('connection refused before sending', () => {
  it('retries even a POST, because nothing was sent', async () => {
    const probe = await TestServer.start();
    const port = probe.port;
    await probe.close();
    let revived: TestServer | null = null;
    // The first backoff brings the service up on the same port, as a restart would.
    const sleepThenStart: Sleep = async () => {
      revived ??= (await TestServer.start(port)).script({ json: { answer: 'up', sources: [], session_id: null } });
    };
    try {
      const c = new ApiClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'k', sleep: sleepThenStart });
      const res = await c.ask({ question: 'are you there?' });
      expect(res.answer).toBe('up');
      expect(revived!.requests).toHaveLength(1);
    } finally {
      await (revived as TestServer | null)?.close();
    }
  });
});

describe('cancellation', () => {
  it('aborting while the request is in flight rejects with kind aborted', async () => {
    server.script('hang');
    const ac = new AbortController();
    const pending = client().getQuestionnaire(1, { signal: ac.signal });
    await server.waitForRequests(1);
    ac.abort();
    const e = await failure(pending);
    expect(e).toMatchObject({ kind: 'aborted', status: 0, endpoint: 'GET /filler/questionnaires/{id}/' });
    expect(e.message).toMatch(/cancelled/);
  });

  it('aborting an upload in flight rejects with kind aborted', async () => {
    server.script('hang');
    const ac = new AbortController();
    const pending = client().uploadRepositoryFiles([{ name: 'a.pdf', data: new Uint8Array([1]) }], {}, { signal: ac.signal });
    await server.waitForRequests(1);
    ac.abort();
    expect((await failure(pending)).kind).toBe('aborted');
  });

  it('aborting during backoff stops waiting and sends nothing more', async () => {
    server.script(quota('30'));
    server.fallback = { json: session(1) };
    const ac = new AbortController();
    let sleeping!: () => void;
    const asleep = new Promise<void>((r) => (sleeping = r));
    // Only the abort can end this sleep: if the client did not pass its signal, the test would hang.
    const wakeOnlyOnAbort: Sleep = (_ms, signal) =>
      new Promise((_, reject) => {
        sleeping();
        signal?.addEventListener('abort', () => reject(signal.reason));
      });
    const pending = client({ sleep: wakeOnlyOnAbort }).getSession(1, { signal: ac.signal });
    await asleep;
    ac.abort();
    expect((await failure(pending)).kind).toBe('aborted');
    expect(server.requests).toHaveLength(1);
  });

  it('the default sleep ends early when aborted', async () => {
    const ac = new AbortController();
    const waiting = sleep(60_000, ac.signal);
    ac.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
  });

  it('an already aborted signal sends nothing', async () => {
    const ac = new AbortController();
    ac.abort();
    expect((await failure(client().listSessions({}, { signal: ac.signal }))).kind).toBe('aborted');
    expect(server.requests).toHaveLength(0);
  });
});

describe('timeouts', () => {
  it('a GET that gets no answer in time is a network error naming the limit', async () => {
    server.script('hang');
    const e = await failure(client({ timeoutMs: 150, retry: { retries: 0 } }).getStructure(1));
    expect(e.kind).toBe('network');
    expect(e.message).toMatch(/did not answer GET \/filler\/questionnaires\/\{id\}\/structure\/ within 0.15 s/);
  });

  it('a timed-out GET is retried; a timed-out POST is not', async () => {
    server.script('hang', { json: session(1) });
    expect((await client({ timeoutMs: 150 }).getSession(1)).id).toBe(1);
    expect(server.requests).toHaveLength(2);
    server.script('hang', { json: session(1) });
    expect((await failure(client({ timeoutMs: 150 }).createSession())).kind).toBe('network');
    expect(server.requests).toHaveLength(3);
  });
});

describe('backoff arithmetic', () => {
  it('parses Retry-After forms', () => {
    const now = Date.parse('2024-05-01T10:00:00Z');
    expect(parseRetryAfter('7', now)).toBe(7);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Wed, 01 May 2024 10:00:09 GMT', now)).toBe(9);
    expect(parseRetryAfter('Wed, 01 May 2024 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });

  it('jitters between half and all of the capped exponential delay', () => {
    const p = DEFAULT_RETRY_POLICY;
    expect(backoffDelay(0, p, () => 0)).toBe(150);
    expect(backoffDelay(0, p, () => 0.999999)).toBe(300);
    expect(backoffDelay(3, p, () => 0)).toBe(1200);
    expect(backoffDelay(10, p, () => 0)).toBe(4000);
    expect(backoffDelay(10, p, () => 0.999999)).toBe(8000);
  });
});
