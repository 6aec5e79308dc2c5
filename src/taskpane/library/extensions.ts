/**
 * Which extensions of v2 the service offers, as the Library pane needs them: a v2 service without
 * `GET /extensions/` answers 404, and then has none of them.
 */
import { EXTENSION, type Offering } from '../../api/schemas';
import type { TaskpaneApi } from '../types';
import type { Extensions } from './state';

export const NO_EXTENSIONS: Extensions = { canDelete: false, listsOfferings: false, orgNames: false, answers: false, replay: false, keysCurrent: false };

export function extensionsOf(names: readonly string[]): Extensions {
  const has = (name: string) => names.includes(name);
  return {
    canDelete: has(EXTENSION.repositoryDelete),
    listsOfferings: has(EXTENSION.offeringsList),
    orgNames: has(EXTENSION.organisationNames),
    answers: has(EXTENSION.answersLibrary),
    replay: has(EXTENSION.answersReplay),
    keysCurrent: has(EXTENSION.keysCurrent),
  };
}

/**
 * Asks the service which extensions it has (`ext`, as soon as known), then, where it lists offerings,
 * their names (`offerings`). Nothing is reported once `signal` is aborted; a failure of the first
 * question means none of them.
 */
export async function probeExtensions(
  client: Pick<TaskpaneApi, 'getExtensions' | 'listOfferings'>,
  signal: AbortSignal,
  report: { ext: (ext: Extensions) => void; offerings: (seen: readonly Offering[]) => void },
): Promise<void> {
  let ext: Extensions;
  try {
    ext = extensionsOf((await client.getExtensions({ signal })).extensions);
  } catch {
    if (!signal.aborted) report.ext(NO_EXTENSIONS);
    return;
  }
  report.ext(ext);
  if (!ext.listsOfferings) return;
  try {
    const offerings = await client.listOfferings({ signal });
    if (!signal.aborted) report.offerings(offerings.results);
  } catch {
    if (!signal.aborted) report.ext(NO_EXTENSIONS);
  }
}
