/** What can be done after a fill: undo it, write the answers (again), or check again on a stopped fill. */
import type { FillSession, FillState } from '../../fill/session';
import type { FillControls } from './view';

export function FillActions(props: { session: FillSession | null; state: FillState; controls: FillControls }) {
  const { session, state, controls } = props;
  const { busy, nothingWritten } = controls;
  return (
    <div class="qf-row">
      {state.canUndo && (
        <button type="button" class="qf-btn" onClick={() => void session?.requestUndo()} disabled={busy}>
          {state.phase === 'undoing' ? 'Undoing…' : controls.undoLabel}
        </button>
      )}
      {!busy && state.questions.length > 0 && (!state.report || nothingWritten) && (
        <button type="button" class="qf-btn" onClick={() => void session?.rewrite()}>
          {nothingWritten ? 'Write again with these options' : 'Write answers into the workbook'}
        </button>
      )}
      {state.outcome?.kind === 'stopped' && state.outcome.resumable && (
        <button type="button" class="qf-btn" onClick={() => void session?.continueInterrupted()}>
          Check again
        </button>
      )}
    </div>
  );
}
