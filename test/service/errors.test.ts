/** Malformed requests: each gets its documented status and exactly `{"error": "..."}`, never a 500. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '../../src/api/schemas';
import { files, startService, type Service } from './helpers';

let service: Service;
let key: string;
let sessionId: number;

beforeAll(async () => {
  service = await startService();
  key = await service.key({ org: 'acme', user: 'alice' });
  const res = await fetch(`${service.base}/api/v2/chat/sessions/`, { method: 'POST', headers: { 'X-API-Key': key } });
  sessionId = ((await res.json()) as { id: number }).id;
});

afterAll(async () => {
  await service.destroy();
});

interface Case {
  name: string;
  method?: string;
  path: string | (() => string);
  /** A raw string is sent as is (with `type`), an object as JSON, FormData as multipart. */
  body?: unknown;
  type?: string;
  headers?: Record<string, string>;
  status: number;
  error: RegExp;
}

const json = 'application/json';
const ASK = '/api/v2/chat/ask/';
const MSG = () => `/api/v2/chat/sessions/${sessionId}/messages/`;
const form = (fields: Record<string, string>, withFile = true) => {
  const f = withFile ? files(['a.txt', 'hello']) : new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return f;
};

const CASES: Case[] = [
  // Bodies that are not what the endpoint takes
  { name: 'malformed JSON', method: 'POST', path: ASK, body: '{"question": ', type: json, status: 400, error: /^body: malformed JSON/ },
  { name: 'JSON array body', method: 'POST', path: ASK, body: '[1,2]', type: json, status: 400, error: /^body:/ },
  { name: 'JSON string body', method: 'POST', path: ASK, body: '"hi"', type: json, status: 400, error: /^body:/ },
  { name: 'JSON null body', method: 'POST', path: ASK, body: 'null', type: json, status: 400, error: /question/ },
  { name: 'empty ask body', method: 'POST', path: ASK, body: '', type: json, status: 400, error: /^question:/ },
  { name: 'text/plain body', method: 'POST', path: ASK, body: 'question', type: 'text/plain', status: 400, error: /content type/ },
  { name: 'unsupported content type', method: 'POST', path: ASK, body: '<q/>', type: 'application/xml', status: 400, error: /content type/ },
  { name: 'body over 1 MB', method: 'POST', path: ASK, body: JSON.stringify({ question: 'x'.repeat(1_100_000) }), type: json, status: 400, error: /too large/ },
  // Ask fields
  { name: 'question missing', method: 'POST', path: ASK, body: {}, status: 400, error: /^question:/ },
  { name: 'question wrong type', method: 'POST', path: ASK, body: { question: 42 }, status: 400, error: /^question:/ },
  { name: 'question blank', method: 'POST', path: ASK, body: { question: '   ' }, status: 400, error: /^question: question must not be empty/ },
  { name: 'question too long', method: 'POST', path: ASK, body: { question: 'q'.repeat(4001) }, status: 400, error: /^question:/ },
  { name: 'unknown field', method: 'POST', path: ASK, body: { question: 'x', foo: 1 }, status: 400, error: /^foo: unknown field$/ },
  { name: 'session_id string', method: 'POST', path: ASK, body: { question: 'x', session_id: 'abc' }, status: 400, error: /^session_id:/ },
  { name: 'session_id negative', method: 'POST', path: ASK, body: { question: 'x', session_id: -1 }, status: 400, error: /^session_id:/ },
  { name: 'session_id fraction', method: 'POST', path: ASK, body: { question: 'x', session_id: 1.5 }, status: 400, error: /^session_id:/ },
  { name: 'session_id unknown', method: 'POST', path: ASK, body: { question: 'x', session_id: 99999 }, status: 404, error: /session 99999 not found/ },
  { name: 'file_id unknown', method: 'POST', path: ASK, body: { question: 'x', file_id: 99999 }, status: 404, error: /^file_id:/ },
  { name: 'offering_ids not array', method: 'POST', path: ASK, body: { question: 'x', offering_ids: 3 }, status: 400, error: /^offering_ids:/ },
  { name: 'offering_ids with string', method: 'POST', path: ASK, body: { question: 'x', offering_ids: ['a'] }, status: 400, error: /^offering_ids\.0:/ },
  { name: 'offering unknown', method: 'POST', path: ASK, body: { question: 'x', offering_ids: [5] }, status: 400, error: /^offering_ids: unknown offering 5/ },
  {
    name: 'form ask without question',
    method: 'POST',
    path: ASK,
    body: 'file_id=1',
    type: 'application/x-www-form-urlencoded',
    status: 400,
    error: /^question:/,
  },
  {
    name: 'form ask bad session_id',
    method: 'POST',
    path: ASK,
    body: 'question=x&session_id=abc',
    type: 'application/x-www-form-urlencoded',
    status: 400,
    error: /^session_id:/,
  },
  // Sessions
  { name: 'session title too long', method: 'POST', path: '/api/v2/chat/sessions/', body: { title: 't'.repeat(201) }, status: 400, error: /^title:/ },
  { name: 'session title wrong type', method: 'POST', path: '/api/v2/chat/sessions/', body: { title: 5 }, status: 400, error: /^title:/ },
  { name: 'session is_archived string', method: 'POST', path: '/api/v2/chat/sessions/', body: { is_archived: 'yes' }, status: 400, error: /^is_archived:/ },
  {
    name: 'session output-only field',
    method: 'POST',
    path: '/api/v2/chat/sessions/',
    body: { message_count: 3 },
    status: 400,
    error: /^message_count: unknown field$/,
  },
  { name: 'session id not numeric', path: '/api/v2/chat/sessions/abc/', status: 400, error: /^id: must be a positive integer/ },
  { name: 'session id unknown', path: '/api/v2/chat/sessions/424242/', status: 404, error: /session 424242 not found/ },
  { name: 'session id too big', path: '/api/v2/chat/sessions/99999999999999999999/', status: 400, error: /^id:/ },
  { name: 'message missing', method: 'POST', path: MSG, body: {}, status: 400, error: /^message:/ },
  { name: 'message too long', method: 'POST', path: MSG, body: { message: 'm'.repeat(4001) }, status: 400, error: /^message:/ },
  { name: 'context too long', method: 'POST', path: MSG, body: { message: 'm', context: 'c'.repeat(8001) }, status: 400, error: /^context:/ },
  { name: 'message file_id string', method: 'POST', path: MSG, body: { message: 'm', file_id: 'x' }, status: 400, error: /^file_id:/ },
  { name: 'message to unknown session', method: 'POST', path: '/api/v2/chat/sessions/777777/messages/', body: { message: 'm' }, status: 404, error: /session/ },
  { name: 'message to non-numeric session', method: 'POST', path: '/api/v2/chat/sessions/x1/messages/', body: { message: 'm' }, status: 400, error: /^id:/ },
  // Lists
  { name: 'session page 0', path: '/api/v2/chat/sessions/?page=0', status: 400, error: /^page:/ },
  { name: 'session page not a number', path: '/api/v2/chat/sessions/?page=two', status: 400, error: /^page:/ },
  { name: 'session page_size over max', path: '/api/v2/chat/sessions/?page_size=500', status: 400, error: /^page_size:/ },
  { name: 'session list unknown param', path: '/api/v2/chat/sessions/?sort=title', status: 400, error: /^sort: unknown field$/ },
  { name: 'session page past the end', path: '/api/v2/chat/sessions/?page=9', status: 404, error: /^page: page 9 does not exist/ },
  { name: 'repository ordering unknown', path: '/api/v2/repository/files/?ordering=size', status: 400, error: /^ordering:/ },
  { name: 'repository status unknown', path: '/api/v2/repository/files/?status=done', status: 400, error: /^status:/ },
  { name: 'repository document_type unknown', path: '/api/v2/repository/files/?document_type=poem', status: 400, error: /^document_type:/ },
  { name: 'repository page_size 201', path: '/api/v2/repository/files/?page_size=201', status: 400, error: /^page_size:/ },
  { name: 'repository repeated param', path: '/api/v2/repository/files/?status=ready&status=failed', status: 400, error: /^status:/ },
  { name: 'questionnaire visibility unknown', path: '/api/v2/filler/questionnaires/?visibility=public', status: 400, error: /^visibility:/ },
  { name: 'answers unknown param', path: '/api/v2/filler/questionnaires/1/answers/?page=1', status: 400, error: /^page: unknown field$/ },
  // Ids
  { name: 'repository id not numeric', path: '/api/v2/repository/files/1a/', status: 400, error: /^id:/ },
  { name: 'repository id unknown', path: '/api/v2/repository/files/31337/', status: 404, error: /repository file 31337 not found/ },
  { name: 'questionnaire id not numeric', path: '/api/v2/filler/questionnaires/-1/', status: 400, error: /^id:/ },
  { name: 'questionnaire unknown', path: '/api/v2/filler/questionnaires/31337/', status: 404, error: /questionnaire 31337 not found/ },
  { name: 'progress of unknown', path: '/api/v2/filler/questionnaires/31337/answer-progress/', status: 404, error: /not found/ },
  { name: 'structure id not numeric', path: '/api/v2/filler/questionnaires/abc/structure/', status: 400, error: /^id:/ },
  // Uploads
  { name: 'repository upload as JSON', method: 'POST', path: '/api/v2/repository/files/', body: { files: [] }, status: 400, error: /multipart/ },
  {
    name: 'repository upload without files',
    method: 'POST',
    path: '/api/v2/repository/files/',
    body: form({ tags: 'a' }, false),
    status: 400,
    error: /^files: no file uploaded/,
  },
  {
    name: 'repository upload wrong file field',
    method: 'POST',
    path: '/api/v2/repository/files/',
    body: (() => {
      const f = new FormData();
      f.append('document', new Blob(['x']), 'a.txt');
      return f;
    })(),
    status: 400,
    error: /^document: unexpected file field/,
  },
  { name: 'repository upload bad tags JSON', method: 'POST', path: '/api/v2/repository/files/', body: form({ tags: '[oops' }), status: 400, error: /^tags:/ },
  {
    name: 'repository upload offering not a number',
    method: 'POST',
    path: '/api/v2/repository/files/',
    body: form({ relevant_offerings: 'x' }),
    status: 400,
    error: /^relevant_offerings/,
  },
  {
    name: 'repository upload only unsupported',
    method: 'POST',
    path: '/api/v2/repository/files/',
    body: files(['a.exe', 'MZ']),
    status: 400,
    error: /unsupported file type \.exe/,
  },
  {
    name: 'questionnaire upload without files',
    method: 'POST',
    path: '/api/v2/filler/questionnaires/',
    body: form({ client: 'x' }, false),
    status: 400,
    error: /^files:/,
  },
  {
    name: 'questionnaire upload unsupported',
    method: 'POST',
    path: '/api/v2/filler/questionnaires/',
    body: files(['q.docx', 'x']),
    status: 400,
    error: /unsupported file type \.docx/,
  },
  {
    name: 'questionnaire upload reviewer ids bad',
    method: 'POST',
    path: '/api/v2/filler/questionnaires/',
    body: form({ reviewer_ids: 'a,b' }),
    status: 400,
    error: /^reviewer_ids\.0:/,
  },
  { name: 'multipart without boundary', method: 'POST', path: '/api/v2/repository/files/', body: 'xx', type: 'multipart/form-data', status: 400, error: /./ },
  // Routing
  { name: 'unknown endpoint', path: '/api/v2/nothing/', status: 404, error: /^not found: GET \/api\/v2\/nothing\// },
  { name: 'wrong method', method: 'DELETE', path: '/api/v2/chat/sessions/', status: 404, error: /not found: DELETE/ },
  { name: 'old version prefix', path: '/api/v1/chat/sessions/', status: 404, error: /not found/ },
];

describe('malformed requests', () => {
  it('has at least 40 cases', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(40);
  });

  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const headers: Record<string, string> = { 'X-API-Key': key, ...c.headers };
    let body: BodyInit | undefined;
    if (c.body instanceof FormData) body = c.body;
    else if (typeof c.body === 'string') {
      body = c.body;
      headers['Content-Type'] = c.type ?? json;
    } else if (c.body !== undefined) {
      body = JSON.stringify(c.body);
      headers['Content-Type'] = json;
    }
    const path = typeof c.path === 'function' ? c.path() : c.path;
    const res = await fetch(service.base + path, { method: c.method ?? 'GET', headers, body });
    const text = await res.text();
    expect(res.status, text).toBe(c.status);
    const parsed = ErrorBody.safeParse(JSON.parse(text));
    expect(parsed.success, `body is not exactly {"error": string}: ${text}`).toBe(true);
    expect(parsed.data!.error).toMatch(c.error);
  });

  it('still serves normal requests afterwards', async () => {
    const res = await fetch(`${service.base}/api/v2/chat/sessions/`, { headers: { 'X-API-Key': key } });
    expect(res.status).toBe(200);
  });
});

describe('upload limits', () => {
  it('rejects more than 50 files per request with 400', async () => {
    const many = files(...Array.from({ length: 51 }, (_, i) => [`f${i}.txt`, `file ${i}`] as [string, string]));
    const res = await fetch(`${service.base}/api/v2/repository/files/`, { method: 'POST', headers: { 'X-API-Key': key }, body: many });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'files: at most 50 files per request' });
  });

  it('rejects a file over 50 MB with 400', async () => {
    const big = files(['big.txt', new Uint8Array(50 * 1024 * 1024 + 10).fill(97)]);
    const res = await fetch(`${service.base}/api/v2/repository/files/`, { method: 'POST', headers: { 'X-API-Key': key }, body: big });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'files: a file is larger than the 50 MB limit' });
    const list = await fetch(`${service.base}/api/v2/repository/files/`, { headers: { 'X-API-Key': key } });
    expect(((await list.json()) as { count: number }).count).toBe(0);
  });
});
