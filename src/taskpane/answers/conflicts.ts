/**
 * Conflict groups: entries answering the same question differently, side by side. Choosing one
 * ("Use this answer") settles the question once: it becomes canonical, the others are retired. A
 * settlement can be undone. Without DOM.
 */
import type { LibraryConflict } from '../../api/library';
import { createStore } from '../store';
import type { LibraryApi } from './types';

export const CONFLICTS_PAGE = 10;

export interface ConflictsState {
  page: number;
  groups: { count: number; results: LibraryConflict[]; hasNext: boolean } | null;
  error: unknown;
  loading: boolean;
  /** The question being settled or unsettled. */
  busy: string | null;
  actionError: unknown;
  note: string | null;
}

export function createConflicts(api: LibraryApi, onChanged: () => void = () => {}) {
  const store = createStore<ConflictsState>({ page: 1, groups: null, error: null, loading: false, busy: null, actionError: null, note: null });
  let loading: AbortController | null = null;

  async function load(): Promise<void> {
    loading?.abort();
    const ctl = (loading = new AbortController());
    store.update({ loading: true });
    try {
      const r = await api.conflicts({ page: store.state.page, page_size: CONFLICTS_PAGE }, { signal: ctl.signal });
      if (!ctl.signal.aborted) store.update({ groups: { count: r.count, results: r.results, hasNext: r.next !== null }, error: null });
    } catch (e) {
      if (!ctl.signal.aborted) store.update({ error: e, groups: null });
    } finally {
      if (!ctl.signal.aborted) store.update({ loading: false });
    }
  }

  /** The group as the service now has it replaces the old one in place (a settled group stays, to be undone). */
  const put = (group: LibraryConflict) =>
    store.update((s) => ({ groups: s.groups && { ...s.groups, results: s.groups.results.map((g) => (g.question_key === group.question_key ? group : g)) } }));

  async function act(group: LibraryConflict, run: () => Promise<LibraryConflict>, note: (g: LibraryConflict) => string): Promise<void> {
    store.update({ busy: group.question_key, actionError: null, note: null });
    try {
      const next = await run();
      put(next);
      store.update({ note: note(next) });
      onChanged();
    } catch (e) {
      store.update({ actionError: e });
    } finally {
      store.update({ busy: null });
    }
  }

  return {
    get state(): ConflictsState {
      return store.state;
    },
    subscribe: store.subscribe,
    load,
    setPage(page: number): void {
      store.update({ page });
      void load();
    },
    /** "Use this answer": the entry becomes canonical for its question, the group's others retired. */
    settle: (group: LibraryConflict, entryId: number) =>
      act(group, () => api.settle(entryId), (g) => `Settled "${short(g.question)}": fills use the chosen answer with high trust; the others are retired.`),
    undo: (group: LibraryConflict) => {
      const chosen = group.canonical_id ?? group.entries[0]?.id;
      if (chosen === undefined) return Promise.resolve();
      return act(group, () => api.undoSettle(chosen), (g) => `Undone: "${short(g.question)}" is open again.`);
    },
    dispose(): void {
      loading?.abort();
      store.clear();
    },
  };
}

const short = (text: string) => (text.length > 60 ? `${text.slice(0, 57)}…` : text);

export type ConflictsController = ReturnType<typeof createConflicts>;
