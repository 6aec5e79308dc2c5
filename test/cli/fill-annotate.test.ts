/**
 * `qfill fill --highlight --source-notes`: trust colours and source notes written into the file, as
 * the add-in adds them, losslessly. Checked with our reader and with ExcelJS on copies of real
 * fixtures written to a temp dir, and end to end against the real local service on loopback.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { annotatedWrites, NOTE_AUTHOR } from '../../src/cli/fill-annotate';
import { parseFillArgs } from '../../src/cli/fill-args';
import type { FillReportJson } from '../../src/cli/fill-report';
import { TRUST_FILLS } from '../../src/fill/annotations';
import { buildReport } from '../../src/fill/report';
import type { TrustLevel } from '../../src/api/schemas';
import type { CellWrite, WritePlan } from '../../src/fill/types';
import { XlsxPackage } from '../../src/xlsx';
import { comparePackages } from '../../src/xlsx/compare';
import { notesOf } from '../../src/xlsx/sheet-contents';
import { cellFormats } from '../../src/xlsx/styles';
import { FIXTURES, blankFixture, fixturePath, protectedMultiTabWorkbook, questionRows, smallAnswerLibrary } from '../xlsx/helpers';
import { type LocalService, addToLibrary, runFillCaptured, startLocalService, tempDir } from '../xlsx/service-helpers';

// A real questionnaire whose answer sheet is not protected (the CAIQ's is), blanked as the fill sees it.
const K12 = FIXTURES.find((f) => f.file.startsWith('k12cvat'))!;
const K12_TAB = K12.answerTab;

function write(tab: string, address: string, value: string, trust: TrustLevel | null, extra: Partial<CellWrite> = {}): CellWrite {
  return {
    tab,
    address,
    value,
    questionId: 1,
    originalId: null,
    slotRole: 'answer',
    slotHeader: 'Answer',
    score: trust === 'high' ? 91 : trust === 'medium' ? 64 : trust === 'low' ? 22 : null,
    trust,
    sources: trust ? [{ filename: 'security-policy.pdf', page_number: 4 }] : [],
    forceText: false,
    ...extra,
  };
}

const planOf = (writes: CellWrite[]): WritePlan => ({ writes, skipped: [], report: buildReport(writes, []) });

/** The fill colour our reader sees on a cell of a written package. */
function fillOf(pkg: XlsxPackage, tab: string, address: string): string | null {
  const style = pkg.readCells(tab, [address]).get(address)!.style;
  return cellFormats(pkg.xmlText(pkg.relatedPath('/styles')))[style]?.fill ?? null;
}

async function excelJs(bytes: Uint8Array): Promise<ExcelJS.Workbook> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as unknown as ArrayBuffer);
  return wb;
}

const noteText = (note: ExcelJS.Comment | string | undefined) => (typeof note === 'string' ? note : (note?.texts ?? []).map((t) => t.text).join(''));

let dir: string;
beforeAll(() => {
  dir = tempDir('qfill-annotate-');
});

describe('colours and notes written into a copy of a real questionnaire', () => {
  it('colours each answer by trust and notes its sources, changing nothing else', async () => {
    const input = join(dir, K12.file);
    writeFileSync(input, blankFixture(K12));
    const bytes = new Uint8Array(readFileSync(input));
    const pkg = XlsxPackage.open(bytes, K12.file);
    const [r1, r2, r3, r4] = questionRows(pkg, K12_TAB).map((q) => q.row);
    const neighbour = `C${r4}`;
    const before = { neighbour: fillOf(pkg, K12_TAB, neighbour), d1: fillOf(pkg, K12_TAB, `D${r1}`) };
    const plan = planOf([
      write(K12_TAB, `C${r1}`, 'Yes', 'high'),
      write(K12_TAB, `D${r1}`, 'AES-256 at rest.', 'high'),
      write(K12_TAB, `C${r2}`, 'No', 'medium'),
      write(K12_TAB, `C${r3}`, 'Yes', 'low'),
      // A cleared mark: neither colour nor note.
      write(K12_TAB, `D${r3}`, '', null, { mark: 'clear' }),
    ]);

    const annotated = annotatedWrites(pkg, plan, { highlight: true, sourceNotes: true });
    expect([annotated.coloured, annotated.noted, annotated.gaps]).toEqual([4, 4, []]);
    const out = join(dir, 'k12-annotated.xlsx');
    writeFileSync(out, pkg.applyWrites(annotated.writes, annotated.options).bytes);
    const filled = new Uint8Array(readFileSync(out));

    // Our reader: the colours, the notes, the values, and every other part byte for byte.
    const after = XlsxPackage.open(filled);
    expect([`C${r1}`, `D${r1}`, `C${r2}`, `C${r3}`].map((a) => fillOf(after, K12_TAB, a))).toEqual([
      TRUST_FILLS.high,
      TRUST_FILLS.high,
      TRUST_FILLS.medium,
      TRUST_FILLS.low,
    ]);
    expect(fillOf(after, K12_TAB, neighbour)).toBe(before.neighbour);
    expect(fillOf(after, K12_TAB, `D${r3}`)).toBe(fillOf(pkg, K12_TAB, `D${r3}`));
    const notes = new Map(notesOf(after, K12_TAB).map((n) => [n.address, n]));
    expect([...notes.keys()].sort()).toEqual([`C${r1}`, `C${r2}`, `C${r3}`, `D${r1}`].sort());
    expect(notes.get(`C${r2}`)).toMatchObject({ text: 'Sources:\nsecurity-policy.pdf p.4\nTrust: medium (64/100)', author: NOTE_AUTHOR });
    expect(after.readCells(K12_TAB, [`C${r1}`]).get(`C${r1}`)!.value).toBe('Yes');
    const diff = comparePackages(bytes, filled);
    const sheetPath = after.sheetPart(K12_TAB).info.path;
    const sheetRels = sheetPath.replace(/([^/]+)$/, '_rels/$1.rels');
    // The sheet, its relationships (which it already had) and the content types take the notes' parts.
    expect(diff.changedParts.sort()).toEqual(['[Content_Types].xml', 'xl/styles.xml', 'xl/workbook.xml', sheetPath, sheetRels].sort());
    // Outside its cells the sheet gains only the element that points at its notes' drawing.
    expect(diff.sheetsChangedOutsideData).toEqual([sheetPath]);
    const drop = (xml: string) => xml.replace(/<sheetData[\s\S]*<\/sheetData>/, '').replace(/<legacyDrawing [^>]*\/>/, '');
    expect(drop(after.xmlText(sheetPath))).toBe(drop(pkg.xmlText(sheetPath)));
    expect(diff.addedParts.some((p) => /comments\d*\.xml$/.test(p))).toBe(true);
    expect(diff.addedParts.some((p) => /vmlDrawing\d*\.vml$/.test(p))).toBe(true);
    expect(diff.removedParts).toEqual([]);
    expect(diff.cellChanges.map((c) => c.address).sort()).toEqual([`C${r1}`, `C${r2}`, `C${r3}`, `D${r1}`].sort());

    // ExcelJS reads the same file the same way.
    const ws = (await excelJs(filled)).getWorksheet(K12_TAB)!;
    const argb = (a: string) => (ws.getCell(a).fill as ExcelJS.FillPattern | undefined)?.fgColor?.argb ?? null;
    expect(argb(`C${r1}`)).toBe('FFC6EFCE');
    expect(argb(`C${r2}`)).toBe('FFFFEB9C');
    expect(argb(`C${r3}`)).toBe('FFFFC7CE');
    expect(ws.getCell(`C${r1}`).value).toBe('Yes');
    expect(noteText(ws.getCell(`D${r1}`).note)).toContain('security-policy.pdf p.4');
    expect(ws.getCell(neighbour).note).toBeUndefined();
    expect(before.d1).not.toBe(TRUST_FILLS.high);
  });

  it('keeps a note the cell already has, and values only when nothing is asked', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Questions');
    ws.addRow(['Id', 'Question', 'Answer']);
    ws.addRow(['Q-1', 'Do you encrypt data at rest?', null]);
    ws.addRow(['Q-2', 'Do you have MFA?', null]);
    ws.getCell('C2').note = 'Ask Legal before answering.';
    const bytes = new Uint8Array(await wb.xlsx.writeBuffer());
    const pkg = XlsxPackage.open(bytes);
    const plan = planOf([write('Questions', 'C2', 'Yes', 'high'), write('Questions', 'C3', 'Yes', 'high')]);

    const annotated = annotatedWrites(pkg, plan, { highlight: false, sourceNotes: true });
    const filled = pkg.applyWrites(annotated.writes, annotated.options).bytes;
    const notes = Object.fromEntries(notesOf(XlsxPackage.open(filled), 'Questions').map((n) => [n.address, n.text]));
    expect(notes).toEqual({ C2: 'Ask Legal before answering.', C3: 'Sources:\nsecurity-policy.pdf p.4\nTrust: high (91/100)' });

    const plain = annotatedWrites(pkg, plan, { highlight: false, sourceNotes: false });
    expect(plain.options).toEqual({});
    expect(plain.writes).toEqual([
      { tab: 'Questions', address: 'C2', value: 'Yes' },
      { tab: 'Questions', address: 'C3', value: 'Yes' },
    ]);
  });

  it('adds neither to a protected sheet, and says how many answers went without', async () => {
    const pkg = XlsxPackage.open(await protectedMultiTabWorkbook());
    const plan = planOf([write('Security', 'C2', 'Yes', 'high'), write('Security', 'D2', 'AES-256.', 'high'), write('Privacy', 'C2', 'No', 'medium')]);
    const annotated = annotatedWrites(pkg, plan, { highlight: true, sourceNotes: true });
    expect(annotated.options).toEqual({});
    expect(annotated.gaps).toEqual([
      { kind: 'colour', why: 'protected', tab: 'Security', count: 2 },
      { kind: 'colour', why: 'protected', tab: 'Privacy', count: 1 },
      { kind: 'note', why: 'protected', tab: 'Security', count: 2 },
      { kind: 'note', why: 'protected', tab: 'Privacy', count: 1 },
    ]);
  });
});

describe('qfill fill --highlight --source-notes', () => {
  let service: LocalService;
  beforeAll(async () => {
    service = await startLocalService();
    const library = FIXTURES.find((f) => f.file.startsWith('hecvat-lite-3.04-canvas-studio'))!;
    await addToLibrary(service, [
      { name: library.file, data: new Uint8Array(readFileSync(fixturePath(library.file))) },
      { name: 'small-library.xlsx', data: await smallAnswerLibrary() },
    ]);
  });
  afterAll(async () => {
    await service?.close();
  });

  const fill = async (input: string, extra: string[]) => {
    const out = input.replace(/\.xlsx$/, '.filled.xlsx');
    const reportPath = input.replace(/\.xlsx$/, '.report.json');
    const run = await runFillCaptured([input, '--out', out, '--report', reportPath, ...extra], { QFILL_BASE_URL: service.base, QFILL_API_KEY: service.key });
    return { run, out, report: JSON.parse(readFileSync(reportPath, 'utf8')) as FillReportJson };
  };

  it('colours and notes every written answer of a real questionnaire, and reports it', async () => {
    const fx = FIXTURES.find((f) => f.file.startsWith('hecvat-lite-3.04-canvas-catalog'))!;
    const input = join(dir, fx.file);
    const blank = blankFixture(fx);
    writeFileSync(input, blank);
    const { run, out, report } = await fill(input, ['--highlight', '--source-notes']);
    expect(run.code, run.stderr).toBe(0);
    const written = report.tabs.flatMap((t) => t.cells.filter((c) => c.status === 'written').map((c) => ({ tab: t.tab, ...c })));
    expect(written.length).toBeGreaterThan(10);
    const withTrust = written.filter((c) => c.trust);
    const withSources = written.filter((c) => c.sources.length > 0);
    expect([report.highlighted, report.source_notes, report.coloured_cells, report.source_note_cells, report.annotation_gaps]).toEqual([
      true,
      true,
      withTrust.length,
      withSources.length,
      [],
    ]);
    expect(run.stdout).toContain(`${withTrust.length} answers coloured by trust; ${withSources.length} source notes added.`);
    expect(run.stdout).not.toContain('Values only');

    const filled = new Uint8Array(readFileSync(out));
    const after = XlsxPackage.open(filled);
    for (const c of withTrust) expect(fillOf(after, c.tab, c.address!)).toBe(TRUST_FILLS[c.trust!]);
    const noted = new Set(notesOf(after, fx.answerTab).map((n) => n.address));
    for (const c of withSources) expect(noted.has(c.address!)).toBe(true);
    const diff = comparePackages(blank, filled);
    expect(diff.removedParts).toEqual([]);
    expect(diff.sheetsChangedOutsideData).toEqual([after.sheetPart(fx.answerTab).info.path]);
    expect(new Set(diff.cellChanges.map((c) => c.address))).toEqual(new Set(written.map((c) => c.address)));
    expect(report.changed_parts).toEqual(expect.arrayContaining(['xl/styles.xml', ...diff.addedParts]));

    const ws = (await excelJs(filled)).getWorksheet(fx.answerTab)!;
    const first = withSources[0]!;
    expect(noteText(ws.getCell(first.address!).note)).toContain(`${first.sources[0]!.filename} p.${first.sources[0]!.page_number}`);
  });

  it('on protected sheets writes the values and says which answers have no colour or note', async () => {
    const input = join(dir, 'protected.xlsx');
    writeFileSync(input, await protectedMultiTabWorkbook());
    const { run, out, report } = await fill(input, ['--highlight', '--source-notes']);
    expect(run.code, run.stderr).toBe(0);
    expect(report.written).toBeGreaterThan(0);
    expect([report.coloured_cells, report.source_note_cells]).toEqual([0, 0]);
    expect(report.annotation_gaps.join(' ')).toMatch(/on "Security" ha(s|ve) no trust colour/);
    expect(run.stdout).toContain(report.annotation_gaps[0]);
    expect(comparePackages(new Uint8Array(readFileSync(input)), new Uint8Array(readFileSync(out))).addedParts).toEqual([]);
  });

  it('without the flags writes values only, and says so', async () => {
    const input = join(dir, 'values-only.xlsx');
    writeFileSync(input, await protectedMultiTabWorkbook());
    const { run, report } = await fill(input, []);
    expect(run.code, run.stderr).toBe(0);
    expect([report.highlighted, report.source_notes, report.annotation_gaps]).toEqual([false, false, []]);
    expect(run.stdout).toContain('Values only');
  });
});

describe('the flags', () => {
  it('are named in --help and take no value', () => {
    const env = { QFILL_BASE_URL: 'http://127.0.0.1:1', QFILL_API_KEY: 'qf_x' };
    expect(parseFillArgs(['q.xlsx', '--out', 'o.xlsx', '--highlight', '--source-notes'], env)).toMatchObject({ highlight: true, sourceNotes: true });
    expect(parseFillArgs(['q.xlsx', '--out', 'o.xlsx'], env)).toMatchObject({ highlight: false, sourceNotes: false });
    expect(() => parseFillArgs(['q.xlsx', '--out', 'o.xlsx', '--highlight=yes'], env)).toThrow('--highlight takes no value.');
  });
});
