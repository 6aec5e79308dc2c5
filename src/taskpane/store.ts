/**
 * A pane controller's published state: each change replaces it and is told to every listener, so a
 * component renders the latest state and a test reads it without any DOM.
 */
export interface Store<S> {
  readonly state: S;
  update(patch: Partial<S> | ((s: S) => Partial<S>)): void;
  subscribe(listener: (s: S) => void): () => void;
  clear(): void;
}

export function createStore<S extends object>(initial: S): Store<S> {
  let st = initial;
  const listeners = new Set<(s: S) => void>();
  return {
    get state() {
      return st;
    },
    update(patch) {
      st = { ...st, ...(typeof patch === 'function' ? patch(st) : patch) };
      for (const l of [...listeners]) l(st);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    clear() {
      listeners.clear();
    },
  };
}
