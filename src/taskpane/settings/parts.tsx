/** The pieces of the Settings form: the key field, how long the key is kept, the unencrypted-key question, the status line, uploads. */
import { useState } from 'preact/hooks';
import type { Choice } from '../components/Controls';
import { ErrorMessage, Note } from '../components/Message';
import type { KeyPersistence } from '../types';
import { describeKeyOwner } from './connection-check';
import type { Status } from './use-settings-form';

const PERSISTENCE_CHOICES: Choice<KeyPersistence>[] = [
  { value: 'remember', label: 'On this computer, for this add-in only (never inside the workbook)' },
  { value: 'session', label: 'For this session only (forgotten when the pane closes)' },
];

/** The API key, hidden unless asked to show it; a read-only key says what it cannot do. */
export function KeyField(props: { value: string; onInput: (value: string) => void; readOnly: boolean }) {
  const [showKey, setShowKey] = useState(false);
  return (
    <>
      <label class="qf-field">
        <span>API key</span>
        <input
          class="qf-input"
          // a toggle between two input types; the typings only know one per element
          type={(showKey ? 'text' : 'password') as 'text'}
          name="api_key"
          value={props.value}
          onInput={(e) => props.onInput(e.currentTarget.value)}
          autoComplete="off"
          spellcheck={false}
          aria-describedby={props.readOnly ? 'qf-key-read-only' : undefined}
        />
      </label>
      {props.readOnly && (
        <p id="qf-key-read-only" class="qf-small">
          <span class="qf-badge qf-trust-medium">Read-only key</span> It can ask questions in Chat; the service refuses uploads with it, so Fill and Library
          uploads are disabled.
        </p>
      )}
      <label class="qf-check">
        <input type="checkbox" checked={showKey} onChange={(e) => setShowKey(e.currentTarget.checked)} />
        <span>Show the key</span>
      </label>
    </>
  );
}

export function KeepKey(props: { value: KeyPersistence; onChange: (value: KeyPersistence) => void }) {
  return (
    <fieldset class="qf-fieldset">
      <legend>Keep the key</legend>
      {PERSISTENCE_CHOICES.map((c) => (
        <label key={c.value} class="qf-check">
          <input type="radio" name="key_persistence" value={c.value} checked={props.value === c.value} onChange={() => props.onChange(c.value)} />
          <span>{c.label}</span>
        </label>
      ))}
    </fieldset>
  );
}

/** Asked before the key goes over plain http to another machine. */
export function InsecureConfirm(props: { origin: string; onAgree: () => void; onCancel: () => void }) {
  return (
    <div class="qf-msg qf-msg-warn" role="alertdialog" aria-label="Send the key unencrypted?">
      <p>{props.origin} is not an https address: the API key would travel unencrypted, readable on the way.</p>
      <div class="qf-row">
        <button type="button" class="qf-btn" onClick={props.onAgree}>
          Send the key to {props.origin}
        </button>
        <button type="button" class="qf-btn" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}

/** The one status line: checking, connected (and saved), or why not. */
export function StatusLine(props: { status: Status | null }) {
  const s = props.status;
  if (!s) return null;
  if (s.kind === 'busy') return <Note>{s.action === 'save' ? 'Checking the key with the service before saving…' : 'Checking the connection…'}</Note>;
  if (s.kind === 'ok') {
    return (
      <Note kind="ok">
        {s.saved && <strong>Settings saved.</strong>} {s.text}
        {s.owner && <strong> {describeKeyOwner(s.owner)}</strong>}
      </Note>
    );
  }
  return (
    <>
      {s.saved && <Note kind="warn">Not saved: the service did not accept these settings.</Note>}
      <ErrorMessage error={s.error} />
    </>
  );
}

/** Whether uploads are allowed, and the way to allow them again after a refusal. */
export function UploadsSection(props: { uploadBlocked: string | null; onAllowUploads: () => void }) {
  return (
    <>
      <h3>Uploads</h3>
      {props.uploadBlocked ? (
        <>
          <Note kind="warn">{props.uploadBlocked}</Note>
          <button type="button" class="qf-btn" onClick={props.onAllowUploads}>
            Try uploads again
          </button>
        </>
      ) : (
        <p class="qf-muted qf-small">Uploads are allowed. If the service refuses one (a read-only key), upload buttons are disabled with the reason.</p>
      )}
    </>
  );
}
