/**
 * The Library pane's "Files" state and its pure transitions: what is picked for upload, the list query,
 * the offerings known by name, the upload's note. The controller (controller.ts) runs the steps that
 * change it; the components render it.
 */
import { LIMITS, type REPOSITORY_FILE_STATUSES, type DocumentType, type Offering, type RepositoryFile, type RepositoryListQuery } from '../../api/schemas';

export const PAGE_SIZE = 20;
/** How long typing in the search box must pause before the list is asked again (ms). */
export const SEARCH_DELAY_MS = 250;

/** A file picked or dropped for upload: a browser `File`, or any named Blob (tests in Node). */
export type PickedFile = Blob & { readonly name: string };

export interface FilePage {
  count: number;
  results: RepositoryFile[];
  hasNext: boolean;
}

export interface UploadNote {
  kind: 'ok' | 'warn';
  count: number;
  /** The files uploaded, when the service names them: the note follows their processing. */
  ids: number[];
  /** What else happened (replaced, refused). */
  text: string;
}

/** What the service offers beyond v2, probed once per client; null while unknown or without the probe. */
export interface Extensions {
  canDelete: boolean;
  listsOfferings: boolean;
  orgNames: boolean;
  /** The answer library ("answers.library"): the pane shows its Answers view. */
  answers: boolean;
  /** The library replayed on past questionnaires ("answers.replay"): the Answers view shows its card. */
  replay: boolean;
  /** Whose key this is ("keys.current"): the Answers view learns who may start a replay. */
  keysCurrent: boolean;
}

export type Ordering = NonNullable<RepositoryListQuery['ordering']>;

export interface LibraryState {
  picked: readonly PickedFile[];
  tagsText: string;
  chosenOfferings: readonly number[];
  companyScope: boolean;
  uploading: boolean;
  uploadError: unknown;
  uploadNote: UploadNote | null;
  /** Files of the library with the names of files about to be uploaded: replace them, keep both, or stop. */
  replaceAsk: RepositoryFile[] | null;
  search: string;
  status: (typeof REPOSITORY_FILE_STATUSES)[number] | '';
  docType: DocumentType | '';
  ordering: Ordering;
  page: number;
  list: FilePage | null;
  listError: unknown;
  ext: Extensions | null;
  /** Offerings the analyst picks by name: the service's list when it offers one, else those seen on library files. */
  offerings: readonly Offering[];
  confirmDelete: number | null;
  deleting: boolean;
  deleteError: unknown;
  deleteNote: string | null;
}

export const initialLibraryState = (): LibraryState => ({
  picked: [],
  tagsText: '',
  chosenOfferings: [],
  companyScope: true,
  uploading: false,
  uploadError: null,
  uploadNote: null,
  replaceAsk: null,
  search: '',
  status: '',
  docType: '',
  ordering: '-created_at',
  page: 1,
  list: null,
  listError: null,
  ext: null,
  offerings: [],
  confirmDelete: null,
  deleting: false,
  deleteError: null,
  deleteNote: null,
});

/** Tags typed as "soc2, policy": trimmed, empty ones dropped, each checked against the tag limit. */
export function parseTags(text: string): { tags: string[]; error: string | null } {
  const tags = [
    ...new Set(
      text
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean),
    ),
  ];
  const long = tags.find((t) => t.length > LIMITS.tagNameLength);
  return { tags, error: long ? `The tag "${long.slice(0, 20)}…" is longer than ${LIMITS.tagNameLength} characters.` : null };
}

export const busyStatus = (f: RepositoryFile) => f.status === 'submitted' || f.status === 'processing';
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
/** Whether two file names are the same name (case aside), as the replace question decides. */
export const sameName = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: 'accent' }) === 0;
export const fileName = (f: RepositoryFile) => f.original_filename ?? `file ${f.id}`;

/** The upload's note as its files stand now: processing, or how many became ready and how many failed. */
export function uploadNoteText(note: UploadNote, files: readonly RepositoryFile[]): string {
  const uploaded = note.ids.map((id) => files.find((f) => f.id === id));
  const known = uploaded.every((f): f is RepositoryFile => !!f);
  const count = plural(note.count, 'file');
  let head = `Uploaded ${count}; processing has started.`;
  if (known && uploaded.length === note.count && note.count > 0 && !uploaded.some(busyStatus)) {
    const failed = uploaded.filter((f) => f.status === 'failed').length;
    head =
      failed === 0
        ? `Uploaded ${count}: ${uploaded.length === 1 ? 'it is' : 'all are'} ready.`
        : `Uploaded ${count}: ${uploaded.length - failed} ready, ${failed} failed.`;
  }
  return note.text ? `${head}${note.text}` : head;
}

/** The list request for this state: a new filter or search is a new query (and, where the caller says so, page 1). */
export function listQuery(s: Pick<LibraryState, 'page' | 'ordering' | 'search' | 'status' | 'docType'>): RepositoryListQuery {
  return {
    page: s.page,
    page_size: PAGE_SIZE,
    ordering: s.ordering,
    ...(s.search.trim() ? { search: s.search.trim() } : {}),
    ...(s.status ? { status: s.status } : {}),
    ...(s.docType ? { document_type: s.docType } : {}),
  };
}

/** Offerings known so far with those just seen, once each, by name. */
export function mergeOfferings(known: readonly Offering[], seen: readonly Offering[]): readonly Offering[] {
  const fresh = seen.filter((o, i) => !known.some((k) => k.id === o.id) && seen.findIndex((x) => x.id === o.id) === i);
  return fresh.length ? [...known, ...fresh].sort((a, b) => a.name.localeCompare(b.name)) : known;
}

/** Files picked again are picked once (same name and size): the picked list with the new ones after it. */
export function addPicked(picked: readonly PickedFile[], files: Iterable<PickedFile> | ArrayLike<PickedFile>): PickedFile[] {
  const next = [...picked];
  for (const f of Array.from(files)) if (!next.some((p) => p.name === f.name && p.size === f.size)) next.push(f);
  return next;
}

/** The offerings chosen for the upload with `id` turned on (last) or off. */
export function toggleOffering(chosen: readonly number[], id: number, on: boolean): number[] {
  const others = chosen.filter((x) => x !== id);
  return on ? [...others, id] : others;
}

/** The list without the files `ids`: a deleted file leaves it at once, not at the next refresh. */
export function withoutFiles(list: FilePage | null, ids: readonly number[]): FilePage | null {
  if (!list) return list;
  const gone = list.results.filter((f) => ids.includes(f.id)).length;
  return { ...list, count: list.count - gone, results: list.results.filter((f) => !ids.includes(f.id)) };
}
