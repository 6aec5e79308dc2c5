/** A fill of this workbook that did not finish: nothing is written until the analyst continues or discards it. */
import type { FillSession } from '../../fill/session';
import { when } from './view';

export function Interrupted(props: { session: FillSession; startedAt: string | null }) {
  const { session, startedAt } = props;
  return (
    <div class="qf-msg qf-msg-warn" role="group" aria-label="Interrupted fill">
      <p>
        A fill of this workbook was interrupted{startedAt ? ` (started ${when(startedAt)})` : ''}. Nothing is written until you choose: continue it, or discard
        it.
      </p>
      <div class="qf-row">
        <button type="button" class="qf-btn qf-btn-primary" onClick={() => void session.continueInterrupted()}>
          Continue the fill
        </button>
        <button type="button" class="qf-btn" onClick={() => void session.discardInterrupted()}>
          Discard it
        </button>
      </div>
    </div>
  );
}
