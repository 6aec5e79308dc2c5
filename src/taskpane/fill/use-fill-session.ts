/** The Fill pane's fill session (src/fill/session) and its latest state. */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { WorkbookAdapter } from '../../excel/types';
import { createFillSession, initialState, type FillOptions, type FillSession, type FillState } from '../../fill/session';
import { fillLinkStore } from '../fill-link';
import type { StorageLike, TaskpaneApi } from '../types';

export interface FillSessionInputs {
  client: TaskpaneApi | null;
  workbook: WorkbookAdapter;
  storage: StorageLike;
  stallMs?: number | undefined;
}

/**
 * One session per connection: a new key or address starts from what the workbook's link says, with no
 * stale message; the options chosen carry over to it.
 */
export function useFillSession({ client, workbook, storage, stallMs }: FillSessionInputs): [FillSession | null, FillState] {
  const lastOptions = useRef<FillOptions | undefined>(undefined);
  const session = useMemo(
    () =>
      client
        ? createFillSession(
            {
              api: client,
              workbook,
              links: fillLinkStore(storage, workbook),
              details: true,
              confirmOverwrite: true,
              ...(stallMs !== undefined ? { stallMs } : {}),
            },
            lastOptions.current,
          )
        : null,
    [client, workbook, storage, stallMs],
  );
  const [state, setState] = useState<FillState>(() => session?.state ?? initialState());
  useEffect(() => {
    if (!session) {
      setState(initialState(lastOptions.current));
      return;
    }
    setState(session.state);
    const off = session.subscribe((s) => {
      lastOptions.current = s.options;
      setState(s);
    });
    void session.open();
    return () => {
      off();
      session.dispose();
    };
  }, [session]);
  return [session, state];
}
