/** The conversations list of the Chat pane, without DOM: search (after a pause in typing), page, refresh. */
import type { ChatSession } from '../../api/schemas';
import { controllerOf, createStore } from '../store';
import type { TaskpaneApi } from '../types';

export const SESSIONS_PAGE = 10;
export const SESSIONS_SEARCH_DELAY_MS = 250;

export interface SessionListState {
  search: string;
  page: number;
  data: { count: number; results: ChatSession[]; hasNext: boolean } | null;
  error: unknown;
  loading: boolean;
}

export interface SessionListInputs {
  client: TaskpaneApi;
  active: boolean;
  /** Grows when a message was sent in a session: the list is read again. */
  refreshKey: number;
}

export function createSessionList(opts: { searchDelayMs?: number } = {}) {
  const store = createStore<SessionListState>({ search: '', page: 1, data: null, error: null, loading: false });
  const delay = opts.searchDelayMs ?? SESSIONS_SEARCH_DELAY_MS;
  let inputs: SessionListInputs | null = null;
  let current: { ctl: AbortController; timer: ReturnType<typeof setTimeout> } | null = null;

  function load(): void {
    if (current) {
      clearTimeout(current.timer);
      current.ctl.abort();
      current = null;
    }
    if (!inputs?.active) return;
    const { client } = inputs;
    const { page, search } = store.state;
    const ctl = new AbortController();
    store.update({ loading: true });
    // Wait for typing to pause before searching.
    const timer = setTimeout(
      () => {
        client
          .listSessions({ page, page_size: SESSIONS_PAGE, ...(search.trim() ? { search: search.trim() } : {}) }, { signal: ctl.signal })
          .then((r) => void (!ctl.signal.aborted && store.update({ data: { count: r.count, results: r.results, hasNext: r.next !== null }, error: null })))
          .catch((e) => void (!ctl.signal.aborted && store.update({ error: e })))
          .finally(() => void (!ctl.signal.aborted && store.update({ loading: false })));
      },
      search ? delay : 0,
    );
    current = { ctl, timer };
  }

  return controllerOf(store, {
    setInputs(next: SessionListInputs): void {
      const prev = inputs;
      inputs = next;
      if (next.client !== prev?.client || next.active !== prev?.active || next.refreshKey !== prev?.refreshKey) load();
    },
    setSearch(search: string): void {
      store.update({ search, page: 1 });
      load();
    },
    setPage(page: number): void {
      store.update({ page });
      load();
    },
    dispose(): void {
      if (current) {
        clearTimeout(current.timer);
        current.ctl.abort();
      }
      store.clear();
    },
  });
}

export type SessionList = ReturnType<typeof createSessionList>;
