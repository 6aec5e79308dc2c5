/**
 * Who keeps an entry current and how often it is reviewed: its owner (a username of the organisation)
 * and its own review interval, empty for the organisation's review age. The service names an unknown
 * owner; the message is shown as it says it.
 */
import { useEffect, useState } from 'preact/hooks';
import type { LibraryEntryDetail } from '../../api/library';
import { BusyButtons } from '../components/BusyButtons';
import type { ReviewScope } from './entry';

export function EntryReview(props: {
  entry: LibraryEntryDetail;
  busy: boolean;
  onSave: (owner: string, months: number | null, scope: ReviewScope) => Promise<boolean>;
}) {
  const e = props.entry;
  const [open, setOpen] = useState(false);
  const [owner, setOwner] = useState(e.owner ?? '');
  const [months, setMonths] = useState(e.review_months ? String(e.review_months) : '');
  const [scope, setScope] = useState<ReviewScope>('entry');
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
        void props.onSave(owner, interval, scope).then((ok) => ok && setOpen(false));
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
      {e.source && <ScopeChoice entry={e} scope={scope} onScope={setScope} />}
      <BusyButtons submit primary busy={props.busy} label="Save owner and review" busyLabel="Saving…" onCancel={() => setOpen(false)} />
    </form>
  );
}

/** This answer alone, every answer of its section within the sheet (where it has one), or of the whole sheet. */
function ScopeChoice(props: { entry: LibraryEntryDetail; scope: ReviewScope; onScope: (scope: ReviewScope) => void }) {
  const { entry: e, scope } = props;
  const source = e.source!;
  const choices: [ReviewScope, string][] = [
    ['entry', 'This answer only'],
    ...(e.section ? [['section', `Every answer of section "${e.section}" of sheet "${source.tab_name}" in ${source.file_name}`] as [ReviewScope, string]] : []),
    ['sheet', `Every answer of sheet "${source.tab_name}" in ${source.file_name}`],
  ];
  return (
    <fieldset class="qf-field">
      <legend>Applies to</legend>
      {choices.map(([value, label]) => (
        <label key={value} class="qf-check">
          <input type="radio" name="qf-review-scope" checked={scope === value} onChange={() => props.onScope(value)} />
          <span>{label}</span>
        </label>
      ))}
    </fieldset>
  );
}
