/** Adding an entry by hand: question, answer (the list value), comment, offerings. Without DOM. */
import type { LibraryEntryDetail } from '../../api/library';
import { attempt, createStore } from '../store';
import type { LibraryApi } from './types';

export interface AddState {
  question: string;
  answer: string;
  comment: string;
  offeringIds: readonly number[];
  busy: boolean;
  error: unknown;
  added: LibraryEntryDetail | null;
}

const empty = (): AddState => ({ question: '', answer: '', comment: '', offeringIds: [], busy: false, error: null, added: null });

export function createAddEntry(api: LibraryApi, onAdded: (entry: LibraryEntryDetail) => void = () => {}) {
  const store = createStore<AddState>(empty());
  return {
    get state(): AddState {
      return store.state;
    },
    subscribe: store.subscribe,
    set: (patch: Partial<Pick<AddState, 'question' | 'answer' | 'comment'>>) => store.update(patch),
    toggleOffering: (id: number, on: boolean) =>
      store.update((s) => ({ offeringIds: on ? [...s.offeringIds.filter((x) => x !== id), id] : s.offeringIds.filter((x) => x !== id) })),
    /** Sends the entry; the service checks it (an empty question or answer is its 400, shown in its words). */
    submit(): Promise<boolean> {
      const s = store.state;
      const slots = [{ slot_key: 'answer', header: 'Answer', content: s.answer.trim() }];
      if (s.comment.trim()) slots.push({ slot_key: 'comment', header: 'Comment', content: s.comment.trim() });
      return attempt(store, 'error', { error: null, added: null }, async () => {
        const added = await api.add({ question: s.question, slots, ...(s.offeringIds.length ? { offering_ids: [...s.offeringIds] } : {}) });
        onAdded(added);
        return { ...empty(), added };
      });
    },
    dispose: () => store.clear(),
  };
}

export type AddEntryController = ReturnType<typeof createAddEntry>;
