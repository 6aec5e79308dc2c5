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

/** "hecvat-2024.xlsx · Security · row 12", or "Added by hand". */
export const sourceText = (e: Pick<LibraryEntry, 'source'>) =>
  e.source ? [e.source.file_name, e.source.tab_name, e.source.location].filter(Boolean).join(' · ') : 'Added by hand';

export const offeringText = (e: Pick<LibraryEntry, 'offering_ids'>, offerings: readonly Offering[]) =>
  e.offering_ids.length === 0 ? 'Any offering' : e.offering_ids.map((id) => offerings.find((o) => o.id === id)?.name ?? `offering ${id}`).join(', ');

export const day = (iso: string | null) => (iso ? iso.slice(0, 10) : '');

export const approvalText = (e: Pick<LibraryEntry, 'approved_by' | 'approved_at'>) =>
  e.approved_at ? `Approved${e.approved_by ? ` by ${e.approved_by}` : ''} on ${day(e.approved_at)}` : 'Not approved';
