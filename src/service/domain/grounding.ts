/** Turns `file_id` / `offering_ids` from a request into retrieval filters, checking they exist in the caller's org. */
import type { SearchFilters } from '../knowledge/types';
import type { Principal, Store } from '../storage/types';
import { badRequest, notFound } from '../http/errors';

export async function groundingFilters(store: Store, p: Principal, input: { file_id?: number | null; offering_ids?: number[] }): Promise<SearchFilters> {
  const filters: SearchFilters = {};
  if (input.file_id != null) {
    const file = await store.files.get(p.org.id, input.file_id);
    if (!file || file.purpose !== 'repository') throw notFound(`file_id: repository file ${input.file_id} not found`);
    filters.file_id = file.id;
  }
  if (input.offering_ids && input.offering_ids.length > 0) {
    await assertOfferingsExist(store, p.org.id, input.offering_ids, 'offering_ids');
    filters.offering_ids = [...new Set(input.offering_ids)];
  }
  return filters;
}

export async function assertOfferingsExist(store: Store, orgId: number, ids: number[], field: string): Promise<void> {
  const found = new Set((await store.offerings.getMany(orgId, ids)).map((o) => o.id));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length > 0) throw badRequest(`${field}: unknown offering ${missing.join(', ')}`);
}
