/** An entry's state at a glance: chosen or retired, approved, review due, in conflict. */
import type { LibraryEntry } from '../../api/library';
import { statusLabel } from './words';

export function EntryBadges(props: { entry: LibraryEntry }) {
  const e = props.entry;
  return (
    <span>
      {e.status !== 'active' && <span class={`qf-badge ${e.status === 'canonical' ? 'qf-trust-high' : 'qf-muted'}`}>{statusLabel(e)}</span>}{' '}
      {e.approved_at && <span class="qf-badge qf-trust-high">Approved</span>} {e.review_due && <span class="qf-badge qf-trust-medium">Review due</span>}{' '}
      {e.conflict && <span class="qf-badge qf-trust-low">Conflict</span>}
    </span>
  );
}
