/**
 * The link between an open workbook and its questionnaire on the service, kept in the add-in's own
 * storage keyed by the workbook's own id, so that reopening the pane finds a fill in progress, and
 * no copy of the same template (same name, same sheets) finds another copy's fill. The id lives in
 * the workbook, written once at its first upload; the link itself stays out of document settings:
 * writing those can clear Excel's undo stack. A saved-as copy keeps the id, so it keeps the review
 * of the answers it holds (its undo is keyed by its address too, see WorkbookAdapter.documentKey).
 */
import type { WorkbookAdapter } from '../excel/types';
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

/** What the link store needs of the workbook: its own id (given at the first write), else its document key. */
export type LinkIdentity = Pick<WorkbookAdapter, 'documentKey' | 'workbookId' | 'assignWorkbookId'>;

/** The session's link store for the open workbook. A workbook without its own id has no link: it opens fresh. */
export function fillLinkStore(storage: StorageLike, workbook: LinkIdentity): LinkStore {
  const own = !!workbook.workbookId;
  const current = async (): Promise<string | null> => {
    if (!own) return workbook.documentKey();
    const id = await workbook.workbookId!();
    return id ? `wb:${id}` : null;
  };
  const given = async (): Promise<string> => {
    const key = await current();
    if (key) return key;
    const id = await workbook.assignWorkbookId?.();
    // A host that keeps no document settings: the link lasts while the pane is open.
    return id ? `wb:${id}` : workbook.documentKey();
  };
  return {
    read: async () => {
      const key = await current();
      return key ? readFillLink(storage, key) : null;
    },
    write: async (link) => writeFillLink(storage, await given(), link),
    clear: async () => {
      const key = await current();
      if (key) clearFillLink(storage, key);
    },
  };
}
