/** What an overwrite would replace: the cells kept without overwrite that it writes with something else. Pure. */
import type { CellWrite, SkippedSlot, WritePlan } from '../types';
import { cellKey } from './corrections';
import type { Replacement } from './types';

export interface ReplacementCandidate {
  skip: SkippedSlot;
  write: CellWrite;
}

/** Cells `keep` skipped as occupied that `all` (the same questions with overwrite) writes. */
export function replacementCandidates(keep: WritePlan, all: WritePlan): ReplacementCandidate[] {
  const writes = new Map(all.writes.map((w) => [cellKey(w.tab, w.address), w]));
  return keep.skipped.flatMap((s) => {
    const w = s.reason === 'occupied' && s.address ? writes.get(cellKey(s.tab, s.address)) : undefined;
    return w ? [{ skip: s, write: w }] : [];
  });
}

/**
 * The replacements, from the values the plan read (each occupied skip's `current`): a cell that holds
 * nothing (the empty column of a marked answer) or already the new value loses nothing.
 */
export function replacementsOf(candidates: readonly ReplacementCandidate[]): Replacement[] {
  return candidates
    .map(({ skip, write }) => ({
      tab: write.tab,
      address: write.address,
      questionId: write.questionId,
      originalId: write.originalId,
      current: String(skip.current ?? ''),
      next: write.value,
    }))
    .filter((r) => r.current.trim() !== '' && r.current.trim() !== r.next.trim());
}
