/**
 * Administration that the v2 interface leaves out (keys are "created in the application settings"):
 * organisations, users, API keys, teams and offerings, used by the CLI and by tests.
 */
import { generateKey, hashKey, KEY_PREFIX } from './keys';
import { KnowledgeBase } from './knowledge/knowledge-base';
import { openStorage, type StorageOptions } from './storage/open';
import type { OfferingRecord, Role, Store } from './storage/types';

/** Where the service's state is: a data folder (SQLite), or a data folder and a database URL. */
export type StorageTarget = string | StorageOptions;

async function withStore<T>(target: StorageTarget, fn: (store: Store) => Promise<T>): Promise<T> {
  const { store } = await openStorage(typeof target === 'string' ? { dataDir: target } : { ...target, poolSize: 2 });
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

export interface CreateKeyOptions {
  org: string;
  user: string;
  role?: Role;
  readOnly?: boolean;
  name?: string;
}

/** Creates the organisation and user when missing and returns a new key; only its hash is stored. */
export function createKey(target: StorageTarget, opts: CreateKeyOptions): Promise<string> {
  return withStore(target, (store) =>
    store.unitOfWork(async (tx) => {
      const org = await tx.orgs.upsert(opts.org, {});
      const user = await tx.users.upsert(org.id, opts.user, opts.role ? { role: opts.role } : {});
      const key = generateKey();
      await tx.keys.create(user.id, hashKey(key), key.slice(0, KEY_PREFIX.length + 6), {
        readOnly: opts.readOnly ?? false,
        name: opts.name ?? '',
      });
      return key;
    }),
  );
}

export interface SetOrgOptions {
  org: string;
  license?: 'active' | 'inactive';
  /** Requests per minute; 0 or null removes the quota. */
  quota?: number | null;
  uploadRequiresManager?: boolean;
}

export function setOrg(target: StorageTarget, opts: SetOrgOptions) {
  return withStore(target, (store) =>
    store.orgs.upsert(opts.org, {
      license: opts.license,
      quota_per_minute: opts.quota === undefined ? undefined : opts.quota === null || opts.quota <= 0 ? null : opts.quota,
      upload_requires_manager: opts.uploadRequiresManager,
    }),
  );
}

/** The organisation's own names (issue 14: evidence about anyone else is a third party's); returns them cleaned. */
export async function setOrgNames(target: StorageTarget, org: string, names: string[]): Promise<string[]> {
  const storage = await openStorage(typeof target === 'string' ? { dataDir: target } : { ...target, poolSize: 2 });
  try {
    const record = await storage.store.orgs.upsert(org, {});
    if (!storage.knowledgeIndex) throw new Error('organisation names need the knowledge index, which this database has no implementation of yet');
    return await new KnowledgeBase(storage.knowledgeIndex).setOrganisationNames(record.id, names);
  } finally {
    await storage.store.close();
  }
}

/** Creates the team (and user) when missing and adds the user to it; returns the team id. */
export function addTeamMember(target: StorageTarget, opts: { org: string; team: string; user: string }): Promise<number> {
  return withStore(target, (store) =>
    store.unitOfWork(async (tx) => {
      const org = await tx.orgs.upsert(opts.org, {});
      const user = await tx.users.upsert(org.id, opts.user, {});
      const team = await tx.teams.upsert(org.id, opts.team);
      await tx.teams.addMember(team.id, user.id);
      return team.id;
    }),
  );
}

export function createOffering(target: StorageTarget, opts: { org: string; name: string; type?: OfferingRecord['type'] }): Promise<number> {
  return withStore(target, async (store) => {
    const org = await store.orgs.upsert(opts.org, {});
    return (await store.offerings.upsert(org.id, opts.name, opts.type ?? 'product')).id;
  });
}

/** Id of a user (created when missing), e.g. to name reviewers. */
export function ensureUser(
  target: StorageTarget,
  opts: { org: string; user: string; firstName?: string; lastName?: string; email?: string },
): Promise<number> {
  return withStore(target, async (store) => {
    const org = await store.orgs.upsert(opts.org, {});
    return (
      await store.users.upsert(org.id, opts.user, {
        first_name: opts.firstName,
        last_name: opts.lastName,
        email: opts.email,
      })
    ).id;
  });
}
