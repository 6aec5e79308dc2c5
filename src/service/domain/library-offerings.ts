/**
 * Settling a disagreement for one offering: the entry chosen answers that question when a questionnaire
 * is about that offering, and only then. Entries about another offering, and that offering's own
 * disagreement, stay as they were; nothing is retired (the entries that lost may be right for another
 * offering). Settling the whole question is ./library-actions.ts `settle`.
 */
import type { LibraryConflict } from '../../api/library';
import { badRequest } from '../http/errors';
import type { Principal } from '../storage/types';
import { comparedAnswer, speaksFor } from './library';
import { actorName, conflictGroup, found, type LibraryDeps } from './library-actions';

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
  await deps.store.library.unsettleForOffering(orgId, settlement, { action: 'unsettled', by_name: by, detail: `no longer chosen for offering "${name}"`, ...none });
  return conflictGroup(deps, orgId, entry.qkey, offeringId);
}

/**
 * The disagreements a questionnaire about the offering would meet: questions whose live entries speaking
 * for it give more than one answer, unless the question is settled (for that offering, or as a whole).
 * Read from the organisation's unsettled disagreements (few), each group then read by its key.
 */
export async function conflictsForOffering(
  deps: LibraryDeps,
  orgId: number,
  offeringId: number,
  page: { limit: number; offset: number },
): Promise<{ count: number; results: LibraryConflict[] }> {
  await offeringName(deps, orgId, offeringId);
  const { keys } = await deps.store.library.conflictKeys(orgId, { limit: Number.MAX_SAFE_INTEGER, offset: 0 });
  const settled = new Set((await deps.store.library.settlements(orgId, keys)).filter((s) => s.offering_id === offeringId).map((s) => s.qkey));
  const open: string[] = [];
  for (const key of keys) {
    if (settled.has(key)) continue;
    const live = (await deps.store.library.byKey(orgId, key)).filter((r) => r.state?.status !== 'retired' && speaksFor(r, offeringId));
    if (new Set(live.map(comparedAnswer)).size > 1) open.push(key);
  }
  const results: LibraryConflict[] = [];
  for (const key of open.slice(page.offset, page.offset + page.limit)) results.push(await conflictGroup(deps, orgId, key, offeringId));
  return { count: open.length, results };
}
