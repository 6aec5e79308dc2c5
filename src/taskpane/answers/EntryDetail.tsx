/** One entry opened: its slots, source, offerings, as-of, approval, owner and review, versions and history; edit, approve, retire, restore. */
import { useEffect, useRef } from 'preact/hooks';
import type { LibraryEntryDetail } from '../../api/library';
import type { Offering } from '../../api/schemas';
import { BusyButtons } from '../components/BusyButtons';
import { ErrorMessage, Note } from '../components/Message';
import { useStore } from '../use-store';
import { EntryBadges } from './EntryBadges';
import { EntryReview } from './EntryReview';
import type { EntryController, EntryState } from './entry';
import { approvalText, day, offeringText, ownerText, sourceText } from './words';

export function EntryDetail(props: { entry: EntryController; offerings: readonly Offering[]; onClose: () => void }) {
  const c = props.entry;
  const s = useStore(c);
  const heading = useRef<HTMLHeadingElement>(null);
  // Opened from the list with Enter: the reader lands on the entry.
  useEffect(() => heading.current?.focus(), [s.id]);
  const d = s.detail;
  return (
    <section class="qf-card" aria-label="Answer library entry">
      <div class="qf-row">
        <button type="button" class="qf-link" onClick={props.onClose}>
          Back to the list
        </button>
      </div>
      <ErrorMessage error={s.error} />
      {s.loading && <p class="qf-muted">Loading…</p>}
      {d && (
        <>
          <h3 ref={heading} tabIndex={-1}>
            {d.original_id ? `${d.original_id} · ` : ''}
            {d.question}
          </h3>
          <EntryBadges entry={d} />
          {d.review_reason && <Note kind="warn">{d.review_reason}</Note>}
          {d.retired_reason && <p class="qf-small qf-muted">{d.retired_reason}</p>}
          {s.draft ? <EditForm entry={c} state={s} /> : <Slots entry={d} />}
          <Facts entry={d} offerings={props.offerings} />
          {!s.draft && <Actions entry={c} detail={d} busy={s.busy} />}
          <ErrorMessage error={s.actionError} />
          {s.note && <Note kind="ok">{s.note}</Note>}
          <History entry={d} />
        </>
      )}
    </section>
  );
}

function EditForm(props: { entry: EntryController; state: EntryState }) {
  const c = props.entry;
  return (
    <form
      aria-label="Edit answer"
      onSubmit={(e) => {
        e.preventDefault();
        void c.saveEdit();
      }}
    >
      {props.state.draft!.map((slot, i) => (
        <label key={slot.slot_key} class="qf-field">
          <span>{slot.header || slot.slot_key}</span>
          <textarea class="qf-textarea" value={slot.content} onInput={(e) => c.setSlot(i, e.currentTarget.value)} />
        </label>
      ))}
      <BusyButtons submit primary busy={props.state.busy} label="Save as a new version" busyLabel="Saving…" onCancel={c.cancelEdit} />
    </form>
  );
}

function Slots(props: { entry: LibraryEntryDetail }) {
  return (
    <dl class="qf-small">
      {props.entry.slots.map((slot) => (
        <div key={slot.slot_key}>
          <dt>{slot.header || slot.slot_key}</dt>
          <dd class="qf-answer">{slot.content}</dd>
        </div>
      ))}
    </dl>
  );
}

function Facts(props: { entry: LibraryEntryDetail; offerings: readonly Offering[] }) {
  const d = props.entry;
  return (
    <dl class="qf-small">
      <dt>Source</dt>
      <dd>{sourceText(d)}</dd>
      {d.section && (
        <>
          <dt>Section</dt>
          <dd>{d.section}</dd>
        </>
      )}
      <dt>Offering</dt>
      <dd>{offeringText(d, props.offerings)}</dd>
      <dt>As of</dt>
      <dd>{d.as_of}</dd>
      <dt>Approval</dt>
      <dd>{approvalText(d)}</dd>
      <dt>Owner and review</dt>
      <dd>{ownerText(d)}</dd>
      <dt>Version</dt>
      <dd>
        {d.version}
        {d.updated_by ? ` · last changed by ${d.updated_by} on ${day(d.updated_at)}` : ''}
      </dd>
    </dl>
  );
}

function Actions(props: { entry: EntryController; detail: LibraryEntryDetail; busy: boolean }) {
  const { entry: c, detail: d, busy } = props;
  const live = d.status !== 'retired';
  return (
    <>
      <div class="qf-row">
        {live && (
          <button type="button" class="qf-btn" onClick={c.startEdit} disabled={busy}>
            Edit
          </button>
        )}
        {live && !d.approved_at && (
          <button type="button" class="qf-btn qf-btn-primary" onClick={() => void c.approve()} disabled={busy}>
            Approve
          </button>
        )}
        <button type="button" class="qf-btn" onClick={() => void (live ? c.retire() : c.restore())} disabled={busy}>
          {live ? 'Retire' : 'Restore'}
        </button>
      </div>
      {live && <EntryReview entry={d} busy={busy} onSave={c.saveReview} />}
    </>
  );
}

function History(props: { entry: LibraryEntryDetail }) {
  const d = props.entry;
  return (
    <>
      {d.history.length > 0 && (
        <details class="qf-more">
          <summary>History ({d.history.length})</summary>
          <ol class="qf-small" aria-label="History">
            {d.history.map((h, i) => (
              <li key={i}>
                {day(h.at)} · {h.by}: {h.action.replace('_', ' ')}
                {h.detail ? ` (${h.detail})` : ''}
              </li>
            ))}
          </ol>
        </details>
      )}
      {d.versions.length > 1 && (
        <details class="qf-more">
          <summary>Earlier versions ({d.versions.length - 1})</summary>
          <ol class="qf-small" aria-label="Versions">
            {d.versions
              .filter((v) => v.version !== d.version)
              .map((v) => (
                <li key={v.version}>
                  Version {v.version}
                  {v.by ? ` by ${v.by}` : ''}
                  {v.at ? ` on ${day(v.at)}` : ''}: {v.slots.map((x) => x.content).join(' · ')}
                </li>
              ))}
          </ol>
        </details>
      )}
    </>
  );
}
