/**
 * `npm run eval:fill`: fills blanked copies of the completed fixture questionnaires, each from a
 * library of the other completed ones, through the real `qfill fill` against the local service, and
 * prints per workbook: cells written, skipped by reason, the damage check, and Yes/No agreement
 * with the vendor's real answers. Then the writer's own time on the largest fixture and on a
 * synthetic 5 MB workbook.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import type { FillReportJson } from '../src/cli/fill-report';
import { XlsxPackage } from '../src/xlsx';
import { comparePackages } from '../src/xlsx/compare';
import { FIXTURES, blankFixture, fixturePath } from '../test/xlsx/helpers';
import { addToLibrary, runFillCaptured, startLocalService } from '../test/xlsx/service-helpers';

const yesNo = (v: unknown): 'yes' | 'no' | null => {
  const t = typeof v === 'string' ? v.trim().toLowerCase() : '';
  if (/^yes\b/.test(t)) return 'yes';
  if (/^no\b/.test(t)) return 'no';
  return null;
};

interface Row {
  workbook: string;
  written: number;
  skipped: string;
  damage: string;
  yesNo: string;
  fillSeconds: string;
}

async function evaluate(target: (typeof FIXTURES)[number], dir: string): Promise<Row> {
  const service = await startLocalService();
  try {
    const library = FIXTURES.filter((f) => f.completed && f.file !== target.file);
    await addToLibrary(
      service,
      library.map((f) => ({ name: f.file, data: new Uint8Array(readFileSync(fixturePath(f.file))) })),
      600_000,
    );
    const blank = blankFixture(target);
    const input = join(dir, target.file);
    const out = join(dir, `filled-${target.file}`);
    const reportPath = join(dir, `${target.file}.json`);
    writeFileSync(input, blank);
    const started = performance.now();
    const run = await runFillCaptured([input, '--out', out, '--report', reportPath], { QFILL_BASE_URL: service.base, QFILL_API_KEY: service.key });
    const fillSeconds = ((performance.now() - started) / 1000).toFixed(1);
    if (run.code !== 0) return { workbook: target.file, written: 0, skipped: '', damage: `fill failed: ${run.stderr.trim()}`, yesNo: '', fillSeconds };
    const report = JSON.parse(readFileSync(reportPath, 'utf8')) as FillReportJson;
    const written = report.tabs.flatMap((t) =>
      t.cells.filter((c) => c.status === 'written').map((c) => ({ tab: t.tab, address: c.address!, value: c.value! })),
    );

    // Damage: parts other than written sheets + workbook.xml, anything outside sheetData, cells not written, styles, formulas.
    const filled = new Uint8Array(readFileSync(out));
    const pkg = XlsxPackage.open(blank);
    const diff = comparePackages(blank, filled);
    const allowed = new Set([pkg.workbookPath, ...written.map((w) => pkg.findSheet(w.tab)!.path)]);
    const writtenKeys = new Set(written.map((w) => `${w.tab}!${w.address}`));
    const problems: string[] = [];
    const extraParts = diff.changedParts.filter((p) => !allowed.has(p));
    if (extraParts.length) problems.push(`parts changed: ${extraParts.join(', ')}`);
    if (diff.addedParts.length || diff.removedParts.length || !diff.sameOrder) problems.push('entries added/removed/reordered');
    if (diff.sheetsChangedOutsideData.length) problems.push(`outside sheetData: ${diff.sheetsChangedOutsideData.join(', ')}`);
    const strayCells = diff.cellChanges.filter((c) => !writtenKeys.has(`${c.tab}!${c.address}`));
    if (strayCells.length) problems.push(`${strayCells.length} non-answer cells changed`);
    const before = new Map<string, number>();
    for (const w of written) before.set(`${w.tab}!${w.address}`, pkg.readCells(w.tab, [w.address]).get(w.address)!.style);
    const restyled = diff.cellChanges.filter((c) => Number(c.styleAfter ?? 0) !== before.get(`${c.tab}!${c.address}`));
    if (restyled.length) problems.push(`${restyled.length} styles changed`);
    if (diff.cellChanges.some((c) => c.formulaBefore || c.formulaAfter)) problems.push('formulas touched');

    // Agreement with the vendor's real answers where both say Yes or No.
    const original = XlsxPackage.open(new Uint8Array(readFileSync(fixturePath(target.file))));
    let compared = 0;
    let agree = 0;
    for (const w of written) {
      const truth = yesNo(original.readCells(w.tab, [w.address]).get(w.address)?.value);
      const ours = yesNo(w.value);
      if (!truth || !ours) continue;
      compared++;
      if (truth === ours) agree++;
    }
    const skipped = Object.entries(report.by_reason)
      .map(([r, n]) => `${r} ${n}`)
      .join(', ');
    return {
      workbook: target.file,
      written: report.written,
      skipped: `${report.skipped}${skipped ? ` (${skipped})` : ''}`,
      damage: problems.length ? `DAMAGE: ${problems.join('; ')}` : `none (${diff.changedParts.length} parts changed: ${diff.changedParts.join(', ')})`,
      yesNo: compared ? `${agree}/${compared} (${Math.round((agree / compared) * 100)}%)` : 'n/a',
      fillSeconds,
    };
  } finally {
    await service.close();
  }
}

function timeWrite(bytes: Uint8Array, tab: string, addresses: string[]): { open: number; read: number; write: number; total: number } {
  const t0 = performance.now();
  const pkg = XlsxPackage.open(bytes);
  const t1 = performance.now();
  pkg.readCells(tab, addresses);
  const t2 = performance.now();
  pkg.applyWrites(addresses.map((address, i) => ({ tab, address, value: i % 2 ? 'Yes' : `Answer number ${i} with some explanatory text.` })));
  const t3 = performance.now();
  return { open: t1 - t0, read: t2 - t1, write: t3 - t2, total: t3 - t0 };
}

async function syntheticWorkbook(targetBytes: number): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Questions');
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const word = () => Math.floor(rand() * 1e9).toString(36);
  for (let r = 1; r <= 220_000; r++) {
    ws.addRow([`Q-${r}`, Array.from({ length: 12 }, word).join(' '), null, null, Array.from({ length: 6 }, word).join(' ')]);
  }
  wb.addWorksheet('Other').addRow(['untouched']);
  const bytes = new Uint8Array(await wb.xlsx.writeBuffer());
  if (bytes.length < targetBytes * 0.8) throw new Error(`synthetic workbook only ${bytes.length} bytes`);
  return bytes;
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'qfill-eval-fill-'));
  try {
    const rows: Row[] = [];
    for (const fx of FIXTURES.filter((f) => f.completed)) {
      process.stderr.write(`Evaluating ${fx.file} ...\n`);
      rows.push(await evaluate(fx, dir));
    }
    console.log('\n| workbook | written | skipped (by reason) | damage check | Yes/No agreement | fill s |');
    console.log('|---|---|---|---|---|---|');
    for (const r of rows) console.log(`| ${r.workbook} | ${r.written} | ${r.skipped} | ${r.damage} | ${r.yesNo} | ${r.fillSeconds} |`);

    console.log(`\n(load average while timing: ${loadavg()[0]!.toFixed(1)} on ${cpus().length} CPUs)`);
    console.log('| writer timing (no service) | size | cells | open ms | read ms | write ms | total ms |');
    console.log('|---|---|---|---|---|---|---|');
    const largest = FIXTURES.map((f) => ({ f, size: readFileSync(fixturePath(f.file)).length })).sort((a, b) => b.size - a.size)[0]!;
    const big = blankFixture(largest.f);
    const rowsOf = Array.from({ length: 300 }, (_, i) => i + 3);
    const bigAddrs = rowsOf.flatMap((r) => [`C${r}`, `D${r}`]).filter((a) => !XlsxPackage.open(big).readCells(largest.f.answerTab, [a]).get(a)!.hasFormula);
    const t1 = timeWrite(big, largest.f.answerTab, bigAddrs);
    console.log(
      `| ${largest.f.file} | ${(big.length / 1e6).toFixed(1)} MB | ${bigAddrs.length} | ${t1.open.toFixed(0)} | ${t1.read.toFixed(0)} | ${t1.write.toFixed(0)} | ${t1.total.toFixed(0)} |`,
    );
    const synthetic = await syntheticWorkbook(5e6);
    const synthAddrs = Array.from({ length: 2000 }, (_, i) => [`C${i * 110 + 2}`, `D${i * 110 + 2}`]).flat();
    const t2 = timeWrite(synthetic, 'Questions', synthAddrs);
    console.log(
      `| synthetic (220,000 rows) | ${(synthetic.length / 1e6).toFixed(1)} MB | ${synthAddrs.length} | ${t2.open.toFixed(0)} | ${t2.read.toFixed(0)} | ${t2.write.toFixed(0)} | ${t2.total.toFixed(0)} |`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
