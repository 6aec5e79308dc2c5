/**
 * Spreadsheets as answer libraries: completed questionnaires (through the questionnaire detector) and
 * plain Q&A sheets (a "Question" and an "Answer" column). Both CSV and xlsx are read by the detector's
 * readers, the project's one CSV parser and one xlsx layer.
 */
import { isXlsxError } from '../../../xlsx';
import { csvToGrid } from '../../detect/csv';
import { DetectError } from '../../detect/types';
import { readWorkbook, type Workbook } from '../../detect/workbook';
import { ExtractError, type QaPair } from '../types';
import { LIBRARY_EXPORT_SHEET, qaFromLibraryExport } from './library-export';
import { qaFromGrid } from './qa-table';
import { qaFromQuestionnaire } from './questionnaire';
import { qaFromReviewedSheet } from './reviewed-sheet';

export async function csvQa(bytes: Uint8Array, filename: string): Promise<QaPair[]> {
  // The answers an analyst reviewed in the task pane, sent as a Q&A sheet: taken as they are.
  const reviewed = qaFromReviewedSheet(bytes);
  if (reviewed) return reviewed;
  // A completed questionnaire saved as CSV keeps its slot roles and ids through the detector.
  const fromQuestionnaire = await qaFromQuestionnaire(bytes, filename);
  if (fromQuestionnaire.length > 0) return fromQuestionnaire;
  const grid = readable(filename, () => csvToGrid(bytes, filename));
  const pairs = qaFromGrid(grid, (address) => address);
  if (pairs.length === 0) {
    throw new ExtractError(`${filename}: no question/answer pairs found; the CSV needs a header row with a "Question" column and an "Answer" column`);
  }
  return pairs;
}

/**
 * A workbook's answered questions and the text of its top rows (where a questionnaire states when it was
 * completed), from one reading of the workbook.
 */
export async function xlsxQa(bytes: Uint8Array, filename: string): Promise<{ qa: QaPair[]; topText: string }> {
  const workbook = readable(filename, () => readWorkbook(bytes, filename));
  return { qa: await answeredQuestions(workbook, filename), topText: topRowsText(workbook) };
}

async function answeredQuestions(workbook: Workbook, filename: string): Promise<QaPair[]> {
  // The answer library's own export: its entries as they were, under their question keys.
  const exported = workbook.sheets.find((sheet) => sheet.name === LIBRARY_EXPORT_SHEET);
  const fromExport = exported ? qaFromLibraryExport(workbook.grid(exported)) : null;
  if (fromExport) return fromExport;
  // A completed questionnaire (detected questions with existing answers) is the richest source; the
  // detector reads the workbook already read here, not the bytes again.
  const fromQuestionnaire = await qaFromQuestionnaire(workbook, filename);
  if (fromQuestionnaire.length > 0) return fromQuestionnaire;
  return workbook.sheets
    .filter((sheet) => sheet.state === 'visible')
    .flatMap((sheet) => qaFromGrid(workbook.grid(sheet), (address) => `${sheet.name}!${address}`));
}

/** Rows from the top of each visible sheet where a questionnaire states its own date ("Date: 2024-03-01"). */
const TOP_ROWS = 12;

/** The text of the top rows of the workbook's visible sheets, a row's cells joined by spaces. */
function topRowsText(workbook: Workbook): string {
  const lines: string[] = [];
  for (const sheet of workbook.sheets.filter((s) => s.state === 'visible')) {
    const grid = workbook.grid(sheet);
    for (let r = 1; r <= Math.min(grid.maxRow, TOP_ROWS); r++) {
      const row = grid.rows.get(r);
      if (!row) continue;
      const cells = [...row.entries()].sort((a, b) => a[0] - b[0]).map(([, c]) => c.value ?? '');
      lines.push(cells.filter(Boolean).join(' '));
    }
  }
  return lines.filter(Boolean).join('\n');
}

/** Runs a reader, turning its "cannot read this file" errors into the knowledge module's. */
function readable<T>(filename: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (isXlsxError(error) || error instanceof DetectError) throw new ExtractError(error.message);
    throw error;
  }
}
