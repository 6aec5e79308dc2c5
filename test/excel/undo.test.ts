import { describe, expect, it } from 'vitest';
import { createExcelWorkbook, memoryStorage, type StorageLike } from '../../src/excel';
import { manyQuestions, q, setupHost } from './helpers';

describe('undo fill', () => {
  it('restores every touched cell exactly, also after the pane was closed and reopened', async () => {
    const host = setupHost(['S', 'T']);
    // Previous contents of every kind an overwrite can meet.
    host.setCell('S', 'C2', { value: 'old text', fill: '#FFFFFF' });
    host.setCell('S', 'C3', { value: 42, numberFormat: '0.00' });
    host.setCell('S', 'C4', { value: '42' }); // a number stored as text by another tool
    host.setCell('S', 'C5', { value: true });
    host.setCell('S', 'C6', { value: '=not a formula', numberFormat: '@' });
    host.setCell('S', 'C7', { value: '=quoted', quotePrefix: true });
    host.setCell('S', 'C8', { value: '5/20/2024', numberFormat: 'mm-dd-yy', fill: '#FF0000' }); // text that looks like a date
    host.setCell('S', 'C9', { formula: '=C3*2', value: 84 });
    const before = host.snapshot();
    const storage = memoryStorage();
    const first = createExcelWorkbook({ storage });
    const questions = ['C2', 'C3', 'C4', 'C5', 'C6', 'C7', 'C8', 'C9', 'C10', 'D2'].map((a, i) => q('S', a, i % 2 ? `=EVIL()${i}` : `New ${i}`));
    questions.push(...manyQuestions(20, ['T']));
    const plan = await first.plan(questions, { overwrite: true });
    expect(plan.skipped.map((s) => s.reason)).toEqual(['formula']);
    const applied = await first.apply(plan, { highlight: true, sourceNotes: true });
    expect(applied.written).toBe(29);
    expect(host.snapshot()).not.toEqual(before);
    expect(await first.canUndo()).toBe(true);

    // The task pane is closed and reopened: a new adapter with the same storage.
    const reopened = createExcelWorkbook({ storage });
    expect(await reopened.canUndo()).toBe(true);
    const result = await reopened.undo();
    expect(result).toMatchObject({ restored: 29 });
    expect(result?.failed).toBeUndefined();
    expect(host.snapshot()).toEqual(before);
    expect(await reopened.canUndo()).toBe(false);
    expect(await reopened.undo()).toBeNull();
  });

  it('with cells to keep, leaves those exactly as they are (value, colour, note) and restores the rest', async () => {
    const host = setupHost(['S']);
    host.setCell('S', 'C3', { value: 'vendor text' });
    const before = host.snapshot();
    const wb = createExcelWorkbook({ storage: memoryStorage() });
    const plan = await wb.plan([q('S', 'C2', 'Filled 2'), q('S', 'C3', 'Filled 3'), q('S', 'C4', 'Filled 4')], { overwrite: true });
    await wb.apply(plan, { highlight: true, sourceNotes: true });
    host.typeValue('S', 'C2', 'Edited after the fill');
    const edited = host.getCell('S', 'C2');
    const editedNote = host.snapshot().sheets[0]!.notes.C2;
    expect(edited.fill).not.toBeNull();
    expect(editedNote).toBeTruthy();

    const result = await wb.undo({ keep: [{ tab: 'S', address: 'C2' }] });
    expect(result).toMatchObject({ restored: 2 });
    expect(host.getCell('S', 'C2')).toEqual(edited);
    expect(host.snapshot().sheets[0]!.notes.C2).toBe(editedNote);
    const after = host.snapshot().sheets[0]!;
    const { C2: _kept, ...restAfter } = after.cells;
    const { C2: _none, ...restBefore } = before.sheets[0]!.cells;
    expect(restAfter).toEqual(restBefore);
    expect(Object.keys(after.notes)).toEqual(['C2']);
    expect(await wb.canUndo()).toBe(false);
  });

  it('puts tab- and carriage-return-prefixed text back as text, exactly (no formula, no added prefix, format kept)', async () => {
    const host = setupHost(['S']);
    host.setCell('S', 'C2', { value: '\t=SUM(A1:A9)' });
    host.setCell('S', 'C3', { value: '\r+1 from a CSV' });
    const wb = createExcelWorkbook({ storage: memoryStorage() });
    const plan = await wb.plan([q('S', 'C2', 'Filled 2'), q('S', 'C3', 'Filled 3')], { overwrite: true });
    await wb.apply(plan, {});
    expect(host.getCell('S', 'C2').value).toBe('Filled 2');

    expect(await wb.undo()).toMatchObject({ restored: 2 });
    for (const [address, text] of [
      ['C2', '\t=SUM(A1:A9)'],
      ['C3', '\r+1 from a CSV'],
    ] as const) {
      const cell = host.getCell('S', address);
      expect(cell).toMatchObject({ value: text, formula: null, quotePrefix: false, numberFormat: 'General' });
    }
  });

  it('undoes in a constant number of syncs', async () => {
    const syncsFor = async (n: number) => {
      const host = setupHost(['A', 'B', 'C', 'D', 'E']);
      const wb = createExcelWorkbook({ storage: memoryStorage() });
      await wb.apply(await wb.plan(manyQuestions(n, ['A', 'B', 'C', 'D', 'E']), {}), {});
      host.resetStats();
      await wb.undo();
      return host.stats.syncs;
    };
    expect(await syncsFor(2000)).toBe(await syncsFor(50));
  });

  it('keeps the snapshot out of the document and under a key of the document', async () => {
    const host = setupHost(['S'], { url: 'https://x/Book.xlsx' });
    const keys: string[] = [];
    const inner = memoryStorage();
    const storage: StorageLike = { ...inner, setItem: (k, v) => (keys.push(k), inner.setItem(k, v)) };
    const wb = createExcelWorkbook({ storage });
    await wb.apply(await wb.plan([q('S', 'C2', 'a')], {}), {});
    expect(keys).toEqual(['qfill:undo:v1:url:https://x/Book.xlsx']);
    expect(host.settings.size).toBe(0);
    expect(await wb.documentKey()).toBe('url:https://x/Book.xlsx');
  });

  it('falls back to memory when storage refuses the snapshot, and says so', async () => {
    const host = setupHost(['S']);
    const full: StorageLike = {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => undefined,
    };
    const wb = createExcelWorkbook({ storage: full });
    const before = host.snapshot();
    const result = await wb.apply(await wb.plan([q('S', 'C2', 'a')], {}), {});
    expect(result.warnings?.join(' ')).toMatch(/Undo works until the task pane is closed/);
    expect(await wb.canUndo()).toBe(true);
    await wb.undo();
    expect(host.snapshot()).toEqual(before);
  });

  it('reports cells it could not restore (sheet protected since) and keeps the snapshot', async () => {
    const host = setupHost(['S']);
    const wb = createExcelWorkbook({ storage: memoryStorage() });
    await wb.apply(await wb.plan([q('S', 'C2', 'a')], {}), {});
    host.protect('S');
    const result = await wb.undo();
    expect(result?.restored).toBe(0);
    expect(result?.failed?.[0]).toMatchObject({ tab: 'S', address: 'C2' });
    expect(await wb.canUndo()).toBe(true);
  });
});

describe('documentKey', () => {
  it('uses the URL when there is one, else a fingerprint stable across adapters and fills', async () => {
    const host = setupHost(['Intro', 'Questions'], { url: null });
    const a = createExcelWorkbook({ storage: memoryStorage() });
    const key = await a.documentKey();
    expect(key).toMatch(/^sheets:[0-9a-f]{8}$/);
    await a.apply(await a.plan([q('Questions', 'C2', 'x')], {}), {});
    expect(await createExcelWorkbook({ storage: memoryStorage() }).documentKey()).toBe(key);
    const other = setupHost(['Intro', 'Other'], { url: null });
    expect(await createExcelWorkbook({ storage: memoryStorage() }).documentKey()).not.toBe(key);
    void host;
    void other;
  });
});
