/** Uploaded files (repository documents and questionnaire workbooks) with their tags and offerings. */
import type { Db } from './database';
import { nowIso } from '../../clock';
import type { FileListQuery, FileProgress, FileRecord, FileRepository, NewFile, OfferingRecord, TagRecord } from '../types';

type FileRow = Omit<FileRecord, 'tags' | 'offerings' | 'scope_includes_company' | 'use_as_source'> & {
  scope_includes_company: number;
  use_as_source: number;
};

const SELECT_FILE = `SELECT f.id, f.org_id, f.user_id, f.purpose, f.original_filename, f.stored_name, f.size, f.file_format,
  f.document_type, f.status, f.processing_stage, f.processing_percent, f.error, f.analysis_type,
  f.scope_includes_company, f.use_as_source, f.passage_count, f.qa_count, f.data_count, f.total_embeddings,
  f.created_at, f.updated_at,
  COALESCE(NULLIF(TRIM(u.first_name || ' ' || u.last_name), ''), u.username) AS user_display
  FROM files f JOIN users u ON u.id = f.user_id`;

const ORDER_COLUMNS: Record<string, string> = {
  created_at: 'f.created_at',
  original_filename: 'f.original_filename COLLATE NOCASE',
  status: 'f.status',
  file_format: 'f.file_format',
};

export class SqliteFiles implements FileRepository {
  constructor(private readonly db: Db) {}

  create(file: NewFile): FileRecord {
    const now = nowIso();
    const id = this.db.transaction(() => {
      const r = this.db
        .prepare(
          `INSERT INTO files (org_id, user_id, purpose, original_filename, stored_name, size, sha256, file_format,
             document_type, analysis_type, scope_includes_company, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
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
        );
      const fileId = Number(r.lastInsertRowid);
      for (const name of new Set(file.tag_names ?? [])) {
        this.db.prepare('INSERT INTO tags (org_id, name) VALUES (?, ?) ON CONFLICT (org_id, name) DO NOTHING').run(file.org_id, name);
        const tag = this.db.prepare('SELECT id FROM tags WHERE org_id = ? AND name = ?').get(file.org_id, name) as { id: number };
        this.db.prepare('INSERT OR IGNORE INTO file_tags (file_id, tag_id) VALUES (?, ?)').run(fileId, tag.id);
      }
      for (const offeringId of new Set(file.offering_ids ?? [])) {
        this.db.prepare('INSERT OR IGNORE INTO file_offerings (file_id, offering_id) VALUES (?, ?)').run(fileId, offeringId);
      }
      return fileId;
    })();
    return this.getAny(id)!;
  }

  get(orgId: number, id: number): FileRecord | null {
    const row = this.db.prepare(`${SELECT_FILE} WHERE f.org_id = ? AND f.id = ?`).get(orgId, id) as FileRow | undefined;
    return row ? this.hydrate([row])[0]! : null;
  }

  getAny(id: number): FileRecord | null {
    const row = this.db.prepare(`${SELECT_FILE} WHERE f.id = ?`).get(id) as FileRow | undefined;
    return row ? this.hydrate([row])[0]! : null;
  }

  list(orgId: number, q: FileListQuery): { count: number; rows: FileRecord[] } {
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
        `(f.original_filename LIKE ? ESCAPE '\\' OR EXISTS (SELECT 1 FROM file_tags ft JOIN tags t ON t.id = ft.tag_id
           WHERE ft.file_id = f.id AND t.name LIKE ? ESCAPE '\\'))`,
      );
      args.push(like, like);
    }
    const whereSql = where.join(' AND ');
    const { n } = this.db.prepare(`SELECT COUNT(*) AS n FROM files f WHERE ${whereSql}`).get(...args) as { n: number };
    const descending = q.ordering?.startsWith('-') ?? true;
    const field = q.ordering ? q.ordering.replace(/^-/, '') : 'created_at';
    const column = ORDER_COLUMNS[field] ?? ORDER_COLUMNS.created_at!;
    const dir = descending ? 'DESC' : 'ASC';
    const rows = this.db
      .prepare(`${SELECT_FILE} WHERE ${whereSql} ORDER BY ${column} ${dir}, f.id ${dir} LIMIT ? OFFSET ?`)
      .all(...args, q.limit, q.offset) as FileRow[];
    return { count: n, rows: this.hydrate(rows) };
  }

  update(id: number, change: FileProgress): void {
    const sets: string[] = [];
    const args: unknown[] = [];
    for (const [key, value] of Object.entries(change)) {
      if (value === undefined) continue;
      sets.push(`${key} = ?`);
      args.push(value);
    }
    if (sets.length === 0) return;
    sets.push('updated_at = ?');
    args.push(nowIso(), id);
    this.db.prepare(`UPDATE files SET ${sets.join(', ')} WHERE id = ?`).run(...args);
  }

  remove(orgId: number, id: number): boolean {
    return this.db.prepare('DELETE FROM files WHERE org_id = ? AND id = ?').run(orgId, id).changes > 0;
  }

  private hydrate(rows: FileRow[]): FileRecord[] {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const marks = ids.map(() => '?').join(',');
    const tags = this.db
      .prepare(`SELECT ft.file_id, t.id, t.name FROM file_tags ft JOIN tags t ON t.id = ft.tag_id WHERE ft.file_id IN (${marks}) ORDER BY t.name`)
      .all(...ids) as (TagRecord & { file_id: number })[];
    const offerings = this.db
      .prepare(
        `SELECT fo.file_id, o.id, o.name, o.type FROM file_offerings fo JOIN offerings o ON o.id = fo.offering_id
         WHERE fo.file_id IN (${marks}) ORDER BY o.id`,
      )
      .all(...ids) as (OfferingRecord & { file_id: number })[];
    return rows.map((r) => ({
      ...r,
      scope_includes_company: r.scope_includes_company === 1,
      use_as_source: r.use_as_source === 1,
      tags: tags.filter((t) => t.file_id === r.id).map(({ id, name }) => ({ id, name })),
      offerings: offerings.filter((o) => o.file_id === r.id).map(({ id, name, type }) => ({ id, name, type })),
    }));
  }
}

export function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}
