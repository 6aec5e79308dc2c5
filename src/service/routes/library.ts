/**
 * Extension "answers.library" (src/api/library.ts): the answer library as analysts keep it. Each route is
 * declared from its endpoint (./route.ts validates the request with the contract's schema), checks the
 * caller may change the library, and calls ../domain/library-actions.ts; no rule lives here.
 */
import type { FastifyInstance } from 'fastify';
import { LIBRARY_EXPORT_TYPE } from '../../api/library';
import type { ServiceContext } from '../context';
import * as library from '../domain/library-actions';
import { conflictsForOffering, settleForOffering, undoSettleForOffering } from '../domain/library-offerings';
import { ownerFilter, setEntryReview, setSectionReview } from '../domain/library-review';
import { libraryWorkbook } from '../domain/library-export';
import { principalOf } from '../http/auth';
import { pageEnvelope, pageRequest } from '../http/params';
import { assertOfferingsExist } from '../domain/grounding';
import { route } from './route';

/** Most entries one export holds. */
const EXPORT_LIMIT = 200_000;

export function libraryRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const deps: library.LibraryDeps = { store: ctx.store, knowledge: ctx.knowledge };
  const editor = { allow: library.requireLibraryEditor };

  route(app, 'listLibrary', async (request) => {
    const p = principalOf(request);
    const page = pageRequest(request.query);
    const { mine, owner, cursor, ...query } = request.query;
    const { count, results, next } = await library.browse(
      deps,
      p.org.id,
      { ...query, owner: await ownerFilter(deps, p, { mine, owner }) },
      { ...page, cursor },
    );
    return pageEnvelope(request, page, count, results, next);
  });

  route(app, 'addLibraryEntry', editor, async (request) => {
    const p = principalOf(request);
    const input = request.body;
    if (input.offering_ids?.length) await assertOfferingsExist(ctx.store, p.org.id, input.offering_ids, 'offering_ids');
    return library.addEntry(deps, p, input);
  });

  route(app, 'libraryConflicts', async (request) => {
    const p = principalOf(request);
    const page = pageRequest(request.query);
    const offeringId = request.query.offering_id;
    const at = { ...page, cursor: request.query.cursor };
    const { count, results, next } =
      offeringId === undefined ? await library.conflicts(deps, p.org.id, at) : await conflictsForOffering(deps, p.org.id, offeringId, at);
    return pageEnvelope(request, page, count, results, next);
  });

  // With an offering: chosen for that offering alone; without: for the question as a whole.
  route(app, 'settleLibraryConflict', editor, async (request) => {
    const { entry_id, offering_id } = request.body;
    const p = principalOf(request);
    return offering_id === undefined ? library.settle(deps, p, entry_id) : settleForOffering(deps, p, entry_id, offering_id);
  });

  route(app, 'undoLibrarySettle', editor, async (request) => {
    const { entry_id, offering_id } = request.body;
    const p = principalOf(request);
    return offering_id === undefined ? library.undoSettle(deps, p, entry_id) : undoSettleForOffering(deps, p, entry_id, offering_id);
  });

  route(app, 'exportLibrary', async (request, reply) => {
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

  route(app, 'getLibrarySettings', async (request) => library.reviewAge(deps, principalOf(request).org.id));

  route(app, 'setLibrarySettings', editor, async (request) => {
    const p = principalOf(request);
    await ctx.store.library.setReviewAgeMonths(p.org.id, request.body.review_age_months);
    return library.reviewAge(deps, p.org.id);
  });

  route(app, 'getLibraryEntry', async (request) => library.detail(deps, principalOf(request).org.id, request.params.id));

  route(app, 'editLibraryEntry', editor, async (request) => library.editEntry(deps, principalOf(request), request.params.id, request.body));

  route(app, 'approveLibraryEntry', editor, async (request) => library.approveEntry(deps, principalOf(request), request.params.id));

  route(app, 'retireLibraryEntry', editor, async (request) => library.retireEntry(deps, principalOf(request), request.params.id, request.body.reason));

  route(app, 'setLibrarySectionReview', editor, async (request) => setSectionReview(deps, principalOf(request), request.body));

  route(app, 'setLibraryEntryReview', editor, async (request) => setEntryReview(deps, principalOf(request), request.params.id, request.body));

  route(app, 'restoreLibraryEntry', editor, async (request) => library.restoreEntry(deps, principalOf(request), request.params.id));
}
