/**
 * Repository endpoints 4.12 - 4.14: upload documents into the knowledge base and follow their processing.
 * Extensions to v2 (docs/api.md): `DELETE /repository/files/{id}/` removes a file with everything learnt from it,
 * and `GET /extensions/` names the extensions so a client can offer them only where they exist.
 */
import type { FastifyInstance } from 'fastify';
import { EXTENSION, RepositoryListQuery, RepositoryUploadFields } from '../../api/schemas';
import { JOB_KINDS, type ServiceContext } from '../context';
import { principalOf, requireRepositoryUpload, requireWritable } from '../http/auth';
import { badRequest, forbidden, notFound, parseOr400 } from '../http/errors';
import { formToObject } from '../http/form';
import { readMultipart } from '../http/multipart';
import { pageEnvelope, pageRequest, pathId, singleValuedQuery } from '../http/params';
import { repositoryFile } from '../http/serialize';
import { assertOfferingsExist } from './grounding';
import { duplicateStage, requeueDuplicatesOf, sameContentAs } from '../jobs/duplicate';
import { checkUpload, REPOSITORY_FORMATS, storeUploadBytes } from './uploads';

export function repositoryRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  app.get('/repository/files/', async (request) => {
    const p = principalOf(request);
    const q = parseOr400(RepositoryListQuery, singleValuedQuery(request));
    const page = pageRequest(q);
    const { count, rows } = await ctx.store.files.list(p.org.id, {
      purpose: 'repository',
      document_type: q.document_type,
      status: q.status,
      search: q.search?.trim() || undefined,
      ordering: q.ordering,
      limit: page.limit,
      offset: page.offset,
    });
    return pageEnvelope(request, page, count, rows.map(repositoryFile));
  });

  app.get('/repository/files/:id/', async (request) => {
    const p = principalOf(request);
    const id = pathId(request);
    const file = await ctx.store.files.get(p.org.id, id);
    if (!file || file.purpose !== 'repository') throw notFound(`repository file ${id} not found`);
    return repositoryFile(file);
  });

  app.get('/extensions/', async (request) => {
    principalOf(request); // authenticated like every endpoint, so it also tells a working key
    // `answering`: which engine writes generated answers, so the pane can say so (extractive or the model).
    const answering = ctx.knowledge.answeringEngine?.() ?? { engine: 'extractive' };
    return { extensions: [EXTENSION.repositoryDelete, EXTENSION.offeringsList, EXTENSION.organisationNames, EXTENSION.keysCurrent, EXTENSION.answersLibrary], answering };
  });

  app.get('/offerings/', async (request) => {
    const p = principalOf(request);
    return { results: await ctx.store.offerings.list(p.org.id) };
  });

  /**
   * Removes a repository file: its passages and answer-library entries leave the knowledge base (so no
   * answer cites it again), then the record, then its bytes on disk. Needs the same right as an upload.
   * A file still being processed is refused (its ingestion would write its passages back); wait for it.
   */
  app.delete('/repository/files/:id/', async (request) => {
    const p = principalOf(request);
    const id = pathId(request);
    requireWritable(p, 'delete files');
    if (p.org.upload_requires_manager && p.user.role === 'member') {
      throw forbidden('deleting repository files requires the repository manager role in this organization');
    }
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
  });

  app.post('/repository/files/', async (request) => {
    const p = principalOf(request);
    requireRepositoryUpload(p);
    const { files, fields } = await readMultipart(request);
    const body = parseOr400(
      RepositoryUploadFields,
      formToObject(fields, { arrays: ['tags'], intArrays: ['relevant_offerings'], booleans: ['scope_includes_company'] }),
    );
    if (files.length === 0) throw badRequest('files: no file uploaded; send one or more files in the "files" field');
    const offeringIds = [...new Set(body.relevant_offerings ?? [])];
    await assertOfferingsExist(ctx.store, p.org.id, offeringIds, 'relevant_offerings');
    const tags = [...new Set((body.tags ?? []).map((t) => t.trim()))];

    const failed: string[] = [];
    const fileIds: number[] = [];
    /** Extension: uploads whose bytes are already in the library; they add no evidence. */
    const duplicates: { file_id: number; filename: string; duplicate_of: number; note: string }[] = [];
    for (const upload of files) {
      const check = await checkUpload(upload, REPOSITORY_FORMATS);
      if (!check.ok) {
        failed.push(`${check.name}: ${check.reason}`);
        continue;
      }
      const stored = await storeUploadBytes(ctx.blobs, p, 'repository', { ...check, file: upload });
      const record = await ctx.store.unitOfWork(async (tx) => {
        const file = await tx.files.create({
          ...stored,
          document_type: 'unknown',
          analysis_type: body.analysis_type ?? null,
          scope_includes_company: body.scope_includes_company,
          tag_names: tags,
          offering_ids: offeringIds,
        });
        await tx.jobs.enqueue(JOB_KINDS.ingestFile, { file_id: file.id });
        return file;
      }).catch(async (error: unknown) => {
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
  });
}
