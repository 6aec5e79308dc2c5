/** The organisation's review age: how many months after approval (or its as-of date) an entry is "review due". Without DOM. */
import { LIBRARY_LIMITS } from '../../api/library';
import { attempt, createStore } from '../store';
import type { LibraryApi } from './types';

export interface ReviewAgeState {
  /** What the service holds (null until read). */
  months: number | null;
  /** What is typed. */
  text: string;
  busy: boolean;
  error: unknown;
  note: string | null;
}

export function createReviewAge(api: LibraryApi) {
  const store = createStore<ReviewAgeState>({ months: null, text: '', busy: false, error: null, note: null });
  let loading: AbortController | null = null;
  return {
    get state(): ReviewAgeState {
      return store.state;
    },
    subscribe: store.subscribe,
    async load(): Promise<void> {
      loading?.abort();
      const ctl = (loading = new AbortController());
      try {
        const r = await api.settings({ signal: ctl.signal });
        if (!ctl.signal.aborted) store.update({ months: r.review_age_months, text: String(r.review_age_months), error: null });
      } catch (e) {
        if (!ctl.signal.aborted) store.update({ error: e });
      }
    },
    setText: (text: string) => store.update({ text, note: null }),
    async save(): Promise<boolean> {
      const months = Number(store.state.text.trim());
      if (!Number.isInteger(months) || months < 1 || months > LIBRARY_LIMITS.reviewMonthsMax) {
        store.update({ error: `The review age is a whole number of months from 1 to ${LIBRARY_LIMITS.reviewMonthsMax}.`, note: null });
        return false;
      }
      return attempt(store, 'error', { error: null, note: null }, async () => {
        const r = await api.setSettings({ review_age_months: months });
        const note = `Saved: answers are due for review ${r.review_age_months} months after approval or their as-of date.`;
        return { months: r.review_age_months, text: String(r.review_age_months), note };
      });
    },
    dispose(): void {
      loading?.abort();
      store.clear();
    },
  };
}

export type ReviewAgeController = ReturnType<typeof createReviewAge>;
