/**
 * One library entry opened: its detail (source, offering, as-of, approval, versions and history) and
 * what an analyst may do to it: edit its slots (a new version), approve, retire, restore. Without DOM.
 */
import type { LibraryEntryDetail, LibrarySlot } from '../../api/library';
import { attempt, createStore } from '../store';
import type { LibraryApi } from './types';

export interface EntryState {
  id: number | null;
  detail: LibraryEntryDetail | null;
  loading: boolean;
  error: unknown;
  /** The slots being edited, or null when not editing. */
  draft: LibrarySlot[] | null;
  busy: boolean;
  actionError: unknown;
  /** What the last action did, in a sentence. */
  note: string | null;
}

const initial = (): EntryState => ({ id: null, detail: null, loading: false, error: null, draft: null, busy: false, actionError: null, note: null });

/** `onChanged`: an action changed the entry; the list shows it as it is now. */
export function createEntry(api: LibraryApi, onChanged: (entry: LibraryEntryDetail) => void = () => {}) {
  const store = createStore<EntryState>(initial());
  let loading: AbortController | null = null;

  function act(run: () => Promise<LibraryEntryDetail>, note: (e: LibraryEntryDetail) => string): Promise<boolean> {
    return attempt(store, 'actionError', { actionError: null, note: null }, async () => {
      const detail = await run();
      onChanged(detail);
      return { detail, draft: null, note: note(detail) };
    });
  }

  const id = () => store.state.id;

  return {
    get state(): EntryState {
      return store.state;
    },
    subscribe: store.subscribe,

    async open(entryId: number): Promise<void> {
      loading?.abort();
      const ctl = (loading = new AbortController());
      store.update({ ...initial(), id: entryId, loading: true });
      try {
        const detail = await api.get(entryId, { signal: ctl.signal });
        if (!ctl.signal.aborted) store.update({ detail });
      } catch (e) {
        if (!ctl.signal.aborted) store.update({ error: e });
      } finally {
        if (!ctl.signal.aborted) store.update({ loading: false });
      }
    },
    close(): void {
      loading?.abort();
      store.update(initial());
    },

    startEdit: () => store.update((s) => ({ draft: s.detail ? s.detail.slots.map((x) => ({ ...x })) : null, note: null, actionError: null })),
    setSlot: (index: number, content: string) => store.update((s) => ({ draft: s.draft && s.draft.map((x, i) => (i === index ? { ...x, content } : x)) })),
    cancelEdit: () => store.update({ draft: null, actionError: null }),
    saveEdit(): Promise<boolean> {
      const { draft } = store.state;
      const entryId = id();
      if (!draft || entryId === null) return Promise.resolve(false);
      const slots = draft.map((s) => ({ slot_key: s.slot_key, content: s.content, ...(s.header ? { header: s.header } : {}) }));
      return act(
        () => api.edit(entryId, { slots }),
        (d) => `Saved as version ${d.version}; the earlier version is kept.`,
      );
    },
    approve(): Promise<boolean> {
      const entryId = id();
      return entryId === null
        ? Promise.resolve(false)
        : act(
            () => api.approve(entryId),
            (d) => `Approved${d.approved_by ? ` by ${d.approved_by}` : ''}: fills use it with high trust.`,
          );
    },
    retire(reason?: string): Promise<boolean> {
      const entryId = id();
      return entryId === null
        ? Promise.resolve(false)
        : act(
            () => api.retire(entryId, reason),
            () => 'Retired: kept in the library, never used by fills.',
          );
    },
    /**
     * Who owns the entry (a username, '' for nobody) and its own review interval in months (null: the
     * organisation's); for the entry alone, every live entry of its section within its sheet, or of its sheet.
     */
    saveReview(owner: string, months: number | null, scope: ReviewScope = 'entry'): Promise<boolean> {
      const entryId = id();
      const detail = store.state.detail;
      const source = detail?.source;
      if (entryId === null) return Promise.resolve(false);
      const change = { owner: owner.trim() || null, review_months: months };
      const said = (d: LibraryEntryDetail) =>
        `${d.owner ? `Owned by ${d.owner}` : 'No owner'}; reviewed ${d.review_months ? `every ${d.review_months} months` : "at the organisation's review age"}`;
      if (scope === 'entry' || !source)
        return act(
          () => api.setReview(entryId, change),
          (d) => `${said(d)}.`,
        );
      const section = scope === 'section' ? (detail?.section ?? null) : null;
      const where = section ? `section "${section}" of sheet "${source.tab_name}"` : `sheet "${source.tab_name}"`;
      let counted = { updated: 0, entries: 0 };
      return act(
        async () => {
          counted = await api.setSectionReview({ file_id: source.file_id, tab_name: source.tab_name, ...(section ? { section } : {}), ...change });
          return api.get(entryId);
        },
        (d) => `${said(d)}: ${counted.updated} of the ${counted.entries} answers of ${where} changed.`,
      );
    },
    restore(): Promise<boolean> {
      const entryId = id();
      return entryId === null
        ? Promise.resolve(false)
        : act(
            () => api.restore(entryId),
            () => 'Restored: fills may use it again.',
          );
    },

    dispose(): void {
      loading?.abort();
      store.clear();
    },
  };
}

/** What an owner and review interval are set for: the entry, its section within its sheet, or its sheet. */
export type ReviewScope = 'entry' | 'section' | 'sheet';

export type EntryController = ReturnType<typeof createEntry>;
