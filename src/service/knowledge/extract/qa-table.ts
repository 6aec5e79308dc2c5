/**
 * A Q&A table (a question column and one or more answer columns under a header row) into answer-library
 * entries. Reads the detector's sheet grid, so CSV and xlsx come through the project's one CSV parser
 * and one xlsx layer. Used for sheets the questionnaire detector does not recognise.
 */
import { getCell, type SheetGrid } from '../../detect/grid';
import { formatCell } from '../../../xlsx/ranges';
import type { QaPair } from '../types';

const QUESTION_HEADER = /\b(question|questions|requirement|query|prompt|control (?:question|description))\b/i;
const ANSWER_HEADER = /\b(answer|answers|response|responses|reply|vendor answer|yes\s*\/\s*no)\b/i;
const EXTRA_HEADER = /\b(comment|comments|notes?|additional|explanation|details?|evidence|justification|remarks?)\b/i;
const ID_HEADER = /^\s*(id|#|no\.?|ref(erence)?|question id|control id|item)\s*$/i;
const HEADER_SEARCH_ROWS = 15;

interface Columns {
  headerRow: number;
  question: number;
  id: number | null;
  answers: { column: number; header: string; key: string }[];
}

/**
 * Q&A pairs of one sheet; empty when no header row names a question and an answer column.
 * `location` turns an A1 address of a question cell into the entry's source location.
 */
export function qaFromGrid(grid: SheetGrid, location: (address: string) => string): QaPair[] {
  const text = (row: number, column: number) => clean(getCell(grid, row, column)?.value);
  const columns = findColumns(grid, text);
  if (!columns) return [];
  const pairs: QaPair[] = [];
  for (let r = columns.headerRow + 1; r <= grid.maxRow; r++) {
    const question = text(r, columns.question);
    // Short field prompts ("Date", "URL") are real library entries; only rows with no word are not.
    if (!/\p{L}{2}/u.test(question)) continue;
    const slots = columns.answers.map((a) => ({ slot_key: a.key, header: a.header, content: text(r, a.column) })).filter((s) => s.content !== '');
    if (slots.length === 0) continue;
    pairs.push({
      question,
      answer: slots[0]!.content,
      slots,
      original_id: columns.id === null ? null : text(r, columns.id) || null,
      tab_name: grid.name,
      location: location(formatCell({ row: r, column: columns.question })),
    });
  }
  return pairs;
}

function findColumns(grid: SheetGrid, text: (row: number, column: number) => string): Columns | null {
  for (let r = 1; r <= Math.min(grid.maxRow, HEADER_SEARCH_ROWS); r++) {
    const headers: string[] = [];
    for (let c = 1; c <= grid.maxCol; c++) headers[c] = text(r, c);
    const question = headers.findIndex((h) => h !== undefined && QUESTION_HEADER.test(h) && h.length < 60);
    if (question < 0) continue;
    const answers: Columns['answers'] = [];
    headers.forEach((header, column) => {
      if (column === question || !header || header.length > 60) return;
      if (ANSWER_HEADER.test(header)) answers.push({ column, header, key: answers.some((a) => a.key === 'answer') ? slotKey(header) : 'answer' });
      else if (EXTRA_HEADER.test(header)) answers.push({ column, header, key: 'comment' });
    });
    if (!answers.some((a) => a.key === 'answer')) continue;
    // The primary answer first, then the rest in sheet order.
    answers.sort((a, b) => (a.key === 'answer' ? -1 : b.key === 'answer' ? 1 : a.column - b.column));
    const idColumn = headers.findIndex((h, c) => c !== question && h !== undefined && ID_HEADER.test(h));
    return { headerRow: r, question, id: idColumn >= 0 ? idColumn : null, answers: dedupeKeys(answers) };
  }
  return null;
}

function slotKey(header: string): string {
  return (
    header
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_|_$/g, '') || 'answer_2'
  );
}

function dedupeKeys(answers: Columns['answers']): Columns['answers'] {
  const seen = new Map<string, number>();
  return answers.map((a) => {
    const n = (seen.get(a.key) ?? 0) + 1;
    seen.set(a.key, n);
    return n === 1 ? a : { ...a, key: `${a.key}_${n}` };
  });
}

function clean(value: string | null | undefined): string {
  return value === undefined || value === null ? '' : value.replace(/\s+/g, ' ').trim();
}
