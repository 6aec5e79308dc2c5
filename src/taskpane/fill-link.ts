/**
 * The link between an open workbook and its questionnaire on the service, kept in the add-in's own
 * storage keyed by the workbook's document key, so that reopening the pane resumes a fill in progress.
 * Not secret, but kept out of document settings: writing those clears Excel's undo stack.
 */
import { STORAGE_KEYS, safeGet, safeRemove, safeSet } from './settings-store';
import type { StorageLike } from './types';

export interface FillLink {
  questionnaireId: number;
  startedAt: string;
  /** Set once answers were written into the workbook, so a reopened pane does not write them twice. */
  writtenAt?: string;
}

const keyOf = (documentKey: string) => `${STORAGE_KEYS.fillPrefix}${documentKey}`;

export function readFillLink(storage: StorageLike, documentKey: string): FillLink | null {
  const text = safeGet(storage, keyOf(documentKey));
  if (!text) return null;
  try {
    const value = JSON.parse(text) as Partial<FillLink>;
    if (typeof value.questionnaireId !== 'number' || !Number.isSafeInteger(value.questionnaireId)) return null;
    return {
      questionnaireId: value.questionnaireId,
      startedAt: typeof value.startedAt === 'string' ? value.startedAt : new Date(0).toISOString(),
      ...(typeof value.writtenAt === 'string' ? { writtenAt: value.writtenAt } : {}),
    };
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
