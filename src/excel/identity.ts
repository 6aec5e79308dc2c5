/**
 * Which workbook this is: the key its undo snapshot is kept under (its address, or for an unsaved
 * workbook a fingerprint of its sheets, joined to its own id) and its own id, kept in the workbook's
 * document settings so that it travels with the file.
 */
import { fnv1a } from '../fill/fingerprint';

/** The document setting holding the workbook's own id: it travels with the file, so a saved-as copy keeps it. */
export const WORKBOOK_ID_SETTING = 'qfill.workbookId';

export interface DocumentIdentity {
  documentKey(): Promise<string>;
  workbookId(): Promise<string | null>;
  assignWorkbookId(): Promise<string | null>;
}

function documentSettings(): Partial<Office.Settings> | null {
  return typeof Office !== 'undefined' ? (Office.context?.document?.settings ?? null) : null;
}

function newWorkbookId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`;
}

function fnv1aHex(text: string): string {
  return fnv1a(text).toString(16).padStart(8, '0');
}

export function createDocumentIdentity(): DocumentIdentity {
  let cachedKey: string | null = null;

  /** Where the workbook is: its address, or for an unsaved one a fingerprint of its sheets. */
  async function placeKey(): Promise<string> {
    const url = typeof Office !== 'undefined' ? Office.context?.document?.url : null;
    if (url) return `url:${url}`;
    if (cachedKey) return cachedKey;
    // An unsaved workbook has no URL: fingerprint its sheets (names and ids), which a fill never changes.
    const names = await Excel.run(async (context) => {
      const sheets = context.workbook.worksheets;
      sheets.load('items/name,items/id');
      await context.sync();
      return sheets.items.map((s) => `${s.id}\u0001${s.name}`);
    });
    cachedKey = `sheets:${fnv1aHex(names.join('\u0002'))}`;
    return cachedKey;
  }

  async function workbookId(): Promise<string | null> {
    const value = documentSettings()?.get?.(WORKBOOK_ID_SETTING);
    return typeof value === 'string' && value !== '' ? value : null;
  }

  async function documentKey(): Promise<string> {
    const id = await workbookId();
    const place = await placeKey();
    return id ? `${place}#${id}` : place;
  }

  async function assignWorkbookId(): Promise<string | null> {
    const existing = await workbookId();
    if (existing) return existing;
    const settings = documentSettings();
    const save = settings?.saveAsync?.bind(settings);
    if (typeof settings?.set !== 'function' || !save) return null;
    const id = newWorkbookId();
    settings.set(WORKBOOK_ID_SETTING, id);
    await new Promise<void>((resolve, reject) =>
      save((r) =>
        r.status === Office.AsyncResultStatus.Failed
          ? reject(new Error(`Excel could not save the workbook's id: ${r.error?.message ?? 'unknown error'}`))
          : resolve(),
      ),
    );
    return id;
  }

  return { documentKey, workbookId, assignWorkbookId };
}
