/** Organisations, users, API keys, teams and offerings on SQLite. */
import type { Db } from './database';
import { nowIso } from '../../clock';
import type {
  ApiKeyRepository,
  OfferingRecord,
  OfferingRepository,
  OrgRecord,
  OrgRepository,
  Principal,
  Role,
  TeamRecord,
  TeamRepository,
  UserRecord,
  UserRepository,
} from '../types';

interface OrgRow {
  id: number;
  name: string;
  license: 'active' | 'inactive';
  quota_per_minute: number | null;
  upload_requires_manager: number;
}

function toOrg(r: OrgRow): OrgRecord {
  return { ...r, upload_requires_manager: r.upload_requires_manager === 1 };
}

export const USER_COLUMNS = 'u.id, u.org_id, u.username, u.first_name, u.last_name, u.email, u.role';

export class SqliteOrgs implements OrgRepository {
  constructor(private readonly db: Db) {}

  findByName(name: string): OrgRecord | null {
    const r = this.db.prepare('SELECT * FROM orgs WHERE name = ?').get(name) as OrgRow | undefined;
    return r ? toOrg(r) : null;
  }

  get(id: number): OrgRecord | null {
    const r = this.db.prepare('SELECT * FROM orgs WHERE id = ?').get(id) as OrgRow | undefined;
    return r ? toOrg(r) : null;
  }

  upsert(name: string, change: Partial<Omit<OrgRecord, 'id' | 'name'>>): OrgRecord {
    this.db
      .prepare('INSERT INTO orgs (name, created_at) VALUES (?, ?) ON CONFLICT (name) DO NOTHING')
      .run(name, nowIso());
    const org = this.findByName(name)!;
    if (change.license !== undefined) this.db.prepare('UPDATE orgs SET license = ? WHERE id = ?').run(change.license, org.id);
    if (change.quota_per_minute !== undefined)
      this.db.prepare('UPDATE orgs SET quota_per_minute = ? WHERE id = ?').run(change.quota_per_minute, org.id);
    if (change.upload_requires_manager !== undefined)
      this.db
        .prepare('UPDATE orgs SET upload_requires_manager = ? WHERE id = ?')
        .run(change.upload_requires_manager ? 1 : 0, org.id);
    return this.get(org.id)!;
  }
}

export class SqliteUsers implements UserRepository {
  constructor(private readonly db: Db) {}

  findByUsername(orgId: number, username: string): UserRecord | null {
    return (
      (this.db.prepare(`SELECT ${USER_COLUMNS} FROM users u WHERE u.org_id = ? AND u.username = ?`).get(orgId, username) as
        | UserRecord
        | undefined) ?? null
    );
  }

  get(orgId: number, id: number): UserRecord | null {
    return (
      (this.db.prepare(`SELECT ${USER_COLUMNS} FROM users u WHERE u.org_id = ? AND u.id = ?`).get(orgId, id) as
        | UserRecord
        | undefined) ?? null
    );
  }

  upsert(orgId: number, username: string, change: Partial<Omit<UserRecord, 'id' | 'org_id' | 'username'>>): UserRecord {
    this.db
      .prepare('INSERT INTO users (org_id, username, created_at) VALUES (?, ?, ?) ON CONFLICT (org_id, username) DO NOTHING')
      .run(orgId, username, nowIso());
    const user = this.findByUsername(orgId, username)!;
    for (const field of ['first_name', 'last_name', 'email', 'role'] as const) {
      const value = change[field];
      if (value !== undefined) this.db.prepare(`UPDATE users SET ${field} = ? WHERE id = ?`).run(value, user.id);
    }
    return this.findByUsername(orgId, username)!;
  }
}

export class SqliteKeys implements ApiKeyRepository {
  constructor(private readonly db: Db) {}

  create(userId: number, keyHash: string, prefix: string, opts: { readOnly: boolean; name: string }): number {
    const r = this.db
      .prepare('INSERT INTO api_keys (user_id, name, key_hash, prefix, read_only, created_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(userId, opts.name, keyHash, prefix, opts.readOnly ? 1 : 0, nowIso());
    return Number(r.lastInsertRowid);
  }

  resolve(keyHash: string): Principal | null {
    const row = this.db
      .prepare(
        `SELECT k.id AS key_id, k.read_only, ${USER_COLUMNS},
                o.id AS o_id, o.name AS o_name, o.license AS o_license, o.quota_per_minute AS o_quota,
                o.upload_requires_manager AS o_urm
         FROM api_keys k JOIN users u ON u.id = k.user_id JOIN orgs o ON o.id = u.org_id
         WHERE k.key_hash = ?`,
      )
      .get(keyHash) as
      | (UserRecord & { key_id: number; read_only: number; o_id: number; o_name: string; o_license: 'active' | 'inactive'; o_quota: number | null; o_urm: number })
      | undefined;
    if (!row) return null;
    const teamIds = (this.db.prepare('SELECT team_id FROM team_members WHERE user_id = ?').all(row.id) as { team_id: number }[]).map(
      (t) => t.team_id,
    );
    return {
      key_id: row.key_id,
      read_only: row.read_only === 1,
      user: {
        id: row.id,
        org_id: row.org_id,
        username: row.username,
        first_name: row.first_name,
        last_name: row.last_name,
        email: row.email,
        role: row.role as Role,
      },
      org: {
        id: row.o_id,
        name: row.o_name,
        license: row.o_license,
        quota_per_minute: row.o_quota,
        upload_requires_manager: row.o_urm === 1,
      },
      team_ids: teamIds,
    };
  }
}

export class SqliteTeams implements TeamRepository {
  constructor(private readonly db: Db) {}

  upsert(orgId: number, name: string): TeamRecord {
    this.db.prepare('INSERT INTO teams (org_id, name) VALUES (?, ?) ON CONFLICT (org_id, name) DO NOTHING').run(orgId, name);
    return this.db.prepare('SELECT id, name FROM teams WHERE org_id = ? AND name = ?').get(orgId, name) as TeamRecord;
  }

  get(orgId: number, id: number): TeamRecord | null {
    return (this.db.prepare('SELECT id, name FROM teams WHERE org_id = ? AND id = ?').get(orgId, id) as TeamRecord | undefined) ?? null;
  }

  addMember(teamId: number, userId: number): void {
    this.db.prepare('INSERT OR IGNORE INTO team_members (team_id, user_id) VALUES (?, ?)').run(teamId, userId);
  }

  isMember(teamId: number, userId: number): boolean {
    return this.db.prepare('SELECT 1 FROM team_members WHERE team_id = ? AND user_id = ?').get(teamId, userId) !== undefined;
  }
}

export class SqliteOfferings implements OfferingRepository {
  constructor(private readonly db: Db) {}

  upsert(orgId: number, name: string, type: OfferingRecord['type']): OfferingRecord {
    this.db
      .prepare('INSERT INTO offerings (org_id, name, type) VALUES (?, ?, ?) ON CONFLICT (org_id, name) DO UPDATE SET type = excluded.type')
      .run(orgId, name, type);
    return this.db.prepare('SELECT id, name, type FROM offerings WHERE org_id = ? AND name = ?').get(orgId, name) as OfferingRecord;
  }

  getMany(orgId: number, ids: number[]): OfferingRecord[] {
    if (ids.length === 0) return [];
    const unique = [...new Set(ids)];
    return this.db
      .prepare(`SELECT id, name, type FROM offerings WHERE org_id = ? AND id IN (${unique.map(() => '?').join(',')}) ORDER BY id`)
      .all(orgId, ...unique) as OfferingRecord[];
  }

  list(orgId: number): OfferingRecord[] {
    return this.db.prepare('SELECT id, name, type FROM offerings WHERE org_id = ? ORDER BY name COLLATE NOCASE, id').all(orgId) as OfferingRecord[];
  }
}
