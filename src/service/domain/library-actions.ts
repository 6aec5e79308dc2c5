/**
 * What analysts do to the answer library: browse, add, edit, approve, retire, restore, settle a conflict
 * and undo it, set the review age, export. Each change is recorded with who and when. The routes
 * (../routes/library.ts) validate the request and call these; rules about entries are ./library.ts's.
 */
import { LIBRARY_LIMITS, type LibraryConflict, type LibraryEntry, type LibraryEntryDetail, type LibraryFilter, type LibraryStatus } from '../../api/library';
import { nowIso } from '../clock';
import type { Knowledge } from '../context';
import { qaEntry } from '../knowledge/entries';
import { badRequest, forbidden, notFound } from '../http/errors';
import type { QaSlot } from '../storage/knowledge-index';
import type { LibraryRow, LibraryState, ManualEntry, ManualEntryContent } from '../storage/library';
import type { Principal, Store, UserRecord } from '../storage/types';
import { entryAfter, entryCursor, keyAfter, keyCursor } from './library-cursor';
import { DEFAULT_REVIEW_AGE_MONTHS, entryDetail, sameEntry, speaksFor, libraryEntry, primaryAnswer, reviewCutoff, type EntryContext } from './library';

export interface LibraryDeps {
  store: Store;
  knowledge: Knowledge;
  now?: () => Date;
}

/** Whose name a change is recorded under. */
export function actorName(p: Principal): string {
  return userName(p.user);
}

/** A user's full name, else the name they sign in with. */
export function userName(user: Pick<UserRecord, 'first_name' | 'last_name' | 'username'>): string {
  return `${user.first_name} ${user.last_name}`.trim() || user.username;
}

/** Whether the user's role changes the answer library (admins and repository managers; the key's read-only flag aside). */
export function roleEditsLibrary(user: Pick<UserRecord, 'role'>): boolean {
  return user.role !== 'member';
}

/** Members read the library; admins and repository managers change it, never with a read-only key. */
export function requireLibraryEditor(p: Principal): void {
  if (p.read_only) throw forbidden('this API key is read-only and cannot change the answer library');
  if (!roleEditsLibrary(p.user)) throw forbidden('only an admin or repository manager can change the answer library');
}

export async function context(deps: LibraryDeps, orgId: number, rows: LibraryRow[], months?: number): Promise<EntryContext> {
  const reviewAgeMonths = months ?? (await deps.store.library.reviewAgeMonths(orgId)) ?? DEFAULT_REVIEW_AGE_MONTHS;
  const conflicting = await deps.store.library.conflicting(
    orgId,
    rows.map((r) => r.qkey),
  );
  return { reviewAgeMonths, now: deps.now?.() ?? new Date(), conflicting };
}

export interface BrowseQuery {
  q?: string;
  status?: LibraryStatus;
  filter?: LibraryFilter;
  offering_id?: number;
  file_id?: number;
  /** Only entries learned in this section of a sheet. */
  section?: string;
  /** Only entries this user (username, known to exist) owns. */
  owner?: string;
}

/** The cutoff of every review interval an entry may have (1 to 120 months). */
function reviewCutoffs(now: Date): Record<number, string> {
  const cutoffs: Record<number, string> = {};
  for (let m = 1; m <= LIBRARY_LIMITS.reviewMonthsMax; m++) cutoffs[m] = reviewCutoff(m, now);
  return cutoffs;
}

/** A page to read: by number (`offset`), or after the entry or group a `cursor` (./library-cursor.ts) names. */
export interface BrowsePage {
  limit: number;
  offset: number;
  cursor?: string;
}

/** A page of entries, with the cursor of the page after it (null on the last). */
export async function browse(
  deps: LibraryDeps,
  orgId: number,
  query: BrowseQuery,
  page: BrowsePage,
): Promise<{ count: number; results: LibraryEntry[]; next: string | null }> {
  const months = (await deps.store.library.reviewAgeMonths(orgId)) ?? DEFAULT_REVIEW_AGE_MONTHS;
  const now = deps.now?.() ?? new Date();
  const search = query.q?.trim();
  const ids = search ? await deps.knowledge.searchLibrary(orgId, search) : undefined;
  const { count, rows } = await deps.store.library.list(
    orgId,
    {
      status: query.status,
      filter: query.filter,
      offering_id: query.offering_id,
      file_id: query.file_id,
      section: query.section,
      owner: query.owner,
      review_cutoff: reviewCutoff(months, now),
      review_cutoffs: reviewCutoffs(now),
      ids,
    },
    { limit: page.limit, offset: page.offset, ...(page.cursor ? { after: entryAfter(page.cursor) } : {}) },
  );
  const ctx = await context(deps, orgId, rows, months);
  const last = rows.length === page.limit ? rows[rows.length - 1] : undefined;
  return { count, results: rows.map((r) => libraryEntry(r, ctx)), next: last ? entryCursor(last) : null };
}

export async function found(deps: LibraryDeps, orgId: number, id: number): Promise<LibraryRow> {
  const row = await deps.store.library.get(orgId, id);
  if (!row) throw notFound(`library entry ${id} not found`);
  return row;
}

export async function detail(deps: LibraryDeps, orgId: number, id: number): Promise<LibraryEntryDetail> {
  const row = await found(deps, orgId, id);
  const events = await deps.store.library.events(orgId, row);
  return entryDetail(row, events, await context(deps, orgId, [row]));
}

export const stamp = (p: Principal) => ({ updated_by: actorName(p), updated_at: nowIso() });

export interface NewEntryInput {
  question: string;
  slots: QaSlot[];
  original_id?: string;
  offering_ids?: number[];
}

/**
 * An entry by hand: a file of its own in the knowledge index (negative id), so the retrieval that
 * answers finds it like any past answer; without offerings it speaks for the whole company.
 */
export async function addEntry(deps: LibraryDeps, p: Principal, input: NewEntryInput): Promise<LibraryEntryDetail> {
  const orgId = p.org.id;
  const content: ManualEntryContent = {
    question: input.question.trim(),
    slots: cleanSlots(input.slots),
    original_id: input.original_id?.trim() || null,
    offering_ids: [...new Set(input.offering_ids ?? [])],
  };
  const { id: manualId, created_at } = await deps.store.library.newManualEntry(orgId, content);
  await indexManualEntry(deps.knowledge, orgId, { ...content, id: manualId, created_at });
  const { rows } = await deps.store.library.list(orgId, { file_id: -manualId, review_cutoff: created_at }, { limit: 1, offset: 0 });
  const row = rows[0];
  if (!row) throw new Error(`the entry added by hand (file ${-manualId}) is not in the index`);
  await deps.store.library.change(
    orgId,
    row,
    { status: 'active', as_of: created_at, ...stamp(p) },
    { action: 'added', by_name: actorName(p), detail: null, version: 1, version_question: content.question, version_slots: content.slots },
  );
  return detail(deps, orgId, row.id);
}

/**
 * Writes an entry by hand into the knowledge index as added: a file of its own (the negative of its id),
 * speaking for the whole company unless it names offerings. Its edits are decisions, read over it.
 */
export async function indexManualEntry(knowledge: Pick<Knowledge, 'indexDocument'>, orgId: number, entry: ManualEntry): Promise<void> {
  const pair = { question: entry.question, answer: primaryAnswer(entry.slots), slots: entry.slots, original_id: entry.original_id, tab_name: '', location: '' };
  await knowledge.indexDocument(
    {
      org_id: orgId,
      file_id: -entry.id,
      filename: `Answer library entry ${entry.id}`,
      offering_ids: entry.offering_ids,
      scope_includes_company: entry.offering_ids.length === 0,
      use_as_source: true,
    },
    { file_format: '', document_type: 'q_a', has_text: true, prepared_index: { passages: [], qa: [qaEntry(pair)], subject: null } },
  );
}

/** A new version of the entry's slots (and question); the old versions stay in its history. */
export async function editEntry(deps: LibraryDeps, p: Principal, id: number, input: { slots: QaSlot[]; question?: string }): Promise<LibraryEntryDetail> {
  const orgId = p.org.id;
  const row = await found(deps, orgId, id);
  const slots = cleanSlots(input.slots);
  const version = (row.state?.version ?? 1) + 1;
  const question = input.question?.trim() || row.state?.edit_question || row.question;
  const at = nowIso();
  await deps.store.library.change(
    orgId,
    row,
    {
      edit_slots: slots,
      edit_answer: primaryAnswer(slots),
      edit_question: question === row.question ? null : question,
      version,
      // An edit is a new statement: it dates the entry and needs approving again.
      as_of: at,
      approved_by: null,
      approved_at: null,
      ...stamp(p),
    },
    { action: 'edited', by_name: actorName(p), detail: `version ${version}`, version, version_question: question, version_slots: slots, at },
  );
  return detail(deps, orgId, id);
}

export async function approveEntry(deps: LibraryDeps, p: Principal, id: number): Promise<LibraryEntryDetail> {
  const row = await found(deps, p.org.id, id);
  if (row.state?.status === 'retired') throw badRequest(`entry ${id} is retired; restore it before approving it`);
  const at = nowIso();
  await deps.store.library.change(
    p.org.id,
    row,
    { approved_by: actorName(p), approved_at: at, ...stamp(p) },
    { action: 'approved', by_name: actorName(p), detail: null, version: null, version_question: null, version_slots: null, at },
  );
  return detail(deps, p.org.id, id);
}

export async function retireEntry(deps: LibraryDeps, p: Principal, id: number, reason: string | undefined): Promise<LibraryEntryDetail> {
  const row = await found(deps, p.org.id, id);
  if (row.state?.status === 'retired') throw badRequest(`entry ${id} is already retired`);
  const why = reason?.trim() || `retired by ${actorName(p)}`;
  await deps.store.library.change(
    p.org.id,
    row,
    { status: 'retired', retired_reason: why, ...stamp(p) },
    { action: 'retired', by_name: actorName(p), detail: why, version: null, version_question: null, version_slots: null },
  );
  return detail(deps, p.org.id, id);
}

export async function restoreEntry(deps: LibraryDeps, p: Principal, id: number): Promise<LibraryEntryDetail> {
  const row = await found(deps, p.org.id, id);
  if (row.state?.status !== 'retired') throw badRequest(`entry ${id} is not retired`);
  await deps.store.library.change(
    p.org.id,
    row,
    { status: 'active', retired_reason: null, ...stamp(p) },
    { action: 'restored', by_name: actorName(p), detail: null, version: null, version_question: null, version_slots: null },
  );
  return detail(deps, p.org.id, id);
}

const SETTLED = 'settled:';

/**
 * Makes the entry canonical for its question (settling approves it) and retires the other live entries
 * answering it, each with the reason; all in one transaction.
 */
export async function settle(deps: LibraryDeps, p: Principal, entryId: number): Promise<LibraryConflict> {
  const chosen = await found(deps, p.org.id, entryId);
  await settleOn(deps, p.org.id, actorName(p), chosen);
  return conflictGroup(deps, p.org.id, chosen.qkey);
}

/** Settles the question of `chosen` on it, recorded under `by`; `note` adds why to the event ("imported from …"). */
export async function settleOn(deps: LibraryDeps, orgId: number, by: string, chosen: LibraryRow, note?: string): Promise<void> {
  const group = await deps.store.library.byKeys(orgId, [chosen.qkey]);
  const at = nowIso();
  const none = { version: null, version_question: null, version_slots: null };
  await deps.store.unitOfWork(async (tx) => {
    for (const row of group) {
      if (row.id === chosen.id || row.state?.status === 'retired') continue;
      const why = `${SETTLED} entry ${chosen.id} chosen for this question`;
      await tx.library.change(
        orgId,
        row,
        { status: 'retired', retired_reason: why, updated_by: by, updated_at: at },
        { action: 'retired', by_name: by, detail: why, at, ...none },
      );
    }
    const state: Partial<LibraryState> = { status: 'canonical', retired_reason: null, approved_by: by, approved_at: at, updated_by: by, updated_at: at };
    const detail = `canonical for this question; ${group.length - 1} other entr${group.length === 2 ? 'y' : 'ies'} retired${note ? `; ${note}` : ''}`;
    await tx.library.change(orgId, chosen, state, { action: 'settled', by_name: by, detail, at, ...none });
  });
}

/** Undoes the settlement of the entry's question: the entries it retired come back, none is canonical. */
export async function undoSettle(deps: LibraryDeps, p: Principal, entryId: number): Promise<LibraryConflict> {
  const orgId = p.org.id;
  const entry = await found(deps, orgId, entryId);
  const group = await deps.store.library.byKeys(orgId, [entry.qkey]);
  if (!group.some((r) => r.state?.status === 'canonical')) throw badRequest(`entry_id: the question of entry ${entryId} is not settled`);
  const by = actorName(p);
  const at = nowIso();
  const none = { version: null, version_question: null, version_slots: null };
  await deps.store.unitOfWork(async (tx) => {
    for (const row of group) {
      const status = row.state?.status;
      if (status === 'canonical') {
        await tx.library.change(
          orgId,
          row,
          { status: 'active', approved_by: null, approved_at: null, updated_by: by, updated_at: at },
          { action: 'unsettled', by_name: by, detail: 'no longer canonical', at, ...none },
        );
      } else if (status === 'retired' && row.state?.retired_reason?.startsWith(SETTLED)) {
        await tx.library.change(
          orgId,
          row,
          { status: 'active', retired_reason: null, updated_by: by, updated_at: at },
          { action: 'restored', by_name: by, detail: 'settlement undone', at, ...none },
        );
      }
    }
  });
  return conflictGroup(deps, orgId, entry.qkey);
}

/** The group of the question (./library-offerings.ts: about one offering with `offeringId`). */
export async function conflictGroup(deps: LibraryDeps, orgId: number, qkey: string, offeringId?: number): Promise<LibraryConflict> {
  return (await conflictGroups(deps, orgId, [qkey], offeringId))[0]!;
}

/**
 * The groups of these keys, in this order: their entries read at once, newest file first within a group,
 * each with its settlements (the whole question's canonical entry, and one entry per offering settled for
 * alone); with `offeringId`, only the entries about that offering.
 */
export async function conflictGroups(deps: LibraryDeps, orgId: number, qkeys: string[], offeringId?: number): Promise<LibraryConflict[]> {
  const all = await deps.store.library.byKeys(orgId, qkeys);
  const rows = offeringId === undefined ? all : all.filter((r) => speaksFor(r, offeringId));
  const ctx = await context(deps, orgId, rows);
  const settlements = await deps.store.library.settlements(orgId, qkeys);
  return qkeys.map((qkey) => {
    const entries = rows.filter((r) => r.qkey === qkey).map((r) => libraryEntry(r, ctx));
    const live = entries.find((e) => e.status !== 'retired') ?? entries[0];
    const settled = settlements.flatMap((s) => {
      const chosen = s.qkey === qkey ? all.find((r) => r.qkey === qkey && sameEntry(r, s)) : undefined;
      return chosen ? [{ offering_id: s.offering_id, entry_id: chosen.id, by: s.by_name, at: s.at }] : [];
    });
    return {
      question_key: qkey,
      question: live?.question ?? '',
      entries,
      canonical_id: entries.find((e) => e.status === 'canonical')?.id ?? null,
      settlements: settled,
      offering_id: offeringId ?? null,
    };
  });
}

/** A page of conflict groups (question keys in order), with the cursor of the page after it (null on the last). */
export async function conflicts(
  deps: LibraryDeps,
  orgId: number,
  page: BrowsePage,
): Promise<{ count: number; results: LibraryConflict[]; next: string | null }> {
  const { count, keys } = await deps.store.library.conflictKeys(orgId, {
    limit: page.limit,
    offset: page.offset,
    ...(page.cursor ? { after: keyAfter(page.cursor) } : {}),
  });
  const last = keys.length === page.limit ? keys[keys.length - 1] : undefined;
  return { count, results: await conflictGroups(deps, orgId, keys), next: last !== undefined ? keyCursor(last) : null };
}

export async function reviewAge(deps: LibraryDeps, orgId: number): Promise<{ review_age_months: number }> {
  return { review_age_months: (await deps.store.library.reviewAgeMonths(orgId)) ?? DEFAULT_REVIEW_AGE_MONTHS };
}

/** Slots as stored: trimmed keys, content as written. */
function cleanSlots(slots: QaSlot[]): QaSlot[] {
  return slots.map((s) => ({ slot_key: s.slot_key.trim(), ...(s.header?.trim() ? { header: s.header.trim() } : {}), content: s.content }));
}
