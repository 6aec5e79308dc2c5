/** The review list's hooks: its filter and page, what the selected question's cells hold now, Alt+N, and bringing the card into view. */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { QuestionWithAnswers } from '../../api/schemas';
import type { CellRef } from '../../excel/types';
import { distinct, EMPTY_FILTER, filterQuestions, sectionOf, type ReviewFilter } from '../review';
import { correctionTargets } from '../../fill/session/targets';
import { cellId } from './QuestionDetails';

export const PAGE = 100;

export interface ReviewFiltering {
  filter: ReviewFilter;
  /** Changes the filter; the list starts again at its first page. */
  set: (patch: Partial<ReviewFilter>) => void;
  tabs: string[];
  /** The sections of the chosen tab (of all tabs when none is chosen). */
  sections: string[];
  visible: QuestionWithAnswers[];
  /** How many of the visible questions are listed. */
  shown: number;
  showMore: () => void;
}

export function useReviewFilter(items: readonly QuestionWithAnswers[]): ReviewFiltering {
  const [filter, setFilter] = useState<ReviewFilter>(EMPTY_FILTER);
  const [shown, setShown] = useState(PAGE);
  const tabs = useMemo(() => distinct(items.map((q) => q.tab_name)), [items]);
  const sections = useMemo(() => distinct(items.filter((q) => !filter.tab || q.tab_name === filter.tab).map(sectionOf)), [items, filter.tab]);
  const visible = useMemo(() => filterQuestions(items, filter), [items, filter]);
  const set = (patch: Partial<ReviewFilter>) => {
    setFilter((f) => ({ ...f, ...patch }));
    setShown(PAGE);
  };
  return { filter, set, tabs, sections, visible, shown, showMore: () => setShown((n) => n + PAGE) };
}

/** What the selected question's cells hold now (`tab!A1` → text): read again whenever the selection or its answer changes. */
export function useCurrentValues(
  selected: QuestionWithAnswers | null,
  readValues: ((refs: CellRef[]) => Promise<string[]>) | undefined,
): Record<string, string> | undefined {
  const [current, setCurrent] = useState<{ id: number; values: Record<string, string> } | null>(null);
  useEffect(() => {
    if (!selected || !readValues) return;
    let gone = false;
    const cells = correctionTargets(selected).map((t) => t.cell);
    readValues(cells)
      .then((values) => !gone && setCurrent({ id: selected.id, values: Object.fromEntries(cells.map((c, i) => [cellId(c), values[i] ?? ''])) }))
      .catch(() => {
        /* only a hint: the suggestion is still shown */
      });
    return () => {
      gone = true;
    };
  }, [selected, readValues]);
  return selected && current?.id === selected.id ? current.values : undefined;
}

/** Alt+N, from anywhere in the pane: the key that moves the review on (Option+N on a Mac; `code` is layout-proof). */
export const isNextKey = (e: Pick<KeyboardEvent, 'altKey' | 'ctrlKey' | 'metaKey' | 'code' | 'key'>) =>
  e.altKey && !e.ctrlKey && !e.metaKey && (e.code === 'KeyN' || e.key === 'n' || e.key === 'N');

/** Calls the latest `next` on Alt+N anywhere in the document. */
export function useNextKey(next: () => void): void {
  const latest = useRef(next);
  latest.current = next;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!isNextKey(e)) return;
      e.preventDefault();
      latest.current();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}

/**
 * Keeps the selected question's card in view; `focusNext()` also moves the focus to the card the next
 * time the selection changes (after "Next needing review", whose question a filter may hide from the list).
 */
export function useCardInView(selectedId: number | undefined) {
  const detailsRef = useRef<HTMLDivElement>(null);
  const focusCard = useRef(false);
  useEffect(() => {
    if (selectedId === undefined) return;
    detailsRef.current?.scrollIntoView?.({ block: 'nearest' });
    if (focusCard.current) {
      focusCard.current = false;
      detailsRef.current?.querySelector<HTMLElement>('article')?.focus();
    }
  }, [selectedId]);
  return { detailsRef, focusNext: () => void (focusCard.current = true) };
}
