/**
 * The answer library's entries as a paged, searchable, filtered list with a keyboard cursor, without
 * DOM. Search is the service's (the retrieval answering uses); typing pauses before it is asked.
 */
import type { LibraryEntry, LibraryFilter, LibraryListQuery } from '../../api/library';
import { createStore } from '../store';
import type { LibraryApi } from './types';

export const ENTRIES_PAGE = 20;
export const ENTRY_SEARCH_DELAY_MS = 250;

export interface EntryListState {
  q: string;
  filter: LibraryFilter | '';
  offeringId: number | null;
  fileId: number | null;
  page: number;
  list: { count: number; results: LibraryEntry[]; hasNext: boolean } | null;
  error: unknown;
  loading: boolean;
  /** The entry the arrow keys are on (an index into `list.results`). */
  cursor: number;
}

export const entryQuery = (s: Pick<EntryListState, 'q' | 'filter' | 'offeringId' | 'fileId' | 'page'>): LibraryListQuery => ({
  page: s.page,
  page_size: ENTRIES_PAGE,
  ...(s.q.trim() ? { q: s.q.trim() } : {}),
  ...(s.filter ? { filter: s.filter } : {}),
  ...(s.offeringId ? { offering_id: s.offeringId } : {}),
  ...(s.fileId ? { file_id: s.fileId } : {}),
});

export function createEntryList(api: LibraryApi, opts: { searchDelayMs?: number } = {}) {
  const store = createStore<EntryListState>({ q: '', filter: '', offeringId: null, fileId: null, page: 1, list: null, error: null, loading: false, cursor: 0 });
  const delay = opts.searchDelayMs ?? ENTRY_SEARCH_DELAY_MS;
  let current: { ctl: AbortController; timer: ReturnType<typeof setTimeout> } | null = null;

  function stop(): void {
    if (!current) return;
    clearTimeout(current.timer);
    current.ctl.abort();
    current = null;
  }

  function load(wait = 0): void {
    stop();
    const ctl = new AbortController();
    const query = entryQuery(store.state);
    store.update({ loading: true });
    const timer = setTimeout(() => {
      api
        .list(query, { signal: ctl.signal })
        .then((r) => {
          if (ctl.signal.aborted) return;
          const cursor = Math.min(store.state.cursor, Math.max(0, r.results.length - 1));
          store.update({ list: { count: r.count, results: r.results, hasNext: r.next !== null }, error: null, cursor });
        })
        // A list that could not be read is not an empty library.
        .catch((e) => void (!ctl.signal.aborted && store.update({ error: e, list: null })))
        .finally(() => void (!ctl.signal.aborted && store.update({ loading: false })));
    }, wait);
    current = { ctl, timer };
  }

  /** A new search or filter starts at the first page and the first entry. */
  const refine = (patch: Partial<EntryListState>, wait = 0) => {
    store.update({ ...patch, page: 1, cursor: 0 });
    load(wait);
  };

  return {
    get state(): EntryListState {
      return store.state;
    },
    subscribe: store.subscribe,
    load: () => load(),
    setSearch: (q: string) => refine({ q }, q.trim() ? delay : 0),
    setFilter: (filter: LibraryFilter | '') => refine({ filter }),
    setOffering: (offeringId: number | null) => refine({ offeringId }),
    setFile: (fileId: number | null) => refine({ fileId }),
    setPage(page: number): void {
      store.update({ page, cursor: 0 });
      load();
    },
    /** Arrow keys: the cursor moves within the page, and on to the next or previous page at its ends. */
    move(delta: 1 | -1): void {
      const s = store.state;
      const n = s.list?.results.length ?? 0;
      if (n === 0) return;
      const next = s.cursor + delta;
      if (next >= 0 && next < n) store.update({ cursor: next });
      else if (next >= n && s.list?.hasNext) this.setPage(s.page + 1);
      else if (next < 0 && s.page > 1) {
        store.update({ page: s.page - 1, cursor: ENTRIES_PAGE - 1 });
        load();
      }
    },
    setCursor: (cursor: number) => store.update({ cursor }),
    /** The entry under the cursor (what Enter opens). */
    current: (): LibraryEntry | null => store.state.list?.results[store.state.cursor] ?? null,
    /** An entry changed (edited, approved, settled): shown as it is now without re-listing. */
    replace(entry: LibraryEntry): void {
      store.update((s) => ({ list: s.list && { ...s.list, results: s.list.results.map((e) => (e.id === entry.id ? { ...e, ...entry } : e)) } }));
    },
    dispose(): void {
      stop();
      store.clear();
    },
  };
}

export type EntryList = ReturnType<typeof createEntryList>;
