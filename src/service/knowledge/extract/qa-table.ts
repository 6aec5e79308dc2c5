/**
 * A Q&A table (a question column and one or more answer columns under a header row) into answer-library
 * entries. Used for CSV files and for spreadsheets the questionnaire detector does not recognise.
 */
import type { QaPair } from '../types';

const QUESTION_HEADER = /\b(question|questions|requirement|query|prompt|control (?:question|description))\b/i;
const ANSWER_HEADER = /\b(answer|answers|response|responses|reply|vendor answer|yes\s*\/\s*no)\b/i;
const EXTRA_HEADER = /\b(comment|comments|notes?|additional|explanation|details?|evidence|justification|remarks?)\b/i;
const ID_HEADER = /^\s*(id|#|no\.?|ref(erence)?|question id|control id|item)\s*$/i;

interface Columns {
  headerRow: number;
  question: number;
  id: number | null;
  answers: { column: number; header: string; key: string }[];
}

/** Q&A pairs of one table; empty when no header row names a question and an answer column. */
export function qaFromTable(rows: string[][], tabName: string, cellName: (row: number, column: number) => string): QaPair[] {
  const columns = findColumns(rows);
  if (!columns) return [];
  const pairs: QaPair[] = [];
  for (let r = columns.headerRow + 1; r < rows.length; r++) {
    const row = rows[r] ?? [];
    const question = clean(row[columns.question]);
    if (question.length < 8 || !/\p{L}{3}/u.test(question)) continue;
    const slots = columns.answers
      .map((a) => ({ slot_key: a.key, header: a.header, content: clean(row[a.column]) }))
      .filter((s) => s.content !== '');
    if (slots.length === 0) continue;
    pairs.push({
      question,
      answer: slots[0]!.content,
      slots,
      original_id: columns.id === null ? null : clean(row[columns.id]) || null,
      tab_name: tabName,
      location: cellName(r, columns.question),
    });
  }
  return pairs;
}

function findColumns(rows: string[][]): Columns | null {
  for (let r = 0; r < Math.min(rows.length, 15); r++) {
    const row = (rows[r] ?? []).map(clean);
    const question = row.findIndex((h) => QUESTION_HEADER.test(h) && h.length < 60);
    if (question < 0) continue;
    const answers: Columns['answers'] = [];
    row.forEach((header, column) => {
      if (column === question || !header || header.length > 60) return;
      if (ANSWER_HEADER.test(header)) answers.push({ column, header, key: answers.some((a) => a.key === 'answer') ? slotKey(header) : 'answer' });
      else if (EXTRA_HEADER.test(header)) answers.push({ column, header, key: 'comment' });
    });
    if (!answers.some((a) => a.key === 'answer')) continue;
    // The primary answer first, then the rest in sheet order.
    answers.sort((a, b) => (a.key === 'answer' ? -1 : b.key === 'answer' ? 1 : a.column - b.column));
    const idColumn = row.findIndex((h, c) => c !== question && ID_HEADER.test(h));
    return { headerRow: r, question, id: idColumn >= 0 ? idColumn : null, answers: dedupeKeys(answers) };
  }
  return null;
}

function slotKey(header: string): string {
  return header.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '') || 'answer_2';
}

function dedupeKeys(answers: Columns['answers']): Columns['answers'] {
  const seen = new Map<string, number>();
  return answers.map((a) => {
    const n = (seen.get(a.key) ?? 0) + 1;
    seen.set(a.key, n);
    return n === 1 ? a : { ...a, key: `${a.key}_${n}` };
  });
}

function clean(value: unknown): string {
  return value === undefined || value === null ? '' : String(value).replace(/\s+/g, ' ').trim();
}

/** RFC 4180 CSV (quoted fields, doubled quotes, embedded newlines); the delimiter is detected. */
export function parseCsv(text: string): string[][] {
  const source = text.replace(/^\uFEFF/, '');
  const firstLine = source.slice(0, source.search(/\r?\n|$/));
  const delimiter = [',', ';', '\t'].reduce((best, d) => (count(firstLine, d) > count(firstLine, best) ? d : best), ',');
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (quoted) {
      if (c === '"') {
        if (source[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === delimiter) {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && source[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

function count(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

export function columnLetter(index: number): string {
  let n = index + 1;
  let s = '';
  while (n > 0) {
    const m = (n - 1) % 26;
    s = String.fromCharCode(65 + m) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
}
