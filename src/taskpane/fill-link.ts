/**
 * The link between an open workbook and its questionnaire on the service, kept in the add-in's own
 * storage keyed by the workbook's document key, so that reopening the pane finds a fill in progress.
 * Not secret, but kept out of document settings: writing those clears Excel's undo stack.
 */
import type { FillLink, LinkStore } from '../fill/session';
import { STORAGE_KEYS, safeGet, safeRemove, safeSet } from './settings-store';
import type { StorageLike } from './types';

export type { FillLink };

const keyOf = (documentKey: string) => `${STORAGE_KEYS.fillPrefix}${documentKey}`;

export function readFillLink(storage: StorageLike, documentKey: string): FillLink | null {
  const text = safeGet(storage, keyOf(documentKey));
  if (!text) return null;
  try {
    // Our own storage: only the id must be right for the link to mean anything.
    const value = JSON.parse(text) as FillLink;
    if (typeof value.questionnaireId !== 'number' || !Number.isSafeInteger(value.questionnaireId)) return null;
    return { ...value, startedAt: typeof value.startedAt === 'string' ? value.startedAt : new Date(0).toISOString() };
  } catch {
    return null; // a damaged entry is as good as none: the analyst can fill again
  }
}

export function writeFillLink(storage: StorageLike, documentKey: string, link: FillLink): void {
  safeSet(storage, keyOf(documentKey), JSON.stringify(link));
}

export function clearFillLink(storage: StorageLike, documentKey: string): void {
  safeRemove(storage, keyOf(documentKey));
}

/** The session's link store for the open workbook (its key is asked for once). */
export function fillLinkStore(storage: StorageLike, documentKey: () => Promise<string>): LinkStore {
  let key: Promise<string> | null = null;
  const k = () => (key ??= documentKey());
  return {
    read: async () => readFillLink(storage, await k()),
    write: async (link) => writeFillLink(storage, await k(), link),
    clear: async () => clearFillLink(storage, await k()),
  };
}
