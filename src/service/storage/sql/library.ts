/**
 * The answer library (../library.ts) in the SQL both backends accept: entries are the knowledge index's
 * `kb_qa` rows, joined with their file's scope and upload date and with what analysts decided about them.
 */
import { nowIso } from '../../clock';
import type { QaFields, QaSlot } from '../knowledge-index';
import type {
  LibraryEntryKey,
  LibraryEventRecord,
  ConflictPageRequest,
  LibraryListFilter,
  LibraryPageRequest,
  LibraryRepository,
  LibraryRow,
  LibrarySettlement,
  LibraryState,
  ManualEntry,
  ManualEntryContent,
  NewLibraryEvent,
} from '../library';
import { inList, parseJson, type Sql } from './executor';
import { offeringConflictsSql, refreshConflictsSql, textInArg, textInSql } from './library-schema';

const STATE_JOIN = `LEFT JOIN library_state s ON s.org_id = q.org_id AND s.file_id = q.file_id AND s.location = q.location AND s.question = q.question`;

const SELECT_ENTRY = `SELECT q.id, q.file_id, q.question, q.answer, q.slots, q.original_id, q.tab_name, q.location, f.filename,
  q.qkey, q.section, fl.created_at AS file_created_at, f.as_of AS file_as_of, s.org_id AS state_org,
  s.status, s.retired_reason, s.approved_by, s.approved_at, s.version, s.edit_question, s.edit_answer, s.edit_slots,
  s.as_of, s.updated_by, s.updated_at, s.owner, s.review_months
  FROM kb_qa q
  JOIN kb_files f ON f.org_id = q.org_id AND f.file_id = q.file_id
  LEFT JOIN files fl ON fl.id = q.file_id AND fl.org_id = q.org_id
  ${STATE_JOIN}`;

/** A condition on `q` (an entry and its file) with its arguments. */
interface Condition {
  sql: string[];
  args: unknown[];
}

const and = (c: Condition) => c.sql.join(' AND ');

/**
 * How a filter splits between the entries without a decision (the most, read from the entries' index)
 * and those with one (few, read from the decisions): see `SqlLibrary.list`.
 */
interface FilterPlan {
  /** What every entry listed must be (its file, its key): holds for both kinds. */
  base: Condition;
  /** What more an entry without a decision must be; null when none passes (approved, retired, canonical). */
  undecided: Condition | null;
  /** What an entry with a decision must be, on `s` (and its file's upload date, `fl`, and own dates, `kf`). */
  decided: Condition;
}

/** An indexed entry with the analysts' state beside it: its slots (and edited slots) still JSON. */
interface EntryRow extends Omit<QaFields, 'slots' | 'question_stems' | 'stems'> {
  id: number;
  file_id: number;
  slots: string;
  filename: string;
  qkey: string;
  section: string | null;
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

export class SqlLibrary implements LibraryRepository {
  constructor(private readonly sql: Sql) {}

  private get companyScope(): string {
    return this.sql.dialect === 'postgres' ? 'f.scope_includes_company' : 'f.scope_includes_company = 1';
  }

  /**
   * A page of entries without joining every entry with its decisions: the entries' own index, in the list's
   * order (newest file first, in a file its last rows first), is walked for ids only, each entry without a
   * decision passing by its file and key alone, those with one (few: the decisions are read first) by
   * their id; only the page's entries are then read whole. A page after an entry (`page.after`) starts
   * there in the index; a page by number skips index entries, not joined rows.
   */
  async list(orgId: number, filter: LibraryListFilter, page: LibraryPageRequest): Promise<{ count: number; rows: LibraryRow[] }> {
    if (filter.ids?.length === 0) return { count: 0, rows: [] };
    const plan = await this.plan(orgId, filter);
    const decisions = await this.decisions(orgId, plan);
    const passes = this.passes(plan, decisions);
    if (filter.ids) {
      // A search's results: few (the retrieval's pool), kept in its order, paged here.
      const found = await this.sql.all<{ id: number }>(`SELECT q.id FROM kb_qa q WHERE q.org_id = ? AND ${and(plan.base)} AND ${passes.sql}`, [
        orgId,
        ...plan.base.args,
        ...passes.args,
      ]);
      const listed = new Set(found.map((r) => Number(r.id)));
      const ranked = filter.ids.filter((id) => listed.has(id));
      const start = page.after ? ranked.indexOf(page.after.id) + 1 : page.offset;
      return { count: ranked.length, rows: await this.inOrder(orgId, ranked.slice(start, start + page.limit)) };
    }
    const count = await this.count(orgId, plan, decisions);
    if (count === 0 || (!page.after && page.offset >= count)) return { count, rows: [] };
    const where = [`q.org_id = ?`, and(plan.base), passes.sql];
    const args: unknown[] = [orgId, ...plan.base.args, ...passes.args];
    if (page.after) {
      where.push('(q.file_id, q.id) < (?, ?)');
      args.push(page.after.file_id, page.after.id);
    }
    const ids = await this.sql.all<{ id: number }>(
      `SELECT q.id FROM kb_qa q WHERE ${where.join(' AND ')} ORDER BY q.file_id DESC, q.id DESC LIMIT ? OFFSET ?`,
      [...args, page.limit, page.after ? 0 : page.offset],
    );
    return {
      count,
      rows: await this.inOrder(
        orgId,
        ids.map((r) => Number(r.id)),
      ),
    };
  }

  /** The filter as conditions on entries without a decision and on those with one. */
  private async plan(orgId: number, filter: LibraryListFilter): Promise<FilterPlan> {
    const base: Condition = { sql: ['1 = 1'], args: [] };
    if (filter.filter === 'by_hand') base.sql.push('q.file_id < 0');
    if (filter.file_id !== undefined) {
      base.sql.push('q.file_id = ?');
      base.args.push(filter.file_id);
    }
    if (filter.section !== undefined) {
      base.sql.push('q.section = ?');
      base.args.push(filter.section);
    }
    if (filter.offering_id !== undefined) {
      base.sql.push(`q.file_id IN (SELECT f.file_id FROM kb_files f WHERE f.org_id = ? AND (${this.companyScope} OR EXISTS (
        SELECT 1 FROM kb_file_offerings o WHERE o.org_id = f.org_id AND o.file_id = f.file_id AND o.offering_id = ?)))`);
      base.args.push(orgId, filter.offering_id);
    }
    if (filter.ids) {
      // Only the search's results (and their decisions) are read.
      const ids = inList(this.sql, 'q.id', filter.ids);
      base.sql.push(ids.clause);
      base.args.push(...ids.args);
    }
    if (filter.filter === 'conflicts') {
      // The keys first (a list of disagreements is short): as a subquery, PostgreSQL joined it with every decision's entry.
      const keys = await this.sql.all<{ qkey: string }>('SELECT qkey FROM library_conflicts WHERE org_id = ?', [orgId]);
      base.sql.push(textInSql(this.sql.dialect, 'q.qkey'));
      base.args.push(
        textInArg(
          this.sql.dialect,
          keys.map((k) => k.qkey),
        ),
      );
    }
    const status = filter.filter === 'retired' ? 'retired' : filter.status;
    // Retired entries are kept, not browsed: they show when asked for.
    const decided: Condition = status ? { sql: ['s.status = ?'], args: [status] } : { sql: [`s.status <> 'retired'`], args: [] };
    let undecided: Condition | null = status === undefined || status === 'active' ? { sql: [], args: [] } : null;
    if (filter.filter === 'unapproved') decided.sql.push('s.approved_at IS NULL');
    if (filter.filter === 'approved') {
      decided.sql.push('s.approved_at IS NOT NULL');
      undecided = null;
    }
    if (filter.filter === 'review_due') {
      const due = await this.reviewDueClause(orgId, filter);
      decided.sql.push(due.clause);
      decided.args.push(...due.args);
      // Dated by what the file states about itself, else by its upload.
      undecided?.sql.push(`q.file_id IN (SELECT fl.id FROM files fl LEFT JOIN kb_files kf ON kf.org_id = fl.org_id AND kf.file_id = fl.id
        WHERE fl.org_id = ? AND COALESCE(kf.as_of, fl.created_at) < ?)`);
      undecided?.args.push(orgId, filter.review_cutoff);
    }
    if (filter.owner !== undefined) {
      // An owner is a decision: an entry without one never passes.
      decided.sql.push('s.owner = ?');
      decided.args.push(filter.owner);
      undecided = null;
    }
    return { base, undecided, decided };
  }

  /**
   * Entries approved (else dated: by the analyst, by what their file states about itself, by its upload)
   * before their cutoff: the organisation's, or the one of their own review interval (the few intervals in
   * use, read first, each with its cutoff).
   */
  private async reviewDueClause(orgId: number, filter: LibraryListFilter): Promise<{ clause: string; args: unknown[] }> {
    const base = 'COALESCE(s.approved_at, s.as_of, kf.as_of, fl.created_at)';
    const cutoffs = filter.review_cutoffs;
    const months = cutoffs
      ? (await this.sql.all<{ m: number }>('SELECT DISTINCT review_months AS m FROM library_state WHERE org_id = ? AND review_months IS NOT NULL', [orgId]))
          .map((r) => Number(r.m))
          .filter((m) => cutoffs[m] !== undefined)
      : [];
    if (months.length === 0) return { clause: `${base} < ?`, args: [filter.review_cutoff] };
    const whens = months.map(() => 'WHEN ? THEN CAST(? AS TEXT)').join(' ');
    const args: unknown[] = months.flatMap((m) => [m, cutoffs![m]]);
    return { clause: `${base} < (CASE s.review_months ${whens} ELSE CAST(? AS TEXT) END)`, args: [...args, filter.review_cutoff] };
  }

  /**
   * The entries of the base whose decision changes whether they pass: their ids, whether they pass, and
   * whether they would have passed without one (what the count of undecided entries, read from the
   * index, must not hold). Where passing undecided depends on nothing but the base (the whole list: every
   * undecided entry passes; approved, retired: none does), only the decisions that say otherwise are
   * joined with their entries (the retired ones, the approved ones), not every decision.
   */
  private async decisions(orgId: number, plan: FilterPlan): Promise<{ id: number; pass: number; undecided: number }[]> {
    const undecided = plan.undecided && plan.undecided.sql.length > 0 ? and(plan.undecided) : plan.undecided ? '1 = 1' : '1 = 0';
    // The decided condition reads the decision alone (and the file's date only for review_due, which has undecided conditions).
    const telling = !plan.undecided ? [`(${and(plan.decided)})`] : plan.undecided.sql.length === 0 ? [`NOT (${and(plan.decided)})`] : [];
    const tellingArgs = telling.length ? plan.decided.args : [];
    // The decisions drive the join (SQLite: CROSS JOIN keeps them the outer loop).
    const join = this.sql.dialect === 'sqlite' ? 'CROSS JOIN' : 'JOIN';
    const rows = await this.sql.all<{ id: number; pass: number; undecided: number }>(
      `SELECT q.id, CASE WHEN ${and(plan.decided)} THEN 1 ELSE 0 END AS pass, CASE WHEN ${undecided} THEN 1 ELSE 0 END AS undecided
       FROM library_state s ${join} kb_qa q ON q.org_id = s.org_id AND q.file_id = s.file_id AND q.location = s.location AND q.question = s.question
       LEFT JOIN files fl ON fl.id = q.file_id AND fl.org_id = q.org_id
       LEFT JOIN kb_files kf ON kf.org_id = q.org_id AND kf.file_id = q.file_id
       WHERE s.org_id = ? AND q.org_id = ? AND ${and(plan.base)}${telling.map((t) => ` AND ${t}`).join('')}`,
      [...plan.decided.args, ...(plan.undecided?.args ?? []), orgId, orgId, ...plan.base.args, ...tellingArgs],
    );
    return rows.map((r) => ({ id: Number(r.id), pass: Number(r.pass), undecided: Number(r.undecided) }));
  }

  /** The condition on `q` an entry of the base passes by: as undecided and without a decision, or by its decision. */
  private passes(plan: FilterPlan, decisions: { id: number; pass: number }[]): { sql: string; args: unknown[] } {
    const passing = decisions.filter((d) => d.pass === 1).map((d) => d.id);
    const parts: string[] = [];
    const args: unknown[] = [];
    if (plan.undecided) {
      const own = [...plan.undecided.sql];
      args.push(...plan.undecided.args);
      if (decisions.length > 0) {
        const all = decisions.map((d) => d.id);
        own.push(this.sql.dialect === 'postgres' ? 'q.id <> ALL(CAST(? AS BIGINT[]))' : 'q.id NOT IN (SELECT value FROM json_each(?))');
        args.push(this.sql.dialect === 'postgres' ? all : JSON.stringify(all));
      }
      parts.push(own.length ? `(${own.join(' AND ')})` : '1 = 1');
    }
    if (passing.length > 0) {
      const ids = inList(this.sql, 'q.id', passing);
      parts.push(ids.clause);
      args.push(...ids.args);
    }
    return { sql: parts.length ? `(${parts.join(' OR ')})` : '1 = 0', args };
  }

  /**
   * How many entries pass: those of the base that pass undecided, counted from the entries' index (the
   * whole library's from the index's own row count), less those with a decision, plus those passing by it.
   */
  private async count(orgId: number, plan: FilterPlan, decisions: { pass: number; undecided: number }[]): Promise<number> {
    const passing = decisions.filter((d) => d.pass === 1).length;
    if (!plan.undecided) return passing;
    const decidedUndecided = decisions.filter((d) => d.undecided === 1).length;
    const conditions = [...plan.base.sql.filter((c) => c !== '1 = 1'), ...plan.undecided.sql];
    const all =
      conditions.length === 0
        ? Number((await this.sql.get<{ n: number }>(`SELECT COALESCE(SUM(rows), 0) AS n FROM kb_counts WHERE org_id = ? AND kind = 'qa'`, [orgId]))?.n ?? 0)
        : Number(
            (
              await this.sql.get<{ n: number }>(`SELECT COUNT(*) AS n FROM kb_qa q WHERE q.org_id = ? AND ${conditions.join(' AND ')}`, [
                orgId,
                ...plan.base.args,
                ...plan.undecided.args,
              ])
            )?.n ?? 0,
          );
    return all - decidedUndecided + passing;
  }

  /** The entries with these ids, whole, in this order. */
  private async inOrder(orgId: number, ids: number[]): Promise<LibraryRow[]> {
    const rows = await this.byIds(orgId, ids);
    const rank = new Map(ids.map((id, i) => [id, i]));
    return rows.sort((a, b) => rank.get(a.id)! - rank.get(b.id)!);
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

  async byKeys(orgId: number, qkeys: string[]): Promise<LibraryRow[]> {
    if (qkeys.length === 0) return [];
    // Found through the key's index; ordered here, since an ORDER BY tempted SQLite into walking every entry in order instead.
    const rows = await this.sql.all<EntryRow>(`${SELECT_ENTRY} WHERE q.org_id = ? AND ${textInSql(this.sql.dialect, 'q.qkey')}`, [
      orgId,
      textInArg(this.sql.dialect, [...new Set(qkeys)]),
    ]);
    rows.sort((a, b) => Number(b.file_id) - Number(a.file_id) || Number(b.id) - Number(a.id));
    return this.withOfferings(orgId, rows);
  }

  async conflicting(orgId: number, qkeys: string[]): Promise<Set<string>> {
    if (qkeys.length === 0) return new Set();
    const rows = await this.sql.all<{ qkey: string }>(`SELECT qkey FROM library_conflicts WHERE org_id = ? AND ${textInSql(this.sql.dialect, 'qkey')}`, [
      orgId,
      textInArg(this.sql.dialect, [...new Set(qkeys)]),
    ]);
    return new Set(rows.map((r) => r.qkey));
  }

  /** Read from `library_conflicts`, kept as entries and decisions change (./library-schema.ts refreshConflictsSql). */
  async conflictKeys(orgId: number, page: ConflictPageRequest): Promise<{ count: number; keys: string[] }> {
    const count = Number((await this.sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM library_conflicts WHERE org_id = ?', [orgId]))?.n ?? 0);
    const rows = page.after
      ? await this.sql.all<{ qkey: string }>('SELECT qkey FROM library_conflicts WHERE org_id = ? AND qkey > ? ORDER BY qkey LIMIT ?', [
          orgId,
          page.after,
          page.limit,
        ])
      : await this.sql.all<{ qkey: string }>('SELECT qkey FROM library_conflicts WHERE org_id = ? ORDER BY qkey LIMIT ? OFFSET ?', [
          orgId,
          page.limit,
          page.offset,
        ]);
    return { count, keys: rows.map((r) => r.qkey) };
  }

  /** From `library_conflicts` in key order (./library-schema.ts offeringConflictsSql): a page after a key reads on from there. */
  async offeringConflictKeys(orgId: number, offeringId: number, page: ConflictPageRequest): Promise<{ count: number; keys: string[] }> {
    const args = [orgId, offeringId, offeringId];
    const counted = await this.sql.get<{ n: number }>(`SELECT COUNT(*) AS n FROM (${offeringConflictsSql(this.sql.dialect, '')}) open_keys`, args);
    const rows = page.after
      ? await this.sql.all<{ qkey: string }>(`${offeringConflictsSql(this.sql.dialect, 'AND c.qkey > ?')} ORDER BY c.qkey LIMIT ?`, [
          orgId,
          page.after,
          offeringId,
          offeringId,
          page.limit,
        ])
      : await this.sql.all<{ qkey: string }>(`${offeringConflictsSql(this.sql.dialect, '')} ORDER BY c.qkey LIMIT ? OFFSET ?`, [
          ...args,
          page.limit,
          page.offset,
        ]);
    return { count: Number(counted?.n ?? 0), keys: rows.map((r) => r.qkey) };
  }

  async canonicalKeys(orgId: number, qkeys: string[]): Promise<Set<string>> {
    if (qkeys.length === 0) return new Set();
    // The entries' own keys (a decision's key is the one its entry had when it was made).
    const rows = await this.sql.all<{ qkey: string }>(
      `SELECT DISTINCT q.qkey FROM library_state s JOIN kb_qa q ON q.org_id = s.org_id AND q.file_id = s.file_id AND q.location = s.location AND q.question = s.question
       WHERE s.org_id = ? AND s.status = 'canonical' AND ${textInSql(this.sql.dialect, 'q.qkey')}`,
      [orgId, textInArg(this.sql.dialect, [...new Set(qkeys)])],
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
      await sql.run(`UPDATE library_state SET ${sets.join(', ')} WHERE org_id = ? AND file_id = ? AND location = ? AND question = ?`, [
        ...args,
        orgId,
        entry.file_id,
        entry.location,
        entry.question,
      ]);
      // The entry's decision may start or end a disagreement on its question.
      for (const statement of refreshConflictsSql(sql.dialect)) await sql.run(statement, [orgId, textInArg(sql.dialect, [entry.qkey])]);
      await insertEvent(sql, orgId, entry, event, at);
    });
  }

  async settlements(orgId: number, qkeys: string[]): Promise<LibrarySettlement[]> {
    if (qkeys.length === 0) return [];
    const rows = await this.sql.all<LibrarySettlement>(
      `SELECT qkey, offering_id, file_id, location, question, by_name, at FROM library_settlements WHERE org_id = ? AND ${textInSql(this.sql.dialect, 'qkey')} ORDER BY offering_id`,
      [orgId, textInArg(this.sql.dialect, [...new Set(qkeys)])],
    );
    return rows.map((r) => ({ ...r, offering_id: Number(r.offering_id), file_id: Number(r.file_id) }));
  }

  /**
   * A settlement for one offering leaves `library_conflicts` as it was: the question stays open for every
   * other offering (../../domain/library-offerings.ts reads one offering's disagreements from there).
   */
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
    section: r.section ?? null,
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
