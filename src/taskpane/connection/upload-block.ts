/**
 * A refused upload, remembered per key (by fingerprint) so it survives reopening the pane: why uploads
 * are disabled, and whether the key is read-only, lacks upload rights, or does not work at all.
 */
import type { ApiError } from '../../api/errors';
import { classifyUploadRefusal, isForbidden, uploadRefusedReason, type UploadRefusal } from '../errors';
import { STORAGE_KEYS, keyFingerprint, safeGet, safeRemove, safeSet } from '../settings-store';
import type { StorageLike, TaskpaneApi } from '../types';

export interface UploadBlock {
  reason: string;
  /** The service said the key is read-only (rather than lacking rights or a licence). */
  readOnly: boolean;
  kind: UploadRefusal;
}

/** The block remembered for this key; null when there is none, or it was about another key. */
export function readUploadBlock(storage: StorageLike, apiKey: string): UploadBlock | null {
  const text = safeGet(storage, STORAGE_KEYS.uploadBlocked);
  if (!text || !apiKey) return null;
  try {
    const v = JSON.parse(text) as { key?: string; reason?: string; readOnly?: boolean; kind?: UploadRefusal };
    if (v.key !== keyFingerprint(apiKey) || typeof v.reason !== 'string') return null;
    return { reason: v.reason, readOnly: v.readOnly === true, kind: v.kind ?? (v.readOnly ? 'read-only' : 'refused') };
  } catch {
    return null;
  }
}

export function writeUploadBlock(storage: StorageLike, apiKey: string, block: UploadBlock): void {
  safeSet(storage, STORAGE_KEYS.uploadBlocked, JSON.stringify({ key: keyFingerprint(apiKey), ...block }));
}

export function clearUploadBlock(storage: StorageLike): void {
  safeRemove(storage, STORAGE_KEYS.uploadBlocked);
}

/**
 * What an upload refusal means: whether a read with the same key works tells a key without upload
 * rights (Chat still works) from a key that is not valid at all (nothing works). Said only after checking.
 */
export async function judgeUploadRefusal(client: Pick<TaskpaneApi, 'listRepositoryFiles'> | null, e: ApiError): Promise<UploadBlock> {
  let readsWork: boolean | null = null;
  if (client && !/read[- ]?only/i.test(e.serverMessage ?? '')) {
    try {
      await client.listRepositoryFiles({ page_size: 1 });
      readsWork = true;
    } catch (probe) {
      readsWork = isForbidden(probe) ? false : null;
    }
  }
  const kind = classifyUploadRefusal(e, readsWork);
  return { reason: uploadRefusedReason(e, kind), readOnly: kind === 'read-only', kind };
}
