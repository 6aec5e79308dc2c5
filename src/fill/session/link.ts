/**
 * What is remembered about this workbook's fill (`FillLink`): read once and cached, saved through the
 * front end's store, and how a write, an undo and later edits change or read it. The rules are pure.
 */
import type { WritePlan } from '../types';
import { cellKey, textHash } from './corrections';
import type { ApplyOutcome, CellRef, FillLink, LaterEdit, LinkStore } from './types';

export interface LinkCache {
  read(): Promise<FillLink | null>;
  save(next: FillLink | null): Promise<void>;
}

export function createLinkCache(store: LinkStore | undefined): LinkCache {
  let link: FillLink | null = null;
  return {
    async read() {
      if (link) return link;
      return (link = (await store?.read()) ?? null);
    },
    async save(next) {
      link = next;
      if (!store) return;
      if (next) await store.write(next);
      else await store.clear();
    },
  };
}

/** The link once `plan` was applied at `at`: the cells written join those of earlier fills (with what was written). */
export function linkAfterWrite(link: FillLink, plan: WritePlan, result: ApplyOutcome, at: string): FillLink {
  const cells = { ...(link.cells ?? {}) };
  const failed = new Set(result.failed.map((f) => cellKey(f.tab, f.address)));
  for (const w of plan.writes) if (!failed.has(cellKey(w.tab, w.address))) cells[cellKey(w.tab, w.address)] = textHash(w.value);
  return {
    questionnaireId: link.questionnaireId,
    startedAt: link.startedAt,
    ...(link.fileName ? { fileName: link.fileName } : {}),
    writtenAt: at,
    cells,
    ...(result.written > 0 ? { cellsWrittenAt: at } : link.cellsWrittenAt ? { cellsWrittenAt: link.cellsWrittenAt } : {}),
    ...(link.corrected ? { corrected: link.corrected } : {}),
  };
}

/** Cells the plan skipped as occupied that hold what an earlier fill of this workbook wrote. */
export function earlierCellsSkipped(plan: WritePlan, link: FillLink): number {
  const earlier = link.cells ?? {};
  return plan.skipped.filter((s) => s.reason === 'occupied' && s.address && cellKey(s.tab, s.address) in earlier).length;
}

/** The link after an undo: the fill is undone, the kept cells are the analyst's own, nothing is left to undo. */
export function linkAfterUndo(link: FillLink, at: string): FillLink {
  return { questionnaireId: link.questionnaireId, startedAt: link.startedAt, ...(link.fileName ? { fileName: link.fileName } : {}), undoneAt: at };
}

/** The cells to read to find later edits: every cell the fills wrote or the review corrected. */
export function trackedCells(link: FillLink): { keys: string[]; refs: CellRef[] } {
  const keys = [...new Set([...Object.keys(link.cells ?? {}), ...(link.corrected ?? [])])];
  const refs = keys.map((k) => {
    const bang = k.lastIndexOf('!');
    return { tab: k.slice(0, bang), address: k.slice(bang + 1) };
  });
  return { keys, refs };
}

/** Of the tracked cells read as `values`, those corrected from the review or holding something else than the fill wrote. */
export function laterEditsOf(link: FillLink, tracked: { keys: string[]; refs: CellRef[] }, values: readonly unknown[]): LaterEdit[] {
  const cells = link.cells ?? {};
  const corrected = new Set(link.corrected ?? []);
  return tracked.refs
    .map((ref, i) => ({ ...ref, value: String(values[i] ?? '') }))
    .filter((c, i) => corrected.has(tracked.keys[i]!) || textHash(c.value.trim()) !== cells[tracked.keys[i]!]);
}
