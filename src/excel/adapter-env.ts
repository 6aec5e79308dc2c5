/**
 * What the parts of the Excel adapter share (src/excel/workbook.ts composes them): the features this
 * Excel has, the request budget, the Undo store, the workbook's key, and how a fill's batch is run;
 * and the few rules each part applies to a cell that was read.
 */
import type { CellState } from '../fill';
import type { WorkbookRead } from './read-cells';
import { errorMessage, officeErrorCode, type ApiFeature } from './office';
import type { UndoStore } from './undo-store';

export interface AdapterEnv {
  /** ExcelApi features, detected once. */
  features(): Record<ApiFeature, boolean>;
  /** Request budget per sync (Excel on the web rejects requests over 5 MB). */
  budget: number;
  store: UndoStore;
  documentKey(): Promise<string>;
  /** Excel.run with a whole fill as one Ctrl+Z step where Excel supports it (ExcelApi 1.20). */
  run<T>(batch: (context: Excel.RequestContext) => Promise<T>): Promise<T>;
}

export type Written = { written: boolean; reason?: string };

/** What the planner and the safety check see of a cell that was read (`locked` only counts on a protected sheet). */
export function cellState(read: WorkbookRead, tab: string, address: string): CellState | undefined {
  const c = read.cells.get(tab)?.get(address);
  if (!c) return undefined;
  const value = c.valueType === 'Empty' ? null : c.value;
  return { value, hasFormula: c.hasFormula, ...(c.locked !== undefined ? { locked: read.protectedSheets.has(tab) && c.locked } : {}) };
}

/** Sends a one-cell write; Excel's refusal becomes the reason it was not written. */
export async function syncOneWrite(context: Excel.RequestContext, where: string): Promise<Written> {
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
