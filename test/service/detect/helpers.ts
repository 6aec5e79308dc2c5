/** Builders for small workbooks with one trait each, and XML patches for what ExcelJS cannot write. */
import ExcelJS from 'exceljs';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DetectedQuestion, DetectedQuestionnaire } from '../../../src/service/detect';

export async function toBytes(wb: ExcelJS.Workbook): Promise<Uint8Array> {
  return new Uint8Array(await wb.xlsx.writeBuffer());
}

/** Rewrites parts of an xlsx package (e.g. to add an x14 extension list). */
export function patchParts(bytes: Uint8Array, patch: (parts: Record<string, string>) => void): Uint8Array {
  const files = unzipSync(bytes);
  const text: Record<string, string> = {};
  for (const [name, data] of Object.entries(files)) if (/\.(xml|rels)$/.test(name)) text[name] = strFromU8(data);
  patch(text);
  for (const [name, xml] of Object.entries(text)) files[name] = strToU8(xml);
  return zipSync(files);
}

export function slot(q: DetectedQuestion | undefined, role: string) {
  return q?.answer_slots.find((s) => s.role === role);
}

export function byId(d: DetectedQuestionnaire, id: string): DetectedQuestion | undefined {
  return d.questions.find((q) => q.original_id === id);
}

/** A plain questionnaire sheet: header row, then [id, question, answer, comment] rows. */
export function addSimpleSheet(
  wb: ExcelJS.Workbook,
  name: string,
  rows: (string | null)[][],
  header: string[] = ['ID', 'Question', 'Answer', 'Comments'],
): ExcelJS.Worksheet {
  const ws = wb.addWorksheet(name);
  ws.addRow(header);
  for (const r of rows) ws.addRow(r);
  return ws;
}

export const FIXTURES_DIR = resolve(process.env.FIXTURES_DIR ?? join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', 'shared', 'fixtures'));

/** The shared fixtures must exist: tests that read them fail with this message instead of skipping. */
export function requireFixtures(): string {
  const dir = join(FIXTURES_DIR, 'questionnaires');
  if (!existsSync(dir)) {
    throw new Error(
      `Real questionnaire fixtures are missing: expected them at ${dir} (../shared/fixtures beside the project). ` +
        'Restore that folder or set FIXTURES_DIR; these tests do not skip.',
    );
  }
  return dir;
}
