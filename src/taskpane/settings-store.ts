/**
 * Where the connection settings live. The base URL and the choice of persistence go into the injected
 * (partitioned) storage; the API key too when the analyst chose "remember", otherwise only into this
 * store's memory for the session. Nothing here ever touches Office document settings: those travel
 * inside the workbook we upload.
 */
import type { KeyPersistence, Settings, StorageLike } from './types';
import { fnv1a } from '../fill/fingerprint';

export const STORAGE_KEYS = {
  baseUrl: 'qfill.baseUrl',
  apiKey: 'qfill.apiKey',
  keyPersistence: 'qfill.keyPersistence',
  uploadBlocked: 'qfill.uploadBlocked',
  fillPrefix: 'qfill.fill.',
} as const;

/** Storage that may throw (quota, disabled storage in a locked-down browser) read as "nothing stored". */
export function safeGet(storage: StorageLike, key: string): string | null {
  try {
    return storage.getItem(key);
  } catch {
    return null;
  }
}

export function safeSet(storage: StorageLike, key: string, value: string): boolean {
  try {
    storage.setItem(key, value);
    return true;
  } catch {
    return false;
  }
}

export function safeRemove(storage: StorageLike, key: string): void {
  try {
    storage.removeItem(key);
  } catch {
    /* nothing to remove from a storage that does not work */
  }
}

export interface SettingsStore {
  load(): Settings;
  /** Saves; returns false when the storage refused (the key then lives in memory only). */
  save(settings: Settings): boolean;
}

export function createSettingsStore(storage: StorageLike, defaultBaseUrl: string): SettingsStore {
  let sessionKey = '';
  return {
    load() {
      const persistence: KeyPersistence = safeGet(storage, STORAGE_KEYS.keyPersistence) === 'session' ? 'session' : 'remember';
      const apiKey = persistence === 'remember' ? (safeGet(storage, STORAGE_KEYS.apiKey) ?? sessionKey) : sessionKey;
      return {
        baseUrl: safeGet(storage, STORAGE_KEYS.baseUrl) || defaultBaseUrl,
        apiKey,
        keyPersistence: persistence,
      };
    },
    save(settings) {
      const baseUrl = settings.baseUrl.trim();
      const apiKey = settings.apiKey.trim();
      sessionKey = apiKey;
      let ok = safeSet(storage, STORAGE_KEYS.keyPersistence, settings.keyPersistence);
      ok = (baseUrl && baseUrl !== defaultBaseUrl ? safeSet(storage, STORAGE_KEYS.baseUrl, baseUrl) : (safeRemove(storage, STORAGE_KEYS.baseUrl), true)) && ok;
      if (settings.keyPersistence === 'remember' && apiKey) ok = safeSet(storage, STORAGE_KEYS.apiKey, apiKey) && ok;
      else safeRemove(storage, STORAGE_KEYS.apiKey);
      return ok;
    },
  };
}

/** A short hash of a key: tells keys apart in storage without storing the key a second time. */
export function keyFingerprint(apiKey: string): string {
  return fnv1a(apiKey).toString(36);
}
