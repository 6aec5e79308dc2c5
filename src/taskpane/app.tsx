/**
 * The task pane: a tab bar over four panes (Fill, Chat, Library, Settings). Panes stay mounted when
 * hidden, so a fill keeps running and nothing typed is lost when the analyst switches tabs.
 */
import { render, type ComponentChildren } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { RetryNotice } from '../api/http';
import type { ApiError } from '../api/errors';
import type { QuestionWithAnswers } from '../api/schemas';
import { ErrorBoundary } from './components/ErrorBoundary';
import { ErrorMessage, Note } from './components/Message';
import { TabBar, panelId, tabId, type TabSpec } from './components/TabBar';
import { classifyUploadRefusal, explainRetry, isForbidden, uploadRefusedReason, type UploadRefusal } from './errors';
import { FillPane } from './panes/FillPane';
import { useLater } from './later';
import { SettingsPane } from './panes/SettingsPane';
import { STORAGE_KEYS, createSettingsStore, keyFingerprint, safeGet, safeRemove, safeSet } from './settings-store';
import { injectStyles } from './styles';
import { themeVariables } from './theme';
import type { AppProps, Settings, TabId, TaskpaneApi } from './types';

export type { AppProps } from './types';

const TABS: TabSpec[] = [
  { id: 'fill', label: 'Fill' },
  { id: 'chat', label: 'Chat' },
  { id: 'library', label: 'Library' },
  { id: 'settings', label: 'Settings' },
];

interface UploadBlock {
  reason: string;
  /** The service said the key is read-only (rather than lacking rights or a licence). */
  readOnly: boolean;
  kind: UploadRefusal;
}

/** A refused upload is remembered per key (by fingerprint), so it survives reopening the pane. */
function readUploadBlock(props: AppProps, apiKey: string): UploadBlock | null {
  const text = safeGet(props.storage, STORAGE_KEYS.uploadBlocked);
  if (!text || !apiKey) return null;
  try {
    const v = JSON.parse(text) as { key?: string; reason?: string; readOnly?: boolean; kind?: UploadRefusal };
    if (v.key !== keyFingerprint(apiKey) || typeof v.reason !== 'string') return null;
    return { reason: v.reason, readOnly: v.readOnly === true, kind: v.kind ?? (v.readOnly ? 'read-only' : 'refused') };
  } catch {
    return null;
  }
}

function pageOrigin(): string {
  const origin = (globalThis as { location?: { origin?: string } }).location?.origin;
  return origin && origin !== 'null' ? origin : '';
}

export function App(props: AppProps) {
  const store = useMemo(() => createSettingsStore(props.storage, props.defaultBaseUrl), [props.storage, props.defaultBaseUrl]);
  const [settings, setSettings] = useState<Settings>(() => store.load());
  const [tab, setTab] = useState<TabId>(() => (settings.apiKey ? (props.initialTab ?? 'fill') : 'settings'));
  const later = useLater();
  const [block, setBlock] = useState<UploadBlock | null>(() => readUploadBlock(props, settings.apiKey));
  const uploadBlocked = block?.reason ?? null;
  const [questions, setQuestions] = useState<QuestionWithAnswers[]>([]);
  /** Grows each time the saved settings are shown to work: panes drop failures that are no longer true. */
  const [connectionEpoch, setConnectionEpoch] = useState(0);
  const [retrying, setRetrying] = useState<string | null>(null);
  const retryTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(retryTimer.current), []);
  /** Shown while the client waits to repeat a call, and gone once the wait is over. */
  const onRetry = (n: RetryNotice) => {
    clearTimeout(retryTimer.current);
    setRetrying(explainRetry(n));
    retryTimer.current = setTimeout(() => setRetrying(null), n.delayMs + 500);
  };

  const { client, clientError } = useMemo((): { client: TaskpaneApi | null; clientError: unknown } => {
    if (!settings.apiKey) return { client: null, clientError: null };
    try {
      return { client: props.createClient({ baseUrl: settings.baseUrl, apiKey: settings.apiKey }, { onRetry }), clientError: null };
    } catch (e) {
      return { client: null, clientError: e };
    }
  }, [settings.baseUrl, settings.apiKey, props.createClient]);

  const save = (next: Settings) => {
    const ok = store.save(next);
    const loaded = store.load();
    setSettings(loaded);
    setBlock(readUploadBlock(props, loaded.apiKey));
    return ok;
  };

  /**
   * An upload was refused: whether a read with the same key works tells a key without upload rights
   * (Chat still works) from a key that is not valid at all (nothing works). Said only after checking.
   */
  const onUploadRefused = async (e: ApiError) => {
    const apiKey = settings.apiKey;
    let readsWork: boolean | null = null;
    if (client && !/read[- ]?only/i.test(e.serverMessage ?? '')) {
      try {
        await client.listRepositoryFiles({ page_size: 1 });
        readsWork = true;
      } catch (probe) {
        readsWork = isForbidden(probe) ? false : null;
      }
    }
    const kind = classifyUploadRefusal(e, readsWork);
    const next: UploadBlock = { reason: uploadRefusedReason(e, kind), readOnly: kind === 'read-only', kind };
    if (store.load().apiKey !== apiKey) return; // the key changed meanwhile: this verdict is about the old one
    setBlock(next);
    safeSet(props.storage, STORAGE_KEYS.uploadBlocked, JSON.stringify({ key: keyFingerprint(apiKey), ...next }));
  };

  /** The saved settings just worked: old failures are no longer true, and a key that "did not work" does. */
  const onConnectionOk = () => {
    setConnectionEpoch((n) => n + 1);
    if (block?.kind === 'invalid') allowUploads();
  };

  const allowUploads = () => {
    setBlock(null);
    safeRemove(props.storage, STORAGE_KEYS.uploadBlocked);
  };

  const openSettings = () => setTab('settings');
  const style = themeVariables(props.theme);

  const panel = (id: TabId, name: string, content: ComponentChildren) => (
    <div role="tabpanel" id={panelId(id)} aria-labelledby={tabId(id)} hidden={tab !== id} class="qf-panel">
      <ErrorBoundary name={name}>{content}</ErrorBoundary>
    </div>
  );

  return (
    <div
      class="qf-root"
      data-theme={props.theme.dark ? 'dark' : 'light'}
      data-office-theme={props.theme.kind ?? (props.theme.dark ? 'dark' : 'light')}
      style={style}
    >
      <TabBar tabs={TABS} selected={tab} onSelect={setTab} />
      {retrying !== null && (
        <div class="qf-panel" style={{ flex: '0 0 auto', paddingBottom: 0 }}>
          <Note kind="warn">{retrying}</Note>
        </div>
      )}
      {clientError !== null && (
        <div class="qf-panel" style={{ flex: '0 0 auto', paddingBottom: 0 }}>
          <ErrorMessage error={clientError} />
        </div>
      )}
      {panel(
        'fill',
        'Fill',
        <FillPane
          client={client}
          workbook={props.workbook}
          storage={props.storage}
          uploadBlocked={uploadBlocked}
          onUploadRefused={onUploadRefused}
          onQuestions={setQuestions}
          onOpenSettings={openSettings}
          onOpenLibrary={() => setTab('library')}
          active={tab === 'fill'}
          connectionEpoch={connectionEpoch}
          {...(props.stallMs !== undefined ? { stallMs: props.stallMs } : {})}
        />,
      )}
      {panel(
        'chat',
        'Chat',
        later ? (
          <later.ChatPane
            client={client}
            workbook={props.workbook}
            questions={questions}
            onOpenSettings={openSettings}
            active={tab === 'chat'}
            connectionEpoch={connectionEpoch}
          />
        ) : (
          <Loading />
        ),
      )}
      {panel(
        'library',
        'Library',
        later ? (
          <later.LibraryPane
            client={client}
            uploadBlocked={uploadBlocked}
            onUploadRefused={onUploadRefused}
            onOpenSettings={openSettings}
            pollMs={props.libraryPollMs ?? 2000}
            active={tab === 'library'}
            connectionEpoch={connectionEpoch}
          />
        ) : (
          <Loading />
        ),
      )}
      {panel(
        'settings',
        'Settings',
        <SettingsPane
          settings={settings}
          onSave={save}
          createClient={props.createClient}
          pageOrigin={pageOrigin()}
          uploadBlocked={uploadBlocked}
          keyReadOnly={block?.readOnly === true}
          onAllowUploads={allowUploads}
          onConnectionOk={onConnectionOk}
          firstRun={!settings.apiKey}
        />,
      )}
    </div>
  );
}

/** A tab whose view is still on its way (it loads right after the first paint). */
function Loading() {
  return <p class="qf-muted">Loading…</p>;
}

/** Renders the task pane into `root` (calling again re-renders with new props, e.g. a theme change). */
export function mountTaskpane(root: HTMLElement, props: AppProps): () => void {
  injectStyles(root.ownerDocument);
  render(<App {...props} />, root);
  return () => render(null, root);
}
