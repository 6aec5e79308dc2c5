/**
 * The answer library (../library.ts) in the SQL both backends accept: entries are the knowledge index's
 * `kb_qa` rows, joined with their file's scope and upload date and with what analysts decided about them.
 */
import { nowIso } from '../../clock';
import type { QaFields, QaSlot } from '../knowledge-index';
import type {
  LibraryEntryKey,
  LibraryEventRecord,
  LibraryListFilter,
  LibraryRepository,
  LibraryRow,
  LibraryState,
  ManualEntry,
  ManualEntryContent,
  LibrarySettlement,
  NewLibraryEvent,
} from '../library';
import { inList, parseJson, type Sql } from './executor';
import { ANSWER_PREFIX_CHARS, answerPrefixSql, KEY_PREFIX_CHARS, keyPrefixSql, questionKeySql } from './library-schema';

const KEY = questionKeySql('q');
const KEY_PREFIX = keyPrefixSql('q');
const prefix = (key: string) => key.slice(0, KEY_PREFIX_CHARS);

const STATE_JOIN = `LEFT JOIN library_state s ON s.org_id = q.org_id AND s.file_id = q.file_id AND s.location = q.location AND s.question = q.question`;

const SELECT_ENTRY = `SELECT q.id, q.file_id, q.question, q.answer, q.slots, q.original_id, q.tab_name, q.location, f.filename,
  ${KEY} AS qkey, fl.created_at AS file_created_at, f.as_of AS file_as_of, s.org_id AS state_org,
  s.status, s.retired_reason, s.approved_by, s.approved_at, s.version, s.edit_question, s.edit_answer, s.edit_slots,
  s.as_of, s.updated_by, s.updated_at, s.owner, s.review_months
  FROM kb_qa q
  JOIN kb_files f ON f.org_id = q.org_id AND f.file_id = q.file_id
  LEFT JOIN files fl ON fl.id = q.file_id AND fl.org_id = q.org_id
  ${STATE_JOIN}`;

/** An indexed entry with the analysts' state beside it: its slots (and edited slots) still JSON. */
interface EntryRow extends Omit<QaFields, 'slots' | 'question_stems' | 'stems'> {
  id: number;
  file_id: number;
  slots: string;
  filename: string;
  qkey: string;
  file_created_at: string | null;
  file_as_of: string | null;
  state_org: number | null;
  status: LibraryState['status'] | null;
  retired_reason: string | null;
  approved_by: string | null;
  approved_at: string | null;
  version: number | null;
  edit_question: string | null;
  edit_answer: string | null;
  edit_slots: string | null;
  as_of: string | null;
  updated_by: string | null;
  updated_at: string | null;
  owner: string | null;
  review_months: number | null;
}

/** State columns `change` may set: the keys of LibraryState, never a name taken from elsewhere. */
const STATE_COLUMNS = new Set<keyof LibraryState>([
  'status',
  'retired_reason',
  'approved_by',
  'approved_at',
  'version',
  'edit_question',
  'edit_answer',
  'edit_slots',
  'as_of',
  'updated_by',
  'updated_at',
  'owner',
  'review_months',
]);

/** Keys whose live entries (not retired) give more than one answer and none of which is canonical. */
function conflictSql(keyFilter: string): string {
  return `SELECT k FROM (
    SELECT ${KEY} AS k, COALESCE(s.status, 'active') AS st, LOWER(TRIM(SUBSTR(COALESCE(s.edit_answer, q.answer), 1, ${ANSWER_PREFIX_CHARS}))) AS a
    FROM kb_qa q ${STATE_JOIN}
    WHERE q.org_id = ? ${keyFilter}
  ) x GROUP BY k
  HAVING COUNT(DISTINCT CASE WHEN st <> 'retired' THEN a END) > 1 AND SUM(CASE WHEN st = 'canonical' THEN 1 ELSE 0 END) = 0`;
}

export class SqlLibrary implements LibraryRepository {
  constructor(private readonly sql: Sql) {}

  /** `column IN (texts)` with one parameter for the whole list. */
  private textIn(column: string, values: readonly string[]): { clause: string; args: unknown[] } {
    return this.sql.dialect === 'postgres'
      ? { clause: `${column} = ANY(CAST(? AS TEXT[]))`, args: [[...values]] }
      : { clause: `${column} IN (SELECT value FROM json_each(?))`, args: [JSON.stringify(values)] };
  }

  private get companyScope(): string {
    return this.sql.dialect === 'postgres' ? 'f.scope_includes_company' : 'f.scope_includes_company = 1';
  }

  async list(orgId: number, filter: LibraryListFilter, page: { limit: number; offset: number }): Promise<{ count: number; rows: LibraryRow[] }> {
    const where = ['q.org_id = ?'];
    const args: unknown[] = [orgId];
    const status = filter.filter === 'retired' ? 'retired' : filter.status;
    if (status) {
      where.push(`COALESCE(s.status, 'active') = ?`);
      args.push(status);
    } else {
      // Retired entries are kept, not browsed: they show when asked for.
      where.push(`COALESCE(s.status, 'active') <> 'retired'`);
    }
    if (filter.filter === 'unapproved') where.push('s.approved_at IS NULL');
    if (filter.filter === 'approved') where.push('s.approved_at IS NOT NULL');
    if (filter.filter === 'by_hand') where.push('q.file_id < 0');
    if (filter.filter === 'review_due') {
      const due = await this.reviewDueClause(orgId, filter);
      where.push(due.clause);
      args.push(...due.args);
    }
    if (filter.owner !== undefined) {
      where.push('s.owner = ?');
      args.push(filter.owner);
    }
    if (filter.filter === 'conflicts') {
      const inConflict = [...(await this.conflictingByPrefix(orgId, await this.conflictCandidates(orgId)))];
      // The indexed part too, so the entries are found through the key's index.
      const prefixes = this.textIn(KEY_PREFIX, [...new Set(inConflict.map(prefix))]);
      const keys = this.textIn(KEY, inConflict);
      where.push(prefixes.clause, keys.clause);
      args.push(...prefixes.args, ...keys.args);
    }
    if (filter.file_id !== undefined) {
      where.push('q.file_id = ?');
      args.push(filter.file_id);
    }
    if (filter.offering_id !== undefined) {
      where.push(`(${this.companyScope} OR EXISTS (SELECT 1 FROM kb_file_offerings o WHERE o.org_id = q.org_id AND o.file_id = q.file_id AND o.offering_id = ?))`);
      args.push(filter.offering_id);
    }
    if (filter.ids) {
      if (filter.ids.length === 0) return { count: 0, rows: [] };
      const ids = inList(this.sql, 'q.id', filter.ids);
      where.push(ids.clause);
      args.push(...ids.args);
      // A search's results: few (the retrieval's pool), kept in its order, paged here.
      const rows = await this.sql.all<EntryRow>(`${SELECT_ENTRY} WHERE ${where.join(' AND ')}`, args);
      const rank = new Map(filter.ids.map((id, i) => [id, i]));
      rows.sort((a, b) => rank.get(a.id)! - rank.get(b.id)!);
      return { count: rows.length, rows: await this.withOfferings(orgId, rows.slice(page.offset, page.offset + page.limit)) };
    }
    const clause = where.join(' AND ');
    const count = filter.filter === 'conflicts' ? await this.countJoined(clause, args) : await this.countByDecisions(orgId, filter, status);
    if (count === 0 || page.offset >= count) return { count, rows: [] };
    // Newest file first, and in a file its last rows first: the order of an index, so a page is read and
    // the scan stops, instead of every entry joined and sorted.
    const rows = await this.sql.all<EntryRow>(`${SELECT_ENTRY} WHERE ${clause} ORDER BY q.file_id DESC, q.id DESC LIMIT ? OFFSET ?`, [...args, page.limit, page.offset]);
    return { count, rows: await this.withOfferings(orgId, rows) };
  }

  /**
   * Entries approved (else dated) before their cutoff: the organisation's, or the one of their own review
   * interval (the few intervals in use, read first, each with its cutoff).
   */
  private async reviewDueClause(orgId: number, filter: LibraryListFilter, kbFile = 'f'): Promise<{ clause: string; args: unknown[] }> {
    const base = `COALESCE(s.approved_at, s.as_of, ${kbFile}.as_of, fl.created_at)`;
    const cutoffs = filter.review_cutoffs;
    const months = cutoffs
      ? (await this.sql.all<{ m: number }>('SELECT DISTINCT review_months AS m FROM library_state WHERE org_id = ? AND review_months IS NOT NULL', [orgId])).map((r) => Number(r.m)).filter((m) => cutoffs[m] !== undefined)
      : [];
    if (months.length === 0) return { clause: `${base} < ?`, args: [filter.review_cutoff] };
    const whens = months.map(() => 'WHEN ? THEN CAST(? AS TEXT)').join(' ');
    const args: unknown[] = months.flatMap((m) => [m, cutoffs![m]]);
    return { clause: `${base} < (CASE s.review_months ${whens} ELSE CAST(? AS TEXT) END)`, args: [...args, filter.review_cutoff] };
  }

  /** Counts by joining every entry with its decisions: what the conflicts filter needs. */
  private async countJoined(clause: string, args: unknown[]): Promise<number> {
    const from = `FROM kb_qa q LEFT JOIN files fl ON fl.id = q.file_id AND fl.org_id = q.org_id ${STATE_JOIN}`;
    return Number((await this.sql.get<{ n: number }>(`SELECT COUNT(*) AS n ${from} WHERE ${clause}`, args))?.n ?? 0);
  }

  /**
   * Counts without joining 50,000 entries with their decisions (a tenth of a second): the entries that
   * have no decision count as their defaults say (active, unapproved, dated by their file), counted from
   * the entries' own index less those with a decision; those with one are counted from the decisions
   * (few) joined to their entries.
   */
  private async countByDecisions(orgId: number, filter: LibraryListFilter, status: string | undefined): Promise<number> {
    // Conditions on the entry and its file only, the same for both parts.
    const entry: string[] = ['q.org_id = ?'];
    const entryArgs: unknown[] = [orgId];
    if (filter.filter === 'by_hand') entry.push('q.file_id < 0');
    if (filter.file_id !== undefined) {
      entry.push('q.file_id = ?');
      entryArgs.push(filter.file_id);
    }
    if (filter.offering_id !== undefined) {
      entry.push(`q.file_id IN (SELECT f.file_id FROM kb_files f WHERE f.org_id = ? AND (${this.companyScope} OR EXISTS (
        SELECT 1 FROM kb_file_offerings o WHERE o.org_id = f.org_id AND o.file_id = f.file_id AND o.offering_id = ?)))`);
      entryArgs.push(orgId, filter.offering_id);
    }
    // Whether an entry without a decision passes, and what more its file must be.
    const undecided = [...entry];
    const undecidedArgs = [...entryArgs];
    let undecidedPass = status === undefined || status === 'active';
    if (filter.filter === 'approved' || filter.owner !== undefined) undecidedPass = false;
    if (filter.filter === 'review_due') {
      // Dated by what the file states about itself, else by its upload.
      undecided.push(`q.file_id IN (SELECT fl.id FROM files fl LEFT JOIN kb_files kf ON kf.org_id = fl.org_id AND kf.file_id = fl.id
        WHERE fl.org_id = ? AND COALESCE(kf.as_of, fl.created_at) < ?)`);
      undecidedArgs.push(orgId, filter.review_cutoff);
    }
    // What an entry with a decision must be.
    const decided = [...entry, 's.org_id = ?'];
    const decidedArgs: unknown[] = [...entryArgs, orgId];
    if (status) {
      decided.push('s.status = ?');
      decidedArgs.push(status);
    } else decided.push(`s.status <> 'retired'`);
    if (filter.filter === 'unapproved') decided.push('s.approved_at IS NULL');
    if (filter.filter === 'approved') decided.push('s.approved_at IS NOT NULL');
    if (filter.filter === 'review_due') {
      const due = await this.reviewDueClause(orgId, filter, 'kf');
      decided.push(due.clause);
      decidedArgs.push(...due.args);
    }
    if (filter.owner !== undefined) {
      decided.push('s.owner = ?');
      decidedArgs.push(filter.owner);
    }
    // The decisions drive the join (SQLite: CROSS JOIN keeps them the outer loop).
    const join = this.sql.dialect === 'sqlite' ? 'CROSS JOIN' : 'JOIN';
    const fromDecided = `FROM library_state s ${join} kb_qa q ON q.org_id = s.org_id AND q.file_id = s.file_id AND q.location = s.location AND q.question = s.question
      LEFT JOIN files fl ON fl.id = q.file_id AND fl.org_id = q.org_id
      LEFT JOIN kb_files kf ON kf.org_id = q.org_id AND kf.file_id = q.file_id`;
    const n = async (sql: string, args: unknown[]) => Number((await this.sql.get<{ n: number }>(sql, args))?.n ?? 0);
    if (!undecidedPass) return n(`SELECT COUNT(*) AS n ${fromDecided} WHERE ${decided.join(' AND ')}`, decidedArgs);
    // One pass over the decisions: those that pass, and those whose entries the undecided count must not hold.
    const both = await this.sql.get<{ d: number | null; u: number | null }>(
      `SELECT SUM(CASE WHEN ${decided.join(' AND ')} THEN 1 ELSE 0 END) AS d, SUM(CASE WHEN ${undecided.join(' AND ')} THEN 1 ELSE 0 END) AS u
       ${fromDecided} WHERE s.org_id = ? AND q.org_id = ?`,
      [...decidedArgs, ...undecidedArgs, orgId, orgId],
    );
    // The organisation's whole library: the index keeps its row count (kb_counts), so nothing is counted.
    const all =
      undecided.length === 1
        ? await n(`SELECT COALESCE(SUM(rows), 0) AS n FROM kb_counts WHERE org_id = ? AND kind = 'qa'`, [orgId])
        : await n(`SELECT COUNT(*) AS n FROM kb_qa q WHERE ${undecided.join(' AND ')}`, undecidedArgs);
    return all - Number(both?.u ?? 0) + Number(both?.d ?? 0);
  }

  async get(orgId: number, id: number): Promise<LibraryRow | null> {
    const rows = await this.byIds(orgId, [id]);
    return rows[0] ?? null;
  }

  async byIds(orgId: number, ids: number[]): Promise<LibraryRow[]> {
    if (ids.length === 0) return [];
    const list = inList(this.sql, 'q.id', ids);
    const rows = await this.sql.all<EntryRow>(`${SELECT_ENTRY} WHERE q.org_id = ? AND ${list.clause}`, [orgId, ...list.args]);
    return this.withOfferings(orgId, rows);
  }

  async byKey(orgId: number, qkey: string): Promise<LibraryRow[]> {
    // Found through the key's index; ordered here, since an ORDER BY tempted SQLite into walking every entry in order instead.
    const rows = await this.sql.all<EntryRow>(`${SELECT_ENTRY} WHERE q.org_id = ? AND ${KEY_PREFIX} = ? AND ${KEY} = ?`, [orgId, prefix(qkey), qkey]);
    rows.sort((a, b) => Number(b.file_id) - Number(a.file_id) || Number(b.id) - Number(a.id));
    return this.withOfferings(orgId, rows);
  }

  async conflicting(orgId: number, qkeys: string[]): Promise<Set<string>> {
    if (qkeys.length === 0) return new Set();
    // Through the index by the keys' indexed part; the whole key groups.
    const keys = this.textIn(KEY_PREFIX, [...new Set(qkeys.map(prefix))]);
    const wanted = new Set(qkeys);
    const rows = await this.sql.all<{ k: string }>(conflictSql(`AND ${keys.clause}`), [orgId, ...keys.args]);
    return new Set(rows.map((r) => r.k).filter((k) => wanted.has(k)));
  }

  /** `conflicting` for keys given by their indexed part: every key in conflict that starts so. */
  private async conflictingByPrefix(orgId: number, prefixes: string[]): Promise<Set<string>> {
    if (prefixes.length === 0) return new Set();
    const keys = this.textIn(KEY_PREFIX, [...new Set(prefixes)]);
    const rows = await this.sql.all<{ k: string }>(conflictSql(`AND ${keys.clause}`), [orgId, ...keys.args]);
    return new Set(rows.map((r) => r.k));
  }

  async conflictKeys(orgId: number, page: { limit: number; offset: number }): Promise<{ count: number; keys: string[] }> {
    const keys = [...(await this.conflictingByPrefix(orgId, await this.conflictCandidates(orgId)))].sort();
    return { count: keys.length, keys: keys.slice(page.offset, page.offset + page.limit) };
  }

  /**
   * The indexed parts of keys that may be in conflict, read from the key's index alone (not every entry
   * joined with its decisions): those whose entries' answers differ as learned, and those of entries with
   * an edit (it can make entries disagree). `conflictingByPrefix` then decides on these few.
   */
  private async conflictCandidates(orgId: number): Promise<string[]> {
    const answer = answerPrefixSql('q');
    const learned = await this.sql.all<{ k: string }>(
      `SELECT ${KEY_PREFIX} AS k FROM kb_qa q WHERE q.org_id = ? GROUP BY ${KEY_PREFIX} HAVING MIN(${answer}) <> MAX(${answer})`,
      [orgId],
    );
    const edited = await this.sql.all<{ k: string }>(`SELECT DISTINCT qkey AS k FROM library_state WHERE org_id = ? AND edit_answer IS NOT NULL`, [orgId]);
    return [...new Set([...learned.map((r) => r.k), ...edited.map((r) => prefix(r.k))])];
  }

  async canonicalKeys(orgId: number, qkeys: string[]): Promise<Set<string>> {
    if (qkeys.length === 0) return new Set();
    const keys = this.textIn('qkey', [...new Set(qkeys)]);
    const rows = await this.sql.all<{ qkey: string }>(
      `SELECT DISTINCT qkey FROM library_state WHERE org_id = ? AND status = 'canonical' AND ${keys.clause}`,
      [orgId, ...keys.args],
    );
    return new Set(rows.map((r) => r.qkey));
  }

  async change(orgId: number, entry: LibraryEntryKey & { qkey: string }, state: Partial<LibraryState>, event: NewLibraryEvent): Promise<void> {
    const at = event.at ?? nowIso();
    await this.sql.atomic(async (sql) => {
      await sql.run(
        `INSERT INTO library_state (org_id, file_id, location, question, qkey) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (org_id, file_id, location, question) DO NOTHING`,
        [orgId, entry.file_id, entry.location, entry.question, entry.qkey],
      );
      const sets: string[] = ['qkey = ?'];
      const args: unknown[] = [entry.qkey];
      for (const [column, value] of Object.entries(state) as [keyof LibraryState, unknown][]) {
        if (!STATE_COLUMNS.has(column) || value === undefined) continue;
        sets.push(`${column} = ?`);
        args.push(column === 'edit_slots' && value !== null ? JSON.stringify(value) : value);
      }
      await sql.run(
        `UPDATE library_state SET ${sets.join(', ')} WHERE org_id = ? AND file_id = ? AND location = ? AND question = ?`,
        [...args, orgId, entry.file_id, entry.location, entry.question],
      );
      await insertEvent(sql, orgId, entry, event, at);
    });
  }

  async settlements(orgId: number, qkeys: string[]): Promise<LibrarySettlement[]> {
    if (qkeys.length === 0) return [];
    const keys = this.textIn('qkey', [...new Set(qkeys)]);
    const rows = await this.sql.all<LibrarySettlement>(
      `SELECT qkey, offering_id, file_id, location, question, by_name, at FROM library_settlements WHERE org_id = ? AND ${keys.clause} ORDER BY offering_id`,
      [orgId, ...keys.args],
    );
    return rows.map((r) => ({ ...r, offering_id: Number(r.offering_id), file_id: Number(r.file_id) }));
  }

  async settleForOffering(orgId: number, settlement: Omit<LibrarySettlement, 'at'> & { at?: string }, event: NewLibraryEvent): Promise<void> {
    const at = settlement.at ?? event.at ?? nowIso();
    const t = settlement;
    await this.sql.atomic(async (sql) => {
      await sql.run(
        `INSERT INTO library_settlements (org_id, qkey, offering_id, file_id, location, question, by_name, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (org_id, qkey, offering_id) DO UPDATE SET file_id = excluded.file_id, location = excluded.location,
           question = excluded.question, by_name = excluded.by_name, at = excluded.at`,
        [orgId, t.qkey, t.offering_id, t.file_id, t.location, t.question, t.by_name, at],
      );
      await insertEvent(sql, orgId, t, event, at);
    });
  }

  async unsettleForOffering(orgId: number, settlement: LibrarySettlement, event: NewLibraryEvent): Promise<void> {
    const at = event.at ?? nowIso();
    await this.sql.atomic(async (sql) => {
      await sql.run('DELETE FROM library_settlements WHERE org_id = ? AND qkey = ? AND offering_id = ?', [orgId, settlement.qkey, settlement.offering_id]);
      await insertEvent(sql, orgId, settlement, event, at);
    });
  }

  async events(orgId: number, entry: LibraryEntryKey): Promise<LibraryEventRecord[]> {
    const rows = await this.sql.all<Omit<LibraryEventRecord, 'version_slots'> & { version_slots: string | null }>(
      `SELECT action, by_name, at, detail, version, version_question, version_slots FROM library_events
       WHERE org_id = ? AND file_id = ? AND location = ? AND question = ? ORDER BY id`,
      [orgId, entry.file_id, entry.location, entry.question],
    );
    return rows.map((r) => ({ ...r, version_slots: r.version_slots === null ? null : parseJson<QaSlot[]>(r.version_slots, []) }));
  }

  async newManualEntry(orgId: number, entry: ManualEntryContent): Promise<{ id: number; created_at: string }> {
    const created_at = nowIso();
    const id = await this.sql.insert('INSERT INTO library_manual (org_id, question, slots, original_id, offering_ids, created_at) VALUES (?, ?, ?, ?, ?, ?)', [
      orgId,
      entry.question,
      JSON.stringify(entry.slots),
      entry.original_id,
      JSON.stringify(entry.offering_ids),
      created_at,
    ]);
    return { id, created_at };
  }

  async manualEntries(orgId: number): Promise<ManualEntry[]> {
    const rows = await this.sql.all<{ id: number; question: string; slots: string; original_id: string | null; offering_ids: string; created_at: string }>(
      'SELECT id, question, slots, original_id, offering_ids, created_at FROM library_manual WHERE org_id = ? ORDER BY id',
      [orgId],
    );
    return rows.map((r) => ({ ...r, id: Number(r.id), slots: parseJson<QaSlot[]>(r.slots, []), offering_ids: parseJson<number[]>(r.offering_ids, []) }));
  }

  async reviewAgeMonths(orgId: number): Promise<number | null> {
    const row = await this.sql.get<{ review_age_months: number }>('SELECT review_age_months FROM library_settings WHERE org_id = ?', [orgId]);
    return row ? Number(row.review_age_months) : null;
  }

  async setReviewAgeMonths(orgId: number, months: number): Promise<void> {
    await this.sql.run(
      `INSERT INTO library_settings (org_id, review_age_months) VALUES (?, ?)
       ON CONFLICT (org_id) DO UPDATE SET review_age_months = excluded.review_age_months`,
      [orgId, months],
    );
  }

  /** The rows as records, each with its file's offerings (one query for the page). */
  private async withOfferings(orgId: number, rows: EntryRow[]): Promise<LibraryRow[]> {
    const fileIds = [...new Set(rows.map((r) => r.file_id))];
    const offerings = new Map<number, number[]>();
    if (fileIds.length > 0) {
      const list = inList(this.sql, 'file_id', fileIds);
      const found = await this.sql.all<{ file_id: number; offering_id: number }>(
        `SELECT file_id, offering_id FROM kb_file_offerings WHERE org_id = ? AND ${list.clause} ORDER BY offering_id`,
        [orgId, ...list.args],
      );
      for (const o of found) {
        const ids = offerings.get(Number(o.file_id)) ?? [];
        ids.push(Number(o.offering_id));
        offerings.set(Number(o.file_id), ids);
      }
    }
    return rows.map((r) => entryRecord(r, offerings.get(Number(r.file_id)) ?? []));
  }
}

function entryRecord(r: EntryRow, offering_ids: number[]): LibraryRow {
  const state: LibraryState | null =
    r.state_org === null
      ? null
      : {
          status: r.status ?? 'active',
          retired_reason: r.retired_reason,
          approved_by: r.approved_by,
          approved_at: r.approved_at,
          version: Number(r.version ?? 1),
          edit_question: r.edit_question,
          edit_answer: r.edit_answer,
          edit_slots: r.edit_slots === null ? null : parseJson<QaSlot[]>(r.edit_slots, []),
          as_of: r.as_of,
          updated_by: r.updated_by,
          updated_at: r.updated_at,
          owner: r.owner,
          review_months: r.review_months === null ? null : Number(r.review_months),
        };
  return {
    id: Number(r.id),
    file_id: Number(r.file_id),
    location: r.location,
    question: r.question,
    filename: r.filename,
    answer: r.answer,
    slots: parseJson<QaSlot[]>(r.slots, []),
    original_id: r.original_id,
    tab_name: r.tab_name,
    qkey: r.qkey,
    offering_ids,
    file_created_at: r.file_created_at,
    file_as_of: r.file_as_of,
    state,
  };
}

/** Records a change of the entry in its history. */
async function insertEvent(sql: Sql, orgId: number, entry: LibraryEntryKey, event: NewLibraryEvent, at: string): Promise<void> {
  await sql.insert(
    `INSERT INTO library_events (org_id, file_id, location, question, action, by_name, at, detail, version, version_question, version_slots)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      orgId,
      entry.file_id,
      entry.location,
      entry.question,
      event.action,
      event.by_name,
      at,
      event.detail,
      event.version,
      event.version_question,
      event.version_slots === null ? null : JSON.stringify(event.version_slots),
    ],
  );
}
