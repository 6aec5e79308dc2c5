/** What the knowledge index keeps about a library file, from its stored record: one mapping for ingestion and `qfill migrate`. */
import type { FileMeta } from '../knowledge/types';
import type { FileRecord } from '../storage/types';

export function knowledgeFileMeta(file: FileRecord): FileMeta {
  return {
    org_id: file.org_id,
    file_id: file.id,
    filename: file.original_filename,
    offering_ids: file.offerings.map((o) => o.id),
    scope_includes_company: file.scope_includes_company,
    use_as_source: file.use_as_source,
  };
}
