/**
 * The parts of the task pane that are not needed for its first paint (the review, saving to the
 * library, the Chat and Library tabs), in one chunk loaded right after it: the pane ships to every
 * analyst's Excel and must stay small (test/bundle-size.test.ts).
 */
import { useEffect, useState } from 'preact/hooks';
import { onDemand } from '../fill/on-demand';

export type Later = typeof import('./panes/later');

let loaded: Later | null = null;

export const loadLater: () => Promise<Later> = onDemand(() => import('./panes/later').then((m) => (loaded = m)));

/** The later views once loaded (null until then); starts loading them. */
export function useLater(): Later | null {
  const [views, setViews] = useState(loaded);
  useEffect(() => {
    if (views) return;
    let gone = false;
    loadLater().then(
      (m) => gone || setViews(m),
      () => undefined,
    );
    return () => void (gone = true);
  }, [views]);
  return views;
}
