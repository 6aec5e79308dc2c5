/**
 * Settling a disagreement for one offering: the entry chosen answers that question when a questionnaire
 * is about that offering, and only then. Entries about another offering, and that offering's own
 * disagreement, stay as they were; nothing is retired (the entries that lost may be right for another
 * offering). Settling the whole question is ./library-actions.ts `settle`.
 */
import type { LibraryConflict } from '../../api/library';
import { badRequest } from '../http/errors';
import type { Principal } from '../storage/types';
import { speaksFor } from './library';
import { actorName, type BrowsePage, conflictGroup, conflictGroups, found, type LibraryDeps } from './library-actions';
import { keyAfter, keyCursor } from './library-cursor';

const none = { version: null, version_question: null, version_slots: null };

async function offeringName(deps: LibraryDeps, orgId: number, offeringId: number): Promise<string> {
  const [offering] = await deps.store.offerings.getMany(orgId, [offeringId]);
  if (!offering) throw badRequest(`offering_id: unknown offering ${offeringId}`);
  return offering.name;
}

/** Chooses the entry for its question when a questionnaire is about the offering (replacing an earlier choice for it). */
export async function settleForOffering(deps: LibraryDeps, p: Principal, entryId: number, offeringId: number): Promise<LibraryConflict> {
  const orgId = p.org.id;
  const name = await offeringName(deps, orgId, offeringId);
  const chosen = await found(deps, orgId, entryId);
  if (chosen.state?.status === 'retired') throw badRequest(`entry_id: entry ${entryId} is retired; restore it before choosing it`);
  if (!speaksFor(chosen, offeringId)) throw badRequest(`entry_id: entry ${entryId} is not about offering "${name}" (its source names other offerings)`);
  const by = actorName(p);
  await deps.store.library.settleForOffering(
    orgId,
    { qkey: chosen.qkey, offering_id: offeringId, file_id: chosen.file_id, location: chosen.location, question: chosen.question, by_name: by },
    { action: 'settled', by_name: by, detail: `chosen for this question for offering "${name}"`, ...none },
  );
  return conflictGroup(deps, orgId, chosen.qkey, offeringId);
}

/** Undoes the settlement of the entry's question for the offering: its disagreement there is open again. */
export async function undoSettleForOffering(deps: LibraryDeps, p: Principal, entryId: number, offeringId: number): Promise<LibraryConflict> {
  const orgId = p.org.id;
  const name = await offeringName(deps, orgId, offeringId);
  const entry = await found(deps, orgId, entryId);
  const settlement = (await deps.store.library.settlements(orgId, [entry.qkey])).find((s) => s.offering_id === offeringId);
  if (!settlement) throw badRequest(`entry_id: the question of entry ${entryId} is not settled for offering "${name}"`);
  const by = actorName(p);
  await deps.store.library.unsettleForOffering(orgId, settlement, {
    action: 'unsettled',
    by_name: by,
    detail: `no longer chosen for offering "${name}"`,
    ...none,
  });
  return conflictGroup(deps, orgId, entry.qkey, offeringId);
}

/**
 * The disagreements a questionnaire about the offering would meet: questions whose live entries speaking
 * for it (the newest upload of a file name speaking for it, as in a fill) give more than one answer, unless
 * the question is settled for that offering or as a whole. Read by the library a page at a time, in key
 * order from the open disagreements (`library_conflicts`); a page after a key (`cursor`) starts there.
 */
export async function conflictsForOffering(
  deps: LibraryDeps,
  orgId: number,
  offeringId: number,
  page: BrowsePage,
): Promise<{ count: number; results: LibraryConflict[]; next: string | null }> {
  await offeringName(deps, orgId, offeringId);
  const { count, keys } = await deps.store.library.offeringConflictKeys(orgId, offeringId, {
    limit: page.limit,
    offset: page.offset,
    ...(page.cursor ? { after: keyAfter(page.cursor) } : {}),
  });
  const last = keys.length === page.limit ? keys[keys.length - 1] : undefined;
  return { count, results: await conflictGroups(deps, orgId, keys, offeringId), next: last !== undefined ? keyCursor(last) : null };
}
