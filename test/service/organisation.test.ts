/** The organisation's own names (an extension): GET/PUT /api/v2/organisation/names/ and `qfill orgs set --names`. */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, startService, type Service } from './helpers';

let service: Service;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => service.destroy());

async function call(key: string, method: 'GET' | 'PUT', body?: unknown) {
  const res = await fetch(`${service.base}/api/v2/organisation/names/`, {
    method,
    headers: { 'X-API-Key': key, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

describe('organisation names', () => {
  it('reads and writes the names, per organisation, for admins and repository managers only', async () => {
    const admin = await service.key({ org: 'acme', user: 'alice', role: 'admin' });
    const member = await service.key({ org: 'acme', user: 'mo', role: 'member' });
    const reader = await service.key({ org: 'acme', user: 'ro', role: 'admin', readOnly: true });
    const other = await service.key({ org: 'globex', user: 'gus', role: 'admin' });
    expect(await call(admin, 'GET')).toMatchObject({ status: 200, body: { names: [] } });
    expect(await call(admin, 'PUT', { names: ['Instructure', ' Canvas ', '', 'Canvas'] })).toMatchObject({
      status: 200,
      body: { names: ['Instructure', 'Canvas'] },
    });
    expect(await call(member, 'GET')).toMatchObject({ status: 200, body: { names: ['Instructure', 'Canvas'] } });
    expect(await call(other, 'GET')).toMatchObject({ status: 200, body: { names: [] } });
    expectError(await call(member, 'PUT', { names: ['X'] }), 403, /admin or repository manager/);
    expectError(await call(reader, 'PUT', { names: ['X'] }), 403, /read-only/);
    expectError(await call(admin, 'PUT', { names: 3 }), 400, /^names: must be a list of strings \(or one comma-separated string\)$/);
    expectError(await call(admin, 'PUT', { names: ['X'], colour: 'red' }), 400, /^colour: unknown field$/);
    expectError(await call(admin, 'PUT', [1]), 400, /^body:/);
    // Who may comes before what was sent: a read-only key or a member is refused whatever the body.
    expectError(await call(reader, 'PUT', { names: 3 }), 403, /read-only/);
    expectError(await call(member, 'PUT', { colour: 'red' }), 403, /admin or repository manager/);
    expectError(await call(admin, 'PUT', { names: ['x'.repeat(201)] }), 400, /longer than 200/);
    expect(await call(admin, 'PUT', { names: 'Instructure, Canvas, Canvas LMS' })).toMatchObject({
      status: 200,
      body: { names: ['Instructure', 'Canvas', 'Canvas LMS'] },
    });
  });

  it('qfill orgs set --names sets them for a running service', async () => {
    const key = await service.key({ org: 'initech', user: 'peter', role: 'admin' });
    const r = spawnSync(
      process.execPath,
      [
        'bin/qfill.js',
        'orgs',
        'set',
        '--data',
        service.dataDir,
        ...(service.storage.databaseUrl ? ['--database', service.storage.databaseUrl] : []),
        '--org',
        'initech',
        '--names',
        'Initech, TPS',
      ],
      {
        cwd: join(__dirname, '..', '..'),
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/own names Initech, TPS/);
    expect(await call(key, 'GET')).toMatchObject({ status: 200, body: { names: ['Initech', 'TPS'] } });
  });
});
