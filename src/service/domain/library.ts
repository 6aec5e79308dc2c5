/**
 * The answer library's rules that are not storage: an entry as the API shows it (its latest version, its
 * status, its age), when its review is due, and what a change records. Routes and the answering path
 * both read entries through these, so the library and every fill say the same about an entry.
 */
import type { LibraryEntry, LibraryEntryDetail, LibraryEvent, LibraryVersion } from '../../api/library';
import type { QaSlot } from '../storage/knowledge-index';
import type { LibraryEntryKey, LibraryEventRecord, LibraryRow } from '../storage/library';

/** Months after which an entry is due for review, unless the organisation set its own. */
export const DEFAULT_REVIEW_AGE_MONTHS = 12;

/** What an entry says now: its latest version (an edit's, else as learned). */
export function currentVersion(row: LibraryRow): { question: string; answer: string; slots: QaSlot[] } {
  return {
    question: row.state?.edit_question ?? row.question,
    answer: row.state?.edit_answer ?? row.answer,
    slots: row.state?.edit_slots ?? row.slots,
  };
}

/** The primary answer of slots: the first with content. */
export function primaryAnswer(slots: readonly QaSlot[]): string {
  return slots.find((s) => s.content.trim() !== '')?.content.trim() ?? '';
}

/** YYYY-MM-DD of the entry's own date: set by hand or edit, else the date its file states, else its file's upload. */
export function asOf(row: LibraryRow): string {
  return (row.state?.as_of ?? row.file_as_of ?? row.file_created_at ?? '').slice(0, 10);
}

export interface ReviewState {
  due: boolean;
  /** "approved on 2025-01-10, review due since 2026-01-10"; null when not due. */
  reason: string | null;
}

function addMonths(iso: string, months: number): Date | null {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return null;
  d.setUTCMonth(d.getUTCMonth() + months);
  return d;
}

const day = (d: Date | string) => (typeof d === 'string' ? d : d.toISOString()).slice(0, 10);

/**
 * Whether the entry is past its review interval (its own, else the organisation's review age): counted
 * from its approval (settling approves the chosen entry), else from its as-of date. A retired entry is
 * never due: it is not used.
 */
export function reviewState(row: LibraryRow, orgReviewAgeMonths: number, now: Date): ReviewState {
  if (row.state?.status === 'retired') return { due: false, reason: null };
  const reviewAgeMonths = row.state?.review_months ?? orgReviewAgeMonths;
  const approved = row.state?.approved_at ?? null;
  const base = approved ?? row.state?.as_of ?? row.file_as_of ?? row.file_created_at;
  if (!base) return { due: false, reason: null };
  const due = addMonths(base, reviewAgeMonths);
  if (!due || due.getTime() > now.getTime()) return { due: false, reason: null };
  return { due: true, reason: `${approved ? 'approved on' : 'as of'} ${day(base)}, review due since ${day(due)}` };
}

/** The ISO instant before which an entry's approval (or date) makes it review due now. */
export function reviewCutoff(reviewAgeMonths: number, now: Date): string {
  const d = new Date(now.getTime());
  d.setUTCMonth(d.getUTCMonth() - reviewAgeMonths);
  return d.toISOString();
}

function apiSlots(slots: readonly QaSlot[]): LibraryEntry['slots'] {
  return slots.map((s) => ({ slot_key: s.slot_key, ...(s.header ? { header: s.header } : {}), content: s.content }));
}

export interface EntryContext {
  reviewAgeMonths: number;
  now: Date;
  /** Question keys whose live entries disagree, none canonical. */
  conflicting: Set<string>;
}

export function libraryEntry(row: LibraryRow, ctx: EntryContext): LibraryEntry {
  const current = currentVersion(row);
  const review = reviewState(row, ctx.reviewAgeMonths, ctx.now);
  const status = row.state?.status ?? 'active';
  return {
    id: row.id,
    question: current.question,
    original_id: row.original_id,
    answer: current.answer,
    slots: apiSlots(current.slots),
    source: row.file_id < 0 ? null : { file_id: row.file_id, file_name: row.filename, tab_name: row.tab_name, location: row.location },
    section: row.section,
    offering_ids: row.offering_ids,
    as_of: asOf(row),
    status,
    retired_reason: status === 'retired' ? (row.state?.retired_reason ?? null) : null,
    approved_by: row.state?.approved_by ?? null,
    approved_at: row.state?.approved_at ?? null,
    review_due: review.due,
    review_reason: review.reason,
    question_key: row.qkey,
    conflict: status !== 'retired' && ctx.conflicting.has(row.qkey),
    version: row.state?.version ?? 1,
    updated_by: row.state?.updated_by ?? null,
    updated_at: row.state?.updated_at ?? null,
    owner: row.state?.owner ?? null,
    review_months: row.state?.review_months ?? null,
  };
}

/** The entry with every version (the learned one first) and every recorded change. */
export function entryDetail(row: LibraryRow, events: LibraryEventRecord[], ctx: EntryContext): LibraryEntryDetail {
  const versions: LibraryVersion[] = [];
  const added = events.find((e) => e.action === 'added');
  if (!added) versions.push({ version: 1, question: row.question, slots: apiSlots(row.slots), by: null, at: row.file_created_at });
  for (const e of events) {
    if (e.version_slots && e.version !== null) {
      versions.push({ version: e.version, question: e.version_question ?? row.question, slots: apiSlots(e.version_slots), by: e.by_name, at: e.at });
    }
  }
  const history: LibraryEvent[] = events.map((e) => ({ action: e.action as LibraryEvent['action'], by: e.by_name, at: e.at, detail: e.detail }));
  return { ...libraryEntry(row, ctx), versions, history };
}

/**
 * Whether the entry speaks for the offering: its source is about that offering, or names none (it speaks
 * for the whole company, as an entry by hand without offerings does).
 */
export function speaksFor(row: LibraryRow, offeringId: number): boolean {
  return row.offering_ids.length === 0 || row.offering_ids.includes(offeringId);
}

/** Whether the row is the entry with this stable key. */
export function sameEntry(row: LibraryEntryKey, key: LibraryEntryKey): boolean {
  return row.file_id === key.file_id && row.location === key.location && row.question === key.question;
}

/** An entry's answer as disagreements compare it (as the library's conflict query does). */
export function comparedAnswer(row: LibraryRow): string {
  return currentVersion(row).answer.slice(0, 100).trim().toLowerCase();
}
