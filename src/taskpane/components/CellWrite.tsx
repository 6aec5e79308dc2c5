/**
 * Writing one text into one cell on the analyst's request (chat's "Insert", the review's corrections):
 * the write, its outcome in words, and — when the cell already held a value — a second, explicit
 * button to replace it. Formulas and locked cells are refused by the adapter, never offered.
 */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { ErrorMessage, Note } from './Message';

export type CellWriteResult = { written: boolean; reason?: string };

type State =
  | { kind: 'idle' | 'busy' }
  | { kind: 'done'; text: string }
  | { kind: 'refused'; text: string; replaceable: boolean }
  | { kind: 'error'; error: unknown };

/** "Already holds a value" is the one refusal a person may override; the others are the rules. */
const REPLACEABLE = /already holds/i;

export function CellWrite(props: {
  /** The write; `overwrite` is true only after the analyst chose to replace the cell's value. */
  write: (overwrite: boolean) => Promise<CellWriteResult>;
  label: ComponentChildren;
  /** Said after a successful write. */
  doneText: string;
  disabled?: boolean;
  primary?: boolean;
}) {
  const [state, setState] = useState<State>({ kind: 'idle' });
  const run = async (overwrite: boolean) => {
    setState({ kind: 'busy' });
    try {
      const r = await props.write(overwrite);
      if (r.written) setState({ kind: 'done', text: props.doneText });
      else {
        const text = r.reason ?? 'The cell was not written.';
        setState({ kind: 'refused', text, replaceable: !overwrite && REPLACEABLE.test(text) });
      }
    } catch (e) {
      setState({ kind: 'error', error: e });
    }
  };
  return (
    <div>
      <div class="qf-row">
        <button
          type="button"
          class={props.primary ? 'qf-btn qf-btn-primary' : 'qf-btn'}
          onClick={() => run(false)}
          disabled={props.disabled || state.kind === 'busy'}
        >
          {props.label}
        </button>
        {state.kind === 'refused' && state.replaceable && (
          <button type="button" class="qf-btn" onClick={() => run(true)}>
            Replace the cell's value
          </button>
        )}
      </div>
      {state.kind === 'done' && <Note kind="ok">{state.text}</Note>}
      {state.kind === 'refused' && <Note kind="warn">{state.text}</Note>}
      {state.kind === 'error' && <ErrorMessage error={state.error} />}
    </div>
  );
}
