import { describe, expect, it } from 'vitest';
import { ApiClient, type Progress } from '../../src/api';
import { failure, progress, recordingSleep, serverPerTest, type TestServer } from './server';

let server: TestServer;
serverPerTest((s) => (server = s));

function recordingClient() {
  const { delays, fn } = recordingSleep();
  return { delays, client: new ApiClient({ baseUrl: server.url, apiKey: 'k', sleep: fn }) };
}

describe('pollAnswerProgress', () => {
  it('polls to complete through transient errors, adapting its interval', async () => {
    server.script(
      { json: progress('generating', 0) },
      { status: 500, json: { error: 'worker restarting' } },
      { json: progress('generating', 1) },
      'reset',
      { json: progress('generating', 1) },
      { json: progress('generating', 1) },
      { json: progress('generating', 1) },
      { status: 429, json: { error: 'Quota exceeded' }, headers: { 'Retry-After': '2' } },
      { json: progress('generating', 2) },
      { json: progress('complete', 3) },
    );
    const { client, delays } = recordingClient();
    const seen: Progress[] = [];
    const done = await client.pollAnswerProgress('42', { onProgress: (p) => seen.push(p), minIntervalMs: 100, maxIntervalMs: 400 });
    expect(done).toEqual(progress('complete', 3));
    expect(seen.map((p) => `${p.status}:${p.answers_received}`)).toEqual([
      'generating:0',
      'generating:1',
      'generating:1',
      'generating:1',
      'generating:1',
      'generating:2',
      'complete:3',
    ]);
    // fast after a change, x1.5 while nothing moves or on faults, capped at 400, Retry-After honoured
    expect(delays).toEqual([100, 150, 100, 150, 225, 337.5, 400, 2000, 100]);
    expect(server.requests).toHaveLength(10);
    expect(server.requests.every((r) => r.method === 'GET' && r.path === '/api/v2/filler/questionnaires/42/answer-progress/')).toBe(true);
  });

  it('resolves at once when already complete', async () => {
    server.script({ json: progress('complete', 3) });
    const { client, delays } = recordingClient();
    expect((await client.pollAnswerProgress(1)).status).toBe('complete');
    expect(delays).toEqual([]);
  });

  it.each([403, 404])('rejects immediately on %i', async (status) => {
    server.script({ json: progress('generating', 0) }, { status, json: { error: `denied ${status}` } });
    server.fallback = { json: progress('complete', 3) };
    const { client } = recordingClient();
    const e = await failure(client.pollAnswerProgress(7));
    expect(e).toMatchObject({ kind: 'http', status, serverMessage: `denied ${status}` });
    expect(server.requests).toHaveLength(2);
  });

  it('rejects immediately on an answer that breaks the contract', async () => {
    server.script({ json: { status: 'generating' } });
    server.fallback = { json: progress('complete', 3) };
    const { client } = recordingClient();
    const e = await failure(client.pollAnswerProgress(7));
    expect(e.kind).toBe('invalid_response');
    expect(e.message).toMatch(/answers_expected/);
    expect(server.requests).toHaveLength(1);
  });

  it('gives up after maxConsecutiveErrors transient failures in a row', async () => {
    server.script({ status: 503, json: { error: 'busy' } }, { json: progress('generating', 1) });
    server.fallback = { status: 503, json: { error: 'busy' } };
    const { client } = recordingClient();
    const e = await failure(client.pollAnswerProgress(7, { maxConsecutiveErrors: 2, minIntervalMs: 1 }));
    expect(e).toMatchObject({ kind: 'http', status: 503 });
    // 1 error, a success resets the count, then 3 errors: the third is one too many
    expect(server.requests).toHaveLength(5);
  });

  it('is cancellable while waiting between polls (real timers)', async () => {
    server.fallback = { json: progress('generating', 1) };
    const client = new ApiClient({ baseUrl: server.url, apiKey: 'k' });
    const ac = new AbortController();
    const polling = client.pollAnswerProgress(7, { signal: ac.signal, minIntervalMs: 60_000, maxIntervalMs: 60_000 });
    await server.waitForRequests(1);
    ac.abort();
    const e = await failure(polling);
    expect(e).toMatchObject({ kind: 'aborted', endpoint: 'GET /filler/questionnaires/{id}/answer-progress/' });
    expect(server.requests).toHaveLength(1);
  });

  it('is cancellable while a poll is in flight', async () => {
    server.script('hang');
    const { client } = recordingClient();
    const ac = new AbortController();
    const polling = client.pollAnswerProgress(7, { signal: ac.signal });
    await server.waitForRequests(1);
    ac.abort();
    expect((await failure(polling)).kind).toBe('aborted');
  });
});
