/**
 * The answer library's storage boundary: entries (rows of the knowledge index's `kb_qa`) with what
 * analysts decided about them (status, approval, edits, history), read and written for one organisation
 * at a time. See ./sql/library-schema.ts for how an entry keeps its decisions when its file is re-read.
 */
import type { QaSlot } from './knowledge-index';

export type LibraryEntryStatus = 'active' | 'canonical' | 'retired';

/** What identifies an entry across re-processing of its file (entries by hand: file id = -their id). */
export interface LibraryEntryKey {
  file_id: number;
  location: string;
  /** The question as learned (an edit does not change it). */
  question: string;
}

/** Decisions about an entry; absent fields are the entry as learned. */
export interface LibraryState {
  status: LibraryEntryStatus;
  retired_reason: string | null;
  approved_by: string | null;
  approved_at: string | null;
  version: number;
  edit_question: string | null;
  edit_answer: string | null;
  edit_slots: QaSlot[] | null;
  as_of: string | null;
  updated_by: string | null;
  updated_at: string | null;
  /** Username of the user who keeps the entry current; null: nobody named. */
  owner: string | null;
  /** The entry's own review interval in months; null: the organisation's review age. */
  review_months: number | null;
}

/** An entry chosen for its question when a questionnaire is about one offering. */
export interface LibrarySettlement {
  qkey: string;
  offering_id: number;
  /** The chosen entry's stable key. */
  file_id: number;
  location: string;
  question: string;
  by_name: string;
  at: string;
}

export interface LibraryRow extends LibraryEntryKey {
  id: number;
  filename: string;
  answer: string;
  slots: QaSlot[];
  original_id: string | null;
  tab_name: string;
  /** The section of its sheet it was learned in (titles joined by " > "); null: none known (the sheet is its section). */
  section: string | null;
  /** The key of the question it answers (knowledge/question-identity.ts `libraryQuestionKey`). */
  qkey: string;
  offering_ids: number[];
  /** When its file was uploaded (ISO), null for an entry by hand. */
  file_created_at: string | null;
  /** The date its file states about itself (YYYY-MM-DD: "Date: 2024-03-01" atop a questionnaire), null when none. */
  file_as_of: string | null;
  state: LibraryState | null;
}

export type LibraryListFilterName = 'conflicts' | 'review_due' | 'unapproved' | 'approved' | 'retired' | 'by_hand';

export interface LibraryListFilter {
  status?: LibraryEntryStatus;
  filter?: LibraryListFilterName;
  offering_id?: number;
  file_id?: number;
  /** Only entries learned in this section of a sheet (LibraryRow `section`). */
  section?: string;
  /** Entries approved (else dated) before this ISO instant are review due. */
  review_cutoff: string;
  /** The cutoff for an entry with its own review interval, by months; absent: every entry uses `review_cutoff`. */
  review_cutoffs?: Record<number, string>;
  /** Only entries this user (username) owns. */
  owner?: string;
  /** Only these entries (a search's results); the rows then come in this order. */
  ids?: number[];
}

/** Where a page of entries starts: after an entry of the order (keyset), else after `offset` entries. */
export interface LibraryPageRequest {
  limit: number;
  offset: number;
  /** The last entry of the page before, newest file first and in a file its last rows first. */
  after?: { file_id: number; id: number };
}

/** Where a page of conflict groups starts: after a question key (keyset, keys in order), else after `offset` groups. */
export interface ConflictPageRequest {
  limit: number;
  offset: number;
  after?: string;
}

export interface LibraryEventRecord {
  action: string;
  by_name: string;
  at: string;
  detail: string | null;
  version: number | null;
  version_question: string | null;
  version_slots: QaSlot[] | null;
}

export interface ManualEntryContent {
  question: string;
  slots: QaSlot[];
  original_id: string | null;
  offering_ids: number[];
}

export interface ManualEntry extends ManualEntryContent {
  id: number;
  created_at: string;
}

export type NewLibraryEvent = Omit<LibraryEventRecord, 'at'> & { at?: string };

export interface LibraryRepository {
  /** A page of the entries the filter passes, and how many it passes (a search's `ids` come in their order). */
  list(orgId: number, filter: LibraryListFilter, page: LibraryPageRequest): Promise<{ count: number; rows: LibraryRow[] }>;
  get(orgId: number, id: number): Promise<LibraryRow | null>;
  byIds(orgId: number, ids: number[]): Promise<LibraryRow[]>;
  /** Every entry answering the questions with these keys, newest file first (in a file, its last rows first). */
  byKeys(orgId: number, qkeys: string[]): Promise<LibraryRow[]>;
  /** Of these keys, those whose live entries disagree with none of them canonical. */
  conflicting(orgId: number, qkeys: string[]): Promise<Set<string>>;
  /** Keys of unsettled disagreements in key order, a page of them, with how many there are. */
  conflictKeys(orgId: number, page: ConflictPageRequest): Promise<{ count: number; keys: string[] }>;
  /**
   * Of those keys, the disagreements a questionnaire about one offering meets (its live entries speaking for
   * it give more than one answer; not settled for it), in key order, a page of them, with how many there are.
   */
  offeringConflictKeys(orgId: number, offeringId: number, page: ConflictPageRequest): Promise<{ count: number; keys: string[] }>;
  /** Of these keys, those settled (one entry canonical). */
  canonicalKeys(orgId: number, qkeys: string[]): Promise<Set<string>>;
  /** Sets the entry's decisions (unset fields keep theirs) and records the event, in one transaction. */
  change(orgId: number, entry: LibraryEntryKey & { qkey: string }, state: Partial<LibraryState>, event: NewLibraryEvent): Promise<void>;
  events(orgId: number, entry: LibraryEntryKey): Promise<LibraryEventRecord[]>;
  /** Records an entry by hand as added (its index row is written by the knowledge index); its id. */
  newManualEntry(orgId: number, entry: ManualEntryContent): Promise<{ id: number; created_at: string }>;
  /** The organisation's entries by hand as added, to index them again (after `qfill migrate`). */
  manualEntries(orgId: number): Promise<ManualEntry[]>;
  /** The settlements for one offering of these question keys. */
  settlements(orgId: number, qkeys: string[]): Promise<LibrarySettlement[]>;
  /** Records (or replaces) the settlement of its question for its offering, and the event on the chosen entry, in one transaction. */
  settleForOffering(orgId: number, settlement: Omit<LibrarySettlement, 'at'> & { at?: string }, event: NewLibraryEvent): Promise<void>;
  /** Removes the settlement of the question for the offering; records the event on the entry it had chosen. */
  unsettleForOffering(orgId: number, settlement: LibrarySettlement, event: NewLibraryEvent): Promise<void>;
  reviewAgeMonths(orgId: number): Promise<number | null>;
  setReviewAgeMonths(orgId: number, months: number): Promise<void>;
}
