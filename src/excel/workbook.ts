/**
 * `WorkbookAdapter` over Office.js: the only place that writes into the analyst's workbook.
 * Reads run in a constant number of syncs, writes are packed into rectangular `values` writes and
 * chunks under a payload budget, and every fill first saves an Undo snapshot of the touched cells.
 * Its parts: ops.ts (write operations), snapshot.ts (Undo), annotations.ts (colours, notes),
 * navigation.ts (selection), merges.ts; the cell safety rule is src/fill's `cellRefusal`.
 */
import type { QuestionWithAnswers } from '../api/schemas';
import {
  anchorSlotsToMerges,
  cellRefusal,
  describeAnnotationGaps,
  groupIntoBlocks,
  refusalDetail,
  resolveTab,
  targetCells,
  type AnnotationGap,
  type CellState,
  type CellWrite,
  type PlanOptions,
  type WritePlan,
} from '../fill';
import { parseA1, toA1 } from '../fill';
import { addAnnotationOp, sourceNoteText, TRUST_FILLS, type AnnotationKind } from './annotations';
import { runBatched, type BatchOp, type CellFailure } from './batch';
import { cellTextForValues } from './cell-text';
import { mergeAnchors } from './merges';
import { getSelection, onSelectionChanged, select, splitAddress } from './navigation';
import { detectSupport, errorMessage, officeErrorCode, type ApiFeature } from './office';
import { blocksByKey, fillOp, valuesOp } from './ops';
import { isFormula, loadSheetNames, readCells, type CellRead, type WorkbookRead } from './read-cells';
import { loadPlanner } from './planner';
import { readOpenWorkbook, type ReadFileOptions } from './read-file';
import { addCellToSnapshot, emptySnapshot, restoreSnapshot, snapshotBlocks, snapshotHolds } from './snapshot';
import type { AnnotateOptions, ApplyResult, CellRef, OverwritePlans, ReadProgress, UndoOptions, UndoResult, WorkbookAdapter } from './types';
import { UndoStore, type StorageLike } from './undo-store';
import { fnv1a } from '../fill/fingerprint';

export { sourceNoteText, TRUST_FILLS } from './annotations';
export { splitAreaAddresses } from './merges';

export interface ExcelWorkbookOptions {
  /** Where Undo snapshots live: the pane's storage (localStorage under Office's partition key, else memory). */
  storage: StorageLike;
  /** Use no API above this ExcelApi version even if Excel has it (e.g. '1.1' to behave like the oldest Excel). */
  excelApiVersion?: string;
  /** Request budget per sync; Excel on the web rejects requests over 5 MB. Default 4 MB. */
  payloadBudgetBytes?: number;
  /** Options for reading the open workbook file. */
  readFile?: Omit<ReadFileOptions, 'onProgress'>;
}

export const DEFAULT_PAYLOAD_BUDGET = 4 * 1024 * 1024;

/** The document setting holding the workbook's own id: it travels with the file, so a saved-as copy keeps it. */
export const WORKBOOK_ID_SETTING = 'qfill.workbookId';

function documentSettings(): Partial<Office.Settings> | null {
  return typeof Office !== 'undefined' ? (Office.context?.document?.settings ?? null) : null;
}

function newWorkbookId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`;
}

/** The fill planned with the cells as read: one call per set of options. */
type Planner = (options: PlanOptions) => WritePlan;

function fnv1aHex(text: string): string {
  return fnv1a(text).toString(16).padStart(8, '0');
}


/** What the planner and the safety check see of a cell that was read (`locked` only counts on a protected sheet). */
function cellState(read: WorkbookRead, tab: string, address: string): CellState | undefined {
  const c = read.cells.get(tab)?.get(address);
  if (!c) return undefined;
  const value = c.valueType === 'Empty' ? null : c.value;
  return { value, hasFormula: c.hasFormula, ...(c.locked !== undefined ? { locked: read.protectedSheets.has(tab) && c.locked } : {}) };
}

/** Sends a one-cell write; Excel's refusal becomes the reason it was not written. */
async function syncOneWrite(context: Excel.RequestContext, where: string): Promise<{ written: boolean; reason?: string }> {
  try {
    await context.sync();
    return { written: true };
  } catch (e) {
    const code = officeErrorCode(e);
    if (code === 'AccessDenied') return { written: false, reason: `${where} is locked on a protected sheet.` };
    if (code) return { written: false, reason: `Excel refused the change (${code}): ${errorMessage(e)}` };
    throw e;
  }
}

export function createExcelWorkbook(options: ExcelWorkbookOptions): WorkbookAdapter {
  const budget = options.payloadBudgetBytes ?? DEFAULT_PAYLOAD_BUDGET;
  let support: Record<ApiFeature, boolean> | null = null;
  const features = () => (support ??= detectSupport(options.excelApiVersion));
  const store = new UndoStore(options.storage, '');
  const undoStore = () => store;
  let cachedKey: string | null = null;

  async function documentKey(): Promise<string> {
    const id = await workbookId();
    const place = await placeKey();
    return id ? `${place}#${id}` : place;
  }

  /** Where the workbook is: its address, or for an unsaved one a fingerprint of its sheets. */
  async function placeKey(): Promise<string> {
    const url = typeof Office !== 'undefined' ? Office.context?.document?.url : null;
    if (url) return `url:${url}`;
    if (cachedKey) return cachedKey;
    // An unsaved workbook has no URL: fingerprint its sheets (names and ids), which a fill never changes.
    const names = await Excel.run(async (context) => {
      const sheets = context.workbook.worksheets;
      sheets.load('items/name,items/id');
      await context.sync();
      return sheets.items.map((s) => `${s.id}\u0001${s.name}`);
    });
    cachedKey = `sheets:${fnv1aHex(names.join('\u0002'))}`;
    return cachedKey;
  }

  async function workbookId(): Promise<string | null> {
    const value = documentSettings()?.get?.(WORKBOOK_ID_SETTING);
    return typeof value === 'string' && value !== '' ? value : null;
  }

  async function assignWorkbookId(): Promise<string | null> {
    const existing = await workbookId();
    if (existing) return existing;
    const settings = documentSettings();
    const save = settings?.saveAsync?.bind(settings);
    if (typeof settings?.set !== 'function' || !save) return null;
    const id = newWorkbookId();
    settings.set(WORKBOOK_ID_SETTING, id);
    await new Promise<void>((resolve, reject) =>
      save((r) => (r.status === Office.AsyncResultStatus.Failed ? reject(new Error(`Excel could not save the workbook's id: ${r.error?.message ?? 'unknown error'}`)) : resolve())),
    );
    return id;
  }

  /** Excel.run with a whole fill as one Ctrl+Z step where Excel supports it (ExcelApi 1.20). */
  function run<T>(batch: (context: Excel.RequestContext) => Promise<T>): Promise<T> {
    if (features().mergeUndoGroup) return Excel.run({ mergeUndoGroup: true } as Excel.RunOptions, batch);
    return Excel.run(batch);
  }

  /**
   * Reads the target cells once (mark cells included, slots in merged areas moved to their top-left
   * cell) and plans with what was read: `plan` once, `planOverwrite` both ways from the same read.
   */
  async function planFromOneRead<T>(questions: QuestionWithAnswers[], decide: (planner: Planner) => T): Promise<T> {
    const f = features();
    const { planFillWithMarks, withMarksWritable } = await loadPlanner();
    return Excel.run(async (context) => {
      const onSync = () => undefined;
      const sheetNames = await loadSheetNames(context, onSync);
      let targets = targetCells(withMarksWritable(questions), sheetNames);
      let effective = questions;

      // A slot inside a merged area is written at its top-left cell (ExcelApi 1.13 lists merges).
      if (f.mergedAreas && targets.length > 0) {
        const anchors = await mergeAnchors(context, targets, onSync);
        if (anchors.size > 0) {
          effective = anchorSlotsToMerges(questions, sheetNames, (tab, address) => anchors.get(tab)?.get(address));
          targets = targetCells(withMarksWritable(effective), sheetNames);
        }
      }

      const read = await readCells(context, targets, {}, { support: f, budgetBytes: budget, onSync });
      const view = {
        sheetNames,
        protectedSheets: [...read.protectedSheets],
        cell: (tab: string, address: string) => cellState(read, tab, address),
      };
      return decide((planOptions) => planFillWithMarks(effective, view, planOptions));
    });
  }

  function plan(questions: QuestionWithAnswers[], planOptions: PlanOptions): Promise<WritePlan> {
    return planFromOneRead(questions, (planner) => planner(planOptions));
  }

  function planOverwrite(questions: QuestionWithAnswers[], planOptions: Omit<PlanOptions, 'overwrite'>): Promise<OverwritePlans> {
    return planFromOneRead(questions, (planner) => ({ keep: planner({ ...planOptions, overwrite: false }), all: planner({ ...planOptions, overwrite: true }) }));
  }

  async function apply(writePlan: WritePlan, annotate: AnnotateOptions): Promise<ApplyResult> {
    const f = features();
    const key = await documentKey();
    const failed: CellFailure[] = [];
    const warnings: string[] = [];
    const gaps: AnnotationGap[] = [];
    if (writePlan.writes.length === 0) return { written: 0, failed, syncs: 0 };
    const noteKind: AnnotationKind | null = f.notes ? 'note' : f.comments ? 'comment' : null;
    const wantNotes = !!annotate.sourceNotes && noteKind !== null;
    if (annotate.sourceNotes && !wantNotes) {
      gaps.push({ kind: 'note', why: 'unsupported', tab: null, count: writePlan.writes.filter((w) => sourceNoteText(w) !== null).length });
    }

    return run(async (context) => {
      let syncs = 0;
      const onSync = () => void syncs++;
      const sheetNames = await loadSheetNames(context, onSync);

      const byTab = new Map<string, CellWrite[]>();
      for (const w of writePlan.writes) {
        if (!sheetNames.includes(w.tab)) {
          failed.push({ tab: w.tab, address: w.address, reason: `The sheet "${w.tab}" no longer exists.` });
          continue;
        }
        let list = byTab.get(w.tab);
        if (!list) byTab.set(w.tab, (list = []));
        list.push(w);
      }
      const targets = [...byTab].map(([tab, writes]) => ({ tab, addresses: [...new Set(writes.map((w) => w.address))] }));
      const read = await readCells(context, targets, { fills: !!annotate.highlight, annotations: wantNotes }, { support: f, budgetBytes: budget, onSync });

      // Re-check what changed since planning: formulas typed meanwhile, a sheet protected meanwhile.
      // (A value typed meanwhile is not re-checked: the plan already decided on overwriting.)
      const kept = new Map<string, { write: CellWrite; before: CellRead }[]>();
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

      // Undo snapshot first: saved before the first write so even an interrupted fill can be undone.
      const snapshot = emptySnapshot(key);
      const valueOps: BatchOp[] = [];
      const fillOps: { op: BatchOp; tab: string }[] = [];
      const noteOps: { op: BatchOp; tab: string; address: string; kind: AnnotationKind }[] = [];
      let written = 0;
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
          const block = { ...b, cells: b.cells.map((row) => row.map((c) => ({ address: c.address, input: cellTextForValues(c.k.write.value, c.k.write.forceText) }))) };
          valueOps.push(valuesOp({ tab, block }, onWritten));
        }
        if (highlight) for (const { key: colour, block } of blocksByKey(coloured)) fillOps.push({ op: fillOp(tab, block, colour), tab });
        if (wantNotes) {
          const notes = list.map(({ write }) => ({ write, text: sourceNoteText(write) })).filter((n) => n.text !== null && !read.annotated.has(`${tab}!${n.write.address}`));
          if (isProtected) gaps.push({ kind: 'note', why: 'protected', tab, count: notes.length });
          else for (const { write, text } of notes) noteOps.push({ op: addAnnotationOp(tab, write.address, text!, noteKind!), tab, address: write.address, kind: noteKind! });
        }
      }
      snapshot.annotations = noteOps.map(({ tab, address, kind }) => ({ tab, address, kind }));
      const store = undoStore();
      if (snapshot.cellCount > 0 && !store.save(snapshot)) {
        warnings.push('The undo snapshot is too large for browser storage: Undo works until the task pane is closed.');
      }

      const beforeChunk = f.suspendCalculation ? (ctx: Excel.RequestContext) => ctx.application.suspendApiCalculationUntilNextSync() : undefined;
      const result = await runBatched(context, [...valueOps, ...fillOps.map((x) => x.op), ...noteOps.map((n) => n.op)], { budgetBytes: budget, beforeChunk, onSync });
      const valueCells = new Set(valueOps.flatMap((op) => op.cells.map((c) => `${c.tab}!${c.address}`)));
      for (const x of result.failed) if (valueCells.has(`${x.tab}!${x.address}`)) failed.push(x);
      const added = new Set(result.succeeded);
      for (const [kind, list] of [['colour', fillOps], ['note', noteOps]] as const) {
        const refused = new Map<string, number>();
        for (const x of list) if (!added.has(x.op)) refused.set(x.tab, (refused.get(x.tab) ?? 0) + x.op.cells.length);
        for (const [tab, count] of refused) gaps.push({ kind, why: 'refused', tab, count });
      }
      const addedAnnotations = noteOps.filter((n) => added.has(n.op)).map(({ tab, address, kind }) => ({ tab, address, kind }));
      if (addedAnnotations.length !== snapshot.annotations.length && snapshot.cellCount > 0) {
        snapshot.annotations = addedAnnotations;
        store.save(snapshot);
      }
      const out: ApplyResult = { written, failed, syncs };
      const shown = gaps.filter((g) => g.count > 0);
      if (shown.length > 0) out.annotationGaps = shown;
      warnings.push(...describeAnnotationGaps(shown));
      if (warnings.length > 0) out.warnings = warnings;
      return out;
    });
  }

  async function canUndo(): Promise<boolean> {
    return undoStore().load(await documentKey()) !== null;
  }

  async function undo(options: UndoOptions = {}): Promise<UndoResult | null> {
    const key = await documentKey();
    const store = undoStore();
    const snapshot = store.load(key);
    if (!snapshot) return null;
    const f = features();
    return run(async (context) => {
      let syncs = 0;
      const onSync = () => void syncs++;
      const sheetNames = await loadSheetNames(context, onSync);
      const keep = new Set((options.keep ?? []).map((c) => `${c.tab}!${c.address}`));
      const { restored, failed } = await restoreSnapshot(context, snapshot, sheetNames, { support: f, budgetBytes: budget, onSync }, keep);
      if (failed.length === 0) store.clear(key);
      const out: UndoResult = { restored, syncs };
      if (failed.length > 0) out.failed = failed;
      return out;
    });
  }

  async function insertIntoSelection(text: string, insertOptions: { overwrite?: boolean }): Promise<{ written: boolean; reason?: string }> {
    if (text.trim() === '') return { written: false, reason: 'There is nothing to insert.' };
    const f = features();
    return Excel.run(async (context) => {
      const selected = context.workbook.getSelectedRange();
      const cell = selected.getCell(0, 0);
      cell.load('address, values, formulas, valueTypes');
      const sheet = cell.worksheet;
      sheet.load('name');
      if (f.protection) {
        sheet.protection.load('protected');
        cell.format.protection.load('locked');
      }
      try {
        await context.sync();
      } catch (e) {
        if (officeErrorCode(e) === 'InvalidSelection') return { written: false, reason: 'Select a cell first.' };
        throw e;
      }
      const where = `${sheet.name}!${splitAddress(cell.address).cell}`;
      const formula = cell.formulas[0]![0];
      const value = cell.values[0]![0];
      const state: CellState = {
        value: cell.valueTypes[0]![0] === 'Empty' ? null : value,
        hasFormula: isFormula(formula, value),
        ...(f.protection ? { locked: sheet.protection.protected && cell.format.protection.locked !== false } : {}),
      };
      const refusal = cellRefusal(state, { sheetProtected: f.protection && sheet.protection.protected, overwrite: insertOptions.overwrite });
      if (refusal === 'occupied') return { written: false, reason: `${where} already holds a value; choose overwrite to replace it.` };
      if (refusal) return { written: false, reason: refusalDetail(refusal, where) };
      cell.values = [[cellTextForValues(text.trim())]];
      return syncOneWrite(context, where);
    });
  }

  function writeCell(ref: CellRef, text: string, writeOptions: { overwrite?: boolean }): Promise<{ written: boolean; reason?: string }> {
    return writeCells([{ ref, text }], writeOptions);
  }

  /** Corrections: every cell checked first, then all written in one sync, or none. */
  async function writeCells(cells: readonly { ref: CellRef; text: string }[], writeOptions: { overwrite?: boolean }): Promise<{ written: boolean; reason?: string }> {
    if (cells.length === 0) return { written: true };
    const key = await documentKey();
    const f = features();
    return run(async (context) => {
      const onSync = () => undefined;
      const sheetNames = await loadSheetNames(context, onSync);
      const resolved: { tab: string; address: string; row: number; column: number; text: string }[] = [];
      for (const { ref, text } of cells) {
        const tab = resolveTab(ref.tab, sheetNames);
        if (!tab) return { written: false, reason: `The workbook has no sheet named "${ref.tab}".` };
        const c = parseA1(ref.address);
        if (!c) return { written: false, reason: `"${ref.address}" is not a cell address.` };
        resolved.push({ tab, address: toA1(c.row, c.column), row: c.row, column: c.column, text });
      }
      const byTab = new Map<string, string[]>();
      for (const r of resolved) byTab.set(r.tab, [...(byTab.get(r.tab) ?? []), r.address]);
      const read = await readCells(context, [...byTab].map(([tab, addresses]) => ({ tab, addresses })), {}, { support: f, budgetBytes: budget, onSync });
      const store = undoStore();
      const snapshot = store.load(key);
      const fresh: { tab: string; address: string; before: CellRead }[] = [];
      for (const r of resolved) {
        const where = `${r.tab}!${r.address}`;
        const before = read.cells.get(r.tab)?.get(r.address);
        if (!before) return { written: false, reason: `${where} could not be read.` };
        // A cell the fill (or an earlier correction) wrote is ours to replace.
        const inSnapshot = snapshot !== null && snapshotHolds(snapshot, r.tab, r.row, r.column);
        const refusal = cellRefusal(cellState(read, r.tab, r.address), { sheetProtected: read.protectedSheets.has(r.tab), overwrite: writeOptions.overwrite || inSnapshot });
        if (refusal === 'occupied') return { written: false, reason: `${where} already holds a value that the fill did not write; choose to replace it if you mean to.` };
        if (refusal) return { written: false, reason: refusalDetail(refusal, where) };
        if (!inSnapshot) fresh.push({ tab: r.tab, address: r.address, before });
      }
      if (fresh.length > 0) {
        // Saved before the write, like a fill's snapshot: Undo fill then restores these cells too.
        const next = snapshot ?? emptySnapshot(key);
        for (const c of fresh) addCellToSnapshot(next, c.tab, c.address, c.before);
        store.save(next);
      }
      for (const r of resolved) {
        const range = context.workbook.worksheets.getItem(r.tab).getRange(r.address);
        range.values = [[r.text.trim() === '' ? '' : cellTextForValues(r.text.trim())]];
        range.untrack();
      }
      return syncOneWrite(context, resolved.map((r) => `${r.tab}!${r.address}`).join(', '));
    });
  }

  /** The displayed text of cells, in one batched read; '' for an empty cell or one that does not exist. */
  async function readValues(refs: CellRef[]): Promise<string[]> {
    if (refs.length === 0) return [];
    const f = features();
    return Excel.run(async (context) => {
      const onSync = () => undefined;
      const sheetNames = await loadSheetNames(context, onSync);
      const byTab = new Map<string, Set<string>>();
      const resolved = refs.map((ref) => {
        const tab = resolveTab(ref.tab, sheetNames);
        const c = parseA1(ref.address);
        if (!tab || !c) return null;
        const address = toA1(c.row, c.column);
        let set = byTab.get(tab);
        if (!set) byTab.set(tab, (set = new Set()));
        set.add(address);
        return { tab, address };
      });
      const targets = [...byTab].map(([tab, set]) => ({ tab, addresses: [...set] }));
      const read = await readCells(context, targets, {}, { support: f, budgetBytes: budget, onSync });
      return resolved.map((r) => {
        const cell = r ? read.cells.get(r.tab)?.get(r.address) : undefined;
        return cell && cell.valueType !== 'Empty' ? String(cell.value ?? '') : '';
      });
    });
  }

  async function readFile(onProgress?: (p: ReadProgress) => void) {
    return readOpenWorkbook({ ...options.readFile, onProgress });
  }

  return {
    readFile,
    plan,
    planOverwrite,
    apply,
    canUndo,
    undo,
    select,
    getSelection,
    onSelectionChanged: (handler) => onSelectionChanged(handler, features().protection),
    insertIntoSelection,
    writeCell,
    writeCells,
    readValues,
    documentKey,
    workbookId,
    assignWorkbookId,
  };
}
