/**
 * The client's methods for extension "answers.library" (./library.ts), as `client.library.*`. Kept apart
 * from ./client.ts so that file stays one method per v2 endpoint; it shares the client's transport.
 */
import type { z } from 'zod/mini';
import { checkInput, digitsId, withQuery } from './encode';
import type { Call } from './http';
import {
  LibraryConflict,
  LibraryConflictPage,
  LibraryConflictQuery,
  LibraryEdit,
  LibraryEntryDetail,
  LibraryListQuery,
  LibraryPage,
  LibraryRetire,
  LibraryReviewInput,
  LibrarySectionReviewInput,
  LibrarySectionReviewResult,
  LibrarySettings,
  LibrarySettingsInput,
  LibrarySettle,
  NewLibraryEntry,
} from './library';
import type {
  LibraryConflict as Conflict,
  LibraryConflictQuery as ConflictQuery,
  LibraryEdit as Edit,
  LibraryEntry,
  LibraryEntryDetail as Detail,
  LibraryReviewInput as ReviewChange,
  LibrarySectionReviewInput as SectionReviewChange,
  LibraryListQuery as ListQuery,
  LibrarySettings as Settings,
  NewLibraryEntry as NewEntry,
} from './library';
import { ROUTES, type Route } from './paths';
import type { Paginated } from './schemas';

export interface LibraryRequestOptions {
  signal?: AbortSignal;
}

/** What an extension's methods need of the client (`client.transport`): an endpoint's URL and one exchange. */
export interface ExtensionTransport {
  url(route: Route, id?: string): string;
  call<S extends z.ZodMiniType>(c: Call<S>): Promise<z.output<S>>;
}

const EP = {
  list: ROUTES.listLibrary,
  add: ROUTES.addLibraryEntry,
  get: ROUTES.getLibraryEntry,
  edit: ROUTES.editLibraryEntry,
  approve: ROUTES.approveLibraryEntry,
  retire: ROUTES.retireLibraryEntry,
  restore: ROUTES.restoreLibraryEntry,
  review: ROUTES.setLibraryEntryReview,
  sectionReview: ROUTES.setLibrarySectionReview,
  conflicts: ROUTES.libraryConflicts,
  settle: ROUTES.settleLibraryConflict,
  undo: ROUTES.undoLibrarySettle,
  export: ROUTES.exportLibrary,
  settings: ROUTES.getLibrarySettings,
  setSettings: ROUTES.setLibrarySettings,
} as const;

const entryId = (id: number | string) => digitsId(id, 'library entry');

export class LibraryClient {
  constructor(private readonly t: ExtensionTransport) {}

  /** A page of entries: search (`q`), status, filter (conflicts, review_due, …), offering, source file. */
  list(q: ListQuery = {}, opts: LibraryRequestOptions = {}): Promise<Paginated<LibraryEntry>> {
    return run(() => this.read(EP.list, withQuery(this.t.url(EP.list), checkInput(LibraryListQuery, q, 'library query')), LibraryPage, opts));
  }

  /** One entry with its versions and its history (who did what, when). */
  get(id: number | string, opts: LibraryRequestOptions = {}): Promise<Detail> {
    return run(() => this.read(EP.get, this.t.url(EP.get, entryId(id)), LibraryEntryDetail, opts));
  }

  /** Adds an entry by hand (question, slots, offerings); it is reused by fills like any other. */
  add(entry: NewEntry, opts: LibraryRequestOptions = {}): Promise<Detail> {
    return run(() => this.send(EP.add, undefined, checkInput(NewLibraryEntry, entry, 'library entry'), LibraryEntryDetail, opts));
  }

  /** Edits an entry's slots (and question): a new version, the old kept in `versions`. */
  edit(id: number | string, change: Edit, opts: LibraryRequestOptions = {}): Promise<Detail> {
    return run(() => this.send(EP.edit, entryId(id), checkInput(LibraryEdit, change, 'library edit'), LibraryEntryDetail, opts));
  }

  approve(id: number | string, opts: LibraryRequestOptions = {}): Promise<Detail> {
    return run(() => this.send(EP.approve, entryId(id), {}, LibraryEntryDetail, opts));
  }

  retire(id: number | string, reason?: string, opts: LibraryRequestOptions = {}): Promise<Detail> {
    return run(() => {
      const body = checkInput(LibraryRetire, reason === undefined ? {} : { reason }, 'retire request');
      return this.send(EP.retire, entryId(id), body, LibraryEntryDetail, opts);
    });
  }

  restore(id: number | string, opts: LibraryRequestOptions = {}): Promise<Detail> {
    return run(() => this.send(EP.restore, entryId(id), {}, LibraryEntryDetail, opts));
  }

  /** Sets who owns the entry (a username; null: nobody) and its own review interval (null: the organisation's). */
  setReview(id: number | string, change: ReviewChange, opts: LibraryRequestOptions = {}): Promise<Detail> {
    return run(() => this.send(EP.review, entryId(id), checkInput(LibraryReviewInput, change, 'review change'), LibraryEntryDetail, opts));
  }

  /** The same owner and interval for every live entry of one sheet of a file; how many changed, of how many. */
  setSectionReview(change: SectionReviewChange, opts: LibraryRequestOptions = {}): Promise<{ updated: number; entries: number }> {
    return run(() =>
      this.send(EP.sectionReview, undefined, checkInput(LibrarySectionReviewInput, change, 'section review change'), LibrarySectionReviewResult, opts),
    );
  }

  /** Groups of live entries that answer the same question differently (and settled groups). */
  conflicts(q: ConflictQuery = {}, opts: LibraryRequestOptions = {}): Promise<Paginated<Conflict>> {
    return run(() => {
      const url = withQuery(this.t.url(EP.conflicts), checkInput(LibraryConflictQuery, q, 'conflict query'));
      return this.read(EP.conflicts, url, LibraryConflictPage, opts);
    });
  }

  /**
   * Makes the entry canonical for its question; the group's other entries are retired. With `offeringId`,
   * chooses it for that offering alone (nothing retired, other offerings' disagreements left open).
   */
  settle(entryId: number, opts: LibraryRequestOptions & { offeringId?: number } = {}): Promise<Conflict> {
    return run(() => {
      const body = checkInput(LibrarySettle, settleBody(entryId, opts.offeringId), 'settle request');
      return this.send(EP.settle, undefined, body, LibraryConflict, opts);
    });
  }

  /** Undoes the settlement of the entry's question (for `offeringId` alone, when given). */
  undoSettle(entryId: number, opts: LibraryRequestOptions & { offeringId?: number } = {}): Promise<Conflict> {
    return run(() => this.send(EP.undo, undefined, checkInput(LibrarySettle, settleBody(entryId, opts.offeringId), 'undo request'), LibraryConflict, opts));
  }

  /** The export's address (it needs the API key header: fetch it with `export()`). */
  exportUrl(): string {
    return this.t.url(EP.export);
  }

  /** The library as .xlsx bytes. */
  export(opts: LibraryRequestOptions = {}): Promise<Uint8Array> {
    return run(
      () =>
        this.t.call({
          method: 'GET',
          endpoint: EP.export,
          url: this.exportUrl(),
          schema: LibraryPage,
          signal: opts.signal,
          binary: true,
        }) as unknown as Promise<Uint8Array>,
    );
  }

  settings(opts: LibraryRequestOptions = {}): Promise<Settings> {
    return run(() => this.read(EP.settings, this.t.url(EP.settings), LibrarySettings, opts));
  }

  setSettings(settings: Settings, opts: LibraryRequestOptions = {}): Promise<Settings> {
    return run(() => this.send(EP.setSettings, undefined, checkInput(LibrarySettingsInput, settings, 'library settings'), LibrarySettings, opts));
  }

  private read<S extends z.ZodMiniType>(endpoint: string, url: string, schema: S, opts: LibraryRequestOptions) {
    return this.t.call({ method: 'GET', endpoint, url, schema, signal: opts.signal });
  }

  private send<S extends z.ZodMiniType>(endpoint: Route, id: string | undefined, body: unknown, schema: S, opts: LibraryRequestOptions) {
    const method = endpoint.startsWith('PUT ') ? 'PUT' : 'POST';
    return this.t.call({
      method,
      endpoint,
      url: this.t.url(endpoint, id),
      schema,
      signal: opts.signal,
      body: JSON.stringify(body),
      contentType: 'application/json',
    });
  }
}

const settleBody = (entryId: number, offeringId: number | undefined) =>
  offeringId === undefined ? { entry_id: entryId } : { entry_id: entryId, offering_id: offeringId };

/** Argument errors become rejections, as in the client. */
function run<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return fn();
  } catch (e) {
    return Promise.reject(e);
  }
}
