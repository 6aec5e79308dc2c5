/** Organisations, users, API keys, teams and offerings, in SQL both backends share. */
import { nowIso } from '../../clock';
import { inList, type Sql } from './executor';
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
  return {
    id: r.id,
    name: r.name,
    license: r.license,
    quota_per_minute: r.quota_per_minute,
    upload_requires_manager: r.upload_requires_manager === 1,
  };
}

export const USER_COLUMNS = 'u.id, u.org_id, u.username, u.first_name, u.last_name, u.email, u.role';

export class SqlOrgs implements OrgRepository {
  constructor(private readonly sql: Sql) {}

  async findByName(name: string): Promise<OrgRecord | null> {
    const r = await this.sql.get<OrgRow>('SELECT * FROM orgs WHERE name = ?', [name]);
    return r ? toOrg(r) : null;
  }

  async get(id: number): Promise<OrgRecord | null> {
    const r = await this.sql.get<OrgRow>('SELECT * FROM orgs WHERE id = ?', [id]);
    return r ? toOrg(r) : null;
  }

  async list(): Promise<OrgRecord[]> {
    return (await this.sql.all<OrgRow>('SELECT * FROM orgs ORDER BY id')).map(toOrg);
  }

  upsert(name: string, change: Partial<Omit<OrgRecord, 'id' | 'name'>>): Promise<OrgRecord> {
    return this.sql.atomic(async (sql) => {
      await sql.run('INSERT INTO orgs (name, created_at) VALUES (?, ?) ON CONFLICT (name) DO NOTHING', [name, nowIso()]);
      const org = (await sql.get<OrgRow>('SELECT * FROM orgs WHERE name = ?', [name]))!;
      if (change.license !== undefined) await sql.run('UPDATE orgs SET license = ? WHERE id = ?', [change.license, org.id]);
      if (change.quota_per_minute !== undefined) await sql.run('UPDATE orgs SET quota_per_minute = ? WHERE id = ?', [change.quota_per_minute, org.id]);
      if (change.upload_requires_manager !== undefined)
        await sql.run('UPDATE orgs SET upload_requires_manager = ? WHERE id = ?', [change.upload_requires_manager ? 1 : 0, org.id]);
      return toOrg((await sql.get<OrgRow>('SELECT * FROM orgs WHERE id = ?', [org.id]))!);
    });
  }
}

export class SqlUsers implements UserRepository {
  constructor(private readonly sql: Sql) {}

  async findByUsername(orgId: number, username: string): Promise<UserRecord | null> {
    return (await this.sql.get<UserRecord>(`SELECT ${USER_COLUMNS} FROM users u WHERE u.org_id = ? AND u.username = ?`, [orgId, username])) ?? null;
  }

  async get(orgId: number, id: number): Promise<UserRecord | null> {
    return (await this.sql.get<UserRecord>(`SELECT ${USER_COLUMNS} FROM users u WHERE u.org_id = ? AND u.id = ?`, [orgId, id])) ?? null;
  }

  upsert(orgId: number, username: string, change: Partial<Omit<UserRecord, 'id' | 'org_id' | 'username'>>): Promise<UserRecord> {
    return this.sql.atomic(async (sql) => {
      await sql.run('INSERT INTO users (org_id, username, created_at) VALUES (?, ?, ?) ON CONFLICT (org_id, username) DO NOTHING', [orgId, username, nowIso()]);
      const find = () => sql.get<UserRecord>(`SELECT ${USER_COLUMNS} FROM users u WHERE u.org_id = ? AND u.username = ?`, [orgId, username]);
      const user = (await find())!;
      for (const field of ['first_name', 'last_name', 'email', 'role'] as const) {
        const value = change[field];
        if (value !== undefined) await sql.run(`UPDATE users SET ${field} = ? WHERE id = ?`, [value, user.id]);
      }
      return (await find())!;
    });
  }
}

type PrincipalRow = UserRecord & {
  key_id: number;
  read_only: number;
  o_id: number;
  o_name: string;
  o_license: 'active' | 'inactive';
  o_quota: number | null;
  o_urm: number;
};

export class SqlKeys implements ApiKeyRepository {
  constructor(private readonly sql: Sql) {}

  create(userId: number, keyHash: string, prefix: string, opts: { readOnly: boolean; name: string }): Promise<number> {
    return this.sql.insert('INSERT INTO api_keys (user_id, name, key_hash, prefix, read_only, created_at) VALUES (?, ?, ?, ?, ?, ?)', [
      userId,
      opts.name,
      keyHash,
      prefix,
      opts.readOnly ? 1 : 0,
      nowIso(),
    ]);
  }

  async resolve(keyHash: string): Promise<Principal | null> {
    const row = await this.sql.get<PrincipalRow>(
      `SELECT k.id AS key_id, k.read_only, ${USER_COLUMNS},
              o.id AS o_id, o.name AS o_name, o.license AS o_license, o.quota_per_minute AS o_quota,
              o.upload_requires_manager AS o_urm
       FROM api_keys k JOIN users u ON u.id = k.user_id JOIN orgs o ON o.id = u.org_id
       WHERE k.key_hash = ?`,
      [keyHash],
    );
    if (!row) return null;
    const teams = await this.sql.all<{ team_id: number }>('SELECT team_id FROM team_members WHERE user_id = ? ORDER BY team_id', [row.id]);
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
      team_ids: teams.map((t) => t.team_id),
    };
  }
}

export class SqlTeams implements TeamRepository {
  constructor(private readonly sql: Sql) {}

  upsert(orgId: number, name: string): Promise<TeamRecord> {
    return this.sql.atomic(async (sql) => {
      await sql.run('INSERT INTO teams (org_id, name) VALUES (?, ?) ON CONFLICT (org_id, name) DO NOTHING', [orgId, name]);
      return (await sql.get<TeamRecord>('SELECT id, name FROM teams WHERE org_id = ? AND name = ?', [orgId, name]))!;
    });
  }

  async get(orgId: number, id: number): Promise<TeamRecord | null> {
    return (await this.sql.get<TeamRecord>('SELECT id, name FROM teams WHERE org_id = ? AND id = ?', [orgId, id])) ?? null;
  }

  async addMember(teamId: number, userId: number): Promise<void> {
    await this.sql.run('INSERT INTO team_members (team_id, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING', [teamId, userId]);
  }

  async isMember(teamId: number, userId: number): Promise<boolean> {
    return (await this.sql.get('SELECT 1 AS one FROM team_members WHERE team_id = ? AND user_id = ?', [teamId, userId])) !== undefined;
  }
}

export class SqlOfferings implements OfferingRepository {
  constructor(private readonly sql: Sql) {}

  upsert(orgId: number, name: string, type: OfferingRecord['type']): Promise<OfferingRecord> {
    return this.sql.atomic(async (sql) => {
      await sql.run('INSERT INTO offerings (org_id, name, type) VALUES (?, ?, ?) ON CONFLICT (org_id, name) DO UPDATE SET type = excluded.type', [
        orgId,
        name,
        type,
      ]);
      return (await sql.get<OfferingRecord>('SELECT id, name, type FROM offerings WHERE org_id = ? AND name = ?', [orgId, name]))!;
    });
  }

  async getMany(orgId: number, ids: number[]): Promise<OfferingRecord[]> {
    if (ids.length === 0) return [];
    const list = inList(this.sql, 'id', [...new Set(ids)]);
    return this.sql.all<OfferingRecord>(`SELECT id, name, type FROM offerings WHERE org_id = ? AND ${list.clause} ORDER BY id`, [orgId, ...list.args]);
  }

  async list(orgId: number): Promise<OfferingRecord[]> {
    return this.sql.all<OfferingRecord>('SELECT id, name, type FROM offerings WHERE org_id = ? ORDER BY LOWER(name), id', [orgId]);
  }
}
