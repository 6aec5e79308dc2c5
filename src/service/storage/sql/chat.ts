/** Chat sessions, their messages and the sources of each answer. */
import { nowIso } from '../../clock';
import { containsSql, escapeLike, inList, parseJson, type Sql } from './executor';
import type { MessageRecord, NewMessage, SessionRecord, SessionRepository, SourceRecord } from '../types';

interface SessionRow {
  id: number;
  org_id: number;
  user_id: number;
  title: string;
  title_is_set: number;
  is_archived: number;
  created_at: string;
  updated_at: string;
  message_count: number;
}

interface MessageRow {
  id: number;
  session_id: number;
  sender: 'user' | 'assistant';
  content: string;
  is_edited: number;
  metadata: string | null;
  created_at: string;
}

const SELECT_SESSION = `SELECT s.*, (SELECT COUNT(*) FROM chat_messages m WHERE m.session_id = s.id) AS message_count
  FROM chat_sessions s`;

export class SqlSessions implements SessionRepository {
  constructor(private readonly sql: Sql) {}

  async create(orgId: number, userId: number, opts: { title?: string; is_archived?: boolean }): Promise<SessionRecord> {
    const now = nowIso();
    const id = await this.sql.insert(
      `INSERT INTO chat_sessions (org_id, user_id, title, title_is_set, is_archived, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
      [orgId, userId, opts.title ?? 'New Chat', opts.title ? 1 : 0, opts.is_archived ? 1 : 0, now, now],
    );
    return (await this.get(orgId, userId, id))!;
  }

  async get(orgId: number, userId: number, id: number): Promise<SessionRecord | null> {
    const row = await this.sql.get<SessionRow>(`${SELECT_SESSION} WHERE s.org_id = ? AND s.user_id = ? AND s.id = ?`, [orgId, userId, id]);
    return row ? (await this.hydrate([row]))[0]! : null;
  }

  async list(orgId: number, userId: number, q: { search?: string; limit: number; offset: number }) {
    const where = ['s.org_id = ?', 's.user_id = ?'];
    const args: unknown[] = [orgId, userId];
    if (q.search) {
      const like = `%${escapeLike(q.search)}%`;
      where.push(`(${containsSql('s.title')} OR EXISTS (SELECT 1 FROM chat_messages m WHERE m.session_id = s.id AND ${containsSql('m.content')}))`);
      args.push(like, like);
    }
    const whereSql = where.join(' AND ');
    const { n } = (await this.sql.get<{ n: number }>(`SELECT COUNT(*) AS n FROM chat_sessions s WHERE ${whereSql}`, args))!;
    const rows = await this.sql.all<SessionRow>(`${SELECT_SESSION} WHERE ${whereSql} ORDER BY s.updated_at DESC, s.id DESC LIMIT ? OFFSET ?`, [
      ...args,
      q.limit,
      q.offset,
    ]);
    return { count: Number(n), rows: await this.hydrate(rows) };
  }

  async messages(sessionId: number): Promise<MessageRecord[]> {
    const rows = await this.sql.all<MessageRow>('SELECT * FROM chat_messages WHERE session_id = ? ORDER BY id', [sessionId]);
    return this.hydrateMessages(rows);
  }

  addMessages(sessionId: number, messages: NewMessage[]): Promise<void> {
    return this.sql.atomic(async (sql) => {
      let last = '';
      for (const m of messages) {
        last = nowIso();
        const messageId = await sql.insert('INSERT INTO chat_messages (session_id, sender, content, metadata, created_at) VALUES (?, ?, ?, ?, ?)', [
          sessionId,
          m.sender,
          m.content,
          m.metadata === undefined ? null : JSON.stringify(m.metadata),
          last,
        ]);
        let rank = 0;
        for (const s of m.sources ?? []) {
          rank++;
          await sql.run(
            `INSERT INTO chat_message_sources (message_id, type, relevance_score, content, source_file, file_id, page_number,
               context_header, source_url, rank) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
            [messageId, s.type, s.relevance_score, s.content, s.source_file, s.file_id, s.page_number, s.context_header, s.source_url, rank],
          );
        }
      }
      if (last) await sql.run('UPDATE chat_sessions SET updated_at = ? WHERE id = ?', [last, sessionId]);
    });
  }

  async setGeneratedTitle(sessionId: number, title: string): Promise<void> {
    await this.sql.run('UPDATE chat_sessions SET title = ?, title_is_set = 1 WHERE id = ? AND title_is_set = 0', [title, sessionId]);
  }

  private async hydrate(rows: SessionRow[]): Promise<SessionRecord[]> {
    const out: SessionRecord[] = [];
    for (const r of rows) {
      const lastRow = await this.sql.get<MessageRow>('SELECT * FROM chat_messages WHERE session_id = ? ORDER BY id DESC LIMIT 1', [r.id]);
      out.push({
        id: r.id,
        org_id: r.org_id,
        user_id: r.user_id,
        title: r.title,
        title_is_set: r.title_is_set === 1,
        is_archived: r.is_archived === 1,
        created_at: r.created_at,
        updated_at: r.updated_at,
        message_count: Number(r.message_count),
        last_message: lastRow ? (await this.hydrateMessages([lastRow]))[0]! : null,
      });
    }
    return out;
  }

  private async hydrateMessages(rows: MessageRow[]): Promise<MessageRecord[]> {
    if (rows.length === 0) return [];
    const list = inList(
      this.sql,
      'message_id',
      rows.map((r) => r.id),
    );
    const sources = await this.sql.all<SourceRecord & { message_id: number; rank: number }>(
      `SELECT * FROM chat_message_sources WHERE ${list.clause} ORDER BY message_id, rank`,
      list.args,
    );
    return rows.map((r) => ({
      id: r.id,
      session_id: r.session_id,
      sender: r.sender,
      content: r.content,
      is_edited: r.is_edited === 1,
      metadata: parseJson<unknown>(r.metadata, null),
      created_at: r.created_at,
      sources: sources
        .filter((s) => s.message_id === r.id)
        .map((s) => ({
          id: s.id,
          type: s.type,
          relevance_score: s.relevance_score,
          content: s.content,
          source_file: s.source_file,
          file_id: s.file_id,
          page_number: s.page_number,
          context_header: s.context_header,
          source_url: s.source_url,
        })),
    }));
  }
}
