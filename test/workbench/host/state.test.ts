// The workbook kept across a reload: its state as plain data, put back onto the same file loaded again,
// gives the same workbook (cells, notes, comments, selection, active sheet, document settings) and the same download.
import ExcelJS from 'exceljs';
import { afterEach, describe, expect, it } from 'vitest';
import { installExcelHost } from '../../../src/workbench/host';
import { hostToXlsx, loadXlsxIntoHost } from '../../../src/workbench/host/load-xlsx';
import { hostState, restoreHostState } from '../../../src/workbench/host/state';

let uninstall: (() => void) | null = null;
afterEach(() => {
  uninstall?.();
  uninstall = null;
});

async function workbook(): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Questions');
  ws.getCell('A2').value = 'Do you encrypt data at rest?';
  ws.getCell('B2').note = 'From the template';
  wb.addWorksheet('Second').getCell('A1').value = 'x';
  return new Uint8Array((await wb.xlsx.writeBuffer()) as ArrayBuffer);
}

describe('the workbench state across a reload', () => {
  it('puts back cells, notes, comments, selection, the active sheet and document settings', async () => {
    const bytes = await workbook();
    const host = await loadXlsxIntoHost(bytes, { fileName: 'q.xlsx' });
    uninstall = installExcelHost(host);
    await Excel.run(async (context) => {
      const ws = context.workbook.worksheets.getItem('Questions');
      ws.getRange('B2:C2').values = [['Yes', 'AES-256 at rest']];
      ws.getRange('B2').format.fill.color = '#C6EFCE';
      ws.notes.add('Questions!C2', 'Source: security-overview.pdf');
      context.workbook.comments.add('Questions!D2', 'A comment');
      context.workbook.worksheets.getItem('Second').getRange('B3').select();
      await context.sync();
    });
    Office.context.document.settings.set('qfill.link', { id: 'wb-123' });

    // Through structured clone, as IndexedDB stores it.
    const saved = structuredClone({ original: bytes, state: hostState(host) });
    const again = await loadXlsxIntoHost(saved.original, { fileName: 'q.xlsx' });
    expect(restoreHostState(again, saved.state)).toEqual(['Questions', 'Second']);
    expect(again.snapshot()).toEqual(host.snapshot());
    expect(again.selection()).toEqual({ sheet: 'Second', address: 'B3' });
    expect(again.settings.get('qfill.link')).toEqual({ id: 'wb-123' });
    // The download is the original file patched the same way.
    expect(Buffer.from((await hostToXlsx(again)).bytes).equals(Buffer.from((await hostToXlsx(host)).bytes))).toBe(true);
  });

  it('skips a sheet the file does not have and a state it does not know', async () => {
    const host = await loadXlsxIntoHost(await workbook());
    const state = hostState(host);
    state.sheets.push({ ...state.sheets[0]!, name: 'Gone' });
    expect(restoreHostState(host, state)).toEqual(['Questions', 'Second']);
    expect(restoreHostState(host, { ...state, version: 2 as 1 })).toEqual([]);
  });
});
