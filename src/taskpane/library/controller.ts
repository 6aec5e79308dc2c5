/**
 * The Library pane's "Files" view as state and steps, without DOM: the files picked for upload with
 * their tags, offerings and scope; the upload (asking first when names repeat, replacing only once the
 * new copies are in); the list with its search, filters, order and page, polled while files process;
 * deleting a file; and which extensions the service offers. `LibraryPane` renders this state.
 *
 * The steps live beside it: the state and its pure transitions (state.ts), the extension probe
 * (extensions.ts), the polled listing (listing.ts) and the upload (upload.ts); this wires them to the
 * pane's inputs and the store.
 */
import type { ApiError } from '../../api/errors';
import type { Offering, RepositoryFile } from '../../api/schemas';
import { isForbidden } from '../errors';
import { controllerOf, createStore, type Store } from '../store';
import type { TaskpaneApi } from '../types';
import { probeExtensions } from './extensions';
import { createListing } from './listing';
import {
  SEARCH_DELAY_MS,
  addPicked,
  fileName,
  initialLibraryState,
  listQuery,
  mergeOfferings,
  parseTags,
  toggleOffering,
  withoutFiles,
  type LibraryState,
  type Ordering,
  type PickedFile,
} from './state';
import { uploadPicked } from './upload';

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

type Query = Pick<LibraryState, 'search' | 'status' | 'docType' | 'ordering' | 'page'>;

/** What the upload and delete steps act on: the store, the client, and how to list again and drop a file. */
interface StepContext {
  store: Store<LibraryState>;
  client: TaskpaneApi;
  relist: () => void;
  forget: (id: number) => void;
}

/**
 * The upload step. `replace`: files to delete once the new ones are in (null: not decided yet, ask when
 * names repeat). A 403 is told to `onRefused`: the app disables uploading with the reason.
 */
async function runUpload(ctx: StepContext, replace: readonly RepositoryFile[] | null, onRefused?: (e: ApiError) => void): Promise<void> {
  const { store } = ctx;
  const { picked, tagsText, companyScope, chosenOfferings, ext } = store.state;
  if (picked.length === 0) return;
  const tags = parseTags(tagsText);
  if (tags.error) {
    store.update({ uploadError: tags.error });
    return;
  }
  store.update({ uploading: true, uploadError: null, uploadNote: null, replaceAsk: null });
  try {
    const choices = { picked, tags: tags.tags, companyScope, chosenOfferings };
    const done = await uploadPicked(ctx.client, choices, replace, { canDelete: !!ext?.canDelete, forget: ctx.forget });
    if ('ask' in done) {
      store.update({ replaceAsk: done.ask });
      return;
    }
    store.update({ uploadNote: done.note, picked: [], page: 1 });
    ctx.relist();
  } catch (e) {
    if (isForbidden(e)) onRefused?.(e);
    store.update({ uploadError: e });
  } finally {
    store.update({ uploading: false });
  }
}

/** The delete step: the file leaves the list at once; a refusal keeps it, with the service's words. */
async function runRemove(ctx: StepContext, file: RepositoryFile): Promise<void> {
  const { store } = ctx;
  store.update({ deleting: true, deleteError: null, deleteNote: null });
  try {
    await ctx.client.deleteRepositoryFile(file.id);
    ctx.forget(file.id);
    store.update({ deleteNote: `Deleted ${fileName(file)}.`, confirmDelete: null });
    ctx.relist();
  } catch (e) {
    store.update({ deleteError: e });
  } finally {
    store.update({ deleting: false });
  }
}

export function createLibraryController(deps: LibraryDeps = {}) {
  const store = createStore(initialLibraryState());
  const searchDelay = deps.searchDelayMs ?? SEARCH_DELAY_MS;
  let inputs: LibraryInputs = { client: null, active: false, pollMs: 2000 };
  let probe: AbortController | null = null;
  let disposed = false;

  const live = () => (inputs.active && !disposed ? inputs.client : null);
  const learnOfferings = (seen: readonly Offering[]) => store.update((s) => ({ offerings: mergeOfferings(s.offerings, seen) }));
  const forget = (id: number) => store.update((s) => ({ list: withoutFiles(s.list, [id]) }));

  const listing = createListing({
    page: (list) => {
      store.update({ list, listError: null });
      learnOfferings(list.results.flatMap((f) => f.relevant_offerings ?? []));
    },
    // A list that could not be read is not an empty library (nor the last key's).
    error: (listError, first) => store.update(first ? { list: null, listError } : { listError }),
  });

  // Which extensions this service has. Asked again each time the pane is shown; what the same client
  // said stays meanwhile, so an open Answers view is not torn down by a visit to another tab.
  function reprobe(): void {
    probe?.abort();
    probe = null;
    const client = live();
    if (!client) return;
    probe = new AbortController();
    void probeExtensions(client, probe.signal, { ext: (ext) => store.update({ ext }), offerings: learnOfferings });
  }

  /** Lists the files for the current query now (after a pause while typing), then again while any is processing. */
  function relist(): void {
    listing.stop();
    const client = live();
    if (!client) return;
    listing.start(client, listQuery(store.state), { delayMs: store.state.search ? searchDelay : 0, pollMs: inputs.pollMs });
  }

  /** Changes the query; the list is asked again only when the request it makes changed. */
  function setQuery(patch: Partial<Query>): void {
    const before = JSON.stringify(listQuery(store.state));
    store.update(patch);
    if (JSON.stringify(listQuery(store.state)) !== before) relist();
  }

  const context = (client: TaskpaneApi): StepContext => ({ store, client, relist, forget });

  return controllerOf(store, {
    /** The pane's client, whether it is shown, its poll interval, its connection epoch. */
    setInputs(next: LibraryInputs): void {
      const prev = inputs;
      inputs = next;
      const epochChanged = next.connectionEpoch !== prev.connectionEpoch;
      if (epochChanged && next.connectionEpoch) store.update({ uploadError: null, deleteError: null });
      if (next.client !== prev.client) store.update({ ext: null });
      if (next.client !== prev.client || next.active !== prev.active || epochChanged) reprobe();
      if (next.client !== prev.client || next.active !== prev.active || next.pollMs !== prev.pollMs) relist();
    },

    setSearch: (search: string) => setQuery({ search, page: 1 }),
    setStatus: (status: LibraryState['status']) => setQuery({ status, page: 1 }),
    setDocType: (docType: LibraryState['docType']) => setQuery({ docType, page: 1 }),
    setOrdering: (ordering: Ordering) => setQuery({ ordering }),
    setPage: (page: number) => setQuery({ page }),

    addFiles(files: Iterable<PickedFile> | ArrayLike<PickedFile> | null | undefined): void {
      if (files) store.update((s) => ({ picked: addPicked(s.picked, files), uploadNote: null, replaceAsk: null }));
    },
    removePicked: (file: PickedFile) => store.update((s) => ({ picked: s.picked.filter((p) => p !== file), replaceAsk: null })),
    setTagsText: (tagsText: string) => store.update({ tagsText }),
    setCompanyScope: (companyScope: boolean) => store.update({ companyScope }),
    toggleOffering: (id: number, on: boolean) => store.update((s) => ({ chosenOfferings: toggleOffering(s.chosenOfferings, id, on) })),
    cancelReplace: () => store.update({ replaceAsk: null }),
    /** `replace`: files to delete once the new ones are in (null: not decided yet, ask when names repeat). */
    async upload(replace: readonly RepositoryFile[] | null): Promise<void> {
      if (inputs.client) await runUpload(context(inputs.client), replace, deps.onUploadRefused);
    },

    askDelete: (id: number) => store.update({ confirmDelete: id, deleteNote: null }),
    cancelDelete: () => store.update({ confirmDelete: null }),
    dismissDeleteError: () => store.update({ deleteError: null }),
    async remove(file: RepositoryFile): Promise<void> {
      if (inputs.client) await runRemove(context(inputs.client), file);
    },

    dispose(): void {
      disposed = true;
      probe?.abort();
      listing.stop();
      store.clear();
    },
  });
}

export type LibraryController = ReturnType<typeof createLibraryController>;
