/** Chat sessions, their messages and the sources of each answer. */
import type { Db } from './database';
import { nowIso } from '../../clock';
import { escapeLike } from './files';
import { parseJson } from './json';
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

export class SqliteSessions implements SessionRepository {
  constructor(private readonly db: Db) {}

  create(orgId: number, userId: number, opts: { title?: string; is_archived?: boolean }): SessionRecord {
    const now = nowIso();
    const r = this.db
      .prepare(
        `INSERT INTO chat_sessions (org_id, user_id, title, title_is_set, is_archived, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(orgId, userId, opts.title ?? 'New Chat', opts.title ? 1 : 0, opts.is_archived ? 1 : 0, now, now);
    return this.get(orgId, userId, Number(r.lastInsertRowid))!;
  }

  get(orgId: number, userId: number, id: number): SessionRecord | null {
    const row = this.db.prepare(`${SELECT_SESSION} WHERE s.org_id = ? AND s.user_id = ? AND s.id = ?`).get(orgId, userId, id) as
      | SessionRow
      | undefined;
    return row ? this.hydrate([row])[0]! : null;
  }

  list(orgId: number, userId: number, q: { search?: string; limit: number; offset: number }) {
    const where = ['s.org_id = ?', 's.user_id = ?'];
    const args: unknown[] = [orgId, userId];
    if (q.search) {
      const like = `%${escapeLike(q.search)}%`;
      where.push(
        `(s.title LIKE ? ESCAPE '\\' OR EXISTS (SELECT 1 FROM chat_messages m WHERE m.session_id = s.id AND m.content LIKE ? ESCAPE '\\'))`,
      );
      args.push(like, like);
    }
    const whereSql = where.join(' AND ');
    const { n } = this.db.prepare(`SELECT COUNT(*) AS n FROM chat_sessions s WHERE ${whereSql}`).get(...args) as { n: number };
    const rows = this.db
      .prepare(`${SELECT_SESSION} WHERE ${whereSql} ORDER BY s.updated_at DESC, s.id DESC LIMIT ? OFFSET ?`)
      .all(...args, q.limit, q.offset) as SessionRow[];
    return { count: n, rows: this.hydrate(rows) };
  }

  messages(sessionId: number): MessageRecord[] {
    const rows = this.db.prepare('SELECT * FROM chat_messages WHERE session_id = ? ORDER BY id').all(sessionId) as MessageRow[];
    return this.hydrateMessages(rows);
  }

  addMessages(sessionId: number, messages: NewMessage[]): void {
    this.db.transaction(() => {
      let last = '';
      for (const m of messages) {
        last = nowIso();
        const r = this.db
          .prepare('INSERT INTO chat_messages (session_id, sender, content, metadata, created_at) VALUES (?, ?, ?, ?, ?)')
          .run(sessionId, m.sender, m.content, m.metadata === undefined ? null : JSON.stringify(m.metadata), last);
        const messageId = Number(r.lastInsertRowid);
        (m.sources ?? []).forEach((s, i) => {
          this.db
            .prepare(
              `INSERT INTO chat_message_sources (message_id, type, relevance_score, content, source_file, file_id, page_number,
                 context_header, source_url, rank) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
            )
            .run(messageId, s.type, s.relevance_score, s.content, s.source_file, s.file_id, s.page_number, s.context_header, s.source_url, i + 1);
        });
      }
      if (last) this.db.prepare('UPDATE chat_sessions SET updated_at = ? WHERE id = ?').run(last, sessionId);
    })();
  }

  setGeneratedTitle(sessionId: number, title: string): void {
    this.db.prepare('UPDATE chat_sessions SET title = ?, title_is_set = 1 WHERE id = ? AND title_is_set = 0').run(title, sessionId);
  }

  private hydrate(rows: SessionRow[]): SessionRecord[] {
    return rows.map((r) => {
      const lastRow = this.db
        .prepare('SELECT * FROM chat_messages WHERE session_id = ? ORDER BY id DESC LIMIT 1')
        .get(r.id) as MessageRow | undefined;
      return {
        id: r.id,
        org_id: r.org_id,
        user_id: r.user_id,
        title: r.title,
        title_is_set: r.title_is_set === 1,
        is_archived: r.is_archived === 1,
        created_at: r.created_at,
        updated_at: r.updated_at,
        message_count: r.message_count,
        last_message: lastRow ? this.hydrateMessages([lastRow])[0]! : null,
      };
    });
  }

  private hydrateMessages(rows: MessageRow[]): MessageRecord[] {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const sources = this.db
      .prepare(`SELECT * FROM chat_message_sources WHERE message_id IN (${ids.map(() => '?').join(',')}) ORDER BY message_id, rank`)
      .all(...ids) as (SourceRecord & { message_id: number; rank: number })[];
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
