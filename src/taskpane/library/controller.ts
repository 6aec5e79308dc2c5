/**
 * The Library pane's "Files" view as state and steps, without DOM: the files picked for upload with
 * their tags, offerings and scope; the upload (asking first when names repeat, replacing only once the
 * new copies are in); the list with its search, filters, order and page, polled while files process;
 * deleting a file; and which extensions the service offers. `LibraryPane` renders this state.
 */
import type { ApiError } from '../../api/errors';
import {
  EXTENSION,
  LIMITS,
  type REPOSITORY_FILE_STATUSES,
  type DocumentType,
  type Offering,
  type RepositoryFile,
  type RepositoryListQuery,
  type RepositoryUploadFields,
} from '../../api/schemas';
import { isForbidden } from '../errors';
import { controllerOf, createStore } from '../store';
import type { TaskpaneApi } from '../types';

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

/** What the pane is given from outside; the controller acts when any of it changes. */
export interface LibraryInputs {
  client: TaskpaneApi | null;
  active: boolean;
  /** Refresh interval while files are processing (ms). */
  pollMs: number;
  /** Grows when the saved settings are shown to work: an old failure is no longer true. */
  connectionEpoch?: number;
}

export interface LibraryDeps {
  /** A 403 on upload: the app disables uploading with the reason. */
  onUploadRefused?: (e: ApiError) => void;
  searchDelayMs?: number;
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
  const tags = [...new Set(text.split(',').map((t) => t.trim()).filter(Boolean))];
  const long = tags.find((t) => t.length > LIMITS.tagNameLength);
  return { tags, error: long ? `The tag "${long.slice(0, 20)}…" is longer than ${LIMITS.tagNameLength} characters.` : null };
}

export const busyStatus = (f: RepositoryFile) => f.status === 'submitted' || f.status === 'processing';
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const sameName = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: 'accent' }) === 0;
const fileName = (f: RepositoryFile) => f.original_filename ?? `file ${f.id}`;

/** The upload's note as its files stand now: processing, or how many became ready and how many failed. */
export function uploadNoteText(note: UploadNote, files: readonly RepositoryFile[]): string {
  const uploaded = note.ids.map((id) => files.find((f) => f.id === id));
  const known = uploaded.every((f): f is RepositoryFile => !!f);
  const count = plural(note.count, 'file');
  let head = `Uploaded ${count}; processing has started.`;
  if (known && uploaded.length === note.count && note.count > 0 && !uploaded.some(busyStatus)) {
    const failed = uploaded.filter((f) => f.status === 'failed').length;
    head = failed === 0 ? `Uploaded ${count}: ${uploaded.length === 1 ? 'it is' : 'all are'} ready.` : `Uploaded ${count}: ${uploaded.length - failed} ready, ${failed} failed.`;
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

export function createLibraryController(deps: LibraryDeps = {}) {
  const store = createStore(initialLibraryState());
  const searchDelay = deps.searchDelayMs ?? SEARCH_DELAY_MS;
  let inputs: LibraryInputs = { client: null, active: false, pollMs: 2000 };
  let probe: AbortController | null = null;
  let listing: { ctl: AbortController; timer: ReturnType<typeof setTimeout> | undefined } | null = null;
  let disposed = false;

  const live = () => (inputs.active ? inputs.client : null);
  const learnOfferings = (seen: readonly Offering[]) => store.update((s) => ({ offerings: mergeOfferings(s.offerings, seen) }));

  // Which extensions this service has: a v2 service without them answers 404, and the pane hides them.
  // Asked again each time the pane is shown; what the same client said stays meanwhile, so an open
  // Answers view is not torn down by a visit to another tab.
  function probeExtensions(): void {
    probe?.abort();
    probe = null;
    const client = live();
    if (!client || disposed) return;
    const ctl = (probe = new AbortController());
    client
      .getExtensions({ signal: ctl.signal })
      .then((r) => {
        const has = (name: string) => r.extensions.includes(name);
        store.update({
          ext: { canDelete: has(EXTENSION.repositoryDelete), listsOfferings: has(EXTENSION.offeringsList), orgNames: has(EXTENSION.organisationNames), answers: has(EXTENSION.answersLibrary) },
        });
        if (has(EXTENSION.offeringsList)) {
          return client.listOfferings({ signal: ctl.signal }).then((o) => void (!ctl.signal.aborted && learnOfferings(o.results)));
        }
        return undefined;
      })
      .catch(() => void (!ctl.signal.aborted && store.update({ ext: { canDelete: false, listsOfferings: false, orgNames: false, answers: false } })));
  }

  /** Lists the files for the current query now (after a pause while typing), then again while any is processing. */
  function restartList(): void {
    if (listing) {
      clearTimeout(listing.timer);
      listing.ctl.abort();
      listing = null;
    }
    const client = live();
    if (!client || disposed) return;
    const ctl = new AbortController();
    const run = { ctl, timer: undefined as ReturnType<typeof setTimeout> | undefined };
    listing = run;
    const query = listQuery(store.state);
    const { pollMs } = inputs;
    const load = async (first: boolean) => {
      try {
        const r = await client.listRepositoryFiles(query, { signal: ctl.signal });
        if (ctl.signal.aborted) return;
        store.update({ list: { count: r.count, results: r.results, hasNext: r.next !== null }, listError: null });
        learnOfferings(r.results.flatMap((f) => f.relevant_offerings ?? []));
        if (r.results.some(busyStatus)) run.timer = setTimeout(() => void load(false), pollMs);
      } catch (e) {
        if (ctl.signal.aborted) return;
        // A list that could not be read is not an empty library (nor the last key's).
        store.update(first ? { list: null, listError: e } : { listError: e });
        // Keep watching through a blip while files are still processing.
        if (!first) run.timer = setTimeout(() => void load(false), pollMs * 2);
      }
    };
    run.timer = setTimeout(() => void load(true), store.state.search ? searchDelay : 0);
  }

  /** Changes the query; the list is asked again only when the request it makes changed. */
  function setQuery(patch: Partial<Pick<LibraryState, 'search' | 'status' | 'docType' | 'ordering' | 'page'>>): void {
    const before = JSON.stringify(listQuery(store.state));
    store.update(patch);
    if (JSON.stringify(listQuery(store.state)) !== before) restartList();
  }

  /** A deleted file leaves the list at once, not at the next refresh (nobody can act on a file that is gone). */
  function forget(ids: number[]): void {
    store.update((s) => ({
      list: s.list && { ...s.list, count: s.list.count - s.list.results.filter((f) => ids.includes(f.id)).length, results: s.list.results.filter((f) => !ids.includes(f.id)) },
    }));
  }

  /** Library files with the same names as the picked ones (the service's search, then exact names). */
  async function sameNamed(api: TaskpaneApi): Promise<RepositoryFile[]> {
    const found: RepositoryFile[] = [];
    for (const f of store.state.picked) {
      const r = await api.listRepositoryFiles({ search: f.name, page_size: LIMITS.pageSizeMax });
      for (const old of r.results) if (old.original_filename && sameName(old.original_filename, f.name) && !found.some((x) => x.id === old.id)) found.push(old);
    }
    return found;
  }

  /** Deletes the files the new upload replaces: only once the new copies are in, so a failed upload never loses a file. */
  async function replaceOld(api: TaskpaneApi, replace: readonly RepositoryFile[]): Promise<{ replaced: string[]; notReplaced: string[] }> {
    const replaced: string[] = [];
    const notReplaced: string[] = [];
    for (const old of replace) {
      try {
        await api.deleteRepositoryFile(old.id);
        forget([old.id]);
        replaced.push(fileName(old));
      } catch (e) {
        notReplaced.push(`${fileName(old)} (${e instanceof Error ? e.message : String(e)})`);
      }
    }
    return { replaced, notReplaced };
  }

  return controllerOf(store, {
    /** The pane's client, whether it is shown, its poll interval, its connection epoch. */
    setInputs(next: LibraryInputs): void {
      const prev = inputs;
      inputs = next;
      const epochChanged = next.connectionEpoch !== prev.connectionEpoch;
      if (epochChanged && next.connectionEpoch) store.update({ uploadError: null, deleteError: null });
      if (next.client !== prev.client) store.update({ ext: null });
      if (next.client !== prev.client || next.active !== prev.active || epochChanged) probeExtensions();
      if (next.client !== prev.client || next.active !== prev.active || next.pollMs !== prev.pollMs) restartList();
    },

    setSearch: (search: string) => setQuery({ search, page: 1 }),
    setStatus: (status: LibraryState['status']) => setQuery({ status, page: 1 }),
    setDocType: (docType: LibraryState['docType']) => setQuery({ docType, page: 1 }),
    setOrdering: (ordering: Ordering) => setQuery({ ordering }),
    setPage: (page: number) => setQuery({ page }),

    addFiles(files: Iterable<PickedFile> | ArrayLike<PickedFile> | null | undefined): void {
      if (!files) return;
      const next = [...store.state.picked];
      for (const f of Array.from(files)) if (!next.some((p) => p.name === f.name && p.size === f.size)) next.push(f);
      store.update({ picked: next, uploadNote: null, replaceAsk: null });
    },
    removePicked: (file: PickedFile) => store.update((s) => ({ picked: s.picked.filter((p) => p !== file), replaceAsk: null })),
    setTagsText: (tagsText: string) => store.update({ tagsText }),
    setCompanyScope: (companyScope: boolean) => store.update({ companyScope }),
    toggleOffering: (id: number, on: boolean) =>
      store.update((s) => ({ chosenOfferings: on ? [...s.chosenOfferings.filter((x) => x !== id), id] : s.chosenOfferings.filter((x) => x !== id) })),
    cancelReplace: () => store.update({ replaceAsk: null }),

    /** `replace`: files to delete once the new ones are in (null: not decided yet, ask when names repeat). */
    async upload(replace: readonly RepositoryFile[] | null): Promise<void> {
      const client = inputs.client;
      const { picked, tagsText, companyScope, chosenOfferings } = store.state;
      if (!client || picked.length === 0) return;
      const tags = parseTags(tagsText);
      if (tags.error) {
        store.update({ uploadError: tags.error });
        return;
      }
      store.update({ uploading: true, uploadError: null, uploadNote: null, replaceAsk: null });
      try {
        if (replace === null && store.state.ext?.canDelete) {
          const existing = await sameNamed(client);
          if (existing.length > 0) {
            store.update({ replaceAsk: existing });
            return;
          }
        }
        const fields: RepositoryUploadFields = {
          scope_includes_company: companyScope,
          ...(tags.tags.length ? { tags: tags.tags } : {}),
          ...(chosenOfferings.length ? { relevant_offerings: [...chosenOfferings] } : {}),
        };
        const result = await client.uploadRepositoryFiles(
          picked.map((f) => ({ name: f.name, data: f, ...(f.type ? { type: f.type } : {}) })),
          fields,
        );
        const failed = result.failed ?? [];
        const { replaced, notReplaced } = await replaceOld(client, replace ?? []);
        store.update({
          uploadNote: {
            kind: failed.length || notReplaced.length ? 'warn' : 'ok',
            count: result.count,
            // Our service names the new files (an extension): the note then follows them to ready.
            ids: Array.isArray(result.file_ids) ? result.file_ids.filter((id): id is number => Number.isInteger(id)) : [],
            text:
              (replaced.length ? ` Replaced ${replaced.join(', ')}: the old ${replaced.length === 1 ? 'copy is' : 'copies are'} removed.` : '') +
              (notReplaced.length ? ` The old copy was kept for ${notReplaced.join('; ')}.` : '') +
              (failed.length ? ` Not accepted: ${failed.join('; ')}.` : ''),
          },
          picked: [],
          page: 1,
        });
        restartList();
      } catch (e) {
        if (isForbidden(e)) deps.onUploadRefused?.(e);
        store.update({ uploadError: e });
      } finally {
        store.update({ uploading: false });
      }
    },

    askDelete: (id: number) => store.update({ confirmDelete: id, deleteNote: null }),
    cancelDelete: () => store.update({ confirmDelete: null }),
    dismissDeleteError: () => store.update({ deleteError: null }),
    async remove(file: RepositoryFile): Promise<void> {
      const client = inputs.client;
      if (!client) return;
      store.update({ deleting: true, deleteError: null, deleteNote: null });
      try {
        await client.deleteRepositoryFile(file.id);
        forget([file.id]);
        store.update({ deleteNote: `Deleted ${fileName(file)}.`, confirmDelete: null });
        restartList();
      } catch (e) {
        store.update({ deleteError: e });
      } finally {
        store.update({ deleting: false });
      }
    },

    dispose(): void {
      disposed = true;
      probe?.abort();
      if (listing) {
        clearTimeout(listing.timer);
        listing.ctl.abort();
      }
      store.clear();
    },
  });
}

export type LibraryController = ReturnType<typeof createLibraryController>;
