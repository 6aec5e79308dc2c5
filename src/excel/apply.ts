/**
 * Applying a fill's write plan to the workbook: the cells re-checked (formulas typed and sheets
 * protected since planning), an Undo snapshot saved before the first write, then the values, trust
 * colours and source notes written in batches under the payload budget; what could not be shown
 * (a protected sheet's colours, notes Excel refused) is said, never dropped silently.
 */
import { cellRefusal, describeAnnotationGaps, groupIntoBlocks, refusalDetail, type AnnotationGap, type CellWrite, type WritePlan } from '../fill';
import { cellState, type AdapterEnv } from './adapter-env';
import { addAnnotationOp, sourceNoteText, TRUST_FILLS, type AnnotationKind } from './annotations';
import { runBatched, type BatchOp, type CellFailure } from './batch';
import { cellTextForValues } from './cell-text';
import { blocksByKey, fillOp, valuesOp } from './ops';
import { loadSheetNames, readCells, type CellRead, type WorkbookRead } from './read-cells';
import { emptySnapshot, snapshotBlocks } from './snapshot';
import type { AnnotateOptions, ApplyResult } from './types';
import type { UndoSnapshot } from './undo-store';

type Kept = Map<string, { write: CellWrite; before: CellRead }[]>;

interface Queued {
  snapshot: UndoSnapshot;
  valueOps: BatchOp[];
  fillOps: { op: BatchOp; tab: string }[];
  noteOps: { op: BatchOp; tab: string; address: string; kind: AnnotationKind }[];
  written(): number;
}

interface NotePlan {
  /** Notes where this Excel has them, else comments; null: neither, so no source notes at all. */
  kind: AnnotationKind | null;
  wanted: boolean;
}

export async function applyPlan(env: AdapterEnv, writePlan: WritePlan, annotate: AnnotateOptions): Promise<ApplyResult> {
  const f = env.features();
  const key = await env.documentKey();
  const failed: CellFailure[] = [];
  const warnings: string[] = [];
  const gaps: AnnotationGap[] = [];
  if (writePlan.writes.length === 0) return { written: 0, failed, syncs: 0 };
  const kind: AnnotationKind | null = f.notes ? 'note' : f.comments ? 'comment' : null;
  const notes: NotePlan = { kind, wanted: !!annotate.sourceNotes && kind !== null };
  if (annotate.sourceNotes && !notes.wanted) {
    gaps.push({ kind: 'note', why: 'unsupported', tab: null, count: writePlan.writes.filter((w) => sourceNoteText(w) !== null).length });
  }

  return env.run(async (context) => {
    let syncs = 0;
    const onSync = () => void syncs++;
    const sheetNames = await loadSheetNames(context, onSync);
    const byTab = writesByTab(writePlan.writes, sheetNames, failed);
    const targets = [...byTab].map(([tab, writes]) => ({ tab, addresses: [...new Set(writes.map((w) => w.address))] }));
    const read = await readCells(context, targets, { fills: !!annotate.highlight, annotations: notes.wanted }, { support: f, budgetBytes: env.budget, onSync });
    const kept = recheck(byTab, read, failed);

    // Undo snapshot first: saved before the first write so even an interrupted fill can be undone.
    const queued = queueWrites(kept, read, key, annotate, notes, gaps);
    const { snapshot } = queued;
    if (snapshot.cellCount > 0 && !env.store.save(snapshot)) {
      warnings.push('The undo snapshot is too large for browser storage: Undo works until the task pane is closed.');
    }

    const beforeChunk = f.suspendCalculation ? (ctx: Excel.RequestContext) => ctx.application.suspendApiCalculationUntilNextSync() : undefined;
    const ops = [...queued.valueOps, ...queued.fillOps.map((x) => x.op), ...queued.noteOps.map((n) => n.op)];
    const result = await runBatched(context, ops, { budgetBytes: env.budget, beforeChunk, onSync });
    const added = new Set(result.succeeded);
    const valueCells = new Set(queued.valueOps.flatMap((op) => op.cells.map((c) => `${c.tab}!${c.address}`)));
    for (const x of result.failed) if (valueCells.has(`${x.tab}!${x.address}`)) failed.push(x);
    gaps.push(...refusedAnnotations(queued, added));
    keepAddedAnnotations(env, queued, added);

    const out: ApplyResult = { written: queued.written(), failed, syncs };
    const shown = gaps.filter((g) => g.count > 0);
    if (shown.length > 0) out.annotationGaps = shown;
    warnings.push(...describeAnnotationGaps(shown));
    if (warnings.length > 0) out.warnings = warnings;
    return out;
  });
}

/** The writes by sheet; a write to a sheet that no longer exists fails. */
function writesByTab(writes: readonly CellWrite[], sheetNames: readonly string[], failed: CellFailure[]): Map<string, CellWrite[]> {
  const byTab = new Map<string, CellWrite[]>();
  for (const w of writes) {
    if (!sheetNames.includes(w.tab)) {
      failed.push({ tab: w.tab, address: w.address, reason: `The sheet "${w.tab}" no longer exists.` });
      continue;
    }
    let list = byTab.get(w.tab);
    if (!list) byTab.set(w.tab, (list = []));
    list.push(w);
  }
  return byTab;
}

/**
 * Re-checks what changed since planning: formulas typed meanwhile, a sheet protected meanwhile.
 * (A value typed meanwhile is not re-checked: the plan already decided on overwriting.)
 */
function recheck(byTab: ReadonlyMap<string, CellWrite[]>, read: WorkbookRead, failed: CellFailure[]): Kept {
  const kept: Kept = new Map();
  for (const [tab, writes] of byTab) {
    const cells = read.cells.get(tab)!;
    const seen = new Set<string>();
    const list: { write: CellWrite; before: CellRead }[] = [];
    for (const write of writes) {
      const before = cells.get(write.address);
      if (!before || seen.has(write.address)) continue;
      seen.add(write.address);
      const refusal = cellRefusal(cellState(read, tab, write.address), { sheetProtected: read.protectedSheets.has(tab), overwrite: true });
      if (refusal && refusal !== 'occupied') failed.push({ tab, address: write.address, reason: refusalDetail(refusal, `${tab}!${write.address}`) });
      else list.push({ write, before });
    }
    if (list.length > 0) kept.set(tab, list);
  }
  return kept;
}

/** The snapshot of every kept cell, and the value, colour and note operations that write them. */
function queueWrites(kept: Kept, read: WorkbookRead, key: string, annotate: AnnotateOptions, notes: NotePlan, gaps: AnnotationGap[]): Queued {
  const snapshot = emptySnapshot(key);
  let written = 0;
  const queued: Queued = { snapshot, valueOps: [], fillOps: [], noteOps: [], written: () => written };
  const onWritten = (n: number) => void (written += n);
  for (const [tab, list] of kept) {
    const isProtected = read.protectedSheets.has(tab);
    const highlight = !!annotate.highlight && !isProtected;
    const coloured = list.filter((k) => k.write.trust).map((k) => ({ address: k.write.address, key: TRUST_FILLS[k.write.trust!] }));
    if (annotate.highlight && isProtected) gaps.push({ kind: 'colour', why: 'protected', tab, count: coloured.length });
    const blocks = groupIntoBlocks(list.map((k) => ({ address: k.write.address, k })));
    snapshot.tabs.push({ tab, blocks: snapshotBlocks(blocks, (c) => c.k.before, highlight) });
    snapshot.cellCount += list.length;

    for (const b of blocks) {
      const block = {
        ...b,
        cells: b.cells.map((row) => row.map((c) => ({ address: c.address, input: cellTextForValues(c.k.write.value, c.k.write.forceText) }))),
      };
      queued.valueOps.push(valuesOp({ tab, block }, onWritten));
    }
    if (highlight) for (const { key: colour, block } of blocksByKey(coloured)) queued.fillOps.push({ op: fillOp(tab, block, colour), tab });
    if (notes.wanted) {
      // A cell that already has a note or comment keeps it.
      const wanted = list
        .map(({ write }) => ({ write, text: sourceNoteText(write) }))
        .filter((n) => n.text !== null && !read.annotated.has(`${tab}!${n.write.address}`));
      if (isProtected) gaps.push({ kind: 'note', why: 'protected', tab, count: wanted.length });
      else
        for (const { write, text } of wanted)
          queued.noteOps.push({ op: addAnnotationOp(tab, write.address, text!, notes.kind!), tab, address: write.address, kind: notes.kind! });
    }
  }
  snapshot.annotations = queued.noteOps.map(({ tab, address, kind }) => ({ tab, address, kind }));
  return queued;
}

/** Colours and notes Excel refused, counted per sheet. */
function refusedAnnotations(queued: Queued, added: ReadonlySet<BatchOp>): AnnotationGap[] {
  const gaps: AnnotationGap[] = [];
  for (const [kind, list] of [
    ['colour', queued.fillOps],
    ['note', queued.noteOps],
  ] as const) {
    const refused = new Map<string, number>();
    for (const x of list) if (!added.has(x.op)) refused.set(x.tab, (refused.get(x.tab) ?? 0) + x.op.cells.length);
    for (const [tab, count] of refused) gaps.push({ kind, why: 'refused', tab, count });
  }
  return gaps;
}

/** The snapshot lists only the notes that were added, so Undo fill deletes no note it did not add. */
function keepAddedAnnotations(env: AdapterEnv, queued: Queued, added: ReadonlySet<BatchOp>): void {
  const { snapshot } = queued;
  const addedAnnotations = queued.noteOps.filter((n) => added.has(n.op)).map(({ tab, address, kind }) => ({ tab, address, kind }));
  if (addedAnnotations.length !== snapshot.annotations.length && snapshot.cellCount > 0) {
    snapshot.annotations = addedAnnotations;
    env.store.save(snapshot);
  }
}
