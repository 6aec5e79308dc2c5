/**
 * The API's description is generated from the same schemas the client and service use, served without a
 * key, and matches the routes both ways: every route under /api/v2 documented, every documented route served.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../../src/api/endpoints';
import { buildApp, type BuiltApp } from '../../../src/service/app';
import { testStorage } from '../helpers';

let storage: Awaited<ReturnType<typeof testStorage>>;
let built: BuiltApp;
let base: string;

beforeAll(async () => {
  storage = await testStorage();
  built = await buildApp({ ...storage, staticDir: null, startWorkers: false });
  base = await built.app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await built?.close();
  await storage?.destroy();
});

const asOpenApiPath = (url: string) => url.replace(/^\/api\/v2/, '').replace(/:(\w+)/g, '{$1}');

describe('GET /api/v2/openapi.json', () => {
  it('is OpenAPI 3.1, served without a key', async () => {
    const res = await fetch(`${base}/api/v2/openapi.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { openapi: string; paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.paths['/repository/files/']!.post!.responses['429']).toBeDefined();
  });

  it('documents every route under /api/v2, and every documented route is served', async () => {
    const doc = (await (await fetch(`${base}/api/v2/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(doc.paths)
      .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`))
      .sort();
    const served = built.routes
      .filter((r) => r.url.startsWith('/api/v2/') && r.url !== '/api/v2/openapi.json')
      .map((r) => `${r.method} ${asOpenApiPath(r.url)}`)
      .sort();
    expect(documented).toEqual([...new Set(served)]);
    expect(documented.length).toBe(ENDPOINTS.length);
  });

  it('every route under /api/v2 is declared from its entry, so its query and body are validated with the documented schemas', () => {
    const declared = built.routes
      .filter((r) => r.url.startsWith('/api/v2/') && r.url !== '/api/v2/openapi.json')
      .map((r) => ({ route: `${r.method} ${asOpenApiPath(r.url)}`, endpoint: r.endpoint }));
    expect(declared).toEqual(
      declared.map(({ route }) => {
        const entry = ENDPOINTS.find((e) => `${e.method} ${e.path}` === route);
        return { route, endpoint: entry?.name };
      }),
    );
    expect(declared.every((d) => d.endpoint !== undefined)).toBe(true);
  });

  it('carries the schemas: a query enum, an upload with its files, an error body', async () => {
    const doc = (await (await fetch(`${base}/api/v2/openapi.json`)).json()) as any;
    const list = doc.paths['/repository/files/'].get;
    expect(list.parameters.find((p: { name: string }) => p.name === 'status').schema.enum).toEqual(['submitted', 'processing', 'ready', 'failed']);
    const upload = doc.paths['/filler/questionnaires/'].post.requestBody.content['multipart/form-data'].schema;
    expect(upload.required).toEqual(['files']);
    expect(Object.keys(upload.properties)).toEqual(expect.arrayContaining(['files', 'visibility', 'reviewer_ids']));
    expect(doc.paths['/chat/ask/'].post.responses['400'].content['application/json'].schema.properties.error.type).toBe('string');
    expect(doc.paths['/repository/files/{id}/'].delete['x-qfill-extension']).toBe('repository.delete');
  });
});
