/**
 * A confirm-or-cancel row whose buttons wait while the action runs: the confirm button says what is
 * happening ("Saving…", "Deleting…") and neither can be pressed twice. The Answers view's edits and the
 * Library's Delete share it.
 */
export function BusyButtons(props: {
  busy: boolean;
  /** What the confirm button says, and while busy. */
  label: string;
  busyLabel: string;
  /** A form's submit button (the form's onSubmit acts), else a button calling `onConfirm`. */
  submit?: boolean;
  onConfirm?: () => void;
  onCancel: () => void;
  primary?: boolean;
}) {
  return (
    <div class="qf-row">
      <button
        type={props.submit ? 'submit' : 'button'}
        class={props.primary ? 'qf-btn qf-btn-primary' : 'qf-btn'}
        onClick={props.submit ? undefined : props.onConfirm}
        disabled={props.busy}
      >
        {props.busy ? props.busyLabel : props.label}
      </button>
      <button type="button" class="qf-btn" onClick={props.onCancel} disabled={props.busy}>
        Cancel
      </button>
    </div>
  );
}
