/**
 * The Settings form's state: the fields as typed, the last save or test (shown only while the fields
 * still say what it was about), the address problem, and the analyst's consent to send the key over
 * plain http to another machine. Saving stores the settings only once the service accepted them.
 */
import { useState } from 'preact/hooks';
import type { ConnectionSettings, KeyPersistence, Settings, TaskpaneApi } from '../types';
import { checkBaseUrl, checkConnection, defaultProbe, explainConnectionFailure, isInsecureRemote, originOf, type ConnectionOk } from './connection-check';

export type Status =
  | { kind: 'busy'; action: 'save' | 'test' }
  | ({ kind: 'ok'; saved: boolean } & ConnectionOk)
  /** `saved`: it was a save, refused, so nothing was stored. */
  | { kind: 'failed'; saved: boolean; error: unknown };

export interface SettingsFormInputs {
  settings: Settings;
  onSave: (settings: Settings) => boolean;
  createClient: (settings: ConnectionSettings) => TaskpaneApi;
  pageOrigin: string;
  onConnectionOk?: (() => void) | undefined;
  probeReachable?: ((origin: string) => Promise<boolean>) | undefined;
}

/** What the fields say, as one string: a status is shown only while it is about the fields as they are. */
export const signature = (s: Settings) => `${s.baseUrl}\n${s.apiKey}\n${s.keyPersistence}`;

/** The fields as typed, and the settings they make. */
function useFields(saved: Settings) {
  const [baseUrl, setBaseUrl] = useState(saved.baseUrl);
  const [apiKey, setApiKey] = useState(saved.apiKey);
  const [persistence, setPersistence] = useState<KeyPersistence>(saved.keyPersistence);
  const draft: Settings = { baseUrl: baseUrl.trim(), apiKey: apiKey.trim(), keyPersistence: persistence };
  return { baseUrl, setBaseUrl, apiKey, setApiKey, persistence, setPersistence, draft };
}

/** The last save or test, run with `check`; `memoryOnly` when this computer refused to store saved settings. */
function useConnectionStatus(props: SettingsFormInputs) {
  const [status, setStatus] = useState<{ about: string; status: Status } | null>(null);
  const [memoryOnly, setMemoryOnly] = useState(false);
  const probe = props.probeReachable ?? defaultProbe;

  /** One cheap call with these settings, then (saving) storing them only if it worked; the outcome becomes the status line. */
  const check = async (target: Settings, saved: boolean) => {
    const key = signature(target);
    setStatus({ about: key, status: { kind: 'busy', action: saved ? 'save' : 'test' } });
    try {
      const ok = await checkConnection(props.createClient(target), target.baseUrl || props.pageOrigin);
      if (saved) setMemoryOnly(!props.onSave(target));
      setStatus({ about: key, status: { kind: 'ok', saved, ...ok } });
      if (saved || key === signature(props.settings)) props.onConnectionOk?.();
    } catch (err) {
      setStatus({ about: key, status: { kind: 'failed', saved, error: await explainConnectionFailure(err, target.baseUrl, props.pageOrigin, probe) } });
    }
  };
  return { status, clear: () => setStatus(null), check, memoryOnly };
}

export function useSettingsForm(props: SettingsFormInputs) {
  const fields = useFields(props.settings);
  const connection = useConnectionStatus(props);
  const [urlProblem, setUrlProblem] = useState<{ about: string; text: string } | null>(null);
  /** Waiting for the analyst to agree to send the key over plain http to another machine. */
  const [confirm, setConfirm] = useState<'save' | 'test' | null>(null);
  const [consented, setConsented] = useState<string | null>(null);

  const { draft } = fields;
  const about = signature(draft);
  const insecureOrigin = isInsecureRemote(draft.baseUrl) ? originOf(draft.baseUrl, 'http://localhost') : null;

  /** Checks the address and, for plain http to another machine, the analyst's consent. */
  const ready = (action: 'save' | 'test'): boolean => {
    const problem = checkBaseUrl(draft.baseUrl);
    setUrlProblem(problem ? { about, text: problem } : null);
    if (problem) {
      connection.clear();
      return false;
    }
    if (insecureOrigin && consented !== insecureOrigin) {
      setConfirm(action);
      return false;
    }
    setConfirm(null);
    return true;
  };

  return {
    fields,
    /** The status line for the fields as they are now; null when there is none (or it was about other values). */
    shown: connection.status && connection.status.about === about ? connection.status.status : null,
    savedNow: about === signature(props.settings),
    memoryOnly: connection.memoryOnly,
    urlProblem: urlProblem && urlProblem.about === about ? urlProblem.text : null,
    /** The http origin the key would go to unencrypted, while the analyst is asked whether to. */
    confirming: confirm && insecureOrigin,
    save: () => void (ready('save') && connection.check(draft, true)),
    test: () => void (ready('test') && connection.check(draft, false)),
    agree: () => {
      const action = confirm;
      setConsented(insecureOrigin);
      setConfirm(null);
      if (action) void connection.check(draft, action === 'save');
    },
    cancelConfirm: () => setConfirm(null),
  };
}

export type SettingsForm = ReturnType<typeof useSettingsForm>;
