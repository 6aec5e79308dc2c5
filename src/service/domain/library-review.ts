/**
 * Review cycles of the answer library: an entry's owner (a user of the organisation, who keeps it
 * current) and its own review interval, overriding the organisation's review age; each change recorded
 * in the entry's history with who and when. "Review due" lists narrow to one owner, or to the caller.
 */
import type { LibraryEntryDetail } from '../../api/library';
import { badRequest, notFound } from '../http/errors';
import type { LibraryRow } from '../storage/library';
import type { Principal } from '../storage/types';
import { actorName, detail, found, stamp, type LibraryDeps } from './library-actions';

export interface ReviewChange {
  /** A username of the organisation; null: nobody; absent: unchanged. */
  owner?: string | null;
  /** Months; null: the organisation's review age; absent: unchanged. */
  review_months?: number | null;
}

/** The username if it names a user of the caller's organisation, else a 400 naming the field. */
export async function knownOwner(deps: LibraryDeps, orgId: number, username: string, field: string): Promise<string> {
  const name = username.trim();
  const user = await deps.store.users.findByUsername(orgId, name);
  if (!user) throw badRequest(`${field}: no user "${name}" in this organisation`);
  return user.username;
}

const interval = (months: number | null) => (months === null ? "the organisation's review age" : `every ${months} month${months === 1 ? '' : 's'}`);

/** Sets who owns the entry and how often it is reviewed; records what changed ("owner: alice → bob"). */
export async function setEntryReview(deps: LibraryDeps, p: Principal, id: number, change: ReviewChange): Promise<LibraryEntryDetail> {
  const orgId = p.org.id;
  const checked = await checkedChange(deps, orgId, change);
  await changeReview(deps, p, await found(deps, orgId, id), checked);
  return detail(deps, orgId, id);
}

/** The change with its owner known to the organisation (400 otherwise), and at least one field given. */
async function checkedChange(deps: LibraryDeps, orgId: number, change: ReviewChange): Promise<ReviewChange> {
  if (change.owner === undefined && change.review_months === undefined) throw badRequest('give owner or review_months (null clears either)');
  const owner = change.owner == null ? change.owner : await knownOwner(deps, orgId, change.owner, 'owner');
  return { owner, review_months: change.review_months };
}

/** Most entries one section holds for a change (a sheet's questions). */
const SECTION_LIMIT = 5000;

/** Where a section is: a sheet of a file, and within it a section (absent or null: the whole sheet). */
export interface SectionPlace {
  file_id: number;
  tab_name: string;
  section?: string | null;
}

/**
 * The same owner and interval for every live entry learned from one sheet of one file, or from one
 * section of it (an entry's `section`), each change recorded in its entry's history. How many changed, of how many.
 */
export async function setSectionReview(deps: LibraryDeps, p: Principal, place: SectionPlace & ReviewChange): Promise<{ updated: number; entries: number }> {
  const orgId = p.org.id;
  const checked = await checkedChange(deps, orgId, place);
  const section = place.section ?? undefined;
  const { rows } = await deps.store.library.list(orgId, { file_id: place.file_id, section, review_cutoff: '' }, { limit: SECTION_LIMIT, offset: 0 });
  const entries = rows.filter((r) => r.tab_name === place.tab_name);
  if (entries.length === 0) {
    const where = section === undefined ? `sheet "${place.tab_name}"` : `section "${section}" of sheet "${place.tab_name}"`;
    throw notFound(`no live entry of ${where} in file ${place.file_id}`);
  }
  let updated = 0;
  for (const row of entries) if (await changeReview(deps, p, row, checked)) updated++;
  return { updated, entries: entries.length };
}

/** Records the change on the entry when it changes anything; whether it did. */
async function changeReview(deps: LibraryDeps, p: Principal, row: LibraryRow, change: ReviewChange): Promise<boolean> {
  const owner = change.owner;
  const before = { owner: row.state?.owner ?? null, review_months: row.state?.review_months ?? null };
  const said: string[] = [];
  if (owner !== undefined && owner !== before.owner) said.push(`owner: ${before.owner ?? 'nobody'} → ${owner ?? 'nobody'}`);
  if (change.review_months !== undefined && change.review_months !== before.review_months) {
    said.push(`review: ${interval(before.review_months)} → ${interval(change.review_months)}`);
  }
  if (said.length === 0) return false;
  await deps.store.library.change(
    p.org.id,
    row,
    { owner, review_months: change.review_months, ...stamp(p) },
    { action: 'review_changed', by_name: actorName(p), detail: said.join('; '), version: null, version_question: null, version_slots: null },
  );
  return true;
}

/** The owner a list narrows to: `mine` is the caller; an `owner` must be a user of the organisation. */
export async function ownerFilter(deps: LibraryDeps, p: Principal, query: { owner?: string; mine?: 'true' | 'false' }): Promise<string | undefined> {
  if (query.mine === 'true') {
    if (query.owner !== undefined) throw badRequest('give owner or mine=true, not both');
    return p.user.username;
  }
  return query.owner === undefined ? undefined : knownOwner(deps, p.org.id, query.owner, 'owner');
}
