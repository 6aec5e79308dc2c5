import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setOrg } from '../../src/service/admin';
import { buildApp } from '../../src/service/app';
import { call, client, expectError, files, KB_TEXT, questionnaireXlsx, SECURITY_SHEET, startService, waitForFile, type Service } from './helpers';
import { queryDatabase } from './database';

let service: Service;

beforeAll(async () => {
  service = await startService();
});

afterAll(async () => {
  await service.destroy();
});

const READS = [
  '/api/v2/chat/sessions/',
  '/api/v2/filler/questionnaires/',
  '/api/v2/repository/files/',
  '/api/v2/filler/questionnaires/1/',
  '/api/v2/repository/files/1/',
  '/api/v2/chat/sessions/1/',
];

describe('API keys', () => {
  it('accepts X-API-Key and the legacy Authorization: Api-Key form', async () => {
    const key = await service.key({ org: 'acme', user: 'alice' });
    expect(key).toMatch(/^qf_[A-Za-z0-9_-]{20,}$/);
    expect((await call(service.base, key, 'GET', '/api/v2/chat/sessions/')).status).toBe(200);
    const legacy = await call(service.base, null, 'GET', '/api/v2/chat/sessions/', undefined, { Authorization: `Api-Key ${key}` });
    expect(legacy.status).toBe(200);
  });

  it('answers 403 with {"error"} on every endpoint without a valid key', async () => {
    for (const path of READS) {
      expectError(await call(service.base, null, 'GET', path), 403, /API key/);
      expectError(await call(service.base, 'qf_not-a-real-key', 'GET', path), 403, /invalid API key/);
    }
    expectError(await call(service.base, null, 'POST', '/api/v2/chat/ask/', { question: 'x' }), 403);
    expectError(await call(service.base, null, 'POST', '/api/v2/repository/files/', files(['a.txt', 'x'])), 403);
    expectError(
      await call(service.base, null, 'GET', '/api/v2/chat/sessions/', undefined, { Authorization: 'Bearer abc' }),
      403,
      /^the Authorization header must be "Api-Key <your key>"; or send the key alone in the X-API-Key header$/,
    );
    expectError(await call(service.base, '', 'GET', '/api/v2/chat/sessions/'), 403);
  });

  it('stores keys only as hashes', async () => {
    const key = await service.key({ org: 'acme', user: 'hashcheck' });
    const rows = await queryDatabase<{ key_hash: string; prefix: string }>(service.storage, 'SELECT key_hash, prefix FROM api_keys');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((r) => r.key_hash === key)).toBe(false);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.key_hash))).toBe(true);
  });
});

describe('read-only keys', () => {
  it('may ask and chat but not upload', async () => {
    const ro = client(service, await service.key({ org: 'acme', user: 'reader', readOnly: true }));
    expect((await ro.post('/api/v2/chat/ask/', { question: 'anything?' })).status).toBe(200);
    const session = await ro.post('/api/v2/chat/sessions/', { title: 'mine' });
    expect(session.status).toBe(200);
    expect((await ro.post(`/api/v2/chat/sessions/${session.body.id}/messages/`, { message: 'hello' })).status).toBe(200);
    expect((await ro.post('/api/v2/chat/ask/', { question: 'again', session_id: session.body.id })).status).toBe(200);
    for (const path of READS.slice(0, 3)) expect((await ro.get(path)).status).toBe(200);
    expectError(await ro.post('/api/v2/repository/files/', files(['a.txt', 'x'])), 403, /read-only/);
    expectError(await ro.post('/api/v2/filler/questionnaires/', files(['q.xlsx', await questionnaireXlsx([SECURITY_SHEET])])), 403, /read-only/);
    expect((await ro.get('/api/v2/repository/files/')).body.count).toBe(0);
  });
});

describe('organization settings', () => {
  it('requires the repository manager role for repository uploads when the organization says so', async () => {
    await setOrg(service.storage, { org: 'strict', uploadRequiresManager: true });
    const member = client(service, await service.key({ org: 'strict', user: 'mem', role: 'member' }));
    const manager = client(service, await service.key({ org: 'strict', user: 'man', role: 'repository_manager' }));
    const admin = client(service, await service.key({ org: 'strict', user: 'adm', role: 'admin' }));
    expectError(await member.post('/api/v2/repository/files/', files(['a.txt', 'x'])), 403, /repository manager/);
    expect((await manager.post('/api/v2/repository/files/', files(['a.txt', 'x']))).status).toBe(200);
    expect((await admin.post('/api/v2/repository/files/', files(['b.txt', 'x']))).status).toBe(200);
    // Questionnaires are not repository uploads.
    expect((await member.post('/api/v2/filler/questionnaires/', files(['q.xlsx', await questionnaireXlsx([SECURITY_SHEET])]))).status).toBe(200);
    await setOrg(service.storage, { org: 'strict', uploadRequiresManager: false });
    expect((await member.post('/api/v2/repository/files/', files(['c.txt', 'x']))).status).toBe(200);
  });

  it('answers every request of an organization without an active license with 403', async () => {
    const api = client(service, await service.key({ org: 'lapsed', user: 'lou', role: 'admin' }));
    expect((await api.get('/api/v2/chat/sessions/')).status).toBe(200);
    await setOrg(service.storage, { org: 'lapsed', license: 'inactive' });
    for (const path of READS) expectError(await api.get(path), 403, /license/);
    expectError(await api.post('/api/v2/chat/ask/', { question: 'x' }), 403, /license/);
    expectError(await api.post('/api/v2/repository/files/', files(['a.txt', 'x'])), 403, /license/);
    await setOrg(service.storage, { org: 'lapsed', license: 'active' });
    expect((await api.get('/api/v2/chat/sessions/')).status).toBe(200);
  });

  it('answers 429 with Retry-After once the quota of the organization is used up, for that organization only', async () => {
    await setOrg(service.storage, { org: 'busy', quota: 3 });
    const a = client(service, await service.key({ org: 'busy', user: 'a' }));
    const b = client(service, await service.key({ org: 'busy', user: 'b' }));
    const calm = client(service, await service.key({ org: 'calm', user: 'c' }));
    expect((await a.get('/api/v2/chat/sessions/')).status).toBe(200);
    expect((await b.get('/api/v2/chat/sessions/')).status).toBe(200);
    expect((await a.get('/api/v2/repository/files/')).status).toBe(200);
    const limited = await b.get('/api/v2/chat/sessions/');
    expectError(limited, 429, /quota/);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    for (let i = 0; i < 5; i++) expect((await calm.get('/api/v2/chat/sessions/')).status).toBe(200);
  });

  it('shares one quota between service processes on the same state', async () => {
    await setOrg(service.storage, { org: 'shared', quota: 4 });
    const key = await service.key({ org: 'shared', user: 's' });
    const other = await buildApp({ ...service.storage, staticDir: null, startWorkers: false });
    const otherBase = await other.app.listen({ port: 0, host: '127.0.0.1' });
    try {
      for (const base of [service.base, otherBase, service.base, otherBase]) {
        expect((await call(base, key, 'GET', '/api/v2/chat/sessions/')).status).toBe(200);
      }
      expectError(await call(otherBase, key, 'GET', '/api/v2/chat/sessions/'), 429, /quota exceeded: 4 requests per minute/);
      expectError(await call(service.base, key, 'GET', '/api/v2/chat/sessions/'), 429, /quota/);
    } finally {
      await other.close();
    }
  });
});

describe('isolation between organizations', () => {
  it('keeps every resource of one organization invisible to another', async () => {
    const acme = client(service, await service.key({ org: 'iso-a', user: 'ann' }));
    const other = client(service, await service.key({ org: 'iso-b', user: 'ben' }));
    const up = await acme.post('/api/v2/repository/files/', files(['secret.txt', KB_TEXT]));
    const fileId = up.body.file_ids[0];
    await waitForFile(acme, fileId);
    const q = await acme.post('/api/v2/filler/questionnaires/', files(['q.xlsx', await questionnaireXlsx([SECURITY_SHEET])]));
    const qid = q.body.questionnaire_ids[0];
    const session = await acme.post('/api/v2/chat/sessions/', { title: 'secret chat' });

    expectError(await other.get(`/api/v2/repository/files/${fileId}/`), 404);
    expectError(await other.get(`/api/v2/filler/questionnaires/${qid}/`), 404);
    expectError(await other.get(`/api/v2/filler/questionnaires/${qid}/answers/`), 404);
    expectError(await other.get(`/api/v2/chat/sessions/${session.body.id}/`), 404);
    expectError(await other.post('/api/v2/chat/ask/', { question: 'x', session_id: session.body.id }), 404);
    expectError(await other.post('/api/v2/chat/ask/', { question: 'x', file_id: fileId }), 404);
    expect((await other.get('/api/v2/repository/files/')).body.count).toBe(0);
    expect((await other.get('/api/v2/filler/questionnaires/')).body).toEqual([]);
    expect((await other.get('/api/v2/chat/sessions/')).body.count).toBe(0);
    const answer = await other.post('/api/v2/chat/ask/', { question: 'Is customer data encrypted at rest with AES-256?' });
    expect(answer.body.sources).toEqual([]);
  });
});
