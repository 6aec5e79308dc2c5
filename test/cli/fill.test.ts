/**
 * `qfill fill` end to end against the real local service on loopback: every fixture questionnaire
 * (completed ones blanked first), the damage check, LibreOffice opening the result, a protected
 * multi-tab workbook with formula answer cells, and bad input.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FillReportJson } from '../../src/cli/fill-report';
import { XlsxPackage } from '../../src/xlsx';
import { comparePackages } from '../../src/xlsx/compare';
import { FAKE_VBA, FIXTURES, asXlsm, blankFixture, fixturePath, oleFile, protectedMultiTabWorkbook, smallAnswerLibrary } from '../xlsx/helpers';
import { type LocalService, addToLibrary, libreOfficeCsv, runFillCaptured, startLocalService, tempDir } from '../xlsx/service-helpers';

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

let service: LocalService;
let dir: string;

beforeAll(async () => {
  service = await startLocalService();
  dir = tempDir();
  // The answer library: one completed questionnaire of the same vendor and the small Q&A sheet.
  const library = FIXTURES.find((f) => f.file.startsWith('hecvat-lite-3.04-canvas-studio'))!;
  await addToLibrary(service, [
    { name: library.file, data: new Uint8Array(readFileSync(fixturePath(library.file))) },
    { name: 'small-library.xlsx', data: await smallAnswerLibrary() },
  ]);
});

afterAll(async () => {
  await service?.close();
});

async function fillFile(input: string, extra: string[] = []) {
  const out = input.replace(/\.xlsx$/, '.filled.xlsx');
  const report = input.replace(/\.xlsx$/, '.report.json');
  const run = await runFillCaptured([input, '--out', out, '--report', report, ...extra], {
    QFILL_BASE_URL: service.base,
    QFILL_API_KEY: service.key,
  });
  return { run, out, report: existsSync(report) ? (JSON.parse(readFileSync(report, 'utf8')) as FillReportJson) : null };
}

const writtenCells = (report: FillReportJson) => report.tabs.flatMap((t) => t.cells.filter((c) => c.status === 'written').map((c) => ({ tab: t.tab, ...c })));

describe.each(FIXTURES)('qfill fill $file', (fx) => {
  it('writes only answer cells, keeps everything else byte-identical, and LibreOffice shows the answers', async () => {
    const input = join(dir, fx.file);
    const blank = blankFixture(fx);
    writeFileSync(input, blank);
    // Drafts too: this is about the writer (a CAIQ answered from another vendor's HECVAT is mostly drafts).
    const { run, out, report } = await fillFile(input, ['--write-drafts']);
    expect(run.stderr).toContain('Answers ');
    expect(report!.by_reason.draft ?? 0).toBe(0);
    expect(run.code, run.stderr).toBe(0);
    expect(sha(readFileSync(input))).toBe(sha(blank)); // the input is never modified
    expect(report).not.toBeNull();
    const written = writtenCells(report!);
    expect(written.length).toBeGreaterThan(0);
    expect(run.stdout).toMatch(/^Wrote \d+ answers? on \d+ tabs?/);

    const filled = new Uint8Array(readFileSync(out));
    const pkg = XlsxPackage.open(blank);
    const diff = comparePackages(blank, filled);
    const writtenSheets = new Set(written.map((w) => pkg.findSheet(w.tab)!.path));
    expect(diff.changedParts.sort()).toEqual([...writtenSheets, pkg.workbookPath].sort());
    expect(report!.changed_parts.sort()).toEqual(diff.changedParts);
    expect(diff.addedParts).toEqual([]);
    expect(diff.removedParts).toEqual([]);
    expect(diff.sameOrder).toBe(true);
    expect(diff.sheetsChangedOutsideData).toEqual([]); // validations, merges, formats, protection, views
    expect(diff.rowAttributeChanges).toEqual([]);
    expect(diff.cellChanges.map((c) => `${c.tab}!${c.address}`).sort()).toEqual(written.map((w) => `${w.tab}!${w.address}`).sort());
    const before = new Map(written.map((w) => [`${w.tab}!${w.address}`, pkg.readCells(w.tab, [w.address!]).get(w.address!)!]));
    for (const c of diff.cellChanges) {
      expect(c.formulaBefore).toBe(false);
      expect(c.formulaAfter).toBe(false);
      const style = before.get(`${c.tab}!${c.address}`)!.style;
      expect(Number(c.styleAfter ?? 0)).toBe(style); // each written cell kept its style
    }
    // The written values read back, and every report cell names its reason and evidence fields.
    const after = XlsxPackage.open(filled);
    // Line breaks are stored as Excel's own (LF); everything else is the text as planned.
    const shown = (v: string | null) => v!.replace(/\r\n?/g, '\n');
    for (const w of written) expect(after.readCells(w.tab, [w.address!]).get(w.address!)!.value).toBe(shown(w.value));
    for (const t of report!.tabs) {
      for (const c of t.cells) {
        expect(c.status === 'written' ? c.reason === null : typeof c.reason === 'string').toBe(true);
        expect(c).toHaveProperty('score');
        expect(c).toHaveProperty('trust');
        expect(Array.isArray(c.sources)).toBe(true);
      }
    }

    // A real spreadsheet application opens the result and shows the answers in the answer tab.
    const answerTabWrites = written.filter((w) => w.tab === fx.answerTab);
    expect(answerTabWrites.length).toBeGreaterThan(0);
    const csv = libreOfficeCsv(filled, fx.answerTab);
    for (const w of answerTabWrites.slice(0, 25)) {
      const row = Number(/\d+$/.exec(w.address!)![0]);
      const col = w
        .address!.replace(/\d+$/, '')
        .split('')
        .reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0);
      expect(csv[row - 1]?.[col - 1], `${w.tab}!${w.address}`).toBe(shown(w.value));
    }
  });
});

describe('qfill fill writes only what can be defended by default', () => {
  it('reports drafts with the text held back and writes none of them', async () => {
    const fx = FIXTURES.find((f) => f.file.startsWith('caiq'))!;
    const input = join(dir, `default-${fx.file}`);
    writeFileSync(input, blankFixture(fx));
    const { run, out, report } = await fillFile(input);
    expect(run.code, run.stderr).toBe(0);
    const drafts = report!.tabs.flatMap((t) => t.cells.filter((c) => c.reason === 'draft').map((c) => ({ tab: t.tab, ...c })));
    expect(drafts.length).toBeGreaterThan(0);
    expect(run.stdout).toMatch(/drafts for review \d+/);
    const after = XlsxPackage.open(readFileSync(out));
    for (const d of drafts.slice(0, 50)) {
      expect(d.value, `${d.tab}!${d.address}`).toBeTruthy();
      if (d.trust === 'high' || d.trust === 'medium') expect(d.detail).toMatch(/free text without a list answer written beside it/);
      expect(after.readCells(d.tab, [d.address!]).get(d.address!)?.value ?? null, `${d.tab}!${d.address}`).toBeNull();
    }
  });
});

describe('qfill fill on a protected multi-tab questionnaire with formula answer cells', () => {
  it('fills the open answer cells and leaves formula and locked cells untouched', async () => {
    const input = join(dir, 'protected-multi-tab.xlsx');
    const bytes = await protectedMultiTabWorkbook();
    writeFileSync(input, bytes);
    const { run, out, report } = await fillFile(input);
    expect(run.code, run.stderr).toBe(0);
    const filled = new Uint8Array(readFileSync(out));
    const diff = comparePackages(bytes, filled);
    const changed = new Set(diff.cellChanges.map((c) => `${c.tab}!${c.address}`));
    for (const untouched of ['Security!C4', 'Privacy!C3', 'Privacy!D5']) expect(changed.has(untouched)).toBe(false);
    expect(changed.has('Security!C2')).toBe(true);
    expect(changed.has('Privacy!D2')).toBe(true);
    expect(diff.sheetsChangedOutsideData).toEqual([]);
    const after = XlsxPackage.open(filled);
    expect(after.readCells('Security', ['C4']).get('C4')!.hasFormula).toBe(true);
    expect(after.readCells('Privacy', ['C3']).get('C3')!.hasFormula).toBe(true);
    expect(after.isProtected('Security') && after.isProtected('Privacy')).toBe(true);
    const skipped = report!.tabs.flatMap((t) => t.cells.filter((c) => c.status === 'skipped').map((c) => `${t.tab}!${c.address}`));
    expect(skipped).toEqual(expect.arrayContaining(['Security!C4', 'Privacy!C3', 'Privacy!D5']));
    // List slots got a value from the allowed list.
    expect(['Yes', 'No', 'N/A']).toContain(after.readCells('Security', ['C2']).get('C2')!.value);
  });

  it('keeps occupied cells unless --overwrite', async () => {
    const pkg = XlsxPackage.open(await protectedMultiTabWorkbook());
    const prefilled = pkg.applyWrites([{ tab: 'Security', address: 'D2', value: 'Typed by the analyst' }], { fullCalcOnLoad: false }).bytes;
    const input = join(dir, 'prefilled.xlsx');
    writeFileSync(input, prefilled);
    const kept = await fillFile(input);
    expect(kept.run.code).toBe(0);
    expect(XlsxPackage.open(readFileSync(kept.out)).readCells('Security', ['D2']).get('D2')!.value).toBe('Typed by the analyst');
    expect(kept.report!.tabs.find((t) => t.tab === 'Security')!.cells.find((c) => c.address === 'D2')!.reason).toBe('occupied');
    const replaced = await fillFile(input, ['--overwrite']);
    expect(replaced.run.code).toBe(0);
    expect(XlsxPackage.open(readFileSync(replaced.out)).readCells('Security', ['D2']).get('D2')!.value).not.toBe('Typed by the analyst');
  });
});

describe('qfill fill on a macro-enabled workbook (.xlsm)', () => {
  it('fills it through the service and keeps the VBA project byte for byte', async () => {
    const input = join(dir, 'macro.xlsm');
    const bytes = asXlsm(await protectedMultiTabWorkbook());
    writeFileSync(input, bytes);
    const out = join(dir, 'macro.filled.xlsm');
    const run = await runFillCaptured([input, '--out', out], { QFILL_BASE_URL: service.base, QFILL_API_KEY: service.key });
    expect(run.code, run.stderr).toBe(0);
    const filled = new Uint8Array(readFileSync(out));
    expect(Buffer.from(XlsxPackage.open(filled).part('xl/vbaProject.bin')).equals(Buffer.from(FAKE_VBA))).toBe(true);
    const diff = comparePackages(bytes, filled);
    expect(diff.cellChanges.length).toBeGreaterThan(0);
    expect(diff.changedParts).not.toContain('xl/vbaProject.bin');
    expect(diff.changedParts).not.toContain('[Content_Types].xml');
    expect(sha(readFileSync(input))).toBe(sha(bytes));
  });
});

describe('qfill fill refuses bad input with exit code 2 and writes nothing', () => {
  const cases: [string, () => Promise<Uint8Array | null>, RegExp][] = [
    ['missing.xlsx', async () => null, /missing\.xlsx does not exist\./],
    ['notes.xlsx', async () => new TextEncoder().encode('just some text'), /notes\.xlsx is not an \.xlsx file \(not a zip archive\)/],
    [
      'archive.xlsx',
      async () => (await import('fflate')).zipSync({ 'readme.txt': new TextEncoder().encode('hi') }),
      /archive\.xlsx is a zip archive but not an Excel workbook/,
    ],
    ['secret.xlsx', async () => oleFile('EncryptedPackage'), /secret\.xlsx is a password-protected \(encrypted\) workbook/],
    ['legacy.xls', async () => oleFile('Workbook'), /legacy\.xls is a legacy Excel 97-2003 file \(\.xls\)/],
    [
      'bomb.xlsx',
      async () => {
        const { unzipSync, zipSync } = await import('fflate');
        const files = unzipSync(await protectedMultiTabWorkbook());
        files['xl/worksheets/sheet1.xml'] = new Uint8Array(80 * 1024 * 1024).fill(32);
        return zipSync(files, { level: 9 });
      },
      /possible zip bomb/,
    ],
  ];
  it.each(cases)('%s', async (name, make, message) => {
    const input = join(dir, name);
    const bytes = await make();
    if (bytes) writeFileSync(input, bytes);
    const out = join(dir, `${name}.out.xlsx`);
    const run = await runFillCaptured([input, '--out', out], { QFILL_BASE_URL: service.base, QFILL_API_KEY: service.key });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(out)).toBe(false);
  });

  it("a workbook the service finds no questionnaire in: exit 2 with the service's reason", async () => {
    const input = join(dir, 'no-questions.xlsx');
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('Notes').getCell('A1').value = 'Nothing to answer here';
    writeFileSync(input, new Uint8Array(await wb.xlsx.writeBuffer()));
    const out = join(dir, 'no-questions.out.xlsx');
    const run = await runFillCaptured([input, '--out', out], { QFILL_BASE_URL: service.base, QFILL_API_KEY: service.key });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/No questionnaire found/);
    expect(existsSync(out)).toBe(false);
  });

  it('refuses --out equal to the input, however it is spelled', async () => {
    const input = join(dir, 'same.xlsx');
    const bytes = await protectedMultiTabWorkbook();
    writeFileSync(input, bytes);
    for (const out of [input, join(dir, '.', '..', dir.split('/').pop()!, 'same.xlsx')]) {
      const run = await runFillCaptured([input, '--out', out], { QFILL_BASE_URL: service.base, QFILL_API_KEY: service.key });
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/--out must differ from the input/);
    }
    expect(sha(readFileSync(input))).toBe(sha(bytes));
  });

  it('refuses --report naming the input or the output, before anything is uploaded or written', async () => {
    const input = join(dir, 'report-clash.xlsx');
    const bytes = await protectedMultiTabWorkbook();
    writeFileSync(input, bytes);
    const out = join(dir, 'report-clash.out.xlsx');
    const env = { QFILL_BASE_URL: service.base, QFILL_API_KEY: service.key };
    const onInput = await runFillCaptured([input, '--out', out, '--report', join(dir, '.', 'report-clash.xlsx')], env);
    expect(onInput.code).toBe(2);
    expect(onInput.stderr).toMatch(/--report must differ from the input/);
    const onOutput = await runFillCaptured([input, '--out', out, '--report', out], env);
    expect(onOutput.code).toBe(2);
    expect(onOutput.stderr).toMatch(/--report must differ from --out/);
    expect(onInput.stderr + onOutput.stderr).not.toMatch(/Uploading/);
    expect(sha(readFileSync(input))).toBe(sha(bytes));
    expect(existsSync(out)).toBe(false);
  });

  it('explains how to start the local service when none is configured', async () => {
    const input = join(dir, 'no-service.xlsx');
    writeFileSync(input, await protectedMultiTabWorkbook());
    const run = await runFillCaptured([input, '--out', join(dir, 'no-service.out.xlsx')], {});
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/No service to ask: pass --base URL or set QFILL_BASE_URL/);
    expect(run.stderr).toMatch(/npx qfill serve --http/);
    expect(run.stderr).toMatch(/create a key/);
  });

  it('rejects unknown flags and a missing --out with the usage', async () => {
    const a = await runFillCaptured(['x.xlsx', '--out', 'y.xlsx', '--bogus']);
    expect(a.code).toBe(2);
    expect(a.stderr).toMatch(/Unknown option --bogus[\s\S]*Usage: qfill fill/);
    const b = await runFillCaptured(['x.xlsx']);
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/--out is required/);
  });
});
