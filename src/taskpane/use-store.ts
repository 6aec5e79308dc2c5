/** A component's view of a controller's store: re-rendered on each change. */
import { useEffect, useState } from 'preact/hooks';
import type { Store } from './store';

export function useStore<S>(store: Pick<Store<S>, 'state' | 'subscribe'>): S {
  const [state, setState] = useState(store.state);
  useEffect(() => {
    setState(store.state);
    return store.subscribe(setState);
  }, [store]);
  return state;
}
