/** Whose key this is (an extension): GET /api/v2/keys/current/ and its place in GET /extensions/. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyIdentity, ServiceExtensions } from '../../src/api/schemas';
import { expectError, expectShape, startService, type Service } from './helpers';

let service: Service;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => service.destroy());

async function get(key: string, path: string) {
  const res = await fetch(`${service.base}/api/v2/${path}`, { headers: { 'X-API-Key': key } });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

describe('GET /keys/current/', () => {
  it("names the key's own organisation and user, and whether it is read-only", async () => {
    const alice = await service.key({ org: 'acme', user: 'alice', role: 'admin' });
    const reader = await service.key({ org: 'acme', user: 'ro', role: 'member', readOnly: true });
    const gus = await service.key({ org: 'globex', user: 'gus', role: 'repository_manager' });

    const a = await get(alice, 'keys/current/');
    expect(a.status).toBe(200);
    const mine = expectShape(KeyIdentity, a.body);
    expect(mine).toEqual({
      organization: { id: expect.any(Number), name: 'acme' },
      user: { id: expect.any(Number), name: 'alice', role: 'admin' },
      read_only: false,
    });

    const r = expectShape(KeyIdentity, (await get(reader, 'keys/current/')).body);
    expect(r).toMatchObject({ organization: { id: mine.organization.id, name: 'acme' }, user: { name: 'ro', role: 'member' }, read_only: true });
    expect(r.user.id).not.toBe(mine.user.id);

    // Another organisation's key sees only itself: nothing of acme.
    const g = await get(gus, 'keys/current/');
    const theirs = expectShape(KeyIdentity, g.body);
    expect(theirs).toMatchObject({ organization: { name: 'globex' }, user: { name: 'gus', role: 'repository_manager' }, read_only: false });
    expect(theirs.organization.id).not.toBe(mine.organization.id);
    expect(JSON.stringify(g.body)).not.toMatch(/acme|alice/);
  });

  it('needs a valid key, like every endpoint', async () => {
    expectError(await get('qf_not-a-key', 'keys/current/'), 403, /invalid API key/i);
  });

  it('is listed in GET /extensions/ as keys.current', async () => {
    const key = await service.key({ org: 'acme', user: 'alice' });
    const ext = expectShape(ServiceExtensions, (await get(key, 'extensions/')).body);
    expect(ext.extensions).toContain('keys.current');
  });
});
