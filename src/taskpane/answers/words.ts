/** An entry's facts in words: status, source, offerings, approval, as-of and review. */
import type { LibraryEntry, LibraryFilter } from '../../api/library';
import type { Offering } from '../../api/schemas';

export const FILTER_LABELS: Record<LibraryFilter, string> = {
  conflicts: 'Conflicts',
  review_due: 'Review due',
  unapproved: 'Not approved',
  approved: 'Approved',
  retired: 'Retired',
  by_hand: 'Added by hand',
};

export const statusLabel = (e: Pick<LibraryEntry, 'status'>) => (e.status === 'canonical' ? 'Chosen' : e.status === 'retired' ? 'Retired' : 'Active');

/** "hecvat-2024.xlsx · Security · B12", or "Added by hand" (a location that repeats its sheet's name says it once). */
export function sourceText(e: Pick<LibraryEntry, 'source'>): string {
  if (!e.source) return 'Added by hand';
  const { file_name, tab_name, location } = e.source;
  const where = tab_name && location.startsWith(`${tab_name}!`) ? location.slice(tab_name.length + 1) : location;
  return [file_name, tab_name, where].filter(Boolean).join(' · ');
}

/**
 * The section an entry was learned in, as the library groups by it: "Security › Data Protection" (its
 * sheet, and the section within it where the sheet has section rows), its file where the sheet has no
 * name, "Added by hand" without a source.
 */
export function sectionText(e: Pick<LibraryEntry, 'source' | 'section'>): string {
  if (!e.source) return 'Added by hand';
  const sheet = e.source.tab_name || e.source.file_name;
  return e.section ? `${sheet} › ${e.section}` : sheet;
}

/** Consecutive items under one heading each, in the order they come (a heading met again later starts a new run). */
export function runsBy<T>(items: readonly T[], heading: (item: T) => string): { heading: string; items: { item: T; index: number }[] }[] {
  const runs: { heading: string; items: { item: T; index: number }[] }[] = [];
  items.forEach((item, index) => {
    const h = heading(item);
    const last = runs.at(-1);
    if (last && last.heading === h) last.items.push({ item, index });
    else runs.push({ heading: h, items: [{ item, index }] });
  });
  return runs;
}

export const offeringText = (e: Pick<LibraryEntry, 'offering_ids'>, offerings: readonly Offering[]) =>
  e.offering_ids.length === 0 ? 'Any offering' : e.offering_ids.map((id) => offerings.find((o) => o.id === id)?.name ?? `offering ${id}`).join(', ');

export const day = (iso: string | null) => (iso ? iso.slice(0, 10) : '');

export const approvalText = (e: Pick<LibraryEntry, 'approved_by' | 'approved_at'>) =>
  e.approved_at ? `Approved${e.approved_by ? ` by ${e.approved_by}` : ''} on ${day(e.approved_at)}` : 'Not approved';

/** "Owned by bob · reviewed every 6 months", or the organisation's review age when the entry sets none. */
export const ownerText = (e: Pick<LibraryEntry, 'owner' | 'review_months'>) =>
  `${e.owner ? `Owned by ${e.owner}` : 'No owner'} · reviewed ${e.review_months ? `every ${e.review_months} months` : "at the organisation's review age"}`;
