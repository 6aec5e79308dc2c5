/**
 * The real local service on loopback for end-to-end fills, a captured CLI run, and LibreOffice's
 * CSV export of a sheet (the "a real spreadsheet application opens it" check).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { ApiClient } from '../../src/api';
import { runFill } from '../../src/cli/fill';
import { createKey } from '../../src/service/admin';
import { buildApp } from '../../src/service/app';
import { XlsxPackage } from '../../src/xlsx';

export interface LocalService {
  base: string;
  key: string;
  dataDir: string;
  client: ApiClient;
  close(): Promise<void>;
}

export async function startLocalService(): Promise<LocalService> {
  const dataDir = mkdtempSync(join(tmpdir(), 'qfill-fill-'));
  const { app, close } = await buildApp({ dataDir, staticDir: null });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const key = await createKey(dataDir, { org: 'acme', user: 'analyst', role: 'admin' });
  return {
    base,
    key,
    dataDir,
    client: new ApiClient({ baseUrl: base, apiKey: key }),
    async close() {
      await close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Uploads files into the knowledge base and waits until every one is processed. */
export async function addToLibrary(service: LocalService, files: { name: string; data: Uint8Array }[], timeoutMs = 120_000): Promise<void> {
  await service.client.uploadRepositoryFiles(files);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const page = await service.client.listRepositoryFiles({ page_size: 200 });
    const failed = page.results.filter((f) => f.status === 'failed');
    if (failed.length) throw new Error(`Library files failed to process: ${failed.map((f) => f.original_filename).join(', ')}`);
    if (page.results.length >= files.length && page.results.every((f) => f.status === 'ready')) return;
    if (Date.now() > deadline) throw new Error('Library files were not processed in time.');
    await new Promise((r) => setTimeout(r, 200));
  }
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runFillCaptured(argv: string[], env: Record<string, string | undefined> = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runFill(argv, {
    stdout: { write: (t: string) => (stdout += t), isTTY: false },
    stderr: { write: (t: string) => (stderr += t), isTTY: false },
    env,
  });
  return { code, stdout, stderr };
}

export function tempDir(prefix = 'qfill-fill-out-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** LibreOffice must be installed (CI installs `libreoffice-calc-nogui`): fail loudly, never skip. */
export function sofficePath(): string {
  for (const p of ['/usr/bin/soffice', '/usr/bin/libreoffice', '/usr/local/bin/soffice']) if (existsSync(p)) return p;
  throw new Error('LibreOffice (soffice) is not installed: apt-get install -y libreoffice-calc-nogui (the CI script installs it).');
}

/**
 * The sheet as LibreOffice reads it, as CSV rows. LibreOffice's CSV filter takes the sheet's
 * 1-based position in the workbook (hidden sheets count).
 */
export function libreOfficeCsv(xlsx: Uint8Array, sheetName: string): string[][] {
  const soffice = sofficePath();
  const dir = tempDir('qfill-lo-');
  try {
    const file = join(dir, 'book.xlsx');
    writeFileSync(file, xlsx);
    const index = XlsxPackage.open(xlsx).sheets.findIndex((s) => s.name === sheetName) + 1;
    if (index < 1) throw new Error(`No sheet ${sheetName}`);
    const outDir = join(dir, 'csv');
    mkdirSync(outDir);
    // Filter options: comma, double quote, UTF-8, from line 1, ..., sheet number.
    execFileSync(
      soffice,
      [
        '--headless',
        '--norestore',
        `-env:UserInstallation=file://${join(dir, 'profile')}`,
        '--convert-to',
        `csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,${index}`,
        '--outdir',
        outDir,
        file,
      ],
      { stdio: 'pipe', timeout: 120_000 },
    );
    const produced = readdirSync(outDir).filter((f) => f.endsWith('.csv'));
    if (produced.length !== 1) throw new Error(`LibreOffice produced ${produced.length} CSV files: ${produced.join(', ')}`);
    return parseCsv(readFileSync(join(outDir, produced[0]!), 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') row.push(field), (field = '');
    else if (c === '\n') row.push(field), rows.push(row), (row = []), (field = '');
    else if (c !== '\r') field += c;
  }
  if (field || row.length) row.push(field), rows.push(row);
  return rows;
}
