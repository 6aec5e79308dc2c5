/**
 * `qfill migrate`: copies a SQLite data folder's state into PostgreSQL, ids kept, so API keys, file ids,
 * questionnaire ids and links keep working. Idempotent: rows already copied (same key) are left alone,
 * so a second run copies only what is new; a database holding another installation's rows under the same
 * ids is refused rather than mixed. Jobs left running become queued (the new processes pick them up).
 * The knowledge index is not copied row by row (its full-text structures differ per backend): the
 * copied files are indexed again through the knowledge index (reindexMigrated in ../admin.ts).
 */
import type { Sql } from './sql/executor';

/** Tables in foreign-key order, with the key that says "already copied". */
const TABLES: { name: string; key: string[] }[] = [
  { name: 'orgs', key: ['id'] },
  { name: 'users', key: ['id'] },
  { name: 'api_keys', key: ['id'] },
  { name: 'teams', key: ['id'] },
  { name: 'team_members', key: ['team_id', 'user_id'] },
  { name: 'offerings', key: ['id'] },
  { name: 'files', key: ['id'] },
  { name: 'tags', key: ['id'] },
  { name: 'file_tags', key: ['file_id', 'tag_id'] },
  { name: 'file_offerings', key: ['file_id', 'offering_id'] },
  { name: 'chat_sessions', key: ['id'] },
  { name: 'chat_messages', key: ['id'] },
  { name: 'chat_message_sources', key: ['id'] },
  { name: 'questionnaires', key: ['id'] },
  { name: 'questionnaire_reviewers', key: ['questionnaire_id', 'user_id'] },
  { name: 'questionnaire_offerings', key: ['questionnaire_id', 'offering_id'] },
  { name: 'questions', key: ['id'] },
  { name: 'answers', key: ['id'] },
  { name: 'answer_evidence', key: ['id'] },
  { name: 'jobs', key: ['id'] },
  // The answer library's decisions and entries by hand (their index rows are written again by reindexMigrated).
  { name: 'library_state', key: ['org_id', 'file_id', 'location', 'question'] },
  { name: 'library_events', key: ['id'] },
  { name: 'library_manual', key: ['id'] },
  { name: 'library_settings', key: ['org_id'] },
  { name: 'library_replays', key: ['id'] },
];

export interface TableCount {
  table: string;
  source: number;
  copied: number;
}

const BATCH = 200;

async function columnsOf(sql: Sql, table: string): Promise<string[]> {
  if (sql.dialect === 'sqlite') return (await sql.all<{ name: string }>(`SELECT name FROM pragma_table_info(?)`, [table])).map((c) => c.name);
  return (
    await sql.all<{ column_name: string }>(
      'SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position',
      [table],
    )
  ).map((c) => c.column_name);
}

/** Refuses a target that holds a different organisation under an id the source uses. */
async function assertCompatible(from: Sql, to: Sql): Promise<void> {
  const source = await from.all<{ id: number; name: string }>('SELECT id, name FROM orgs ORDER BY id');
  const target = new Map((await to.all<{ id: number; name: string }>('SELECT id, name FROM orgs')).map((o) => [Number(o.id), o.name]));
  for (const org of source) {
    const there = target.get(Number(org.id));
    if (there !== undefined && there !== org.name) {
      throw new Error(
        `the database already holds organisation "${there}" under id ${org.id} (the data folder has "${org.name}" there); migrate into an empty database, or into the one this folder was migrated to before`,
      );
    }
  }
}

export async function copySqliteToPostgres(from: Sql, to: Sql, log: (line: string) => void = () => undefined): Promise<TableCount[]> {
  await assertCompatible(from, to);
  const counts: TableCount[] = [];
  for (const table of TABLES) {
    const targetColumns = new Set(await columnsOf(to, table.name));
    const columns = (await columnsOf(from, table.name)).filter((c) => targetColumns.has(c));
    // A data folder whose index predates the answer library has none of its tables: nothing to copy.
    if (columns.length === 0) continue;
    const quoted = columns.map((c) => `"${c}"`).join(', ');
    const rows = await from.all<Record<string, unknown>>(`SELECT ${quoted} FROM ${table.name} ORDER BY ${table.key.join(', ')}`);
    let copied = 0;
    for (let i = 0; i < rows.length; i += BATCH) {
      const chunk = rows.slice(i, i + BATCH);
      const args: unknown[] = [];
      for (const row of chunk) {
        for (const c of columns) {
          let value = row[c];
          if (table.name === 'jobs' && c === 'state' && value === 'running') value = 'queued';
          if (table.name === 'jobs' && c === 'lease_until') value = 0;
          if (table.name === 'jobs' && c === 'lease_owner') value = null;
          args.push(typeof value === 'bigint' ? Number(value) : value);
        }
      }
      const values = chunk.map(() => `(${columns.map(() => '?').join(', ')})`).join(', ');
      const r = await to.run(`INSERT INTO ${table.name} (${quoted}) VALUES ${values} ON CONFLICT DO NOTHING`, args);
      copied += r.changes;
    }
    if (columns.includes('id') && table.key.length === 1) {
      // Identity columns continue after the copied ids.
      await to.run(`SELECT setval(pg_get_serial_sequence('${table.name}', 'id'), GREATEST((SELECT COALESCE(MAX(id), 0) FROM ${table.name}), 1))`);
    }
    counts.push({ table: table.name, source: rows.length, copied });
    log(`${table.name}: ${rows.length} in the data folder, ${copied} copied${rows.length - copied > 0 ? `, ${rows.length - copied} already there` : ''}`);
  }
  return counts;
}

export interface MigrateOptions {
  fromData: string;
  databaseUrl: string;
  /** Where the PostgreSQL deployment keeps uploaded bytes (default: the source folder itself). */
  filesDir?: string;
  log?: (line: string) => void;
}

/** Copies the folder's database into PostgreSQL (one transaction) and its uploaded files to `filesDir`. */
export async function migrateDataFolder(opts: MigrateOptions): Promise<TableCount[]> {
  const { existsSync } = await import('node:fs');
  const { copyFile, mkdir, readdir } = await import('node:fs/promises');
  const { join, resolve } = await import('node:path');
  const { openSqliteSource, sqliteDatabasePath } = await import('./sqlite/open');
  const { openPostgresTarget } = await import('./postgres/open');
  const log = opts.log ?? (() => undefined);

  const fromData = resolve(opts.fromData);
  const sqlite = openSqliteSource(fromData);
  if (!sqlite) throw new Error(`no service database in ${fromData} (expected ${sqliteDatabasePath(fromData)})`);
  const database = await openPostgresTarget(opts.databaseUrl).catch((error: unknown) => {
    sqlite.close();
    throw error;
  });
  try {
    const counts = await database.transaction((to) => copySqliteToPostgres(sqlite.sql, to, log));
    const target = resolve(opts.filesDir ?? fromData);
    if (target !== fromData && existsSync(join(fromData, 'files'))) {
      await mkdir(join(target, 'files'), { recursive: true });
      let copiedFiles = 0;
      for (const name of await readdir(join(fromData, 'files'))) {
        if (name.endsWith('.part') || existsSync(join(target, 'files', name))) continue;
        await copyFile(join(fromData, 'files', name), join(target, 'files', name));
        copiedFiles++;
      }
      log(`uploaded files: ${copiedFiles} copied to ${join(target, 'files')}`);
    }
    return counts;
  } finally {
    sqlite.close();
    await database.close();
  }
}
