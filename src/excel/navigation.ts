/** Navigation: going to a cell, reading the selection, following selection changes. */
import { resolveTab } from '../fill/tabs';
import { parseA1, toA1 } from '../fill';
import { officeErrorCode } from './office';
import { loadSheetNames } from './read-cells';
import type { CellRef } from './types';

/** Sheet name and top-left cell of an address like `'My Sheet'!C5:D6`. */
export function splitAddress(address: string): { sheet: string | null; cell: string | null } {
  const c = parseA1(address);
  return { sheet: c?.sheet ?? null, cell: c ? toA1(c.row, c.column) : null };
}

export async function select(ref: CellRef): Promise<void> {
  await Excel.run(async (context) => {
    const sheetNames = await loadSheetNames(context, () => undefined);
    const tab = resolveTab(ref.tab, sheetNames);
    if (!tab) throw new Error(`The workbook has no sheet named "${ref.tab}".`);
    const c = parseA1(ref.address);
    if (!c) throw new Error(`"${ref.address}" is not a cell address.`);
    const sheet = context.workbook.worksheets.getItem(tab);
    sheet.activate();
    sheet.getRange(ref.address.includes(':') ? ref.address.replace(/\$/g, '').replace(/^.*!/, '') : toA1(c.row, c.column)).select();
    await context.sync();
  });
}

export async function getSelection(): Promise<CellRef | null> {
  try {
    return await Excel.run(async (context) => {
      const range = context.workbook.getSelectedRange();
      range.load('address');
      const sheet = range.worksheet;
      sheet.load('name');
      await context.sync();
      const { cell } = splitAddress(range.address);
      return cell ? { tab: sheet.name, address: cell } : null;
    });
  } catch (e) {
    // Selecting a chart or shape leaves no range selected: that is "no selection", not an error.
    if (officeErrorCode(e) === 'InvalidSelection') return null;
    throw e;
  }
}

export async function onSelectionChanged(handler: (ref: CellRef) => void, hasSelectionEvent: boolean): Promise<() => void> {
  const notify = async () => {
    const ref = await getSelection().catch(() => null);
    if (ref) handler(ref);
  };
  // ExcelApi 1.2 has the workbook's own selection event (the same API set as protection).
  if (hasSelectionEvent) {
    const registration = await Excel.run(async (context) => {
      const result = context.workbook.onSelectionChanged.add(notify);
      await context.sync();
      return result;
    });
    return () => {
      void Excel.run(registration.context, async (context) => {
        registration.remove();
        await context.sync();
      }).catch(() => undefined);
    };
  }
  // ExcelApi 1.1: the Common API selection event.
  await new Promise<void>((resolve, reject) =>
    Office.context.document.addHandlerAsync(Office.EventType.DocumentSelectionChanged, notify, (r) =>
      r.status === Office.AsyncResultStatus.Succeeded ? resolve() : reject(new Error(`Could not follow the selection: ${r.error?.message}`)),
    ),
  );
  return () => Office.context.document.removeHandlerAsync(Office.EventType.DocumentSelectionChanged, { handler: notify });
}
