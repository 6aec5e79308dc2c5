/**
 * Extension "answers.library" (not in the v2 spec): the answer library as something an analyst keeps.
 * Every reusable past answer (from completed questionnaires, Q&A sheets, Save to library, or added by
 * hand) is an entry: browsed and searched, conflicts between entries answering the same question settled
 * once, entries edited (a new version, the old kept), approved, retired and restored, aged against the
 * organisation's review age, exported as .xlsx. Every fill follows these decisions.
 *
 *   GET  /answers/library/?q=&status=&filter=&offering_id=&file_id=&section=&page=&page_size=&cursor=  paginated entries
 *   POST /answers/library/                          add an entry by hand
 *   GET  /answers/library/{id}/                     one entry with its versions and history
 *   PUT  /answers/library/{id}/                     edit its slots (and question): a new version
 *   POST /answers/library/{id}/approve/ | retire/ | restore/
 *   PUT  /answers/library/{id}/review/              {owner, review_months}: who keeps it current, how often
 *   PUT  /answers/library/sections/review/          {file_id, tab_name, section?, owner, review_months}: every entry
 *                                                   of a sheet, or of one section of it
 *   GET  /answers/library/conflicts/?offering_id=&page=&page_size=&cursor=  paginated groups of disagreeing
 *                                                   entries (about one offering)
 *
 * Pages are numbered as v2's are (`page`, `page_size`); a `next` link also carries `cursor`, where the next
 * page starts, so following `next` stays as quick on the last page as on the first.
 *   POST /answers/library/conflicts/settle/         {entry_id}: canonical for its question, the others retired;
 *                                                   {entry_id, offering_id}: chosen for that offering only
 *   POST /answers/library/conflicts/undo/           {entry_id[, offering_id]}: that settlement undone
 *   GET  /answers/library/export/                   the library as .xlsx
 *   GET/PUT /answers/library/settings/              the organisation's review age
 *
 * Changes need an admin or repository manager's key that is not read-only (403 with a sentence otherwise);
 * members read. Another organisation's entries are 404.
 */
import { z } from 'zod/mini';
import { LIMITS, paginated } from './schemas';

const opt = z.optional;
const nul = z.nullable;
const int = () => z.int();
const positiveInt = () => z.int().check(z.positive());
const queryPositiveInt = () => z.pipe(z.coerce.number(), z.int().check(z.positive()));
const maxStr = (n: number) => z.string().check(z.maxLength(n));
const nonEmpty = (n: number, what: string) => z.string().check(z.trim(), z.minLength(1, `${what} must not be empty`), z.maxLength(n));

export const LIBRARY_LIMITS = {
  /** Slots of one entry (answer, comment, …). */
  slots: 20,
  slotKeyLength: 100,
  slotContentLength: 8000,
  originalIdLength: 100,
  reasonLength: 500,
  searchLength: 200,
  reviewMonthsMax: 120,
  ownerLength: 150,
  tabNameLength: 100,
  sectionLength: 500,
  cursorLength: 1000,
} as const;

/** active: reusable; canonical: chosen for its question (high trust, no conflict); retired: kept, never used. */
export const LIBRARY_STATUSES = ['active', 'canonical', 'retired'] as const;
/** What the list narrows to besides status and search. */
export const LIBRARY_FILTERS = ['conflicts', 'review_due', 'unapproved', 'approved', 'retired', 'by_hand'] as const;
export const LIBRARY_ACTIONS = ['added', 'edited', 'approved', 'retired', 'restored', 'settled', 'unsettled', 'review_changed'] as const;

export const LibraryStatus = z.enum(LIBRARY_STATUSES);
export const LibraryFilter = z.enum(LIBRARY_FILTERS);
export const LibraryAction = z.enum(LIBRARY_ACTIONS);

/** One answer slot of an entry: its column role ("answer", "comment") or header, and what it says. */
export const LibrarySlot = z.looseObject({
  slot_key: z.string(),
  header: opt(z.string()),
  content: z.string(),
});

/** Where an entry was learned from; null for an entry added by hand. */
export const LibrarySource = z.looseObject({
  file_id: int(),
  file_name: z.string(),
  tab_name: z.string(),
  /** Cell or row in the sheet, as shown in evidence ("row 12"). */
  location: z.string(),
});

export const LibraryEntry = z.looseObject({
  /** The entry's id (the index row's; decisions about it survive re-processing of its file). */
  id: int(),
  question: z.string(),
  original_id: nul(z.string()),
  /** The primary answer (the list value, else the first slot). */
  answer: z.string(),
  slots: z.array(LibrarySlot),
  source: nul(LibrarySource),
  /**
   * The section of its sheet it was learned in (section titles, outermost first, joined by " > "); null when
   * its sheet has no section rows, for an entry by hand, and for entries learned before sections were kept
   * (until their file is read again): their sheet is then their section.
   */
  section: opt(nul(z.string())),
  offering_ids: z.array(int()),
  /** YYYY-MM-DD: the questionnaire's own date where it states one, else its upload date; for an entry by hand, when added. */
  as_of: z.string(),
  status: LibraryStatus,
  /** Why it is retired ("settled: entry 12 chosen for this question"), null otherwise. */
  retired_reason: nul(z.string()),
  approved_by: nul(z.string()),
  approved_at: nul(z.string()),
  /** Past the organisation's review age: fills use it at medium trust at most, saying why. */
  review_due: z.boolean(),
  review_reason: nul(z.string()),
  /** The key of its question (same id within a template, or same words under the same section subject): what conflicts are grouped by. */
  question_key: z.string(),
  /** True when other live entries with the same `question_key` give another answer and none is canonical. */
  conflict: z.boolean(),
  /** 1 as learned or added; each edit adds one. */
  version: int(),
  updated_by: nul(z.string()),
  updated_at: nul(z.string()),
  /** Username of the user who keeps the entry current (reviews it when due); null: nobody named. */
  owner: opt(nul(z.string())),
  /** The entry's own review interval in months, overriding the organisation's review age; null: the organisation's. */
  review_months: opt(nul(int())),
});

export const LibraryVersion = z.looseObject({
  version: int(),
  question: z.string(),
  slots: z.array(LibrarySlot),
  by: nul(z.string()),
  at: nul(z.string()),
});

export const LibraryEvent = z.looseObject({
  action: LibraryAction,
  by: z.string(),
  at: z.string(),
  /** What changed, in a sentence ("retired: settled, entry 12 chosen"). */
  detail: nul(z.string()),
});

export const LibraryEntryDetail = z.looseObject({
  ...LibraryEntry.shape,
  versions: z.array(LibraryVersion),
  history: z.array(LibraryEvent),
});

export const LibraryConflict = z.looseObject({
  question_key: z.string(),
  question: z.string(),
  entries: z.array(LibraryEntry),
  /** The entry chosen for this question, or null while unsettled. */
  canonical_id: nul(int()),
  /** Settlements for one offering each: the entry chosen when a questionnaire is about that offering. */
  settlements: opt(z.array(z.looseObject({ offering_id: int(), entry_id: int(), by: z.string(), at: z.string() }))),
  /** The offering the group was listed for (`?offering_id=`), else null. */
  offering_id: opt(nul(int())),
});

export const LibrarySettings = z.looseObject({
  /** Months after approval (or its as-of date) before an entry is "review due"; default 12. */
  review_age_months: int(),
});

// ---- Requests ----------------------------------------------------------------------------------

const pageQuery = {
  page: opt(z.pipe(z.coerce.number(), z.int().check(z.gte(1)))),
  page_size: opt(z.pipe(z.coerce.number(), z.int().check(z.gte(1), z.lte(LIMITS.pageSizeMax)))),
  /**
   * Where the page starts, as the `next` link of the page before gives it (opaque): the service reads on
   * from there instead of counting its way to the page. `page` still numbers the page.
   */
  cursor: opt(maxStr(LIBRARY_LIMITS.cursorLength)),
};

export const LibraryListQuery = z.strictObject({
  /** Full-text search, the retrieval answering uses (synonyms included). */
  q: opt(maxStr(LIBRARY_LIMITS.searchLength)),
  status: opt(LibraryStatus),
  filter: opt(LibraryFilter),
  offering_id: opt(queryPositiveInt()),
  file_id: opt(queryPositiveInt()),
  /** Only entries learned in this section of a sheet (an entry's `section`, exactly). */
  section: opt(maxStr(LIBRARY_LIMITS.sectionLength)),
  /** Only entries this user (username) owns. */
  owner: opt(nonEmpty(LIBRARY_LIMITS.ownerLength, 'owner')),
  /** Only entries the caller owns ("true"). */
  mine: opt(z.enum(['true', 'false'])),
  ...pageQuery,
});

/** With `offering_id`: the disagreements among entries about that offering (or the whole company), unless settled for it. */
export const LibraryConflictQuery = z.strictObject({ offering_id: opt(queryPositiveInt()), ...pageQuery });

export const LibrarySlotInput = z.strictObject({
  slot_key: nonEmpty(LIBRARY_LIMITS.slotKeyLength, 'slot_key'),
  header: opt(maxStr(LIBRARY_LIMITS.slotKeyLength)),
  content: maxStr(LIBRARY_LIMITS.slotContentLength),
});

const slotsInput = z.array(LibrarySlotInput).check(
  z.minLength(1, 'at least one slot'),
  z.maxLength(LIBRARY_LIMITS.slots, `at most ${LIBRARY_LIMITS.slots} slots`),
  z.refine((slots) => slots.some((s) => s.content.trim() !== ''), 'at least one slot must have content'),
);

export const NewLibraryEntry = z.strictObject({
  question: nonEmpty(LIMITS.questionLength, 'question'),
  slots: slotsInput,
  original_id: opt(maxStr(LIBRARY_LIMITS.originalIdLength)),
  offering_ids: opt(z.array(positiveInt()).check(z.maxLength(LIMITS.idListLength))),
});

export const LibraryEdit = z.strictObject({
  slots: slotsInput,
  question: opt(nonEmpty(LIMITS.questionLength, 'question')),
});

export const LibraryRetire = z.strictObject({ reason: opt(maxStr(LIBRARY_LIMITS.reasonLength)) });
export const LibraryNoBody = z.strictObject({});
export const LibrarySettle = z.strictObject({ entry_id: positiveInt(), offering_id: opt(positiveInt()) });
/**
 * The same for every live entry learned from one sheet of one file, or, with `section`, from one section
 * of that sheet (an entry's `section`: HECVAT's sections, the CAIQ's domains).
 */
export const LibrarySectionReviewInput = z.strictObject({
  file_id: positiveInt(),
  tab_name: maxStr(LIBRARY_LIMITS.tabNameLength),
  /** The section within the sheet; absent or null: the whole sheet. */
  section: opt(nul(maxStr(LIBRARY_LIMITS.sectionLength))),
  owner: opt(nul(nonEmpty(LIBRARY_LIMITS.ownerLength, 'owner'))),
  review_months: opt(nul(z.int().check(z.gte(1), z.lte(LIBRARY_LIMITS.reviewMonthsMax)))),
});
export const LibrarySectionReviewResult = z.looseObject({
  /** Entries whose owner or interval changed (each with a history event). */
  updated: int(),
  /** Live entries of the section. */
  entries: int(),
});
/** Who keeps an entry current and how often it is reviewed; null clears, absent keeps. */
export const LibraryReviewInput = z.strictObject({
  owner: opt(nul(nonEmpty(LIBRARY_LIMITS.ownerLength, 'owner'))),
  review_months: opt(nul(z.int().check(z.gte(1), z.lte(LIBRARY_LIMITS.reviewMonthsMax)))),
});
export const LibrarySettingsInput = z.strictObject({
  review_age_months: z.int().check(z.gte(1), z.lte(LIBRARY_LIMITS.reviewMonthsMax)),
});

export const LibraryPage = paginated(LibraryEntry);
export const LibraryConflictPage = paginated(LibraryConflict);

export const LIBRARY_EXPORT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export type LibraryStatus = z.infer<typeof LibraryStatus>;
export type LibraryFilter = z.infer<typeof LibraryFilter>;
export type LibraryAction = z.infer<typeof LibraryAction>;
export type LibrarySlot = z.infer<typeof LibrarySlot>;
export type LibrarySource = z.infer<typeof LibrarySource>;
export type LibraryEntry = z.infer<typeof LibraryEntry>;
export type LibraryVersion = z.infer<typeof LibraryVersion>;
export type LibraryEvent = z.infer<typeof LibraryEvent>;
export type LibraryEntryDetail = z.infer<typeof LibraryEntryDetail>;
export type LibraryConflict = z.infer<typeof LibraryConflict>;
export type LibrarySettings = z.infer<typeof LibrarySettings>;
export type LibraryListQuery = z.input<typeof LibraryListQuery>;
export type LibraryConflictQuery = z.input<typeof LibraryConflictQuery>;
export type NewLibraryEntry = z.input<typeof NewLibraryEntry>;
export type LibraryEdit = z.input<typeof LibraryEdit>;
export type LibraryRetire = z.input<typeof LibraryRetire>;
export type LibraryReviewInput = z.input<typeof LibraryReviewInput>;
export type LibrarySectionReviewInput = z.input<typeof LibrarySectionReviewInput>;
export type LibrarySettleInput = z.input<typeof LibrarySettle>;
