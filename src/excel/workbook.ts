/**
 * `WorkbookAdapter` over Office.js: the only place that writes into the analyst's workbook.
 * Reads run in a constant number of syncs, writes are packed into rectangular `values` writes and
 * chunks under a payload budget, and every fill first saves an Undo snapshot of the touched cells.
 * This file composes its parts: identity.ts (which workbook), plan-read.ts (read once, plan),
 * apply.ts (write a plan), cell-writes.ts (corrections, insert, reads), snapshot.ts (Undo),
 * annotations.ts (colours, notes), navigation.ts (selection), merges.ts; the cell safety rule is
 * src/fill's `cellRefusal`.
 */
import type { QuestionWithAnswers } from '../api/schemas';
import type { PlanOptions, WritePlan } from '../fill';
import type { AdapterEnv } from './adapter-env';
import { applyPlan } from './apply';
import { insertIntoSelection, readValues, writeCells } from './cell-writes';
import { createDocumentIdentity } from './identity';
import { getSelection, onSelectionChanged, select } from './navigation';
import { detectSupport, type ApiFeature } from './office';
import { planFromOneRead } from './plan-read';
import { loadSheetNames } from './read-cells';
import { readOpenWorkbook, type ReadFileOptions } from './read-file';
import { restoreSnapshot } from './snapshot';
import type { CellRef, OverwritePlans, ReadProgress, UndoOptions, UndoResult, WorkbookAdapter } from './types';
import { UndoStore, type StorageLike } from './undo-store';

export { sourceNoteText, TRUST_FILLS } from './annotations';
export { WORKBOOK_ID_SETTING } from './identity';
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

export function createExcelWorkbook(options: ExcelWorkbookOptions): WorkbookAdapter {
  const identity = createDocumentIdentity();
  let support: Record<ApiFeature, boolean> | null = null;
  const features = () => (support ??= detectSupport(options.excelApiVersion));
  const env: AdapterEnv = {
    features,
    budget: options.payloadBudgetBytes ?? DEFAULT_PAYLOAD_BUDGET,
    store: new UndoStore(options.storage, ''),
    documentKey: identity.documentKey,
    run: (batch) => (features().mergeUndoGroup ? Excel.run({ mergeUndoGroup: true } as Excel.RunOptions, batch) : Excel.run(batch)),
  };

  return {
    readFile: (onProgress?: (p: ReadProgress) => void) => readOpenWorkbook({ ...options.readFile, onProgress }),
    plan: (questions: QuestionWithAnswers[], planOptions: PlanOptions): Promise<WritePlan> =>
      planFromOneRead(env, questions, (planner) => planner(planOptions)),
    planOverwrite: (questions: QuestionWithAnswers[], planOptions: Omit<PlanOptions, 'overwrite'>): Promise<OverwritePlans> =>
      planFromOneRead(env, questions, (planner) => ({
        keep: planner({ ...planOptions, overwrite: false }),
        all: planner({ ...planOptions, overwrite: true }),
      })),
    apply: (plan, annotate) => applyPlan(env, plan, annotate),
    canUndo: async () => env.store.load(await env.documentKey()) !== null,
    undo: (undoOptions) => undo(env, undoOptions),
    select,
    getSelection,
    onSelectionChanged: (handler) => onSelectionChanged(handler, features().protection),
    insertIntoSelection: (text, insertOptions) => insertIntoSelection(env, text, insertOptions),
    writeCell: (ref: CellRef, text: string, writeOptions: { overwrite?: boolean }) => writeCells(env, [{ ref, text }], writeOptions),
    writeCells: (cells, writeOptions) => writeCells(env, cells, writeOptions),
    readValues: (refs) => readValues(env, refs),
    documentKey: identity.documentKey,
    workbookId: identity.workbookId,
    assignWorkbookId: identity.assignWorkbookId,
  };
}

/** Undo fill: every cell the snapshot holds put back, but those in `keep`; the snapshot is dropped once all are. */
async function undo(env: AdapterEnv, options: UndoOptions = {}): Promise<UndoResult | null> {
  const key = await env.documentKey();
  const snapshot = env.store.load(key);
  if (!snapshot) return null;
  const f = env.features();
  return env.run(async (context) => {
    let syncs = 0;
    const onSync = () => void syncs++;
    const sheetNames = await loadSheetNames(context, onSync);
    const keep = new Set((options.keep ?? []).map((c) => `${c.tab}!${c.address}`));
    const { restored, failed } = await restoreSnapshot(context, snapshot, sheetNames, { support: f, budgetBytes: env.budget, onSync }, keep);
    if (failed.length === 0) env.store.clear(key);
    const out: UndoResult = { restored, syncs };
    if (failed.length > 0) out.failed = failed;
    return out;
  });
}
