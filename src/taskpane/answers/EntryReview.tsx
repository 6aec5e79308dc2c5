/**
 * Who keeps an entry current and how often it is reviewed: its owner (a username of the organisation)
 * and its own review interval, empty for the organisation's review age. The service names an unknown
 * owner; the message is shown as it says it.
 */
import { useEffect, useState } from 'preact/hooks';
import type { LibraryEntryDetail } from '../../api/library';
import { BusyButtons } from '../components/BusyButtons';

export function EntryReview(props: {
  entry: LibraryEntryDetail;
  busy: boolean;
  onSave: (owner: string, months: number | null, wholeSection: boolean) => Promise<boolean>;
}) {
  const e = props.entry;
  const [open, setOpen] = useState(false);
  const [owner, setOwner] = useState(e.owner ?? '');
  const [months, setMonths] = useState(e.review_months ? String(e.review_months) : '');
  const [wholeSection, setWholeSection] = useState(false);
  // Another entry opened, or this one changed: the form starts from what it is now.
  useEffect(() => {
    setOwner(e.owner ?? '');
    setMonths(e.review_months ? String(e.review_months) : '');
  }, [e.id, e.owner, e.review_months]);
  if (!open) {
    return (
      <button type="button" class="qf-btn" onClick={() => setOpen(true)} disabled={props.busy}>
        Owner and review…
      </button>
    );
  }
  const interval = months.trim() === '' ? null : Number(months);
  return (
    <form
      aria-label="Owner and review"
      onSubmit={(ev) => {
        ev.preventDefault();
        void props.onSave(owner, interval, wholeSection).then((ok) => ok && setOpen(false));
      }}
    >
      <label class="qf-field">
        <span>Owner (username; empty for nobody)</span>
        <input class="qf-input" value={owner} onInput={(ev) => setOwner(ev.currentTarget.value)} />
      </label>
      <label class="qf-field">
        <span>Review every … months (empty: the organisation's review age)</span>
        <input class="qf-input" type="number" min={1} max={120} value={months} onInput={(ev) => setMonths(ev.currentTarget.value)} />
      </label>
      {e.source && (
        <label class="qf-check">
          <input type="checkbox" checked={wholeSection} onChange={(ev) => setWholeSection(ev.currentTarget.checked)} />
          <span>
            Every answer of sheet "{e.source.tab_name}" in {e.source.file_name}
          </span>
        </label>
      )}
      <BusyButtons submit primary busy={props.busy} label="Save owner and review" busyLabel="Saving…" onCancel={() => setOpen(false)} />
    </form>
  );
}
