/**
 * Content-hash deduplication: a repository upload whose bytes are already in the library adds
 * no second copy of the same evidence (which would double-count it and, for questionnaires, conflict
 * with itself); its file record says which file holds that content.
 */
import type { FileRecord, Store } from '../storage/types';

const PAGE = 500;

/** The earliest other repository file of the organisation with the same bytes that is, or is becoming, evidence. */
export async function sameContentAs(store: Store, file: Pick<FileRecord, 'id' | 'org_id' | 'sha256'>): Promise<FileRecord | null> {
  for (let offset = 0; ; offset += PAGE) {
    const { rows } = await store.files.list(file.org_id, { purpose: 'repository', ordering: 'created_at', limit: PAGE, offset });
    const match = rows.find((r) => r.id < file.id && r.sha256 === file.sha256 && r.status !== 'failed' && duplicateOf(r.processing_stage) === null);
    if (match) return match;
    if (rows.length < PAGE) return null;
  }
}

/** The processing stage a duplicate ends in: what the Library shows and a client can read. */
export function duplicateStage(original: Pick<FileRecord, 'id' | 'original_filename'>): string {
  return `duplicate of file ${original.id}: same content as "${original.original_filename}"; no evidence added`;
}

/** The file a duplicate's stage names, or null. */
export function duplicateOf(stage: string): number | null {
  const m = /^duplicate of file (\d+):/.exec(stage);
  return m ? Number(m[1]) : null;
}

/**
 * The original of some duplicates was deleted: its copies would otherwise stay "ready" with no evidence.
 * Every copy is read again (oldest first): the oldest becomes the evidence, the others duplicates of it.
 * Returns the files queued.
 */
export async function requeueDuplicatesOf(store: Store, orgId: number, deletedId: number, ingestKind: string): Promise<number[]> {
  const copies: FileRecord[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const { rows } = await store.files.list(orgId, { purpose: 'repository', ordering: 'created_at', limit: PAGE, offset });
    copies.push(...rows.filter((r) => duplicateOf(r.processing_stage) === deletedId));
    if (rows.length < PAGE) break;
  }
  if (copies.length === 0) return [];
  copies.sort((a, b) => a.id - b.id);
  await store.unitOfWork(async (tx) => {
    for (const copy of copies) {
      await tx.files.update(copy.id, { status: 'submitted', processing_stage: 'queued: its original was deleted', processing_percent: 0, error: null });
      await tx.jobs.enqueue(ingestKind, { file_id: copy.id });
    }
  });
  return copies.map((c) => c.id);
}
