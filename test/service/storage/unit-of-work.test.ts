/** The storage boundary's unit of work: all or nothing, jobs included (on the test project's backend); on SQLite, no I/O inside. */
import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { openStorage } from '../../../src/service/storage/open';
import type { Store } from '../../../src/service/storage/types';
import { testStorage } from '../helpers';
import { TEST_BACKEND } from '../postgres';

const opened: { store: Store; where: { destroy(): Promise<void> } }[] = [];
afterEach(async () => {
  for (const { store, where } of opened.splice(0)) {
    await store.close();
    await where.destroy();
  }
});

async function openStore(backend: 'sqlite' | 'postgres' = TEST_BACKEND): Promise<Store> {
  const where = await testStorage({ backend });
  const { store } = await openStorage(where);
  opened.push({ store, where });
  return store;
}

async function newFile(store: Store) {
  const org = await store.orgs.upsert('acme', {});
  const user = await store.users.upsert(org.id, 'alice', {});
  return { org, user };
}

describe(`unit of work (${TEST_BACKEND})`, () => {
  it('commits the file and its job together, or neither', async () => {
    const store = await openStore();
    const { org, user } = await newFile(store);
    const file = (name: string) => ({
      org_id: org.id,
      user_id: user.id,
      purpose: 'repository' as const,
      original_filename: name,
      stored_name: name,
      size: 1,
      sha256: 'x',
      file_format: 'txt' as const,
      document_type: 'unknown' as const,
    });
    const kept = await store.unitOfWork(async (tx) => {
      const f = await tx.files.create(file('kept.txt'));
      await tx.jobs.enqueue('ingest_file', { file_id: f.id });
      return f.id;
    });
    await expect(
      store.unitOfWork(async (tx) => {
        const f = await tx.files.create(file('lost.txt'));
        await tx.jobs.enqueue('ingest_file', { file_id: f.id });
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const { rows } = await store.files.list(org.id, { purpose: 'repository', limit: 10, offset: 0 });
    expect(rows.map((r) => r.original_filename)).toEqual(['kept.txt']);
    const job = await store.jobs.claim('ingest_file');
    expect(job?.payload).toEqual({ file_id: kept });
    expect(await store.jobs.claim('ingest_file')).toBeNull();
  });
});

// How the SQLite executor keeps one connection's transaction to itself; PostgreSQL gives each its own connection.
describe.runIf(TEST_BACKEND === 'sqlite')('unit of work on SQLite', () => {
  it('keeps statements from outside the transaction out of it: they run after it ends', async () => {
    const store = await openStore('sqlite');
    const outside: Promise<unknown>[] = [];
    await expect(
      store.unitOfWork(async (tx) => {
        await tx.orgs.upsert('inside', {});
        // Another request's statement, issued while the transaction is open.
        outside.push(store.orgs.upsert('outside', {}));
        await tx.orgs.upsert('inside-2', {});
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    await Promise.all(outside);
    expect(await store.orgs.findByName('inside')).toBeNull();
    expect(await store.orgs.findByName('outside')).not.toBeNull();
  });

  it('refuses a unit of work that awaits other I/O, and rolls it back', async () => {
    const store = await openStore('sqlite');
    await expect(
      store.unitOfWork(async (tx) => {
        await tx.orgs.upsert('before-io', {});
        await readFile(__filename);
        await tx.orgs.upsert('after-io', {}).catch(() => undefined);
      }),
    ).rejects.toThrow(/awaited other I\/O/);
    expect(await store.orgs.findByName('before-io')).toBeNull();
    expect(await store.orgs.findByName('after-io')).toBeNull();
  });
});
