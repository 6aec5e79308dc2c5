/**
 * The rules of the knowledge base's files: who may change them, what an upload stores (each accepted file with
 * its ingestion job; a copy of bytes already there is named), and what a deletion removes.
 */
import type { RepositoryUploadFields } from '../../api/schemas';
import { JOB_KINDS, type ServiceContext } from '../context';
import { requireWritable } from '../http/auth';
import { badRequest, forbidden, notFound } from '../http/errors';
import type { UploadedFile } from '../http/multipart';
import { duplicateStage, requeueDuplicatesOf, sameContentAs } from '../jobs/duplicate';
import { assertOfferingsExist } from './grounding';
import { checkUpload, REPOSITORY_FORMATS, storeUploadBytes } from './uploads';
import type { Principal } from '../storage/types';

/** Deleting needs the same right as uploading: a repository manager where the organisation asks for one. */
export function requireRepositoryDelete(p: Principal): void {
  requireWritable(p, 'delete files');
  if (p.org.upload_requires_manager && p.user.role === 'member') {
    throw forbidden('deleting repository files requires the repository manager role in this organization');
  }
}

/**
 * Every accepted file stored with its ingestion job (unsupported ones are listed as failed); 400 when none is.
 * Extension: uploads whose bytes are already in the library add no evidence and are listed as `duplicates`.
 */
export async function uploadRepositoryFiles(ctx: ServiceContext, p: Principal, fields: RepositoryUploadFields, files: readonly UploadedFile[]) {
  const offeringIds = [...new Set(fields.relevant_offerings ?? [])];
  await assertOfferingsExist(ctx.store, p.org.id, offeringIds, 'relevant_offerings');
  const tags = [...new Set((fields.tags ?? []).map((t) => t.trim()))];

  const failed: string[] = [];
  const fileIds: number[] = [];
  const duplicates: { file_id: number; filename: string; duplicate_of: number; note: string }[] = [];
  for (const upload of files) {
    const check = await checkUpload(upload, REPOSITORY_FORMATS);
    if (!check.ok) {
      failed.push(`${check.name}: ${check.reason}`);
      continue;
    }
    const stored = await storeUploadBytes(ctx.blobs, p, 'repository', { ...check, file: upload });
    const record = await ctx.store
      .unitOfWork(async (tx) => {
        const file = await tx.files.create({
          ...stored,
          document_type: 'unknown',
          analysis_type: fields.analysis_type ?? null,
          scope_includes_company: fields.scope_includes_company,
          tag_names: tags,
          offering_ids: offeringIds,
        });
        await tx.jobs.enqueue(JOB_KINDS.ingestFile, { file_id: file.id });
        return file;
      })
      .catch(async (error: unknown) => {
        // Not recorded (e.g. the database is unreachable: 503): the bytes must not stay behind.
        await ctx.blobs.remove(stored.stored_name);
        throw error;
      });
    fileIds.push(record.id);
    const original = await sameContentAs(ctx.store, record);
    if (original) duplicates.push({ file_id: record.id, filename: record.original_filename, duplicate_of: original.id, note: duplicateStage(original) });
  }
  if (fileIds.length === 0) throw badRequest(`files: no file was accepted (${failed.join('; ')})`);
  ctx.wake(JOB_KINDS.ingestFile);
  return { count: fileIds.length, failed, file_ids: fileIds, ...(duplicates.length ? { duplicates } : {}) };
}

/**
 * Removes a repository file: its passages and answer-library entries leave the knowledge base (so no answer
 * cites it again), then the record, then its bytes on disk. A file still being processed is refused (its
 * ingestion would write its passages back); wait for it.
 */
export async function deleteRepositoryFile(ctx: ServiceContext, p: Principal, id: number) {
  const file = await ctx.store.files.get(p.org.id, id);
  if (!file || file.purpose !== 'repository') throw notFound(`repository file ${id} not found`);
  if (file.status === 'submitted' || file.status === 'processing') {
    throw badRequest(`repository file ${id} (${file.original_filename}) is still being processed; delete it once it is ready or failed`);
  }
  await ctx.knowledge.removeFile(p.org.id, id);
  await ctx.store.files.remove(p.org.id, id);
  await ctx.blobs.remove(file.stored_name);
  // Copies of its bytes uploaded later added no evidence of their own; one of them now must.
  const requeued = await requeueDuplicatesOf(ctx.store, p.org.id, id, JOB_KINDS.ingestFile);
  if (requeued.length) ctx.wake(JOB_KINDS.ingestFile);
  return { id, deleted: true, ...(requeued.length ? { requeued_duplicates: requeued } : {}) };
}
