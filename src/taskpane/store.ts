/** The pane's controllers publish their state through the fill session's store (one implementation). */
import type { Store } from '../fill/session/state';

export { createStore, type Store } from '../fill/session/state';

/**
 * One change the analyst asked for: `busy` while it runs, `start` cleared first, the outcome's patch on
 * success, and on failure what was thrown kept under `errorKey` (the service's own sentence, shown as is),
 * leaving what is being typed as it is. True when it succeeded.
 */
export async function attempt<S extends { busy: boolean }>(
  store: Store<S>,
  errorKey: keyof S,
  start: Partial<S>,
  run: () => Promise<Partial<S>>,
): Promise<boolean> {
  store.update({ ...start, busy: true });
  try {
    store.update(await run());
    return true;
  } catch (e) {
    store.update({ [errorKey]: e } as Partial<S>);
    return false;
  } finally {
    store.update({ busy: false } as Partial<S>);
  }
}

/** A controller as its component uses it: the latest state, a subscription, and the controller's own methods. */
export type Controller<S, M> = M & { readonly state: S; subscribe: Store<S>['subscribe'] };

export function controllerOf<S, M extends object>(store: Store<S>, methods: M): Controller<S, M> {
  const view = {
    get state() {
      return store.state;
    },
    subscribe: store.subscribe,
  };
  return Object.assign(view, methods);
}
