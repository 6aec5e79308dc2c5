/** Spreadsheets as answer libraries: completed questionnaires and plain Q&A sheets. */
import ExcelJS from 'exceljs';
import { ExtractError, type QaPair } from '../types';
import { columnLetter, parseCsv, qaFromTable } from './qa-table';
import { qaFromQuestionnaire } from './questionnaire';

export function csvQa(text: string, filename: string): QaPair[] {
  const rows = parseCsv(text);
  const pairs = qaFromTable(rows, filename.replace(/\.[^.]+$/, ''), (r, c) => `${columnLetter(c)}${r + 1}`);
  if (pairs.length === 0) {
    throw new ExtractError(
      `${filename}: no question/answer pairs found; the CSV needs a header row with a "Question" column and an "Answer" column`,
    );
  }
  return pairs;
}

export async function xlsxQa(bytes: Uint8Array, filename: string): Promise<QaPair[]> {
  // A completed questionnaire (detected questions with existing answers) is the richest source.
  const fromQuestionnaire = await qaFromQuestionnaire(bytes, filename);
  if (fromQuestionnaire.length > 0) return fromQuestionnaire;

  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) as never);
  } catch (error) {
    throw new ExtractError(`${filename} is not a readable Excel workbook: ${(error as Error).message}`);
  }
  const pairs: QaPair[] = [];
  for (const sheet of workbook.worksheets) {
    if (sheet.state !== 'visible') continue;
    const rows: string[][] = [];
    sheet.eachRow({ includeEmpty: true }, (row, rowNumber) => {
      const values: string[] = [];
      row.eachCell({ includeEmpty: true }, (cell, col) => {
        values[col - 1] = cellText(cell);
      });
      rows[rowNumber - 1] = values;
    });
    for (let i = 0; i < rows.length; i++) rows[i] ??= [];
    pairs.push(...qaFromTable(rows, sheet.name, (r, c) => `${sheet.name}!${columnLetter(c)}${r + 1}`));
  }
  return pairs;
}

function cellText(cell: ExcelJS.Cell): string {
  const value = cell.value as unknown;
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') {
    const v = value as { result?: unknown; richText?: { text: string }[]; text?: string };
    if ('result' in v) return v.result === undefined || v.result === null ? '' : String(v.result);
    if (v.richText) return v.richText.map((t) => t.text).join('');
    if (typeof v.text === 'string') return v.text;
    if (value instanceof Date) return value.toISOString().slice(0, 10);
  }
  return String(value);
}
