/**
 * Where the service is and which key to use. "Test connection" makes one cheap call and explains the
 * outcome in words; the key is remembered in the add-in's partitioned storage or kept for this session.
 */
import { useState } from 'preact/hooks';
import { ApiError } from '../../api/errors';
import type { Choice } from '../components/Controls';
import { ErrorMessage, Note } from '../components/Message';
import { explainError } from '../errors';
import type { ConnectionSettings, KeyPersistence, Settings, TaskpaneApi } from '../types';

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
  /** First run: no key yet. */
  firstRun: boolean;
}

const PERSISTENCE_CHOICES: Choice<KeyPersistence>[] = [
  { value: 'remember', label: 'On this computer, for this add-in only (never inside the workbook)' },
  { value: 'session', label: 'For this session only (forgotten when the pane closes)' },
];

type TestState = { kind: 'idle' } | { kind: 'testing' } | { kind: 'ok'; text: string } | { kind: 'failed'; text: string };

function originOf(url: string, base: string): string | null {
  try {
    return new URL(url, base).origin;
  } catch {
    return null;
  }
}

/** The connection test's failure, with what it most likely means here. */
export function explainConnectionFailure(e: unknown, baseUrl: string, pageOrigin: string): string {
  const text = explainError(e);
  if (e instanceof ApiError && e.kind === 'network') {
    const target = originOf(baseUrl, pageOrigin || 'http://localhost');
    if (target && pageOrigin && target !== pageOrigin && !/CORS/.test(text)) {
      return `${text} The service (${target}) is on a different origin from this pane (${pageOrigin}): either it cannot be reached, or it does not allow this origin (CORS). Open ${target} in a browser to tell which.`;
    }
  }
  if (e instanceof ApiError && e.kind === 'http' && e.status === 404) {
    return `${text} The address answers, but not as a v2 questionnaire service.`;
  }
  return text;
}

/** A sentence when the typed address cannot be a service address; null when it can. */
export function checkBaseUrl(text: string): string | null {
  const value = text.trim();
  if (!value) return 'Enter the address of the service, e.g. https://qfill.example.com.';
  if (!/^https?:\/\//i.test(value)) return `The service address "${value}" must be a full address starting with https:// (or http://).`;
  try {
    const url = new URL(value);
    if (!url.hostname) throw new Error('no host');
  } catch {
    return `The service address "${value}" is not a valid address; use e.g. https://qfill.example.com.`;
  }
  return null;
}

export function SettingsPane(props: SettingsPaneProps) {
  const [baseUrl, setBaseUrl] = useState(props.settings.baseUrl);
  const [apiKey, setApiKey] = useState(props.settings.apiKey);
  const [persistence, setPersistence] = useState<KeyPersistence>(props.settings.keyPersistence);
  const [showKey, setShowKey] = useState(false);
  const [test, setTest] = useState<TestState>({ kind: 'idle' });
  const [saved, setSaved] = useState<null | 'ok' | 'memory'>(null);

  const draft: Settings = { baseUrl: baseUrl.trim(), apiKey: apiKey.trim(), keyPersistence: persistence };
  const dirty =
    draft.baseUrl !== props.settings.baseUrl || draft.apiKey !== props.settings.apiKey || persistence !== props.settings.keyPersistence;
  const mixedContent = pageIsHttps(props.pageOrigin) && /^http:\/\//i.test(draft.baseUrl) && !/^http:\/\/(localhost|127\.0\.0\.1)[:/]?/i.test(draft.baseUrl);

  const [urlProblem, setUrlProblem] = useState<string | null>(null);
  const showReadOnly = props.keyReadOnly && draft.apiKey === props.settings.apiKey;

  const save = (e?: Event) => {
    e?.preventDefault();
    const problem = checkBaseUrl(draft.baseUrl);
    setUrlProblem(problem);
    if (problem) return;
    const ok = props.onSave(draft);
    setSaved(ok ? 'ok' : 'memory');
  };

  const testConnection = async () => {
    const problem = checkBaseUrl(draft.baseUrl);
    setUrlProblem(problem);
    if (problem) {
      setTest({ kind: 'idle' });
      return;
    }
    setTest({ kind: 'testing' });
    try {
      const client = props.createClient(draft);
      const page = await client.listRepositoryFiles({ page_size: 1 });
      setTest({
        kind: 'ok',
        text: `Connected to ${draft.baseUrl || props.pageOrigin}. The key was accepted; the library holds ${page.count} file${page.count === 1 ? '' : 's'}.`,
      });
    } catch (err) {
      setTest({ kind: 'failed', text: explainConnectionFailure(err, draft.baseUrl, props.pageOrigin) });
    }
  };

  return (
    <form onSubmit={save} aria-label="Connection settings">
      <h2>Settings</h2>
      {props.firstRun && (
        <Note>
          Welcome. To fill questionnaires and ask questions, connect to a knowledge service: keep the address below for the
          service on this computer, or enter your organisation's, then paste your API key and save.
        </Note>
      )}
      <label class="qf-field">
        <span>Service address (base URL)</span>
        <input
          class="qf-input"
          type="url"
          name="base_url"
          value={baseUrl}
          onInput={(e) => setBaseUrl(e.currentTarget.value)}
          aria-invalid={urlProblem !== null}
          placeholder={props.pageOrigin}
          autoComplete="url"
          spellcheck={false}
        />
      </label>
      {urlProblem && <ErrorMessage error={urlProblem} />}
      {mixedContent && (
        <Note kind="warn">
          This pane is served over https; a browser blocks calls to an http:// address other than localhost. Use https://.
        </Note>
      )}
      <label class="qf-field">
        <span>API key</span>
        <input
          class="qf-input"
          // a toggle between two input types; the typings only know one per element
          type={(showKey ? 'text' : 'password') as 'text'}
          name="api_key"
          value={apiKey}
          onInput={(e) => setApiKey(e.currentTarget.value)}
          autoComplete="off"
          spellcheck={false}
          aria-describedby={showReadOnly ? 'qf-key-read-only' : undefined}
        />
      </label>
      {showReadOnly && (
        <p id="qf-key-read-only" class="qf-small">
          <span class="qf-badge qf-trust-medium">Read-only key</span> It can ask questions in Chat; the service refuses uploads with it,
          so Fill and Library uploads are disabled.
        </p>
      )}
      <label class="qf-check">
        <input type="checkbox" checked={showKey} onChange={(e) => setShowKey(e.currentTarget.checked)} />
        <span>Show the key</span>
      </label>
      <fieldset class="qf-fieldset">
        <legend>Keep the key</legend>
        {PERSISTENCE_CHOICES.map((c) => (
          <label key={c.value} class="qf-check">
            <input type="radio" name="key_persistence" value={c.value} checked={persistence === c.value} onChange={() => setPersistence(c.value)} />
            <span>{c.label}</span>
          </label>
        ))}
      </fieldset>
      <div class="qf-row">
        <button type="submit" class="qf-btn qf-btn-primary" disabled={!dirty && saved === 'ok'}>
          Save
        </button>
        <button type="button" class="qf-btn" onClick={testConnection} disabled={test.kind === 'testing'}>
          {test.kind === 'testing' ? 'Testing…' : 'Test connection'}
        </button>
      </div>
      {saved === 'ok' && !dirty && <Note kind="ok">Settings saved.</Note>}
      {saved === 'memory' && (
        <Note kind="warn">This computer refused to store the settings; they are kept for this session only.</Note>
      )}
      {test.kind === 'ok' && <Note kind="ok">{test.text}</Note>}
      {test.kind === 'failed' && <ErrorMessage error={test.text} />}
      <h3>Uploads</h3>
      {props.uploadBlocked ? (
        <>
          <Note kind="warn">{props.uploadBlocked}</Note>
          <button type="button" class="qf-btn" onClick={props.onAllowUploads}>
            Try uploads again
          </button>
        </>
      ) : (
        <p class="qf-muted qf-small">
          Uploads are allowed. If the service refuses one (a read-only key), upload buttons are disabled with the reason.
        </p>
      )}
    </form>
  );
}

function pageIsHttps(origin: string): boolean {
  return /^https:/i.test(origin);
}
