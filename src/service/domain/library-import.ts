/**
 * The answer library's export uploaded back carries the decisions it states (../knowledge/extract/
 * library-export.ts): a row marked approved comes back approved, a canonical row settles its question as
 * the settle endpoint does (the other entries answering it retired), a retired row is not learned at all.
 * Each decision is recorded as the uploader's, made when the file is read, its event naming who had
 * approved it in the export. Only an upload by an admin or repository manager applies them (a read-only
 * key cannot upload); anyone else's upload is learned unapproved, and the file's note says why.
 */
import type { FileRecord } from '../storage/types';
import type { LibraryDecision } from '../knowledge/types';
import type { LibraryRow } from '../storage/library';
import { nowIso } from '../clock';
import { roleEditsLibrary, settleOn, userName, type LibraryDeps } from './library-actions';

const PAGE = 500;

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Every entry learned from the file. */
async function entriesOf(deps: LibraryDeps, file: Pick<FileRecord, 'id' | 'org_id'>): Promise<LibraryRow[]> {
  const rows: LibraryRow[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await deps.store.library.list(file.org_id, { file_id: file.id, review_cutoff: nowIso() }, { limit: PAGE, offset });
    rows.push(...page.rows);
    if (page.rows.length < PAGE) return rows;
  }
}

/**
 * Applies the export's decisions to the entries just learned from `file`; the sentence the file's note
 * shows ("library export: 3 approvals and 1 settlement applied").
 */
export async function applyLibraryDecisions(
  deps: LibraryDeps,
  file: Pick<FileRecord, 'id' | 'org_id' | 'user_id' | 'original_filename'>,
  decisions: readonly LibraryDecision[],
): Promise<string> {
  const user = await deps.store.users.get(file.org_id, file.user_id);
  if (!user || !roleEditsLibrary(user)) {
    return `library export: its ${count(decisions.length, 'approval or settlement', 'approvals and settlements')} not applied (only an admin or repository manager's upload applies them); its entries are unapproved`;
  }
  const by = userName(user);
  const rows = new Map((await entriesOf(deps, file)).map((r) => [`${r.location}\n${r.question}`, r]));
  const from = (d: LibraryDecision) => `imported from "${file.original_filename}"${d.approved_by ? `, where ${d.approved_by} approved it` : ''}`;
  let approved = 0;
  let settled = 0;
  // Settlements first: a later approval of an entry they retire is then refused, never undone by them.
  for (const d of [...decisions].sort((a, b) => Number(b.status === 'canonical') - Number(a.status === 'canonical'))) {
    const row = rows.get(`${d.location}\n${d.question}`);
    if (!row) continue;
    if (d.status === 'canonical') {
      if (row.state?.status === 'canonical') continue;
      await settleOn(deps, file.org_id, by, row, from(d));
      settled++;
      continue;
    }
    const now = await deps.store.library.get(file.org_id, row.id);
    if (!now || now.state?.approved_at || now.state?.status === 'retired') continue;
    const at = nowIso();
    await deps.store.library.change(
      file.org_id,
      now,
      { approved_by: by, approved_at: at, updated_by: by, updated_at: at },
      { action: 'approved', by_name: by, detail: from(d), at, version: null, version_question: null, version_slots: null },
    );
    approved++;
  }
  return `library export: ${count(approved, 'approval', 'approvals')} and ${count(settled, 'settlement', 'settlements')} applied`;
}
