/**
 * The open workbook kept across reloads of the workbench page, in this browser's IndexedDB: the file
 * it was opened from and its state now (src/workbench/host/state.ts). Only the workbench page uses it;
 * the task pane's settings and API key stay where the pane keeps them, never in this record (the
 * record holds what Excel would save in the document, and the pane never puts the key there).
 */
import type { HostState } from './host/state';

export interface SavedWorkbook {
  /** Which opening of a file this is: the states saved since carry it. */
  openId: string;
  fileName: string;
  /** The bytes the workbook was opened from: the download patches into them. */
  original: Uint8Array;
  state: HostState;
  savedAt: string;
}

/** The file is written once when it is opened, the state on every change: `openId` ties them together. */
interface SavedFile {
  openId: string;
  fileName: string;
  original: Uint8Array;
}

interface SavedState {
  openId: string;
  state: HostState;
  savedAt: string;
}

const DB = 'qfill-workbench';
const STORE = 'workbooks';
const FILE = 'file';
const STATE = 'state';

function openDb(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    if (typeof indexedDB === 'undefined') return reject(new Error('This browser has no IndexedDB.'));
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB would not open.'));
  });
}

async function withStore<T>(mode: IDBTransactionMode, f: (store: IDBObjectStore) => IDBRequest): Promise<T> {
  const db = await openDb();
  try {
    return await new Promise<T>((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const request = f(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(request.result as T);
      tx.onerror = () => reject(tx.error ?? new Error('IndexedDB refused the request.'));
      tx.onabort = () => reject(tx.error ?? new Error('IndexedDB aborted the request.'));
    });
  } finally {
    db.close();
  }
}

/** The workbook open when the page was left, with its state then; null when none (or its state is of another file). */
export async function loadSavedWorkbook(): Promise<SavedWorkbook | null> {
  const file = await withStore<SavedFile | undefined>('readonly', (s) => s.get(FILE));
  const state = await withStore<SavedState | undefined>('readonly', (s) => s.get(STATE));
  if (!file || !(file.original instanceof Uint8Array) || !state || state.openId !== file.openId || state.state?.version !== 1) return null;
  return { openId: file.openId, fileName: file.fileName, original: file.original, state: state.state, savedAt: state.savedAt };
}

/** Keeps a newly opened file (its bytes, once) with its first state, in one transaction; returns the id its states go under. */
export async function saveOpenedFile(fileName: string, original: Uint8Array, state: HostState): Promise<string> {
  const openId = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  await withStore('readwrite', (s) => {
    s.put({ openId, fileName, original } satisfies SavedFile, FILE);
    return s.put({ openId, state, savedAt: new Date().toISOString() } satisfies SavedState, STATE);
  });
  return openId;
}

export async function saveWorkbookState(openId: string, state: HostState): Promise<void> {
  await withStore('readwrite', (s) => s.put({ openId, state, savedAt: new Date().toISOString() } satisfies SavedState, STATE));
}

/**
 * Calls `save` at most once per `delayMs` after changes stop coming (a fill syncs many times), and
 * at once on `flush` (the page is hidden); `cancel` drops a pending save (another workbook was opened).
 */
export function debouncedSaver(save: () => Promise<void>, delayMs = 300): { schedule(): void; flush(): Promise<void>; cancel(): void } {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running: Promise<void> = Promise.resolve();
  const run = () => {
    timer = null;
    running = running.then(save, save);
    return running;
  };
  return {
    schedule() {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => void run(), delayMs);
    },
    flush() {
      if (!timer) return running;
      clearTimeout(timer);
      return run();
    },
    cancel() {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
