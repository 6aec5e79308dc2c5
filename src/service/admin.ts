/**
 * Administration that the v2 interface leaves out (keys are "created in the application settings"):
 * organisations, users, API keys, teams and offerings, used by the CLI and by tests.
 */
import { generateKey, hashKey, KEY_PREFIX } from './keys';
import { knowledgeFileMeta } from './domain/file-meta';
import { indexManualEntry } from './domain/library-actions';
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

/** The organisation's own names (evidence about anyone else is a third party's); returns them cleaned. */
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
export function ensureUser(target: StorageTarget, opts: { org: string; user: string; firstName?: string; lastName?: string; email?: string }): Promise<number> {
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

/**
 * After `qfill migrate` copied a data folder's rows: indexes its ready repository files again into the
 * target's knowledge index (full-text structures differ per backend, so rows are not copied), and carries
 * over what the index knows beyond the files' text (organisations' own names, files' subjects).
 * Idempotent: a file's index content is replaced, not added to. Returns how many files were indexed.
 */
export async function reindexMigrated(opts: { fromData: string; target: StorageOptions; log?: (line: string) => void }): Promise<number> {
  const { extractDocument } = await import('./knowledge/extract');
  const source = await openStorage({ dataDir: opts.fromData });
  const target = await openStorage({ ...opts.target, poolSize: 2 });
  const log = opts.log ?? (() => undefined);
  try {
    if (!target.knowledgeIndex || !source.knowledgeIndex) throw new Error('no knowledge index to migrate into');
    const kb = new KnowledgeBase(target.knowledgeIndex);
    let indexed = 0;
    let byHand = 0;
    // Every organisation's ready repository files, page by page.
    for (const org of await target.store.orgs.list()) {
      for (let offset = 0; ; offset += 100) {
        const { rows } = await target.store.files.list(org.id, { purpose: 'repository', status: 'ready', limit: 100, offset });
        for (const file of rows) {
          const doc = await extractDocument(target.blobs.source(file.stored_name), file.original_filename);
          await kb.indexDocument(knowledgeFileMeta(file), doc);
          const facts = await source.knowledgeIndex.fileFacts(file.org_id, file.id, []);
          if (facts?.subject) await target.knowledgeIndex.setFileSubject(file.org_id, file.id, facts.subject);
          indexed++;
        }
        if (rows.length < 100) break;
      }
      // Entries added by hand to the answer library: files of their own in the index.
      for (const entry of await target.store.library.manualEntries(org.id)) {
        await indexManualEntry(kb, org.id, entry);
        byHand++;
      }
      const names = await source.knowledgeIndex.orgNames(org.id);
      if (names !== null) await target.knowledgeIndex.setOrgNames(org.id, names);
    }
    if (byHand > 0) log(`answer library: ${byHand} entries added by hand indexed again`);
    log(`knowledge index: ${indexed} ready repository files indexed again`);
    return indexed;
  } finally {
    await source.store.close();
    await target.store.close();
  }
}
