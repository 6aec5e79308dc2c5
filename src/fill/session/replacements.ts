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

/** The replacements, given each candidate's current text: a cell already holding the new value loses nothing. */
export function replacementsOf(candidates: readonly ReplacementCandidate[], current: readonly unknown[]): Replacement[] {
  return candidates
    .map(({ write }, i) => ({
      tab: write.tab,
      address: write.address,
      questionId: write.questionId,
      originalId: write.originalId,
      current: String(current[i] ?? ''),
      next: write.value,
    }))
    .filter((r) => r.current.trim() !== r.next.trim());
}
