/**
 * The reviewed Q&A sheet: a CSV the pane sends to the library instead of the workbook's file. One row
 * per answered cell, keeping each question's tab, id, cell and slot role, so the service learns the
 * answers exactly as reviewed (no detection needed) and a person can open it in Excel. The header row
 * is its signature: the service reads a CSV with exactly these columns as reviewed answers.
 */
import type { ReviewedEntry } from './reviewed';

export const QA_SHEET_COLUMNS = ['Sheet', 'Question cell', 'ID', 'Question', 'Slot', 'Header', 'Answer cell', 'Answer'] as const;

/** Marks the file as reviewed answers of a workbook; the library treats it as a newer upload of that workbook. */
export const QA_SHEET_SUFFIX = ' (reviewed answers).csv';

/** `HECVAT.xlsx` → `HECVAT (reviewed answers).csv`. */
export function qaSheetName(workbookName: string): string {
  return `${workbookName.replace(/\.(xlsx|xlsm|xls|csv)$/i, '') || 'Workbook'}${QA_SHEET_SUFFIX}`;
}

/** The workbook a questionnaire file stands for: its name without extension or the reviewed-answers suffix. */
export function workbookStem(filename: string): string {
  const name = filename.trim();
  const lower = name.toLowerCase();
  const stem = lower.endsWith(QA_SHEET_SUFFIX.toLowerCase()) ? name.slice(0, -QA_SHEET_SUFFIX.length) : name.replace(/\.[A-Za-z0-9]+$/, '');
  return stem.trim().toLowerCase();
}

// Every field quoted: answers hold commas, quotes and line breaks.
const field = (text: string) => `"${text.replace(/"/g, '""')}"`;

export function qaSheetCsv(entries: readonly ReviewedEntry[]): string {
  const rows: string[][] = [[...QA_SHEET_COLUMNS]];
  for (const e of entries) {
    for (const s of e.slots) rows.push([e.tab, e.questionCell, e.originalId ?? '', e.question, s.role, s.header, s.cell, s.value]);
  }
  return rows.map((r) => r.map(field).join(',')).join('\r\n') + '\r\n';
}
