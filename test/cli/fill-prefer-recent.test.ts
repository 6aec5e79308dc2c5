/**
 * `qfill fill --prefer-recent` against the real local service: two past questionnaires in the library
 * disagree; without the flag the Yes/No cell is left for review, with it the most recent one's answer is
 * written (the analyst's stated rule, never a silent pick).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FillReportJson } from '../../src/cli/fill-report';
import { XlsxPackage } from '../../src/xlsx';
import { type LocalService, addToLibrary, runFillCaptured, startLocalService, tempDir } from '../xlsx/service-helpers';

let service: LocalService;
let dir: string;

async function workbook(product: string | null, answer: string | null): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Questions');
  ws.addRow(['Question ID', 'Question', 'Answer', 'Comments']);
  ws.addRow(['GEN-01', 'Product name', product ?? '', '']);
  ws.addRow(['PT-01', 'Do you perform annual penetration tests of the platform?', answer ?? '', answer ? `${product} answer.` : '']);
  ws.addRow(['PT-02', 'Do you encrypt customer data at rest with AES-256?', answer ? 'Yes' : '', '']);
  ws.getCell('C3').dataValidation = { type: 'list', allowBlank: true, formulae: ['"Yes,No"'] };
  ws.getCell('C4').dataValidation = { type: 'list', allowBlank: true, formulae: ['"Yes,No"'] };
  return new Uint8Array(await wb.xlsx.writeBuffer());
}

beforeAll(async () => {
  service = await startLocalService();
  dir = tempDir();
  await addToLibrary(service, [{ name: 'alpha.xlsx', data: await workbook('Alpha', 'No') }]);
  await addToLibrary(service, [{ name: 'beta.xlsx', data: await workbook('Beta', 'Yes') }]);
});

afterAll(async () => {
  await service?.close();
});

async function fill(extra: string[]) {
  const input = join(dir, `blank${extra.length}.xlsx`);
  writeFileSync(input, await workbook(null, null));
  const out = input.replace(/\.xlsx$/, '.filled.xlsx');
  const reportPath = input.replace(/\.xlsx$/, '.report.json');
  const run = await runFillCaptured([input, '--out', out, '--report', reportPath, ...extra], { QFILL_BASE_URL: service.base, QFILL_API_KEY: service.key });
  expect(run.code, run.stderr).toBe(0);
  const pkg = XlsxPackage.open(new Uint8Array(readFileSync(out)));
  const cell = (address: string) => pkg.readCells('Questions', [address]).get(address)?.value ?? '';
  return { cell, report: JSON.parse(readFileSync(reportPath, 'utf8')) as FillReportJson };
}

describe('qfill fill --prefer-recent', () => {
  it('leaves a disagreement for review by default and takes the most recent questionnaire with the flag', async () => {
    const plain = await fill([]);
    expect(plain.cell('C3')).toBe('');
    expect(plain.cell('C4')).toBe('Yes'); // where past answers agree they are written either way

    const recent = await fill(['--prefer-recent']);
    expect(recent.cell('C3')).toBe('Yes'); // beta.xlsx was uploaded last
    expect(recent.cell('C4')).toBe('Yes');
  });

  it('refuses a value for the flag', async () => {
    const run = await runFillCaptured([join(dir, 'x.xlsx'), '--out', join(dir, 'y.xlsx'), '--prefer-recent=yes'], {
      QFILL_BASE_URL: service.base,
      QFILL_API_KEY: service.key,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--prefer-recent takes no value');
  });
});
