/**
 * Where the service is and which key to use. Saving checks the key with one cheap call first and stores
 * it only when the service accepts it (a refused key never replaces a working one); "Test connection"
 * does the same without saving. Where the service says whose key it is (extension "keys.current"), the
 * result names the organisation and user. One status line at a time, about what is in the fields now:
 * editing them retires the old result. Its parts are in src/taskpane/settings: the checks, the form's
 * state, and the pieces it renders.
 */
import type { ConnectionSettings, Settings, TaskpaneApi } from '../types';
import { ErrorMessage, Note } from '../components/Message';
import { isInsecureRemote, pageIsHttps } from '../settings/connection-check';
import { InsecureConfirm, KeepKey, KeyField, StatusLine, UploadsSection } from '../settings/parts';
import { useSettingsForm } from '../settings/use-settings-form';

export interface SettingsPaneProps {
  settings: Settings;
  onSave: (settings: Settings) => boolean;
  createClient: (settings: ConnectionSettings) => TaskpaneApi;
  /** The page's own origin, to tell a cross-origin (CORS) problem from an unreachable service. */
  pageOrigin: string;
  /** Set after the service refused an upload: why uploads are disabled. */
  uploadBlocked: string | null;
  /** The service refused an upload saying the saved key is read-only. */
  keyReadOnly: boolean;
  onAllowUploads: () => void;
  /** The saved settings just worked (saved and checked, or tested as saved): panes drop their old failures. */
  onConnectionOk?: () => void;
  /** First run: no key yet. */
  firstRun: boolean;
  /** Whether anything answers at an origin, CORS aside (default: a no-cors fetch). Tells CORS from "down". */
  probeReachable?: (origin: string) => Promise<boolean>;
}

export function SettingsPane(props: SettingsPaneProps) {
  const form = useSettingsForm(props);
  const { fields, shown } = form;
  const busy = shown?.kind === 'busy';
  const mixedContent = pageIsHttps(props.pageOrigin) && isInsecureRemote(fields.draft.baseUrl);
  const save = (e?: Event) => {
    e?.preventDefault();
    form.save();
  };

  return (
    <form onSubmit={save} aria-label="Connection settings">
      <h2>Settings</h2>
      {props.firstRun && (
        <Note>
          Welcome. To fill questionnaires and ask questions, connect to a knowledge service: keep the address below for the service on this computer, or enter
          your organisation's, then paste your API key and save.
        </Note>
      )}
      <label class="qf-field">
        <span>Service address (base URL)</span>
        <input
          class="qf-input"
          type="url"
          name="base_url"
          value={fields.baseUrl}
          onInput={(e) => fields.setBaseUrl(e.currentTarget.value)}
          aria-invalid={form.urlProblem !== null}
          placeholder={props.pageOrigin}
          autoComplete="url"
          spellcheck={false}
        />
      </label>
      {form.urlProblem && <ErrorMessage error={form.urlProblem} />}
      {mixedContent && (
        <Note kind="warn">This pane is served over https; a browser blocks calls to an http:// address other than localhost. Use https://.</Note>
      )}
      <KeyField value={fields.apiKey} onInput={fields.setApiKey} readOnly={props.keyReadOnly && fields.draft.apiKey === props.settings.apiKey} />
      <KeepKey value={fields.persistence} onChange={fields.setPersistence} />
      <div class="qf-row">
        <button type="submit" class="qf-btn qf-btn-primary" disabled={busy || (form.savedNow && shown?.kind === 'ok' && shown.saved)}>
          {shown?.kind === 'busy' && shown.action === 'save' ? 'Saving…' : 'Save'}
        </button>
        <button type="button" class="qf-btn" onClick={form.test} disabled={busy}>
          {shown?.kind === 'busy' && shown.action === 'test' ? 'Testing…' : 'Test connection'}
        </button>
      </div>
      {form.confirming && <InsecureConfirm origin={form.confirming} onAgree={form.agree} onCancel={form.cancelConfirm} />}
      <StatusLine status={shown} />
      {form.memoryOnly && form.savedNow && <Note kind="warn">This computer refused to store the settings; they are kept for this session only.</Note>}
      <UploadsSection uploadBlocked={props.uploadBlocked} onAllowUploads={props.onAllowUploads} />
    </form>
  );
}
