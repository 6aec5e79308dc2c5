/**
 * Opens an upload as an xlsx package safely: recognises the format from its bytes, refuses legacy and
 * encrypted files with a reason, and checks the zip's central directory for bomb-like sizes before
 * inflating anything. Only the parts the detector reads are inflated.
 */
import { strFromU8, unzipSync } from 'fflate';
import { DetectError } from './types';

/** Total uncompressed size we are willing to inflate (declared in the central directory). */
export const MAX_TOTAL_UNCOMPRESSED = 200 * 1024 * 1024;
/** Inflation ratio above which a large entry is treated as a bomb (real sheet XML stays well below). */
export const MAX_RATIO = 200;
const RATIO_APPLIES_ABOVE = 10 * 1024 * 1024;

export type FileKind = 'xlsx' | 'csv';

const OLE_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

function startsWith(bytes: Uint8Array, magic: number[]): boolean {
  if (bytes.length < magic.length) return false;
  return magic.every((b, i) => bytes[i] === b);
}

/** True when an OLE compound file contains a stream named `name` (directory names are UTF-16LE). */
function oleHasStream(bytes: Uint8Array, name: string): boolean {
  const pattern = new Uint8Array(name.length * 2);
  for (let i = 0; i < name.length; i++) pattern[i * 2] = name.charCodeAt(i);
  outer: for (let i = 0; i + pattern.length <= bytes.length; i++) {
    for (let j = 0; j < pattern.length; j++) if (bytes[i + j] !== pattern[j]) continue outer;
    return true;
  }
  return false;
}

export function sniffKind(bytes: Uint8Array, filename: string): FileKind {
  const lower = filename.toLowerCase();
  if (bytes.length === 0) throw new DetectError(`"${filename}" is empty (0 bytes).`);
  if (startsWith(bytes, OLE_MAGIC)) {
    if (oleHasStream(bytes, 'EncryptionInfo') || oleHasStream(bytes, 'EncryptedPackage')) {
      throw new DetectError(
        `"${filename}" is password-protected (encrypted). Open it in Excel, remove the password ` +
          '(File > Info > Protect Workbook > Encrypt with Password), save, and upload it again.',
      );
    }
    throw new DetectError(
      `"${filename}" is a legacy Excel 97-2003 (.xls) or other OLE file, which is not supported. ` +
        'Open it in Excel and save it as an Excel Workbook (.xlsx), then upload it again.',
    );
  }
  if (bytes[0] === 0x50 && bytes[1] === 0x4b) return 'xlsx';
  if (lower.endsWith('.csv') || lower.endsWith('.tsv')) return 'csv';
  if (lower.endsWith('.xls')) {
    throw new DetectError(
      `"${filename}" is not a readable Excel file: legacy .xls is not supported and the content is not ` +
        'an .xlsx package. Save it as an Excel Workbook (.xlsx) and upload it again.',
    );
  }
  throw new DetectError(
    `"${filename}" is not an Excel workbook (.xlsx) or a CSV file: its content does not start like ` +
      'either. Upload the questionnaire as .xlsx or .csv.',
  );
}

export interface Package {
  /** Inflated parts by path (without leading slash), only those asked for. */
  parts: Map<string, Uint8Array>;
  names: string[];
  text(path: string): string | null;
}

/**
 * Checks declared sizes first (no inflation), then inflates only the parts `wanted` accepts.
 * Throws DetectError for a damaged archive or one that looks like a zip bomb.
 */
export function openPackage(bytes: Uint8Array, filename: string, wanted: (name: string) => boolean): Package {
  const names: string[] = [];
  let total = 0;
  let bomb: string | null = null;
  try {
    unzipSync(bytes, {
      filter(file) {
        names.push(file.name);
        total += file.originalSize;
        const ratio = file.size > 0 ? file.originalSize / file.size : file.originalSize > 0 ? Infinity : 0;
        if (!bomb && file.originalSize > RATIO_APPLIES_ABOVE && ratio > MAX_RATIO) {
          bomb = `part "${file.name}" would inflate ${Math.round(ratio)}x to ${mb(file.originalSize)}`;
        }
        return false;
      },
    });
  } catch (err) {
    throw new DetectError(
      `"${filename}" could not be opened: the file is damaged or is not an .xlsx package ` +
        `(${(err as Error).message}). Re-save it from Excel as .xlsx and upload it again.`,
    );
  }
  if (!bomb && total > MAX_TOTAL_UNCOMPRESSED) {
    bomb = `its parts would inflate to ${mb(total)} (limit ${mb(MAX_TOTAL_UNCOMPRESSED)})`;
  }
  if (bomb) {
    throw new DetectError(`"${filename}" looks like a zip bomb and was not opened: ${bomb}.`);
  }
  let parts: Map<string, Uint8Array>;
  try {
    const out = unzipSync(bytes, { filter: (file) => wanted(file.name) });
    parts = new Map(Object.entries(out));
  } catch (err) {
    throw new DetectError(
      `"${filename}" could not be read: a part of the archive is damaged (${(err as Error).message}). ` +
        'Re-save it from Excel as .xlsx and upload it again.',
    );
  }
  let inflated = 0;
  for (const p of parts.values()) inflated += p.length;
  if (inflated > MAX_TOTAL_UNCOMPRESSED) {
    throw new DetectError(`"${filename}" looks like a zip bomb: its parts inflated to ${mb(inflated)}.`);
  }
  return {
    parts,
    names,
    text(path: string) {
      const p = parts.get(path.replace(/^\//, ''));
      return p ? strFromU8(p) : null;
    },
  };
}

function mb(n: number): string {
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}
