/**
 * CSV (RFC 4180) to a sheet grid, as Excel would open it as sheet 1: quoted fields with doubled quotes,
 * line breaks inside quotes, CRLF/LF/CR, a UTF-8 or UTF-16 byte order mark, and `,` `;` or tab as the
 * delimiter (whichever splits the first record best).
 */
import { emptyGrid, setCell, type SheetGrid } from './grid';
import { DetectError } from './types';

const MAX_CSV_BYTES = 50 * 1024 * 1024;

export function decodeText(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  const body = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    // Not UTF-8: Excel's default for CSV on Windows is the ANSI code page.
    return new TextDecoder('windows-1252').decode(body);
  }
}

export function detectDelimiter(text: string): string {
  const firstRecord = firstLineOutsideQuotes(text);
  let best = ',';
  let bestCount = -1;
  for (const d of [',', ';', '\t']) {
    const count = splitRecords(firstRecord, d)[0]?.length ?? 0;
    if (count > bestCount) {
      best = d;
      bestCount = count;
    }
  }
  return best;
}

function firstLineOutsideQuotes(text: string): string {
  let inQuotes = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') inQuotes = !inQuotes;
    else if (!inQuotes && (ch === '\n' || ch === '\r')) return text.slice(0, i);
  }
  return text;
}

/** Splits CSV text into records of fields. */
export function splitRecords(text: string, delimiter: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let inQuotes = false;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const ch = text[i];
    if (inQuotes) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        inQuotes = false;
        i++;
        continue;
      }
      field += ch;
      i++;
      continue;
    }
    if (ch === '"' && field === '') {
      inQuotes = true;
      i++;
    } else if (ch === delimiter) {
      record.push(field);
      field = '';
      i++;
    } else if (ch === '\r' || ch === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i += ch === '\r' && text[i + 1] === '\n' ? 2 : 1;
    } else {
      field += ch;
      i++;
    }
  }
  if (field !== '' || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  return records;
}

export function csvToGrid(bytes: Uint8Array, filename: string): SheetGrid {
  if (bytes.length > MAX_CSV_BYTES) {
    throw new DetectError(`"${filename}" is larger than ${MAX_CSV_BYTES / 1024 / 1024} MB; split the CSV and upload the parts.`);
  }
  const text = decodeText(bytes);
  if (text.includes('\u0000')) {
    throw new DetectError(`"${filename}" is not a text CSV file (it contains binary data).`);
  }
  const delimiter = filename.toLowerCase().endsWith('.tsv') ? '\t' : detectDelimiter(text);
  const base = filename.replace(/^.*[\\/]/, '').replace(/\.[^.]+$/, '') || 'Sheet1';
  // Excel names the sheet of an opened CSV after the file, cut to its 31-character limit.
  const grid = emptyGrid(base.replace(/[\\/?*[\]:]/g, '_').slice(0, 31));
  splitRecords(text, delimiter).forEach((record, r) => {
    record.forEach((field, c) => {
      if (field.trim() !== '') setCell(grid, r + 1, c + 1, { value: field, formula: false, style: 0 });
    });
  });
  return grid;
}
