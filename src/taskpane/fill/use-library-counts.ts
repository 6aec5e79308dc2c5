/** How full the library is, so the Fill pane can say before a fill that it could answer nothing. */
import { useEffect, useState } from 'preact/hooks';
import type { TaskpaneApi } from '../types';
import type { LibraryCounts } from './view';

/** Counted each time the pane is shown; null until known, or when counting failed (the fill itself reports connection problems). */
export function useLibraryCounts(client: TaskpaneApi | null, active: boolean): LibraryCounts | null {
  const [library, setLibrary] = useState<LibraryCounts | null>(null);
  // What the last key's library held says nothing about this key's.
  useEffect(() => setLibrary(null), [client]);
  useEffect(() => {
    if (!client || !active) return;
    const ctl = new AbortController();
    const count = (query: { status?: 'ready' }) => client.listRepositoryFiles({ page_size: 1, ...query }, { signal: ctl.signal }).then((r) => r.count);
    count({ status: 'ready' })
      .then(async (ready) => setLibrary({ ready, total: ready > 0 ? ready : await count({}) }))
      .catch(() => {
        /* the fill itself reports connection problems; this hint is only a hint */
      });
    return () => ctl.abort();
  }, [client, active]);
  return library;
}
