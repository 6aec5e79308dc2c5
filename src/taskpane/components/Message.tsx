/** Status lines. Errors are announced (role=alert); progress and results politely (role=status). */
import type { ComponentChildren } from 'preact';
import { presentError } from '../errors';

/** The technical facts of a message (status, method, path, address), folded away until asked for. */
export function Details(props: { children: ComponentChildren }) {
  return (
    <details class="qf-details">
      <summary>Details</summary>
      <code>{props.children}</code>
    </details>
  );
}

/**
 * An error in plain words: the service's own sentence leads, then what it means when the evidence says so;
 * status and path behind "Details". Any pane's error goes through here.
 */
export function ErrorMessage(props: { error: unknown; onDismiss?: () => void; kind?: 'error' | 'warn' }) {
  if (props.error === null || props.error === undefined) return null;
  const p = presentError(props.error);
  return (
    <div class={`qf-msg qf-msg-${props.kind ?? 'error'}`} role="alert">
      <span class="qf-lead">{p.lead}</span>
      {p.hint && <> {p.hint}</>}
      {props.onDismiss && (
        <>
          {' '}
          <button type="button" class="qf-link" onClick={props.onDismiss}>
            Dismiss
          </button>
        </>
      )}
      {p.details && <Details>{p.details}</Details>}
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
