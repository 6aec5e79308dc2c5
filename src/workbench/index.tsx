/**
 * The workbench (/workbench.html): the real task pane beside a workbook held by the in-memory Excel host,
 * for machines without Excel, demos and the browser tests. Open any .xlsx, fill, select, undo, download.
 * Built only with `--env workbench`; the production task pane bundle never contains it.
 */
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiClient } from '../api/client';
import { createExcelWorkbook } from '../excel';
import { App } from '../taskpane/app';
import { injectStyles } from '../taskpane/styles';
import { browserLocalStorage, partitionedStorage } from '../taskpane/storage';
import { themeFromOffice } from '../taskpane/theme';
import type { AppProps, ClientHooks, ConnectionSettings, TaskpaneApi, Theme } from '../taskpane/types';
import { ExcelHost } from './host/host';
import { installExcelHost } from './host/install';
import { hostToXlsx, loadXlsxIntoHost } from './host/load-xlsx';
import { hostState, restoreHostState, type HostState } from './host/state';
import { debouncedSaver, loadSavedWorkbook, saveOpenedFile, saveWorkbookState } from './saved-workbook';
import { buildDemoQuestionnaire } from './demo-questionnaire';
import { Grid } from './grid';
import { WORKBENCH_CSS } from './styles';
import { SIMULATED_THEMES, THEME_IDS } from './themes';

const THEME_KEY = 'qfill.workbench.officeTheme';

function prefersDark(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-color-scheme: dark)').matches;
}

function simulatedTheme(choice: string, systemDark: boolean): Theme {
  return themeFromOffice(SIMULATED_THEMES[choice]?.office ?? null, systemDark, THEME_IDS);
}

function createClient(settings: ConnectionSettings, hooks?: ClientHooks): TaskpaneApi {
  return new ApiClient({ baseUrl: settings.baseUrl, apiKey: settings.apiKey, ...hooks });
}

interface OpenWorkbook {
  host: ExcelHost;
  /** Set when the workbook was put back from this browser's IndexedDB: the id it is kept under. */
  keptAs?: string;
  props: AppProps;
  /** Changes on every open so the task pane starts fresh for a new workbook. */
  generation: number;
}

let generation = 0;

function openHost(host: ExcelHost): OpenWorkbook {
  installExcelHost(host);
  generation += 1;
  const storage = partitionedStorage(browserLocalStorage(window), host.partitionKey);
  return {
    host,
    generation,
    props: {
      createClient,
      workbook: createExcelWorkbook({ storage }),
      storage,
      theme: simulatedTheme('system', prefersDark()),
      defaultBaseUrl: window.location.origin,
    },
  };
}

async function loadBytes(bytes: Uint8Array, fileName: string, kept?: { state: HostState; openId: string }): Promise<OpenWorkbook> {
  const host = await loadXlsxIntoHost(bytes, {
    fileName,
    // A stable per-file URL, as Excel gives a saved workbook: undo snapshots and resume links key off it.
    url: `workbench://${fileName}`,
    partitionKey: 'workbench',
  });
  if (kept) restoreHostState(host, kept.state);
  return kept ? { ...openHost(host), keptAs: kept.openId } : openHost(host);
}

/** Keeps the open workbook in this browser as it changes, so a reload opens it again as it was. */
function useKeptAcrossReloads(open: OpenWorkbook | null): 'saving' | 'kept' | 'not kept' | null {
  const [kept, setKept] = useState<'saving' | 'kept' | 'not kept' | null>(null);
  useEffect(() => {
    const host = open?.host;
    const original = host?.fileBytes;
    if (!open || !host || !original) return;
    // The file once (it can be megabytes), then its state on every change; a workbook put back after a
    // reload is already kept, under the id it was kept with.
    const opened = open.keptAs ? Promise.resolve(open.keptAs) : saveOpenedFile(host.fileName, original, hostState(host));
    opened.catch(() => setKept('not kept'));
    const saver = debouncedSaver(async () => {
      try {
        await saveWorkbookState(await opened, hostState(host));
        setKept('kept');
      } catch {
        setKept('not kept'); // no IndexedDB (a private window, a locked-down browser): the page still works
      }
    });
    const onChange = () => {
      setKept('saving');
      saver.schedule();
    };
    const flush = () => void saver.flush();
    onChange();
    const stop = host.onChange(onChange);
    window.addEventListener('pagehide', flush);
    document.addEventListener('visibilitychange', flush);
    return () => {
      stop();
      saver.cancel(); // another workbook is opening: it is the one to keep
      window.removeEventListener('pagehide', flush);
      document.removeEventListener('visibilitychange', flush);
    };
  }, [open]);
  return kept;
}

const KEPT_TEXT = { saving: 'Keeping…', kept: 'Kept in this browser', 'not kept': 'Not kept across reloads (no IndexedDB)' };

function download(bytes: Uint8Array, fileName: string): void {
  const blob = new Blob([bytes as BlobPart], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = fileName.replace(/\.xlsx$/i, '') + '-filled.xlsx';
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

/** The browser tests read and prepare cells through the host, as a person would look at the sheet. */
function exposeForTests(host: ExcelHost): void {
  (window as unknown as { qfillWorkbench?: { host: ExcelHost } }).qfillWorkbench = { host };
}

/** Syncs so far: how many round trips Excel would have made (batching keeps this small). */
function SyncCount(props: { host: ExcelHost }) {
  const [syncs, setSyncs] = useState(props.host.stats.syncs);
  useEffect(() => props.host.onChange(() => setSyncs(props.host.stats.syncs)), [props.host]);
  return <span class="wb-stats" data-testid="sync-count">{`Excel syncs: ${syncs}`}</span>;
}

function Workbench() {
  const [open, setOpen] = useState<OpenWorkbook | null>(null);
  const [status, setStatus] = useState('Loading the demo questionnaire…');
  const [error, setError] = useState<string | null>(null);
  const [themeChoice, setThemeChoice] = useState(() => {
    const saved = localStorage.getItem(THEME_KEY) ?? 'system';
    return saved in SIMULATED_THEMES ? saved : 'system';
  });
  const [systemDark, setSystemDark] = useState(prefersDark);
  useEffect(() => {
    const media = typeof window.matchMedia === 'function' ? window.matchMedia('(prefers-color-scheme: dark)') : null;
    const onChange = () => setSystemDark(prefersDark());
    media?.addEventListener?.('change', onChange);
    return () => media?.removeEventListener?.('change', onChange);
  }, []);
  // As Office does: the theme changes while the pane stays open (no reload, nothing typed is lost).
  const theme = simulatedTheme(themeChoice, systemDark);
  const chooseTheme = (choice: string) => {
    localStorage.setItem(THEME_KEY, choice);
    setThemeChoice(choice);
  };

  const load = async (bytes: Uint8Array, name: string, kept?: { state: HostState; openId: string }) => {
    setError(null);
    setStatus(`Opening ${name}…`);
    try {
      const next = await loadBytes(bytes, name, kept);
      exposeForTests(next.host);
      setOpen(next);
      setStatus(name);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      setStatus(open ? open.host.fileName : 'No workbook open');
    }
  };

  // The uploaded file with only the changed cells rewritten (src/xlsx): charts, pivots and dropdowns stay.
  const saveCopy = async (host: ExcelHost) => {
    setError(null);
    try {
      const out = await hostToXlsx(host);
      download(out.bytes, host.fileName);
      setStatus(out.notCarried.length ? `${host.fileName}: downloaded without ${out.notCarried.join(', ')}` : host.fileName);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  const kept = useKeptAcrossReloads(open);
  // The workbook open before the reload, as it was; else the demo questionnaire.
  useEffect(() => {
    void loadSavedWorkbook()
      .catch(() => null)
      .then((saved) =>
        saved ? load(saved.original, saved.fileName, saved) : buildDemoQuestionnaire().then((bytes) => load(bytes, 'demo-questionnaire.xlsx')),
      );
  }, []);

  const onFile = async (event: Event) => {
    const input = event.currentTarget as HTMLInputElement;
    const file = input.files?.[0];
    if (!file) return;
    await load(new Uint8Array(await file.arrayBuffer()), file.name);
    input.value = '';
  };

  return (
    <div class="wb-root" data-theme={theme.dark ? 'dark' : 'light'} data-office-theme={theme.kind}>
      <header class="wb-toolbar">
        <strong>Workbench</strong>
        <label class="wb-button">
          Open .xlsx…
          <input type="file" accept=".xlsx,.xlsm" data-testid="open-file" onChange={onFile} hidden />
        </label>
        <button type="button" class="wb-button" onClick={() => void buildDemoQuestionnaire().then((b) => load(b, 'demo-questionnaire.xlsx'))}>
          Demo questionnaire
        </button>
        <button type="button" class="wb-button" disabled={!open} onClick={() => open && void saveCopy(open.host)}>
          Download .xlsx
        </button>
        <label class="wb-theme">
          Office theme{' '}
          <select data-testid="office-theme" value={themeChoice} onChange={(e) => chooseTheme(e.currentTarget.value)}>
            {Object.entries(SIMULATED_THEMES).map(([value, t]) => (
              <option key={value} value={value}>
                {t.label}
              </option>
            ))}
          </select>
        </label>
        <span class="wb-status" data-testid="workbook-name">
          {status}
        </span>
        {kept ? (
          <span class="wb-kept" data-testid="kept" data-state={kept}>
            {KEPT_TEXT[kept]}
          </span>
        ) : null}
        {open ? <SyncCount host={open.host} /> : null}
      </header>
      {error ? (
        <p role="alert" class="wb-error">
          {error}
        </p>
      ) : null}
      <main class="wb-main">
        <section class="wb-workbook" aria-label="Workbook">
          {open ? <Grid host={open.host} /> : null}
        </section>
        <aside class="wb-pane" aria-label="Task pane">
          {open ? <App key={open.generation} {...open.props} theme={theme} /> : null}
        </aside>
      </main>
    </div>
  );
}

const root = document.getElementById('workbench');
if (root) {
  injectStyles(document);
  const style = document.createElement('style');
  style.textContent = WORKBENCH_CSS;
  document.head.append(style);
  render(<Workbench />, root);
}
