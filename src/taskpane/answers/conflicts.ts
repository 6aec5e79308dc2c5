/**
 * Conflict groups: entries answering the same question differently, side by side. Choosing one
 * ("Use this answer") settles the question once: it becomes canonical, the others are retired. A
 * settlement can be undone. With an offering chosen, the disagreements among that offering's answers,
 * settled for that offering alone. Without DOM.
 */
import type { LibraryConflict } from '../../api/library';
import { createStore } from '../store';
import type { LibraryApi } from './types';

export const CONFLICTS_PAGE = 10;

export interface ConflictsState {
  page: number;
  /** The offering the groups are listed and settled for; null: the question as a whole. */
  offeringId: number | null;
  groups: { count: number; results: LibraryConflict[]; hasNext: boolean } | null;
  error: unknown;
  loading: boolean;
  /** The question being settled or unsettled. */
  busy: string | null;
  actionError: unknown;
  note: string | null;
}

export function createConflicts(api: LibraryApi, onChanged: () => void = () => {}) {
  const store = createStore<ConflictsState>({
    page: 1,
    offeringId: null,
    groups: null,
    error: null,
    loading: false,
    busy: null,
    actionError: null,
    note: null,
  });
  let loading: AbortController | null = null;

  async function load(): Promise<void> {
    loading?.abort();
    const ctl = (loading = new AbortController());
    store.update({ loading: true });
    try {
      const offering = store.state.offeringId;
      const query = { page: store.state.page, page_size: CONFLICTS_PAGE, ...(offering !== null ? { offering_id: offering } : {}) };
      const r = await api.conflicts(query, { signal: ctl.signal });
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
    /** Lists (and settles) for this offering, or for the question as a whole (null). */
    setOffering(offeringId: number | null): void {
      if (offeringId === store.state.offeringId) return;
      store.update({ offeringId, page: 1, note: null, actionError: null });
      void load();
    },
    /** "Use this answer": the entry becomes canonical for its question (the others retired), or chosen for the offering listed. */
    settle: (group: LibraryConflict, entryId: number) => {
      const offeringId = store.state.offeringId ?? undefined;
      const after = offeringId === undefined ? 'the others are retired' : "for this offering's questionnaires; other offerings are not affected";
      return act(
        group,
        () => api.settle(entryId, { offeringId }),
        (g) => `Settled "${short(g.question)}": fills use the chosen answer with high trust ${after}.`,
      );
    },
    undo: (group: LibraryConflict) => {
      const offeringId = store.state.offeringId ?? undefined;
      const chosen = chosenIn(group) ?? group.entries[0]?.id;
      if (chosen === undefined) return Promise.resolve();
      return act(
        group,
        () => api.undoSettle(chosen, { offeringId }),
        (g) => `Undone: "${short(g.question)}" is open again.`,
      );
    },
    dispose(): void {
      loading?.abort();
      store.clear();
    },
  };
}

/** The entry chosen in the group: for the offering it was listed for, else for the question as a whole. */
export function chosenIn(group: LibraryConflict): number | null {
  if (group.offering_id != null) return group.settlements?.find((s) => s.offering_id === group.offering_id)?.entry_id ?? group.canonical_id;
  return group.canonical_id;
}

const short = (text: string) => (text.length > 60 ? `${text.slice(0, 57)}…` : text);

export type ConflictsController = ReturnType<typeof createConflicts>;
