/**
 * Extension "answers.library" (src/api/library.ts): the answer library as analysts keep it. Each route
 * validates its request with the contract's schema, checks the caller may change the library, and calls
 * ../domain/library-actions.ts; no rule lives here.
 */
import type { FastifyInstance } from 'fastify';
import {
  LibraryConflictQuery,
  LibraryEdit,
  LibraryListQuery,
  LibraryNoBody,
  LibraryRetire,
  LibrarySettingsInput,
  LibrarySettle,
  LIBRARY_EXPORT_TYPE,
  NewLibraryEntry,
} from '../../api/library';
import type { ServiceContext } from '../context';
import * as library from '../domain/library-actions';
import { libraryWorkbook } from '../domain/library-export';
import { principalOf } from '../http/auth';
import { parseOr400 } from '../http/errors';
import { pageEnvelope, pageRequest, pathId, singleValuedQuery } from '../http/params';
import { assertOfferingsExist } from './grounding';

/** Most entries one export holds. */
const EXPORT_LIMIT = 200_000;

export function libraryRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const deps: library.LibraryDeps = { store: ctx.store, knowledge: ctx.knowledge };
  const body = (value: unknown) => value ?? {};

  app.get('/answers/library/', async (request) => {
    const p = principalOf(request);
    const q = parseOr400(LibraryListQuery, singleValuedQuery(request));
    const page = pageRequest(q);
    const { count, results } = await library.browse(deps, p.org.id, q, page);
    return pageEnvelope(request, page, count, results);
  });

  app.post('/answers/library/', async (request) => {
    const p = principalOf(request);
    library.requireLibraryEditor(p);
    const input = parseOr400(NewLibraryEntry, body(request.body));
    if (input.offering_ids?.length) await assertOfferingsExist(ctx.store, p.org.id, input.offering_ids, 'offering_ids');
    return library.addEntry(deps, p, input);
  });

  app.get('/answers/library/conflicts/', async (request) => {
    const p = principalOf(request);
    const page = pageRequest(parseOr400(LibraryConflictQuery, singleValuedQuery(request)));
    const { count, results } = await library.conflicts(deps, p.org.id, page);
    return pageEnvelope(request, page, count, results);
  });

  app.post('/answers/library/conflicts/settle/', async (request) => {
    const p = principalOf(request);
    library.requireLibraryEditor(p);
    return library.settle(deps, p, parseOr400(LibrarySettle, body(request.body)).entry_id);
  });

  app.post('/answers/library/conflicts/undo/', async (request) => {
    const p = principalOf(request);
    library.requireLibraryEditor(p);
    return library.undoSettle(deps, p, parseOr400(LibrarySettle, body(request.body)).entry_id);
  });

  app.get('/answers/library/export/', async (request, reply) => {
    const p = principalOf(request);
    const page = { limit: EXPORT_LIMIT, offset: 0 };
    const live = await library.browse(deps, p.org.id, {}, page);
    const retired = await library.browse(deps, p.org.id, { status: 'retired' }, page);
    const offerings = new Map((await ctx.store.offerings.list(p.org.id)).map((o) => [o.id, o.name]));
    const bytes = libraryWorkbook([...live.results, ...retired.results], offerings);
    return reply
      .header('content-type', LIBRARY_EXPORT_TYPE)
      .header('content-disposition', 'attachment; filename="answer-library.xlsx"')
      .send(Buffer.from(bytes));
  });

  app.get('/answers/library/settings/', async (request) => library.reviewAge(deps, principalOf(request).org.id));

  app.put('/answers/library/settings/', async (request) => {
    const p = principalOf(request);
    library.requireLibraryEditor(p);
    const input = parseOr400(LibrarySettingsInput, body(request.body));
    await ctx.store.library.setReviewAgeMonths(p.org.id, input.review_age_months);
    return library.reviewAge(deps, p.org.id);
  });

  app.get('/answers/library/:id/', async (request) => library.detail(deps, principalOf(request).org.id, pathId(request)));

  app.put('/answers/library/:id/', async (request) => {
    const p = principalOf(request);
    library.requireLibraryEditor(p);
    const id = pathId(request);
    return library.editEntry(deps, p, id, parseOr400(LibraryEdit, body(request.body)));
  });

  app.post('/answers/library/:id/approve/', async (request) => {
    const p = principalOf(request);
    library.requireLibraryEditor(p);
    const id = pathId(request);
    parseOr400(LibraryNoBody, body(request.body));
    return library.approveEntry(deps, p, id);
  });

  app.post('/answers/library/:id/retire/', async (request) => {
    const p = principalOf(request);
    library.requireLibraryEditor(p);
    const id = pathId(request);
    return library.retireEntry(deps, p, id, parseOr400(LibraryRetire, body(request.body)).reason);
  });

  app.post('/answers/library/:id/restore/', async (request) => {
    const p = principalOf(request);
    library.requireLibraryEditor(p);
    const id = pathId(request);
    parseOr400(LibraryNoBody, body(request.body));
    return library.restoreEntry(deps, p, id);
  });
}
