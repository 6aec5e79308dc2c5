/**
 * The task pane: a tab bar over four panes (Fill, Chat, Library, Settings). Panes stay mounted when
 * hidden, so a fill keeps running and nothing typed is lost when the analyst switches tabs. The
 * connection's state (the client, its retry notice, a refused upload) is in src/taskpane/connection.
 */
import { render, type ComponentChildren } from 'preact';
import { useMemo, useState } from 'preact/hooks';
import type { QuestionWithAnswers } from '../api/schemas';
import { ErrorBoundary } from './components/ErrorBoundary';
import { ErrorMessage, Note } from './components/Message';
import { TabBar, panelId, tabId, type TabSpec } from './components/TabBar';
import { useClient, useRetryNotice, useUploadBlock } from './connection/hooks';
import { FillPane } from './panes/FillPane';
import { useLater } from './later';
import { SettingsPane } from './panes/SettingsPane';
import { createSettingsStore } from './settings-store';
import { injectStyles } from './styles';
import { themeVariables } from './theme';
import type { AppProps, Settings, TabId } from './types';

export type { AppProps } from './types';

const TABS: TabSpec[] = [
  { id: 'fill', label: 'Fill' },
  { id: 'chat', label: 'Chat' },
  { id: 'library', label: 'Library' },
  { id: 'settings', label: 'Settings' },
];

function pageOrigin(): string {
  const origin = (globalThis as { location?: { origin?: string } }).location?.origin;
  return origin && origin !== 'null' ? origin : '';
}

export function App(props: AppProps) {
  const store = useMemo(() => createSettingsStore(props.storage, props.defaultBaseUrl), [props.storage, props.defaultBaseUrl]);
  const [settings, setSettings] = useState<Settings>(() => store.load());
  const [tab, setTab] = useState<TabId>(() => (settings.apiKey ? (props.initialTab ?? 'fill') : 'settings'));
  const later = useLater();
  const [retrying, onRetry] = useRetryNotice();
  const { client, clientError } = useClient(settings, props.createClient, onRetry);
  const uploads = useUploadBlock(props.storage, settings, store, client);
  const uploadBlocked = uploads.block?.reason ?? null;
  const [questions, setQuestions] = useState<QuestionWithAnswers[]>([]);
  /** Grows each time the saved settings are shown to work: panes drop failures that are no longer true. */
  const [connectionEpoch, setConnectionEpoch] = useState(0);

  const save = (next: Settings) => {
    const ok = store.save(next);
    const loaded = store.load();
    setSettings(loaded);
    uploads.reload(loaded.apiKey);
    return ok;
  };

  /** The saved settings just worked: old failures are no longer true, and a key that "did not work" does. */
  const onConnectionOk = () => {
    setConnectionEpoch((n) => n + 1);
    uploads.connectionOk();
  };

  const openSettings = () => setTab('settings');
  /** What every pane that calls the service is given. */
  const connection = { client, onOpenSettings: openSettings, connectionEpoch };
  const panel = (id: TabId, name: string, content: ComponentChildren) => (
    <Panel id={id} name={name} hidden={tab !== id}>
      {content}
    </Panel>
  );

  return (
    <div
      class="qf-root"
      data-theme={props.theme.dark ? 'dark' : 'light'}
      data-office-theme={props.theme.kind ?? (props.theme.dark ? 'dark' : 'light')}
      style={themeVariables(props.theme)}
    >
      <TabBar tabs={TABS} selected={tab} onSelect={setTab} />
      <ConnectionNotices retrying={retrying} clientError={clientError} />
      {panel(
        'fill',
        'Fill',
        <FillPane
          {...connection}
          workbook={props.workbook}
          storage={props.storage}
          uploadBlocked={uploadBlocked}
          onUploadRefused={uploads.refused}
          onQuestions={setQuestions}
          onOpenLibrary={() => setTab('library')}
          active={tab === 'fill'}
          {...(props.stallMs !== undefined ? { stallMs: props.stallMs } : {})}
        />,
      )}
      {panel('chat', 'Chat', later ? <later.ChatPane {...connection} workbook={props.workbook} questions={questions} active={tab === 'chat'} /> : <Loading />)}
      {panel(
        'library',
        'Library',
        later ? (
          <later.LibraryPane
            {...connection}
            uploadBlocked={uploadBlocked}
            onUploadRefused={uploads.refused}
            pollMs={props.libraryPollMs ?? 2000}
            active={tab === 'library'}
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
          keyReadOnly={uploads.block?.readOnly === true}
          onAllowUploads={uploads.allow}
          onConnectionOk={onConnectionOk}
          firstRun={!settings.apiKey}
        />,
      )}
    </div>
  );
}

/** Above every tab: while the client waits to repeat a call, and when the saved settings cannot make a client. */
function ConnectionNotices(props: { retrying: string | null; clientError: unknown }) {
  return (
    <>
      {props.retrying !== null && (
        <div class="qf-panel" style={{ flex: '0 0 auto', paddingBottom: 0 }}>
          <Note kind="warn">{props.retrying}</Note>
        </div>
      )}
      {props.clientError !== null && (
        <div class="qf-panel" style={{ flex: '0 0 auto', paddingBottom: 0 }}>
          <ErrorMessage error={props.clientError} />
        </div>
      )}
    </>
  );
}

/** One tab's panel: hidden rather than unmounted, and a failure inside it stays inside it. */
function Panel(props: { id: TabId; name: string; hidden: boolean; children: ComponentChildren }) {
  return (
    <div role="tabpanel" id={panelId(props.id)} aria-labelledby={tabId(props.id)} hidden={props.hidden} class="qf-panel">
      <ErrorBoundary name={props.name}>{props.children}</ErrorBoundary>
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
