/**
 * Starting the task pane inside Office: wait for Office.js, check the host is Excel, build the real
 * storage and theme, mount. Separate from index.tsx (which binds the real Excel adapter and client) so
 * that it can be tested with a stand-in `Office`.
 */
import { mountTaskpane } from './app';
import { browserLocalStorage, partitionedStorage } from './storage';
import { injectStyles } from './styles';
import { readTheme, watchTheme } from './theme';
import type { AppProps, ClientHooks, ConnectionSettings, StorageLike, TaskpaneApi } from './types';
import type { WorkbookAdapter } from '../excel/types';

export const NOT_IN_EXCEL =
  'This page is the Questionnaire Filler task pane and only works inside Excel. Open it from Excel ' +
  '(Home tab, Questionnaire group, Fill Questionnaire), or, to try it without Excel, open the workbench page that `npm start` prints.';

/** A static message in place of the pane, styled like it; text only. */
export function showMessage(root: HTMLElement, title: string, body: string): void {
  const doc = root.ownerDocument;
  injectStyles(doc);
  const wrap = doc.createElement('div');
  wrap.className = 'qf-root';
  const panel = doc.createElement('div');
  panel.className = 'qf-panel';
  panel.setAttribute('role', 'alert');
  const h = doc.createElement('h2');
  h.textContent = title;
  const p = doc.createElement('p');
  p.textContent = body;
  panel.append(h, p);
  wrap.append(panel);
  root.replaceChildren(wrap);
}

interface OfficeLike {
  onReady(callback: (info: { host: unknown; platform: unknown }) => void): unknown;
  HostType: { Excel: unknown };
  context?: { partitionKey?: string; officeTheme?: object };
}

export interface BootDeps {
  /** Gets the pane's (partitioned) storage, so the adapter's undo snapshots live beside the pane's settings. */
  createWorkbook: (storage: StorageLike) => WorkbookAdapter;
  createClient: (settings: ConnectionSettings, hooks?: ClientHooks) => TaskpaneApi;
}

type BootWindow = Window & { Office?: OfficeLike };

/** Mounts into `#app` once Office is ready in Excel; otherwise explains. Returns nothing: Office owns the page. */
export function bootTaskpane(win: BootWindow, deps: BootDeps): void {
  const root = win.document.getElementById('app');
  if (!root) return;
  const office = win.Office;
  if (!office || typeof office.onReady !== 'function') {
    showMessage(root, 'Open this in Excel', `${NOT_IN_EXCEL} (Office.js did not load: check the network connection.)`);
    return;
  }
  void office.onReady((info) => {
    if (info.host !== office.HostType.Excel) {
      showMessage(root, 'Open this in Excel', NOT_IN_EXCEL);
      return;
    }
    const storage = partitionedStorage(browserLocalStorage(win), office.context?.partitionKey);
    let workbook: WorkbookAdapter;
    try {
      workbook = deps.createWorkbook(storage);
    } catch (e) {
      showMessage(root, 'The workbook cannot be opened', e instanceof Error ? e.message : String(e));
      return;
    }
    const props: AppProps = {
      createClient: deps.createClient,
      workbook,
      storage,
      theme: readTheme(win),
      // The local service serves this page and the API on one origin: no CORS by default.
      defaultBaseUrl: win.location.origin,
    };
    mountTaskpane(root, props);
    // Follow Office's theme as it changes (where the host tells us) and the system's when Office gives none.
    watchTheme(win as Parameters<typeof watchTheme>[0], () => mountTaskpane(root, { ...props, theme: readTheme(win) }));
  });
}
