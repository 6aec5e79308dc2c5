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

/** A CAIQ v3.0.1-like sheet: "Consensus Assessment Answers" merged over Yes | No | Not Applicable, Notes beside. */
export async function caiqV3Workbook(marks: Record<string, string> = {}): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('CAIQ v3.0.1');
  ws.addRow([
    'Control Domain',
    'Control ID',
    'Question ID',
    'Control Specification',
    'Consensus Assessment Questions',
    'Consensus Assessment Answers',
    null,
    null,
    'Notes',
  ]);
  ws.addRow([null, null, null, null, null, 'Yes', 'No', 'Not Applicable', null]);
  ws.mergeCells('F1:H1');
  const rows: [string, string, string][] = [
    ['AIS-01', 'AIS-01.1', 'Do you use industry standards to build in security for your Systems/Software Development Lifecycle?'],
    ['AIS-01', 'AIS-01.2', 'Do you use an automated source code analysis tool to detect security defects in code prior to production?'],
    ['AIS-02', 'AIS-02.1', 'Are all identified security, contractual, and regulatory requirements for customer access addressed?'],
    ['AIS-03', 'AIS-03.1', 'Are data input and output integrity routines implemented for application interfaces and databases?'],
  ];
  rows.forEach(([control, id, question], i) => {
    const r = ws.addRow([
      'Application & Interface Security',
      control,
      id,
      'Applications and programming interfaces shall be designed per standards.',
      question,
      null,
      null,
      null,
      null,
    ]);
    for (const [col, choice] of [
      [6, 'Yes'],
      [7, 'No'],
      [8, 'Not Applicable'],
    ] as const) {
      if (marks[id] === choice) r.getCell(col).value = 'x';
    }
    if (i === 0 && marks[id]) r.getCell(9).value = 'SDLC based on OWASP SAMM';
  });
  return toBytes(wb);
}
