/**
 * The extension to v2 for library management: `DELETE /repository/files/{id}/` and `GET /extensions/`.
 * Over real HTTP on loopback with a temporary SQLite database.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeletedRepositoryFile, EXTENSION, OfferingList, ServiceExtensions } from '../../src/api/schemas';
import { createOffering, setOrg } from '../../src/service/admin';
import { call, client, expectError, expectShape, files, startWithTwoOrgs, waitForFile, type Service } from './helpers';

let service: Service;
let api: ReturnType<typeof client>;
let other: ReturnType<typeof client>;
let aliceKey: string;

const del = (key: string | null, id: number | string) => call(service.base, key, 'DELETE', `/api/v2/repository/files/${id}/`);

const NORTHWIND = `Northwind Security Overview

Quantum vault. Northwind stores backups in a quantum vault sealed with zircon keys rotated every 11 days.`;

async function upload(name: string, text: string): Promise<number> {
  const up = await api.post('/api/v2/repository/files/', files([name, text, 'text/plain']));
  expect(up.status, JSON.stringify(up.body)).toBe(200);
  const id: number = up.body.file_ids[0];
  expect((await waitForFile(api, id)).body.status).toBe('ready');
  return id;
}

const storedFiles = () => readdirSync(join(service.dataDir, 'files')).filter((n) => !n.endsWith('.part'));

beforeAll(async () => {
  ({ service, api, other } = await startWithTwoOrgs('bob'));
  aliceKey = await service.key({ org: 'acme', user: 'alice' });
});

afterAll(async () => {
  await service.destroy();
});

describe('GET /extensions/', () => {
  it('names the delete extension, to callers with a key only', async () => {
    const res = await api.get('/api/v2/extensions/');
    expect(res.status).toBe(200);
    expect(expectShape(ServiceExtensions, res.body).extensions).toEqual([
      EXTENSION.repositoryDelete,
      EXTENSION.offeringsList,
      EXTENSION.organisationNames,
      EXTENSION.keysCurrent,
      EXTENSION.answersLibrary,
      EXTENSION.answersReplay,
    ]);
    expectError(await call(service.base, null, 'GET', '/api/v2/extensions/'), 403);
  });
});

describe('GET /offerings/', () => {
  it("lists the organisation's offerings by name, never another's", async () => {
    await createOffering(service.storage, { org: 'acme', name: 'Canvas Studio', type: 'product' });
    await createOffering(service.storage, { org: 'acme', name: 'Analytics', type: 'module' });
    await createOffering(service.storage, { org: 'globex', name: 'Globex Cloud', type: 'service' });
    const res = await api.get('/api/v2/offerings/');
    expect(res.status).toBe(200);
    expect(expectShape(OfferingList, res.body).results.map((o) => o.name)).toEqual(['Analytics', 'Canvas Studio']);
    expect((await other.get('/api/v2/offerings/')).body.results.map((o: { name: string }) => o.name)).toEqual(['Globex Cloud']);
  });
});

describe('DELETE /repository/files/{id}/', () => {
  it('removes the file, its passages (chat no longer cites it) and its bytes on disk', async () => {
    const before = storedFiles().length;
    const id = await upload('northwind.txt', NORTHWIND);
    expect(storedFiles().length).toBe(before + 1);
    const ask = () => api.post('/api/v2/chat/ask/', { question: 'Where are backups stored, and how often are zircon keys rotated?' });
    const cited = await ask();
    expect(cited.status).toBe(200);
    expect(cited.body.sources.map((s: { filename: string }) => s.filename)).toContain('northwind.txt');

    const res = await del(aliceKey, id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(expectShape(DeletedRepositoryFile, res.body)).toEqual({ id, deleted: true });

    expectError(await api.get(`/api/v2/repository/files/${id}/`), 404);
    const list = await api.get('/api/v2/repository/files/?page_size=100');
    expect(list.body.results.map((f: { id: number }) => f.id)).not.toContain(id);
    const after = await ask();
    expect(after.status).toBe(200);
    expect(after.body.sources.map((s: { filename: string }) => s.filename)).not.toContain('northwind.txt');
    expect(JSON.stringify(after.body)).not.toMatch(/zircon/i);
    expect(storedFiles().length).toBe(before);
    // Deleting again: it is gone.
    expectError(await del(aliceKey, id), 404, `repository file ${id} not found`);
  });

  it("removes a Q&A file's answer-library entries, so a fill no longer reuses them", async () => {
    const up = await api.post(
      '/api/v2/repository/files/',
      files(['answers.csv', 'Question,Answer\nDo you escrow source code with Zephyr Bank?,Yes; escrowed monthly with Zephyr Bank.\n', 'text/csv']),
    );
    const id: number = up.body.file_ids[0];
    const ready = await waitForFile(api, id);
    expect(ready.body.qa_count).toBeGreaterThan(0);
    const q = { question: 'Do you escrow source code with Zephyr Bank?' };
    expect(JSON.stringify((await api.post('/api/v2/chat/ask/', q)).body)).toMatch(/Zephyr Bank/);
    expect((await del(aliceKey, id)).status).toBe(200);
    expect(JSON.stringify((await api.post('/api/v2/chat/ask/', q)).body)).not.toMatch(/escrowed monthly/);
  });

  it("answers 404 for another organisation's file and leaves it in place", async () => {
    const id = await upload('acme-only.txt', 'Acme rotates its badge readers every spring.');
    const bobKey = await service.key({ org: 'globex', user: 'bob' });
    expectError(await del(bobKey, id), 404, `repository file ${id} not found`);
    expect((await api.get(`/api/v2/repository/files/${id}/`)).status).toBe(200);
    expect((await other.get(`/api/v2/repository/files/${id}/`)).status).toBe(404);
  });

  it('refuses a read-only key, a member where uploads need a manager, a missing key; names bad ids', async () => {
    const id = await upload('keep.txt', 'Acme keeps its visitor logs for a year.');
    const readOnly = await service.key({ org: 'acme', user: 'reader', readOnly: true });
    expectError(await del(readOnly, id), 403, /read-only and cannot delete files/);
    await setOrg(service.storage, { org: 'acme', uploadRequiresManager: true });
    try {
      const member = await service.key({ org: 'acme', user: 'mia', role: 'member' });
      expectError(await del(member, id), 403, /requires the repository manager role/);
      const manager = await service.key({ org: 'acme', user: 'max', role: 'repository_manager' });
      expect((await api.get(`/api/v2/repository/files/${id}/`)).status).toBe(200);
      expectError(await del(null, id), 403);
      expectError(await del(manager, 'abc'), 400);
      expect((await del(manager, id)).status).toBe(200);
    } finally {
      await setOrg(service.storage, { org: 'acme', uploadRequiresManager: false });
    }
    expect(existsSync(join(service.dataDir, 'files'))).toBe(true);
  });
});
