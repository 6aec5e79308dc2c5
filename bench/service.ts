/**
 * The product end to end over real HTTP on loopback, as an analyst meets it: documents ingested, the CAIQ
 * filled from upload to `complete`, chat asks, and the lossless writer on the largest fixture.
 * Needs ../shared/fixtures (fails with a clear message when absent).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ApiClient } from '../src/api/client';
import { createKey } from '../src/service/admin';
import { buildApp } from '../src/service/app';
import { detectQuestionnaire } from '../src/service/detect';
import ExcelJS from 'exceljs';
import { XlsxPackage, type XlsxWrite } from '../src/xlsx';
import { comparePackages } from '../src/xlsx/compare';
import { FIXTURES, fixturesEndToEnd } from './end-to-end';
import { percentile, round } from './stats';

/** Data validations in a package's worksheets: classic and x14 (cross-sheet lists Excel writes in extLst). */
function validations(bytes: Uint8Array): { classic: number; x14: number } {
  const pkg = XlsxPackage.open(bytes);
  let classic = 0;
  let x14 = 0;
  for (const name of pkg.partNames().filter((n) => /^xl\/worksheets\/[^/]+\.xml$/.test(n))) {
    const xml = new TextDecoder().decode(pkg.part(name));
    classic += (xml.match(/<dataValidation[\s>]/g) ?? []).length;
    x14 += (xml.match(/<x14:dataValidation[\s>]/g) ?? []).length;
  }
  return { classic, x14 };
}

/** What a writer's output lost against the input: parts dropped (by kind) and data validations. */
export function losses(before: Uint8Array, after: Uint8Array): string {
  const diff = comparePackages(before, after);
  const kinds = new Map<string, number>();
  for (const part of diff.removedParts) {
    const kind =
      part
        .replace(/^xl\//, '')
        .replace(/\/[^/]*$/, '')
        .replace(/\d+/g, '') || part;
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  const v0 = validations(before);
  const v1 = validations(after);
  const parts =
    diff.removedParts.length === 0
      ? 'no part'
      : `${diff.removedParts.length} parts not kept at their paths (${[...kinds].map(([k, n]) => `${k} ${n}`).join(', ')})`;
  const lostValidations = `${Math.max(0, v0.classic - v1.classic)} of ${v0.classic} validations, ${Math.max(0, v0.x14 - v1.x14)} of ${v0.x14} x14 validations`;
  return `${parts}, ${lostValidations}`;
}

export interface ServiceRow {
  measure: string;
  n: number;
  p50_ms: number | null;
  p95_ms: number | null;
  total_ms: number;
  budget: string;
}

export const SERVICE_COLUMNS: [keyof ServiceRow, string][] = [
  ['measure', 'measure'],
  ['n', 'n'],
  ['p50_ms', 'p50 ms'],
  ['p95_ms', 'p95 ms'],
  ['total_ms', 'total ms'],
  ['budget', 'budget'],
];

export async function runServiceBench(log: (line: string) => void = () => {}): Promise<ServiceRow[]> {
  if (!existsSync(FIXTURES)) throw new Error(`${FIXTURES} is missing: the service bench needs ../shared/fixtures`);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'qfill-bench-'));
  const built = await buildApp({ dataDir, staticDir: null, logger: false });
  const rows: ServiceRow[] = [];
  try {
    const base = await built.app.listen({ port: 0, host: '127.0.0.1' });
    const client = new ApiClient({ baseUrl: base, apiKey: await createKey(dataDir, { org: 'bench', user: 'bench', role: 'admin' }) });
    const { ingest, caiq, asks } = await fixturesEndToEnd(client, log);
    const { rejected } = ingest;
    rows.push({
      measure: `ingest the fixtures knowledge base to ready (${ingest.ready} ready, ${ingest.failed} failed, ${rejected.length} refused at upload${rejected.length ? `: ${rejected.map((r) => r.split(':')[0]).join(', ')}` : ''})`,
      n: ingest.files,
      p50_ms: null,
      p95_ms: null,
      total_ms: ingest.ms,
      budget: '',
    });
    rows.push({
      measure: 'CAIQ upload → answer generation complete (extractive)',
      n: caiq.questions,
      p50_ms: null,
      p95_ms: null,
      total_ms: caiq.ms,
      budget: '< 5,000 ms',
    });
    const times = asks.times;
    rows.push({
      measure: 'POST /chat/ask/ over HTTP, fixtures knowledge base',
      n: times.length,
      p50_ms: round(percentile(times, 50)),
      p95_ms: round(percentile(times, 95)),
      total_ms: Math.round(times.reduce((a, b) => a + b, 0)),
      budget: 'p95 < 50 ms (10k passages)',
    });
  } finally {
    await built.close();
    rmSync(dataDir, { recursive: true, force: true });
  }

  const largest = path.join(FIXTURES, 'questionnaires', 'hecvat-full-2.11-portfolium-completed.xlsx');
  const bytes = new Uint8Array(readFileSync(largest));
  let t = performance.now();
  const detected = await detectQuestionnaire(bytes, path.basename(largest));
  rows.push({
    measure: `detect questions in HECVAT Full (${(bytes.length / 1e6).toFixed(1)} MB)`,
    n: detected.questions.length,
    p50_ms: null,
    p95_ms: null,
    total_ms: Math.round(performance.now() - t),
    budget: 'a few seconds for 5 MB',
  });

  const writes: XlsxWrite[] = detected.questions.flatMap((q) =>
    q.answer_slots.filter((s) => !s.is_blocked).map((s) => ({ tab: q.tab_name, address: s.coordinate, value: `Answer to ${q.original_id ?? q.order}` })),
  );
  t = performance.now();
  const pkg = XlsxPackage.open(bytes, path.basename(largest));
  const out = pkg.applyWrites(writes);
  const losslessMs = performance.now() - t;
  rows.push({
    measure: 'qfill fill lossless write, HECVAT Full (every answer cell)',
    n: writes.length,
    p50_ms: null,
    p95_ms: null,
    total_ms: Math.round(losslessMs),
    budget: '< 2,000 ms for 5 MB',
  });
  if (!out.bytes.length) throw new Error('the writer produced nothing');

  // What peers do: load the workbook into ExcelJS, set the same cells, save; same run, same writes.
  t = performance.now();
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes as unknown as ArrayBuffer);
  for (const w of writes) {
    const sheet = book.getWorksheet(w.tab);
    if (sheet) sheet.getCell(w.address).value = w.value;
  }
  const exceljsOut = new Uint8Array(await book.xlsx.writeBuffer());
  const exceljsMs = performance.now() - t;
  rows.push({
    measure: `ExcelJS load + save of the same workbook and cells: ${(exceljsMs / Math.max(1, losslessMs)).toFixed(1)}× the lossless write's time; lossless loses ${losses(bytes, out.bytes)}; ExcelJS loses ${losses(bytes, exceljsOut)}`,
    n: writes.length,
    p50_ms: null,
    p95_ms: null,
    total_ms: Math.round(exceljsMs),
    budget: '',
  });
  return rows;
}
