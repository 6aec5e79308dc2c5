/**
 * Review cycles of the answer library: an entry's owner (a user of the organisation, who keeps it
 * current) and its own review interval, overriding the organisation's review age; each change recorded
 * in the entry's history with who and when. "Review due" lists narrow to one owner, or to the caller.
 */
import type { LibraryEntryDetail } from '../../api/library';
import { badRequest } from '../http/errors';
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
  if (change.owner === undefined && change.review_months === undefined) throw badRequest('give owner or review_months (null clears either)');
  const row = await found(deps, orgId, id);
  const owner = change.owner == null ? change.owner : await knownOwner(deps, orgId, change.owner, 'owner');
  const before = { owner: row.state?.owner ?? null, review_months: row.state?.review_months ?? null };
  const said: string[] = [];
  if (owner !== undefined && owner !== before.owner) said.push(`owner: ${before.owner ?? 'nobody'} → ${owner ?? 'nobody'}`);
  if (change.review_months !== undefined && change.review_months !== before.review_months) {
    said.push(`review: ${interval(before.review_months)} → ${interval(change.review_months)}`);
  }
  if (said.length === 0) return detail(deps, orgId, id);
  await deps.store.library.change(
    orgId,
    row,
    { owner, review_months: change.review_months, ...stamp(p) },
    { action: 'review_changed', by_name: actorName(p), detail: said.join('; '), version: null, version_question: null, version_slots: null },
  );
  return detail(deps, orgId, id);
}

/** The owner a list narrows to: `mine` is the caller; an `owner` must be a user of the organisation. */
export async function ownerFilter(deps: LibraryDeps, p: Principal, query: { owner?: string; mine?: 'true' | 'false' }): Promise<string | undefined> {
  if (query.mine === 'true') {
    if (query.owner !== undefined) throw badRequest('give owner or mine=true, not both');
    return p.user.username;
  }
  return query.owner === undefined ? undefined : knownOwner(deps, p.org.id, query.owner, 'owner');
}
