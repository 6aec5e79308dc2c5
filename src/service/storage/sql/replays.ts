/** Replay runs of the answer library (../replays.ts), in the SQL both backends accept. */
import { nowIso } from '../../clock';
import type { ReplayDetail, ReplayFiguresRecord, ReplayRepository, ReplayRunRecord } from '../replays';
import { parseJson, type Sql } from './executor';

interface Row {
  id: number;
  org_id: number;
  status: ReplayRunRecord['status'];
  started_by: string;
  max_questionnaires: number;
  created_at: string;
  finished_at: string | null;
  error: string | null;
  overall: string | null;
  gap_count: number | null;
}

const COLUMNS = 'id, org_id, status, started_by, max_questionnaires, created_at, finished_at, error, overall, gap_count';

function record(row: Row): ReplayRunRecord {
  return {
    ...row,
    id: Number(row.id),
    org_id: Number(row.org_id),
    max_questionnaires: Number(row.max_questionnaires),
    gap_count: row.gap_count === null ? null : Number(row.gap_count),
    overall: parseJson<ReplayFiguresRecord | null>(row.overall, null),
  };
}

export class SqlReplays implements ReplayRepository {
  constructor(private readonly sql: Sql) {}

  async create(orgId: number, run: { started_by: string; max_questionnaires: number }): Promise<ReplayRunRecord> {
    const id = await this.sql.insert('INSERT INTO library_replays (org_id, status, started_by, max_questionnaires, created_at) VALUES (?, ?, ?, ?, ?)', [
      orgId,
      'queued',
      run.started_by,
      run.max_questionnaires,
      nowIso(),
    ]);
    return (await this.get(orgId, id))!;
  }

  async get(orgId: number, id: number): Promise<ReplayRunRecord | null> {
    const row = await this.sql.get<Row>(`SELECT ${COLUMNS} FROM library_replays WHERE org_id = ? AND id = ?`, [orgId, id]);
    return row ? record(row) : null;
  }

  async getAny(id: number): Promise<ReplayRunRecord | null> {
    const row = await this.sql.get<Row>(`SELECT ${COLUMNS} FROM library_replays WHERE id = ?`, [id]);
    return row ? record(row) : null;
  }

  async list(orgId: number, page: { limit: number; offset: number }): Promise<{ count: number; rows: ReplayRunRecord[] }> {
    const count = Number((await this.sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM library_replays WHERE org_id = ?', [orgId]))?.n ?? 0);
    const rows = await this.sql.all<Row>(`SELECT ${COLUMNS} FROM library_replays WHERE org_id = ? ORDER BY id DESC LIMIT ? OFFSET ?`, [
      orgId,
      page.limit,
      page.offset,
    ]);
    return { count, rows: rows.map(record) };
  }

  async detail(orgId: number, id: number): Promise<ReplayDetail | null> {
    const row = await this.sql.get<{ detail: string | null }>('SELECT detail FROM library_replays WHERE org_id = ? AND id = ?', [orgId, id]);
    return row ? parseJson<ReplayDetail | null>(row.detail, null) : null;
  }

  async setRunning(id: number): Promise<void> {
    await this.sql.run(`UPDATE library_replays SET status = 'running' WHERE id = ? AND status <> 'done'`, [id]);
  }

  async finish(id: number, result: { overall: ReplayFiguresRecord; gap_count: number; detail: ReplayDetail }): Promise<void> {
    await this.sql.run(`UPDATE library_replays SET status = 'done', finished_at = ?, error = NULL, overall = ?, gap_count = ?, detail = ? WHERE id = ?`, [
      nowIso(),
      JSON.stringify(result.overall),
      result.gap_count,
      JSON.stringify(result.detail),
      id,
    ]);
  }

  async fail(id: number, error: string): Promise<void> {
    await this.sql.run(`UPDATE library_replays SET status = 'failed', finished_at = ?, error = ? WHERE id = ?`, [nowIso(), error, id]);
  }
}
