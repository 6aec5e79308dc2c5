/**
 * Routes declared from their ENDPOINTS entry (src/service/routes/route.ts): the entry's schemas are validated
 * before the handler runs (query, JSON and form bodies, `{id}`), a bad one is a 400 naming the field, the
 * handler gets the parsed values typed, and `allow` is checked before the body. A bare Fastify on loopback
 * with the service's own error handler and body parsers; no storage.
 */
import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { AskRequest, CreateSessionRequest, QuestionnaireUploadFields, RepositoryUploadFields, SendMessageRequest } from '../../../src/api/schemas';
import { forbidden, installErrorHandlers } from '../../../src/service/http/errors';
import { formKindsOf, parseUrlencodedBody } from '../../../src/service/http/form';
import { route } from '../../../src/service/routes/route';
import type { Principal } from '../../../src/service/storage/types';

let app: FastifyInstance;
let base: string;
/** What each handler received, by route name. */
const seen: Record<string, unknown> = {};

beforeAll(async () => {
  app = Fastify();
  installErrorHandlers(app);
  await app.register(formbody, { parser: parseUrlencodedBody });
  app.decorateRequest('principal', null);
  app.addHook('onRequest', async (request) => {
    request.principal = { read_only: request.headers['x-read-only'] === '1' } as Principal;
  });
  await app.register(
    async (api) => {
      route(api, 'ask', async (request) => {
        expectTypeOf(request.body.question).toEqualTypeOf<string>();
        expectTypeOf(request.body.offering_ids).toEqualTypeOf<number[] | undefined>();
        seen.ask = request.body;
        return { answer: 'a', sources: [], session_id: null };
      });
      route(api, 'listSessions', async (request) => {
        expectTypeOf(request.query.page).toEqualTypeOf<number | undefined>();
        seen.listSessions = request.query;
        return { count: 0, next: null, previous: null, results: [] };
      });
      route(
        api,
        'sendMessage',
        {
          allow: (p) => {
            if (p.read_only) throw forbidden('read-only');
          },
        },
        async (request) => {
          expectTypeOf(request.params.id).toEqualTypeOf<number>();
          seen.sendMessage = { id: request.params.id, body: request.body };
          return { id: request.params.id, title: 't', created_at: '', updated_at: '', is_archived: false, message_count: 0 };
        },
      );
    },
    { prefix: '/api/v2' },
  );
  base = await app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await app?.close();
});

async function send(method: string, path: string, body?: string, type = 'application/json', headers: Record<string, string> = {}) {
  const res = await fetch(base + path, { method, body, headers: body === undefined ? headers : { 'content-type': type, ...headers } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('a route declared from its endpoint', () => {
  it('serves the path of its entry and hands the handler the parsed body', async () => {
    delete seen.ask;
    expect(await send('POST', '/api/v2/chat/ask/', JSON.stringify({ question: ' why? ', offering_ids: [2] }))).toMatchObject({
      status: 200,
      body: { answer: 'a' },
    });
    // The schema's trim applied: the handler sees what the schema made of the body.
    expect(seen.ask).toEqual({ question: 'why?', offering_ids: [2] });
  });

  it('a bad body is a 400 naming the field, and the handler never runs', async () => {
    delete seen.ask;
    expect(await send('POST', '/api/v2/chat/ask/', JSON.stringify({ question: 'x', offering_ids: ['a'] }))).toEqual({
      status: 400,
      body: { error: 'offering_ids.0: Invalid input: expected number, received string' },
    });
    expect(await send('POST', '/api/v2/chat/ask/', JSON.stringify({ question: 'x', colour: 'red' }))).toEqual({
      status: 400,
      body: { error: 'colour: unknown field' },
    });
    expect(await send('POST', '/api/v2/chat/ask/', '[1]')).toEqual({ status: 400, body: { error: 'body: Invalid input: expected object, received array' } });
    expect(seen.ask).toBeUndefined();
  });

  it('a form-encoded body is converted by what the schema says of each field', async () => {
    delete seen.ask;
    const res = await send('POST', '/api/v2/chat/ask/', 'question=x&session_id=&offering_ids=1,2&offering_ids[]=3', 'application/x-www-form-urlencoded');
    expect(res.status).toBe(200);
    expect(seen.ask).toEqual({ question: 'x', offering_ids: [1, 2, 3] });
    expect(await send('POST', '/api/v2/chat/ask/', 'question=x&file_id=two', 'application/x-www-form-urlencoded')).toMatchObject({
      status: 400,
      body: { error: expect.stringMatching(/^file_id: /) },
    });
  });

  it('a bad or repeated query parameter is a 400 naming it; a good one arrives coerced', async () => {
    expect(await send('GET', '/api/v2/chat/sessions/?page_size=500')).toEqual({
      status: 400,
      body: { error: 'page_size: Too big: expected number to be <=200' },
    });
    expect(await send('GET', '/api/v2/chat/sessions/?page=1&page=2')).toEqual({ status: 400, body: { error: 'page: given 2 times; give it once' } });
    expect(await send('GET', '/api/v2/chat/sessions/?sort=title')).toEqual({ status: 400, body: { error: 'sort: unknown field' } });
    expect((await send('GET', '/api/v2/chat/sessions/?page=2')).status).toBe(200);
    expect(seen.listSessions).toEqual({ page: 2 });
  });

  it('`{id}` is digits only, and arrives as a number', async () => {
    expect(await send('POST', '/api/v2/chat/sessions/x1/messages/', JSON.stringify({ message: 'm' }))).toEqual({
      status: 400,
      body: { error: 'id: must be a positive integer, got "x1"' },
    });
    expect((await send('POST', '/api/v2/chat/sessions/12/messages/', JSON.stringify({ message: 'm' }))).status).toBe(200);
    expect(seen.sendMessage).toEqual({ id: 12, body: { message: 'm' } });
  });

  it('`allow` is checked before the body: a caller who may not gets 403 whatever it sent', async () => {
    expect(await send('POST', '/api/v2/chat/sessions/12/messages/', JSON.stringify({ nonsense: 1 }), 'application/json', { 'x-read-only': '1' })).toEqual({
      status: 403,
      body: { error: 'read-only' },
    });
  });
});

describe('form conversion read off the request schemas', () => {
  it('finds the integers, booleans, lists and JSON objects each body declares', () => {
    expect(formKindsOf(AskRequest)).toEqual({ arrays: [], intArrays: ['offering_ids'], ints: ['session_id', 'file_id'], booleans: [], objects: [] });
    expect(formKindsOf(SendMessageRequest)).toEqual({ arrays: [], intArrays: ['offering_ids'], ints: ['file_id'], booleans: [], objects: [] });
    expect(formKindsOf(CreateSessionRequest)).toEqual({ arrays: [], intArrays: [], ints: [], booleans: ['is_archived'], objects: [] });
    // `team_id` coerces by itself (an empty one is refused, not dropped), so it stays a string.
    expect(formKindsOf(QuestionnaireUploadFields)).toEqual({
      arrays: [],
      intArrays: ['reviewer_ids'],
      ints: [],
      booleans: ['prefer_recent'],
      objects: ['advanced_options'],
    });
    expect(formKindsOf(RepositoryUploadFields)).toEqual({
      arrays: ['tags'],
      intArrays: ['relevant_offerings'],
      ints: [],
      booleans: ['scope_includes_company'],
      objects: [],
    });
  });
});
