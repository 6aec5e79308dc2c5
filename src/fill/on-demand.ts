/**
 * A module fetched the first time it is needed, in its own chunk, so the task pane's first paint stays
 * under its budget (test/bundle-size.test.ts). A failed fetch (offline for a moment) is forgotten, so the
 * next call tries again. Shared by the pane and the Excel adapter.
 */
export function onDemand<M>(load: () => Promise<M>): () => Promise<M> {
  let loading: Promise<M> | null = null;
  return () => {
    loading ??= load().catch((e: unknown) => {
      loading = null;
      throw e;
    });
    return loading;
  };
}
