/**
 * Where the service is and which key to use. Saving checks the key with one cheap call first and stores
 * it only when the service accepts it (a refused key never replaces a working one); "Test connection"
 * does the same without saving. Where the service says whose key it is (extension "keys.current"), the
 * result names the organisation and user. One status line at a time, about what is in the fields now:
 * editing them retires the old result.
 */
import { useState } from 'preact/hooks';
import { ApiError } from '../../api/errors';
import { EXTENSION, type KeyIdentity } from '../../api/schemas';
import type { Choice } from '../components/Controls';
import { ErrorMessage, Note } from '../components/Message';
import { ExplainedError, presentError } from '../errors';
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
  /** The saved settings just worked (saved and checked, or tested as saved): panes drop their old failures. */
  onConnectionOk?: () => void;
  /** First run: no key yet. */
  firstRun: boolean;
  /** Whether anything answers at an origin, CORS aside (default: a no-cors fetch). Tells CORS from "down". */
  probeReachable?: (origin: string) => Promise<boolean>;
}

const PERSISTENCE_CHOICES: Choice<KeyPersistence>[] = [
  { value: 'remember', label: 'On this computer, for this add-in only (never inside the workbook)' },
  { value: 'session', label: 'For this session only (forgotten when the pane closes)' },
];

type Status =
  | { kind: 'busy'; action: 'save' | 'test' }
  | { kind: 'ok'; saved: boolean; text: string; owner?: KeyIdentity }
  /** `saved`: it was a save, refused, so nothing was stored. */
  | { kind: 'failed'; saved: boolean; error: unknown };

function originOf(url: string, base: string): string | null {
  try {
    return new URL(url, base).origin;
  } catch {
    return null;
  }
}

/** A no-cors request resolves (opaquely) whenever something answers, whatever its CORS headers. */
async function defaultProbe(origin: string): Promise<boolean> {
  try {
    await fetch(origin, { mode: 'no-cors', cache: 'no-store' });
    return true;
  } catch {
    return false;
  }
}

/**
 * The connection test's failure with what it means here, said only when the evidence supports it: a
 * cross-origin service that answers a no-cors probe but not our call does not allow this origin (CORS);
 * one that answers nothing is unreachable (down, wrong address, untrusted certificate), not CORS.
 */
export async function explainConnectionFailure(
  e: unknown,
  baseUrl: string,
  pageOrigin: string,
  probe: (origin: string) => Promise<boolean> = defaultProbe,
): Promise<unknown> {
  if (!(e instanceof ApiError)) return e;
  const p = presentError(e);
  if (e.kind === 'network') {
    const target = originOf(baseUrl, pageOrigin || 'http://localhost');
    const crossOrigin = !!(target && pageOrigin && target !== pageOrigin);
    if (crossOrigin && target && (await probe(target))) {
      return new ExplainedError({
        ...p,
        hint: `The service at ${target} answers, but does not allow this pane's origin (${pageOrigin}) to call it (CORS): its administrator must allow it (qfill serve --cors-origin ${pageOrigin}).`,
      });
    }
    return new ExplainedError({
      ...p,
      hint: 'Nothing answered there: check the address, that the service runs, and that this computer trusts its certificate.',
    });
  }
  if (e.kind === 'http' && e.status === 404) {
    return new ExplainedError({ ...p, hint: 'The address answers, but not as a v2 questionnaire service: check the base URL.' });
  }
  return e;
}

/** Whose key it is, in the analyst's words: "Alice Smith (repository manager) in Acme". */
export function describeKeyOwner(k: KeyIdentity): string {
  const who = `This key is ${k.user.name}'s (${k.user.role.replace(/_/g, ' ')}) in ${k.organization.name}`;
  return k.read_only ? `${who}, read-only: it can ask questions but not upload.` : `${who}.`;
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

/** An http:// address on another machine: a key sent there travels unencrypted. */
export function isInsecureRemote(text: string): boolean {
  try {
    const url = new URL(text.trim());
    if (url.protocol !== 'http:') return false;
    const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    return !(host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\./.test(host));
  } catch {
    return false;
  }
}

const signature = (s: Settings) => `${s.baseUrl}\n${s.apiKey}\n${s.keyPersistence}`;

export function SettingsPane(props: SettingsPaneProps) {
  const [baseUrl, setBaseUrl] = useState(props.settings.baseUrl);
  const [apiKey, setApiKey] = useState(props.settings.apiKey);
  const [persistence, setPersistence] = useState<KeyPersistence>(props.settings.keyPersistence);
  const [showKey, setShowKey] = useState(false);
  /** The last save or test, and the fields it was about: shown only while the fields still say that. */
  const [status, setStatus] = useState<{ about: string; status: Status } | null>(null);
  const [memoryOnly, setMemoryOnly] = useState(false);
  const [urlProblem, setUrlProblem] = useState<{ about: string; text: string } | null>(null);
  /** Waiting for the analyst to agree to send the key over plain http to another machine. */
  const [confirm, setConfirm] = useState<'save' | 'test' | null>(null);
  const [consented, setConsented] = useState<string | null>(null);

  const draft: Settings = { baseUrl: baseUrl.trim(), apiKey: apiKey.trim(), keyPersistence: persistence };
  const about = signature(draft);
  const savedNow = about === signature(props.settings);
  const shown = status && status.about === about ? status.status : null;
  const busy = shown?.kind === 'busy';
  const mixedContent = pageIsHttps(props.pageOrigin) && isInsecureRemote(draft.baseUrl);
  const insecureOrigin = isInsecureRemote(draft.baseUrl) ? originOf(draft.baseUrl, 'http://localhost') : null;
  const showReadOnly = props.keyReadOnly && draft.apiKey === props.settings.apiKey;
  const probe = props.probeReachable ?? defaultProbe;

  /** One cheap call with these settings, then (saving) storing them only if it worked; the outcome becomes the status line. */
  const check = async (target: Settings, saved: boolean) => {
    const key = signature(target);
    setStatus({ about: key, status: { kind: 'busy', action: saved ? 'save' : 'test' } });
    try {
      const client = props.createClient(target);
      const page = await client.listRepositoryFiles({ page_size: 1 });
      // A plain v2 service has no GET /extensions/ (404): then no engine and no owner, nothing else lost.
      const ext = await client.getExtensions().catch(() => undefined);
      const a = ext?.answering as { model?: string } | undefined;
      const owner = ext?.extensions.includes(EXTENSION.keysCurrent) ? await client.getCurrentKey().catch(() => undefined) : undefined;
      const text = `Connected to ${target.baseUrl || props.pageOrigin}: the key was accepted; the library holds ${page.count} file${page.count === 1 ? '' : 's'}.${a ? ` Answers by ${a.model ?? 'extraction, no language model'}.` : ''}`;
      if (saved) setMemoryOnly(!props.onSave(target));
      setStatus({ about: key, status: { kind: 'ok', saved, text, owner } });
      if (saved || key === signature(props.settings)) props.onConnectionOk?.();
    } catch (err) {
      setStatus({ about: key, status: { kind: 'failed', saved, error: await explainConnectionFailure(err, target.baseUrl, props.pageOrigin, probe) } });
    }
  };

  /** Checks the address and, for plain http to another machine, the analyst's consent. */
  const ready = (action: 'save' | 'test'): boolean => {
    const problem = checkBaseUrl(draft.baseUrl);
    setUrlProblem(problem ? { about, text: problem } : null);
    if (problem) {
      setStatus(null);
      return false;
    }
    if (insecureOrigin && consented !== insecureOrigin) {
      setConfirm(action);
      return false;
    }
    setConfirm(null);
    return true;
  };

  const save = (e?: Event) => {
    e?.preventDefault();
    if (!ready('save')) return;
    doSave();
  };
  const doSave = () => void check(draft, true);
  const testConnection = () => {
    if (!ready('test')) return;
    void check(draft, false);
  };
  const agree = () => {
    const action = confirm;
    setConsented(insecureOrigin);
    setConfirm(null);
    if (action === 'save') doSave();
    else if (action === 'test') void check(draft, false);
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
          aria-invalid={urlProblem !== null && urlProblem.about === about}
          placeholder={props.pageOrigin}
          autoComplete="url"
          spellcheck={false}
        />
      </label>
      {urlProblem && urlProblem.about === about && <ErrorMessage error={urlProblem.text} />}
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
        <button type="submit" class="qf-btn qf-btn-primary" disabled={busy || (savedNow && shown?.kind === 'ok' && shown.saved)}>
          {shown?.kind === 'busy' && shown.action === 'save' ? 'Saving…' : 'Save'}
        </button>
        <button type="button" class="qf-btn" onClick={testConnection} disabled={busy}>
          {shown?.kind === 'busy' && shown.action === 'test' ? 'Testing…' : 'Test connection'}
        </button>
      </div>
      {confirm && insecureOrigin && (
        <div class="qf-msg qf-msg-warn" role="alertdialog" aria-label="Send the key unencrypted?">
          <p>{insecureOrigin} is not an https address: the API key would travel unencrypted, readable on the way.</p>
          <div class="qf-row">
            <button type="button" class="qf-btn" onClick={agree}>
              Send the key to {insecureOrigin}
            </button>
            <button type="button" class="qf-btn" onClick={() => setConfirm(null)}>
              Cancel
            </button>
          </div>
        </div>
      )}
      {shown?.kind === 'busy' && (
        <Note>{shown.action === 'save' ? 'Checking the key with the service before saving…' : 'Checking the connection…'}</Note>
      )}
      {shown?.kind === 'ok' && (
        <Note kind="ok">
          {shown.saved && <strong>Settings saved.</strong>} {shown.text}
          {shown.owner && <strong> {describeKeyOwner(shown.owner)}</strong>}
        </Note>
      )}
      {shown?.kind === 'failed' && (
        <>
          {shown.saved && <Note kind="warn">Not saved: the service did not accept these settings.</Note>}
          <ErrorMessage error={shown.error} />
        </>
      )}
      {memoryOnly && savedNow && (
        <Note kind="warn">This computer refused to store the settings; they are kept for this session only.</Note>
      )}
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
