/** Status lines. Errors are announced (role=alert); progress and results politely (role=status). */
import type { ComponentChildren } from 'preact';
import { explainError } from '../errors';

export function ErrorMessage(props: { error: unknown; onDismiss?: () => void }) {
  if (props.error === null || props.error === undefined) return null;
  return (
    <div class="qf-msg qf-msg-error" role="alert">
      {explainError(props.error)}
      {props.onDismiss && (
        <>
          {' '}
          <button type="button" class="qf-link" onClick={props.onDismiss}>
            Dismiss
          </button>
        </>
      )}
    </div>
  );
}

export function Note(props: { kind?: 'info' | 'ok' | 'warn'; children: ComponentChildren }) {
  return (
    <div class={`qf-msg qf-msg-${props.kind ?? 'info'}`} role="status">
      {props.children}
    </div>
  );
}

/** The first thing a pane says without a connection, with the way to make one. */
export function ConnectFirst(props: { onOpenSettings: () => void }) {
  return (
    <Note kind="warn">
      Connect to a knowledge service first.{' '}
      <button type="button" class="qf-link" onClick={props.onOpenSettings}>
        Open Settings
      </button>
    </Note>
  );
}
