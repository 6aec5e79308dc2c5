/**
 * Administration that the v2 interface leaves out (keys are "created in the application settings"):
 * organisations, users, API keys, teams and offerings, used by the CLI and by tests.
 */
import { generateKey, hashKey, KEY_PREFIX } from './keys';
import { KnowledgeBase } from './knowledge/knowledge-base';
import { openDatabase } from './storage/sqlite/database';
import { createSqliteStore } from './storage/sqlite/store';
import type { OfferingRecord, Role, Store } from './storage/types';

function withStore<T>(dataDir: string, fn: (store: Store) => T): T {
  const db = openDatabase(dataDir);
  try {
    return fn(createSqliteStore(db));
  } finally {
    db.close();
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
export function createKey(dataDir: string, opts: CreateKeyOptions): string {
  return withStore(dataDir, (store) =>
    store.transaction(() => {
      const org = store.orgs.upsert(opts.org, {});
      const user = store.users.upsert(org.id, opts.user, opts.role ? { role: opts.role } : {});
      const key = generateKey();
      store.keys.create(user.id, hashKey(key), key.slice(0, KEY_PREFIX.length + 6), {
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

export function setOrg(dataDir: string, opts: SetOrgOptions) {
  return withStore(dataDir, (store) =>
    store.orgs.upsert(opts.org, {
      license: opts.license,
      quota_per_minute: opts.quota === undefined ? undefined : opts.quota === null || opts.quota <= 0 ? null : opts.quota,
      upload_requires_manager: opts.uploadRequiresManager,
    }),
  );
}

/** The organisation's own names (issue 14: evidence about anyone else is a third party's); returns them cleaned. */
export function setOrgNames(dataDir: string, org: string, names: string[]): string[] {
  const db = openDatabase(dataDir);
  try {
    const record = createSqliteStore(db).orgs.upsert(org, {});
    return new KnowledgeBase(db).setOrganisationNames(record.id, names);
  } finally {
    db.close();
  }
}

/** Creates the team (and user) when missing and adds the user to it; returns the team id. */
export function addTeamMember(dataDir: string, opts: { org: string; team: string; user: string }): number {
  return withStore(dataDir, (store) =>
    store.transaction(() => {
      const org = store.orgs.upsert(opts.org, {});
      const user = store.users.upsert(org.id, opts.user, {});
      const team = store.teams.upsert(org.id, opts.team);
      store.teams.addMember(team.id, user.id);
      return team.id;
    }),
  );
}

export function createOffering(dataDir: string, opts: { org: string; name: string; type?: OfferingRecord['type'] }): number {
  return withStore(dataDir, (store) => {
    const org = store.orgs.upsert(opts.org, {});
    return store.offerings.upsert(org.id, opts.name, opts.type ?? 'product').id;
  });
}

/** Id of a user (created when missing), e.g. to name reviewers. */
export function ensureUser(dataDir: string, opts: { org: string; user: string; firstName?: string; lastName?: string; email?: string }): number {
  return withStore(dataDir, (store) => {
    const org = store.orgs.upsert(opts.org, {});
    return store.users.upsert(org.id, opts.user, {
      first_name: opts.firstName,
      last_name: opts.lastName,
      email: opts.email,
    }).id;
  });
}
