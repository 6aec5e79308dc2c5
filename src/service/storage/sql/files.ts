/** Uploaded files (repository documents and questionnaire workbooks) with their tags and offerings. */
import { nowIso } from '../../clock';
import { containsSql, escapeLike, inList, type Sql } from './executor';
import type { FileListQuery, FileProgress, FileRecord, FileRepository, NewFile, OfferingRecord, TagRecord } from '../types';

type FileRow = Omit<FileRecord, 'tags' | 'offerings' | 'scope_includes_company' | 'use_as_source'> & {
  scope_includes_company: number;
  use_as_source: number;
};

const SELECT_FILE = `SELECT f.id, f.org_id, f.user_id, f.purpose, f.original_filename, f.stored_name, f.size, f.sha256, f.file_format,
  f.document_type, f.status, f.processing_stage, f.processing_percent, f.error, f.analysis_type,
  f.scope_includes_company, f.use_as_source, f.passage_count, f.qa_count, f.data_count, f.total_embeddings,
  f.created_at, f.updated_at,
  COALESCE(NULLIF(TRIM(u.first_name || ' ' || u.last_name), ''), u.username) AS user_display
  FROM files f JOIN users u ON u.id = f.user_id`;

const ORDER_COLUMNS: Record<string, string> = {
  created_at: 'f.created_at',
  original_filename: 'LOWER(f.original_filename)',
  status: 'f.status',
  file_format: 'f.file_format',
};

/** Columns `update` may set: the keys of FileProgress, never a name taken from elsewhere. */
const PROGRESS_COLUMNS = new Set([
  'status',
  'processing_stage',
  'processing_percent',
  'error',
  'file_format',
  'document_type',
  'passage_count',
  'qa_count',
  'total_embeddings',
]);

export class SqlFiles implements FileRepository {
  constructor(private readonly sql: Sql) {}

  async create(file: NewFile): Promise<FileRecord> {
    const now = nowIso();
    return this.sql.atomic(async (sql) => {
      const fileId = await sql.insert(
        `INSERT INTO files (org_id, user_id, purpose, original_filename, stored_name, size, sha256, file_format,
           document_type, analysis_type, scope_includes_company, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          file.org_id,
          file.user_id,
          file.purpose,
          file.original_filename,
          file.stored_name,
          file.size,
          file.sha256,
          file.file_format,
          file.document_type,
          file.analysis_type ?? null,
          file.scope_includes_company === false ? 0 : 1,
          now,
          now,
        ],
      );
      for (const name of new Set(file.tag_names ?? [])) {
        await sql.run('INSERT INTO tags (org_id, name) VALUES (?, ?) ON CONFLICT (org_id, name) DO NOTHING', [file.org_id, name]);
        const tag = (await sql.get<{ id: number }>('SELECT id FROM tags WHERE org_id = ? AND name = ?', [file.org_id, name]))!;
        await sql.run('INSERT INTO file_tags (file_id, tag_id) VALUES (?, ?) ON CONFLICT DO NOTHING', [fileId, tag.id]);
      }
      for (const offeringId of new Set(file.offering_ids ?? [])) {
        await sql.run('INSERT INTO file_offerings (file_id, offering_id) VALUES (?, ?) ON CONFLICT DO NOTHING', [fileId, offeringId]);
      }
      return (await hydrate(sql, [(await sql.get<FileRow>(`${SELECT_FILE} WHERE f.id = ?`, [fileId]))!]))[0]!;
    });
  }

  async get(orgId: number, id: number): Promise<FileRecord | null> {
    const row = await this.sql.get<FileRow>(`${SELECT_FILE} WHERE f.org_id = ? AND f.id = ?`, [orgId, id]);
    return row ? (await hydrate(this.sql, [row]))[0]! : null;
  }

  async getAny(id: number): Promise<FileRecord | null> {
    const row = await this.sql.get<FileRow>(`${SELECT_FILE} WHERE f.id = ?`, [id]);
    return row ? (await hydrate(this.sql, [row]))[0]! : null;
  }

  async list(orgId: number, q: FileListQuery): Promise<{ count: number; rows: FileRecord[] }> {
    const where = ['f.org_id = ?', 'f.purpose = ?'];
    const args: unknown[] = [orgId, q.purpose];
    if (q.document_type) {
      where.push('f.document_type = ?');
      args.push(q.document_type);
    }
    if (q.status) {
      where.push('f.status = ?');
      args.push(q.status);
    }
    if (q.search) {
      const like = `%${escapeLike(q.search)}%`;
      where.push(
        `(${containsSql('f.original_filename')} OR EXISTS (SELECT 1 FROM file_tags ft JOIN tags t ON t.id = ft.tag_id
           WHERE ft.file_id = f.id AND ${containsSql('t.name')}))`,
      );
      args.push(like, like);
    }
    const whereSql = where.join(' AND ');
    const { n } = (await this.sql.get<{ n: number }>(`SELECT COUNT(*) AS n FROM files f WHERE ${whereSql}`, args))!;
    const descending = q.ordering?.startsWith('-') ?? true;
    const field = q.ordering ? q.ordering.replace(/^-/, '') : 'created_at';
    const column = ORDER_COLUMNS[field] ?? ORDER_COLUMNS.created_at!;
    const dir = descending ? 'DESC' : 'ASC';
    const rows = await this.sql.all<FileRow>(`${SELECT_FILE} WHERE ${whereSql} ORDER BY ${column} ${dir}, f.id ${dir} LIMIT ? OFFSET ?`, [
      ...args,
      q.limit,
      q.offset,
    ]);
    return { count: Number(n), rows: await hydrate(this.sql, rows) };
  }

  async update(id: number, change: FileProgress): Promise<void> {
    const sets: string[] = [];
    const args: unknown[] = [];
    for (const [key, value] of Object.entries(change)) {
      if (value === undefined || !PROGRESS_COLUMNS.has(key)) continue;
      sets.push(`${key} = ?`);
      args.push(value);
    }
    if (sets.length === 0) return;
    sets.push('updated_at = ?');
    args.push(nowIso(), id);
    await this.sql.run(`UPDATE files SET ${sets.join(', ')} WHERE id = ?`, args);
  }

  async remove(orgId: number, id: number): Promise<boolean> {
    return (await this.sql.run('DELETE FROM files WHERE org_id = ? AND id = ?', [orgId, id])).changes > 0;
  }
}

/** File rows with their tags and offerings. */
export async function hydrate(sql: Sql, rows: FileRow[]): Promise<FileRecord[]> {
  if (rows.length === 0) return [];
  const tagList = inList(
    sql,
    'ft.file_id',
    rows.map((r) => r.id),
  );
  const tags = await sql.all<TagRecord & { file_id: number }>(
    `SELECT ft.file_id, t.id, t.name FROM file_tags ft JOIN tags t ON t.id = ft.tag_id WHERE ${tagList.clause} ORDER BY t.name`,
    tagList.args,
  );
  const offeringList = inList(
    sql,
    'fo.file_id',
    rows.map((r) => r.id),
  );
  const offerings = await sql.all<OfferingRecord & { file_id: number }>(
    `SELECT fo.file_id, o.id, o.name, o.type FROM file_offerings fo JOIN offerings o ON o.id = fo.offering_id
     WHERE ${offeringList.clause} ORDER BY o.id`,
    offeringList.args,
  );
  return rows.map((r) => ({
    ...r,
    scope_includes_company: r.scope_includes_company === 1,
    use_as_source: r.use_as_source === 1,
    tags: tags.filter((t) => t.file_id === r.id).map(({ id, name }) => ({ id, name })),
    offerings: offerings.filter((o) => o.file_id === r.id).map(({ id, name, type }) => ({ id, name, type })),
  }));
}

export { SELECT_FILE, type FileRow };
