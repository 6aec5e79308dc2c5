/**
 * Uploading the picked files: which library files would be replaced (same names), the upload with its
 * fields, and removing the replaced files only once the new copies are in, so a failed upload never
 * loses a file. The outcome is an `UploadNote` for the analyst.
 */
import { LIMITS, type RepositoryFile, type RepositoryUploadFields, type RepositoryUploadResult } from '../../api/schemas';
import type { TaskpaneApi } from '../types';
import { fileName, sameName, type PickedFile, type UploadNote } from './state';

export interface UploadChoices {
  picked: readonly PickedFile[];
  tags: readonly string[];
  chosenOfferings: readonly number[];
  companyScope: boolean;
}

/** Library files with the same names as the picked ones (the service's search, then exact names). */
export async function sameNamed(api: Pick<TaskpaneApi, 'listRepositoryFiles'>, picked: readonly PickedFile[]): Promise<RepositoryFile[]> {
  const found: RepositoryFile[] = [];
  for (const f of picked) {
    const r = await api.listRepositoryFiles({ search: f.name, page_size: LIMITS.pageSizeMax });
    for (const old of r.results) if (old.original_filename && sameName(old.original_filename, f.name) && !found.some((x) => x.id === old.id)) found.push(old);
  }
  return found;
}

/** The upload's form fields: only what the analyst chose. */
export function uploadFields(c: Pick<UploadChoices, 'tags' | 'chosenOfferings' | 'companyScope'>): RepositoryUploadFields {
  return {
    scope_includes_company: c.companyScope,
    ...(c.tags.length ? { tags: [...c.tags] } : {}),
    ...(c.chosenOfferings.length ? { relevant_offerings: [...c.chosenOfferings] } : {}),
  };
}

export interface Replacement {
  replaced: string[];
  /** Each with why it was kept. */
  notReplaced: string[];
}

/** Deletes the files the new upload replaces, telling `forget` of each one gone; a refusal keeps that file. */
export async function replaceOld(
  api: Pick<TaskpaneApi, 'deleteRepositoryFile'>,
  replace: readonly RepositoryFile[],
  forget: (id: number) => void,
): Promise<Replacement> {
  const replaced: string[] = [];
  const notReplaced: string[] = [];
  for (const old of replace) {
    try {
      await api.deleteRepositoryFile(old.id);
      forget(old.id);
      replaced.push(fileName(old));
    } catch (e) {
      notReplaced.push(`${fileName(old)} (${e instanceof Error ? e.message : String(e)})`);
    }
  }
  return { replaced, notReplaced };
}

/** What the analyst is told of an upload: how many files, what was replaced or kept, what was refused. */
export function uploadNoteOf(result: RepositoryUploadResult, { replaced, notReplaced }: Replacement): UploadNote {
  const failed = result.failed ?? [];
  return {
    kind: failed.length || notReplaced.length ? 'warn' : 'ok',
    count: result.count,
    // Our service names the new files (an extension): the note then follows them to ready.
    ids: Array.isArray(result.file_ids) ? result.file_ids.filter((id): id is number => Number.isInteger(id)) : [],
    text:
      (replaced.length ? ` Replaced ${replaced.join(', ')}: the old ${replaced.length === 1 ? 'copy is' : 'copies are'} removed.` : '') +
      (notReplaced.length ? ` The old copy was kept for ${notReplaced.join('; ')}.` : '') +
      (failed.length ? ` Not accepted: ${failed.join('; ')}.` : ''),
  };
}

/**
 * The upload step: with `replace` null (not decided yet) and a service that can delete, the same-named
 * library files come back to be asked about first; otherwise the files go up, then `replace` goes.
 */
export async function uploadPicked(
  api: Pick<TaskpaneApi, 'listRepositoryFiles' | 'uploadRepositoryFiles' | 'deleteRepositoryFile'>,
  choices: UploadChoices,
  replace: readonly RepositoryFile[] | null,
  opts: { canDelete: boolean; forget: (id: number) => void },
): Promise<{ ask: RepositoryFile[] } | { note: UploadNote }> {
  if (replace === null && opts.canDelete) {
    const existing = await sameNamed(api, choices.picked);
    if (existing.length > 0) return { ask: existing };
  }
  const result = await api.uploadRepositoryFiles(
    choices.picked.map((f) => ({ name: f.name, data: f, ...(f.type ? { type: f.type } : {}) })),
    uploadFields(choices),
  );
  return { note: uploadNoteOf(result, await replaceOld(api, replace ?? [], opts.forget)) };
}
