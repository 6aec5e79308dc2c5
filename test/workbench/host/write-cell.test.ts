// The adapter's correction write (`writeCell`, src/excel) on the in-memory Excel host: the write-back
// safety rules, and corrections joining the Undo fill snapshot so one Undo restores fill and corrections.
import { afterEach, describe, expect, it } from 'vitest';
import type { QuestionWithAnswers } from '../../../src/api/schemas';
import { createExcelWorkbook, memoryStorage } from '../../../src/excel';
import { ExcelHost, installExcelHost } from '../../../src/workbench/host';

let uninstall: (() => void) | null = null;
afterEach(() => {
  uninstall?.();
  uninstall = null;
});

function setup(sheets = ['S']): ExcelHost {
  const host = new ExcelHost({ url: 'https://contoso.sharepoint.com/q.xlsx' });
  for (const s of sheets) host.addSheet(s);
  uninstall = installExcelHost(host);
  return host;
}

function question(id: number, address: string, text: string): QuestionWithAnswers {
  return {
    id,
    original_question_text: `Question ${id}?`,
    tab_name: 'S',
    answer_slots: [{ role: 'answer', header: 'Answer', coordinate: address }],
    answers: [{ id, text, evaluation: { score: 80, trust: 'high', reason: 'test' }, source_evidence: [] }],
  } as QuestionWithAnswers;
}

describe('writeCell (a correction from the review)', () => {
  it('corrects a filled cell, and Undo fill restores the pre-fill content of filled and corrected cells alike', async () => {
    const host = setup();
    host.setCell('S', 'C4', { value: 'typed by the analyst', numberFormat: '@' });
    const before = host.snapshot();
    const workbook = createExcelWorkbook({ storage: memoryStorage() });
    const plan = await workbook.plan([question(1, 'C2', 'Yes'), question(2, 'C3', 'No')], {});
    await workbook.apply(plan, { highlight: true });
    expect(host.getCell('S', 'C2').value).toBe('Yes');

    // A cell the fill wrote: corrected without asking.
    expect(await workbook.writeCell({ tab: 'S', address: 'C2' }, '  Yes, since 2021.  ', {})).toEqual({ written: true });
    expect(host.getCell('S', 'C2').value).toBe('Yes, since 2021.');
    // A cell the analyst typed: refused, then replaced when asked.
    const refused = await workbook.writeCell({ tab: 'S', address: 'C4' }, 'Replacement', {});
    expect(refused.written).toBe(false);
    expect(refused.reason).toBe('S!C4 already holds a value that the fill did not write; choose to replace it if you mean to.');
    expect(host.getCell('S', 'C4').value).toBe('typed by the analyst');
    expect(await workbook.writeCell({ tab: 's', address: '$C$4' }, 'Replacement', { overwrite: true })).toEqual({ written: true });
    expect(host.getCell('S', 'C4').value).toBe('Replacement');
    // An empty cell no fill touched, with text Excel would turn into a formula: kept as text.
    expect(await workbook.writeCell({ tab: 'S', address: 'C9' }, '=1+1', {})).toEqual({ written: true });
    expect(host.getCell('S', 'C9').formula ?? null).toBeNull();
    expect(host.getCell('S', 'C9').value).toBe('=1+1');
    // Clearing a filled cell is a correction too.
    expect(await workbook.writeCell({ tab: 'S', address: 'C3' }, '', {})).toEqual({ written: true });
    expect(host.getCell('S', 'C3').value ?? null).toBeNull();

    const undone = await workbook.undo();
    expect(undone).toMatchObject({ restored: 4 });
    expect(undone?.failed).toBeUndefined();
    expect(host.snapshot()).toEqual(before);
    expect(await workbook.canUndo()).toBe(false);
  });

  it('starts an Undo snapshot when no fill made one, so a lone correction can be undone', async () => {
    const host = setup();
    const before = host.snapshot();
    const workbook = createExcelWorkbook({ storage: memoryStorage() });
    expect(await workbook.canUndo()).toBe(false);
    expect(await workbook.writeCell({ tab: 'S', address: 'B7' }, 'Written by hand', {})).toEqual({ written: true });
    expect(await workbook.canUndo()).toBe(true);
    expect(await workbook.undo()).toMatchObject({ restored: 1 });
    expect(host.snapshot()).toEqual(before);
  });

  it('never writes over a formula or into a locked cell of a protected sheet, and names what is missing', async () => {
    const host = setup(['S', 'P']);
    host.setCell('S', 'C2', { formula: '=1+1', value: 2 });
    host.setCell('P', 'C3', { locked: false });
    host.protect('P');
    const workbook = createExcelWorkbook({ storage: memoryStorage() });
    expect(await workbook.writeCell({ tab: 'S', address: 'C2' }, 'x', { overwrite: true })).toEqual({
      written: false,
      reason: 'S!C2 holds a formula; it is never overwritten.',
    });
    expect(await workbook.writeCell({ tab: 'P', address: 'C2' }, 'x', { overwrite: true })).toEqual({
      written: false,
      reason: 'P!C2 is locked on a protected sheet.',
    });
    expect(await workbook.writeCell({ tab: 'P', address: 'C3' }, 'unlocked is fine', {})).toEqual({ written: true });
    expect(host.getCell('P', 'C3').value).toBe('unlocked is fine');
    expect(await workbook.writeCell({ tab: 'Gone', address: 'A1' }, 'x', {})).toEqual({ written: false, reason: 'The workbook has no sheet named "Gone".' });
    expect(await workbook.writeCell({ tab: 'S', address: 'nowhere' }, 'x', {})).toEqual({ written: false, reason: '"nowhere" is not a cell address.' });
    expect(host.getCell('S', 'C2').formula).toBe('=1+1');
  });
});
