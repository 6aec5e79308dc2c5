/**
 * The add-in's storage. In Office on the web and new Outlook-style hosts, localStorage is partitioned
 * per host page and Microsoft asks add-ins to prefix keys with `Office.context.partitionKey`; where
 * there is no partition key, plain keys. Where localStorage is unavailable (blocked third-party storage),
 * memory: the pane still works, it just forgets when closed.
 */
import { memoryStorage, type StorageLike } from '../excel/undo-store';

export { memoryStorage };

function usable(storage: Storage | null | undefined): storage is Storage {
  if (!storage) return false;
  try {
    const probe = '__qfill_probe__';
    storage.setItem(probe, '1');
    storage.removeItem(probe);
    return true;
  } catch {
    return false;
  }
}

export function partitionedStorage(base: Storage | null | undefined, partitionKey: string | null | undefined): StorageLike {
  if (!usable(base)) return memoryStorage();
  const prefix = partitionKey ? `${partitionKey}/` : '';
  return {
    getItem: (k) => base.getItem(prefix + k),
    setItem: (k, v) => base.setItem(prefix + k, v),
    removeItem: (k) => base.removeItem(prefix + k),
  };
}

/** localStorage itself may throw on access (sandboxed iframes): read it defensively. */
export function browserLocalStorage(win: Window): Storage | null {
  try {
    return win.localStorage;
  } catch {
    return null;
  }
}
