/** One entry opened: its slots, source, offerings, as-of, approval, versions and history; edit, approve, retire, restore. */
import { useEffect, useRef } from 'preact/hooks';
import type { Offering } from '../../api/schemas';
import { ErrorMessage, Note } from '../components/Message';
import { useStore } from '../use-store';
import { EntryBadges } from './EntryBadges';
import type { EntryController } from './entry';
import { approvalText, day, offeringText, sourceText } from './words';

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
          {s.draft ? (
            <form
              aria-label="Edit answer"
              onSubmit={(e) => {
                e.preventDefault();
                void c.saveEdit();
              }}
            >
              {s.draft.map((slot, i) => (
                <label key={slot.slot_key} class="qf-field">
                  <span>{slot.header || slot.slot_key}</span>
                  <textarea class="qf-textarea" value={slot.content} onInput={(e) => c.setSlot(i, e.currentTarget.value)} />
                </label>
              ))}
              <div class="qf-row">
                <button type="submit" class="qf-btn qf-btn-primary" disabled={s.busy}>
                  {s.busy ? 'Saving…' : 'Save as a new version'}
                </button>
                <button type="button" class="qf-btn" onClick={c.cancelEdit} disabled={s.busy}>
                  Cancel
                </button>
              </div>
            </form>
          ) : (
            <dl class="qf-small">
              {d.slots.map((slot) => (
                <div key={slot.slot_key}>
                  <dt>{slot.header || slot.slot_key}</dt>
                  <dd class="qf-answer">{slot.content}</dd>
                </div>
              ))}
            </dl>
          )}
          <dl class="qf-small">
            <dt>Source</dt>
            <dd>{sourceText(d)}</dd>
            <dt>Offering</dt>
            <dd>{offeringText(d, props.offerings)}</dd>
            <dt>As of</dt>
            <dd>{d.as_of}</dd>
            <dt>Approval</dt>
            <dd>{approvalText(d)}</dd>
            <dt>Version</dt>
            <dd>
              {d.version}
              {d.updated_by ? ` · last changed by ${d.updated_by} on ${day(d.updated_at)}` : ''}
            </dd>
          </dl>
          {!s.draft && (
            <div class="qf-row">
              {d.status !== 'retired' && (
                <button type="button" class="qf-btn" onClick={c.startEdit} disabled={s.busy}>
                  Edit
                </button>
              )}
              {d.status !== 'retired' && !d.approved_at && (
                <button type="button" class="qf-btn qf-btn-primary" onClick={() => void c.approve()} disabled={s.busy}>
                  Approve
                </button>
              )}
              {d.status !== 'retired' ? (
                <button type="button" class="qf-btn" onClick={() => void c.retire()} disabled={s.busy}>
                  Retire
                </button>
              ) : (
                <button type="button" class="qf-btn" onClick={() => void c.restore()} disabled={s.busy}>
                  Restore
                </button>
              )}
            </div>
          )}
          <ErrorMessage error={s.actionError} />
          {s.note && <Note kind="ok">{s.note}</Note>}
          {d.history.length > 0 && (
            <details class="qf-more">
              <summary>History ({d.history.length})</summary>
              <ol class="qf-small" aria-label="History">
                {d.history.map((h, i) => (
                  <li key={i}>
                    {day(h.at)} · {h.by}: {h.action}
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
      )}
    </section>
  );
}
