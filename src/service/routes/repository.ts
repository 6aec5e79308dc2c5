/** Repository endpoints 4.12 - 4.14: upload documents into the knowledge base and follow their processing. */
import type { FastifyInstance } from 'fastify';
import { RepositoryListQuery, RepositoryUploadFields } from '../../api/schemas';
import { JOB_KINDS, type ServiceContext } from '../context';
import { principalOf, requireRepositoryUpload } from '../http/auth';
import { badRequest, notFound, parseOr400 } from '../http/errors';
import { formFieldsToObject, readMultipart } from '../http/multipart';
import { pageEnvelope, pageRequest, pathId, singleValuedQuery } from '../http/params';
import { repositoryFile } from '../http/serialize';
import { assertOfferingsExist } from './grounding';
import { checkUpload, REPOSITORY_FORMATS, storeUploadBytes } from './uploads';

export function repositoryRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  app.get('/api/v2/repository/files/', async (request) => {
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

  app.get('/api/v2/repository/files/:id/', async (request) => {
    const p = principalOf(request);
    const id = pathId(request);
    const file = await ctx.store.files.get(p.org.id, id);
    if (!file || file.purpose !== 'repository') throw notFound(`repository file ${id} not found`);
    return repositoryFile(file);
  });

  app.post('/api/v2/repository/files/', async (request) => {
    const p = principalOf(request);
    requireRepositoryUpload(p);
    const { files, fields } = await readMultipart(request);
    const body = parseOr400(
      RepositoryUploadFields,
      formFieldsToObject(fields, { arrays: ['tags'], intArrays: ['relevant_offerings'], booleans: ['scope_includes_company'] }),
    );
    if (files.length === 0) throw badRequest('files: no file uploaded; send one or more files in the "files" field');
    const offeringIds = [...new Set(body.relevant_offerings ?? [])];
    await assertOfferingsExist(ctx.store, p.org.id, offeringIds, 'relevant_offerings');
    const tags = [...new Set((body.tags ?? []).map((t) => t.trim()))];

    const failed: string[] = [];
    const fileIds: number[] = [];
    for (const upload of files) {
      const check = checkUpload(upload, REPOSITORY_FORMATS);
      if (!check.ok) {
        failed.push(`${check.name}: ${check.reason}`);
        continue;
      }
      const stored = await storeUploadBytes(ctx.blobs, p, 'repository', { ...check, bytes: upload.bytes });
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
      });
      fileIds.push(record.id);
    }
    if (fileIds.length === 0) throw badRequest(`files: no file was accepted (${failed.join('; ')})`);
    ctx.wake(JOB_KINDS.ingestFile);
    return { count: fileIds.length, failed, file_ids: fileIds };
  });
}
