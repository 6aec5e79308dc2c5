import { describe, expect, it, vi } from 'vitest';
import { createExcelWorkbook, memoryStorage } from '../../src/excel';
import { setupHost } from './helpers';

const tick = () => new Promise((r) => setTimeout(r, 10));

describe('navigation', () => {
  it('selects a cell on another tab and reads the selection back', async () => {
    const host = setupHost(['Intro', 'Security Questions']);
    const wb = createExcelWorkbook({ storage: memoryStorage() });
    await wb.select({ tab: 'security questions', address: '$C$12' });
    expect(host.selection()).toEqual({ sheet: 'Security Questions', address: 'C12' });
    expect(await wb.getSelection()).toEqual({ tab: 'Security Questions', address: 'C12' });
    await expect(wb.select({ tab: 'Nope', address: 'A1' })).rejects.toThrow(/no sheet named "Nope"/);
  });

  it.each(['1.18', '1.1'])('follows selection changes until unsubscribed (ExcelApi %s)', async (version) => {
    const host = setupHost(['S', 'T'], { excelApiVersion: version });
    const wb = createExcelWorkbook({ storage: memoryStorage() });
    const seen: string[] = [];
    const stop = await wb.onSelectionChanged((ref) => seen.push(`${ref.tab}!${ref.address}`));
    host.userSelect('T', 'B7');
    // The host delivers events asynchronously; under load a fixed pause is not enough.
    await vi.waitFor(() => expect(seen).toEqual(['T!B7']));
    stop();
    await tick();
    host.userSelect('S', 'A2');
    await tick();
    expect(seen).toEqual(['T!B7']);
  });
});

describe('insertIntoSelection', () => {
  it('writes into an empty cell, formula-like text as text', async () => {
    const host = setupHost(['S']);
    const wb = createExcelWorkbook({ storage: memoryStorage() });
    host.userSelect('S', 'B2');
    expect(await wb.insertIntoSelection('=HYPERLINK("http://x")', {})).toEqual({ written: true });
    expect(host.getCell('S', 'B2')).toMatchObject({ formula: null, value: '=HYPERLINK("http://x")' });
  });

  it('refuses formulas always, occupied cells unless overwrite, locked cells on protected sheets', async () => {
    const host = setupHost(['S']);
    const wb = createExcelWorkbook({ storage: memoryStorage() });
    host.setCell('S', 'A1', { formula: '=SUM(B1:B3)', value: 6 });
    host.setCell('S', 'A2', { value: 'typed' });
    host.userSelect('S', 'A1');
    expect(await wb.insertIntoSelection('x', { overwrite: true })).toEqual({ written: false, reason: expect.stringMatching(/S!A1 holds a formula/) });
    host.userSelect('S', 'A2');
    expect(await wb.insertIntoSelection('x', {})).toEqual({ written: false, reason: expect.stringMatching(/already holds a value/) });
    expect(await wb.insertIntoSelection('x', { overwrite: true })).toEqual({ written: true });
    expect(host.getCell('S', 'A2').value).toBe('x');
    expect(host.getCell('S', 'A1').formula).toBe('=SUM(B1:B3)');
    expect(await wb.insertIntoSelection('   ', {})).toMatchObject({ written: false });
    host.protect('S');
    host.userSelect('S', 'A5');
    expect(await wb.insertIntoSelection('x', {})).toEqual({ written: false, reason: expect.stringMatching(/locked on a protected sheet/) });
  });

  it('writes at the top-left cell of a multi-cell selection', async () => {
    const host = setupHost(['S']);
    const wb = createExcelWorkbook({ storage: memoryStorage() });
    host.userSelect('S', 'C3:D4');
    expect(await wb.insertIntoSelection('Yes', {})).toEqual({ written: true });
    expect(host.getCell('S', 'C3').value).toBe('Yes');
    expect(host.getCell('S', 'D4').value).toBeNull();
  });
});
