/**
 * Repository endpoints 4.12 - 4.14: upload documents into the knowledge base and follow their processing.
 * Extensions to v2 (docs/api.md): `DELETE /repository/files/{id}/` removes a file with everything learnt from it,
 * and `GET /extensions/` names the extensions so a client can offer them only where they exist.
 */
import type { FastifyInstance } from 'fastify';
import { EXTENSION } from '../../api/schemas';
import type { ServiceContext } from '../context';
import { deleteRepositoryFile, requireRepositoryDelete, uploadRepositoryFiles } from '../domain/repository-files';
import { principalOf, requireRepositoryUpload } from '../http/auth';
import { badRequest, notFound } from '../http/errors';
import { pageEnvelope, pageRequest } from '../http/params';
import { repositoryFile } from '../http/serialize';
import { route } from './route';

export function repositoryRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  route(app, 'listRepository', async (request) => {
    const p = principalOf(request);
    const q = request.query;
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
    const dates =
      (await ctx.knowledge.fileDates?.(
        p.org.id,
        rows.map((f) => f.id),
      )) ?? new Map();
    return pageEnvelope(
      request,
      page,
      count,
      rows.map((f) => repositoryFile(f, dates.get(f.id))),
    );
  });

  route(app, 'getRepositoryFile', async (request) => {
    const p = principalOf(request);
    const { id } = request.params;
    const file = await ctx.store.files.get(p.org.id, id);
    if (!file || file.purpose !== 'repository') throw notFound(`repository file ${id} not found`);
    const dates = await ctx.knowledge.fileDates?.(p.org.id, [file.id]);
    return repositoryFile(file, dates?.get(file.id));
  });

  route(app, 'extensions', async (request) => {
    principalOf(request); // authenticated like every endpoint, so it also tells a working key
    // `answering`: which engine writes generated answers, so the pane can say so (extractive or the model).
    const answering = ctx.knowledge.answeringEngine?.() ?? { engine: 'extractive' };
    return {
      extensions: [
        EXTENSION.repositoryDelete,
        EXTENSION.offeringsList,
        EXTENSION.organisationNames,
        EXTENSION.keysCurrent,
        EXTENSION.answersLibrary,
        EXTENSION.answersReplay,
      ],
      answering,
    };
  });

  route(app, 'listOfferings', async (request) => {
    const p = principalOf(request);
    return { results: await ctx.store.offerings.list(p.org.id) };
  });

  route(app, 'deleteRepositoryFile', { allow: requireRepositoryDelete }, async (request) => deleteRepositoryFile(ctx, principalOf(request), request.params.id));

  route(app, 'uploadRepository', { allow: requireRepositoryUpload }, async (request) => {
    if (request.uploads.length === 0) throw badRequest('files: no file uploaded; send one or more files in the "files" field');
    return uploadRepositoryFiles(ctx, principalOf(request), request.body, request.uploads);
  });
}
