/**
 * The open workbook kept across reloads of the workbench page, in this browser's IndexedDB: the file
 * it was opened from and its state now (src/workbench/host/state.ts). Only the workbench page uses it;
 * the task pane's settings and API key stay where the pane keeps them, never in this record (the
 * record holds what Excel would save in the document, and the pane never puts the key there).
 */
import type { HostState } from './host/state';

export interface SavedWorkbook {
  fileName: string;
  /** The bytes the workbook was opened from: the download patches into them. */
  original: Uint8Array;
  state: HostState;
  savedAt: string;
}

const DB = 'qfill-workbench';
const STORE = 'workbooks';
const KEY = 'open';

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

export async function loadSavedWorkbook(): Promise<SavedWorkbook | null> {
  const saved = await withStore<SavedWorkbook | undefined>('readonly', (s) => s.get(KEY));
  return saved && saved.original instanceof Uint8Array && saved.state?.version === 1 ? saved : null;
}

export async function saveWorkbook(workbook: SavedWorkbook): Promise<void> {
  await withStore('readwrite', (s) => s.put(workbook, KEY));
}

export async function forgetSavedWorkbook(): Promise<void> {
  await withStore('readwrite', (s) => s.delete(KEY));
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
