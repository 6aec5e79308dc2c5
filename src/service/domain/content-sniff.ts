/**
 * What a file's bytes say it is, whatever its name claims. An upload whose content contradicts its
 * extension (a PDF renamed .txt, a workbook renamed .pdf, a password-protected .xlsx) is refused with
 * a reason the person can act on, instead of being indexed as garbage or failing later without one.
 */
export type ContentKind = 'pdf' | 'zip' | 'ole' | 'png' | 'jpeg' | 'gif' | 'gzip' | 'executable' | 'binary' | 'text';

const KIND_NAMES: Record<ContentKind, string> = {
  pdf: 'a PDF document',
  zip: 'a zip package',
  ole: 'a legacy (.doc/.xls) or password-protected Office file',
  png: 'a PNG image',
  jpeg: 'a JPEG image',
  gif: 'a GIF image',
  gzip: 'a gzip archive',
  executable: 'a program',
  binary: 'binary data',
  text: 'text',
};

function startsWith(bytes: Uint8Array, signature: number[], at = 0): boolean {
  return signature.every((b, i) => bytes[at + i] === b);
}

function hasUtf16Bom(bytes: Uint8Array): boolean {
  return startsWith(bytes, [0xff, 0xfe]) || startsWith(bytes, [0xfe, 0xff]);
}

export function sniffContent(bytes: Uint8Array): ContentKind {
  // PDF readers accept the header anywhere in the first 1024 bytes.
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 1024));
  if (head.includes('%PDF-', 0, 'latin1')) return 'pdf';
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || startsWith(bytes, [0x50, 0x4b, 0x05, 0x06])) return 'zip';
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'ole';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47])) return 'png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, [0x47, 0x49, 0x46, 0x38])) return 'gif';
  if (startsWith(bytes, [0x1f, 0x8b])) return 'gzip';
  if (startsWith(bytes, [0x4d, 0x5a]) || startsWith(bytes, [0x7f, 0x45, 0x4c, 0x46])) return 'executable';
  if (hasUtf16Bom(bytes)) return 'text';
  // Text never holds NUL bytes (UTF-16 without a BOM is too rare to guess at).
  const sample = bytes.subarray(0, 8192);
  return sample.includes(0) ? 'binary' : 'text';
}

function zipHolds(bytes: Uint8Array, entryPrefix: string): boolean {
  // Entry names are stored in clear in a zip's local and central headers.
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(entryPrefix, 0, 'latin1');
}

/** Above this, unzipping a workbook or document would exhaust memory (a "zip bomb"). */
export const MAX_EXPANDED_BYTES = 400 * 1024 * 1024;

/**
 * The total uncompressed size a zip's central directory declares, or null when it cannot be read
 * (the extractor then reports the file as broken). ZIP64 entries count as too large.
 */
export function zipExpandedSize(bytes: Uint8Array): number | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The end-of-central-directory record sits in the last 22 bytes plus an optional comment (< 64 KiB).
  let eocd = -1;
  for (let i = bytes.byteLength - 22; i >= Math.max(0, bytes.byteLength - 22 - 0xffff); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return null;
  const entries = view.getUint16(eocd + 10, true);
  let at = view.getUint32(eocd + 16, true);
  let total = 0;
  for (let n = 0; n < entries; n++) {
    if (at + 46 > bytes.byteLength || view.getUint32(at, true) !== 0x02014b50) return null;
    const size = view.getUint32(at + 24, true);
    if (size === 0xffffffff) return Number.POSITIVE_INFINITY;
    total += size;
    at += 46 + view.getUint16(at + 28, true) + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return total;
}

function tooLargeUnzipped(bytes: Uint8Array): string | null {
  const size = zipExpandedSize(bytes);
  if (size === null || size <= MAX_EXPANDED_BYTES) return null;
  const mb = (n: number) => (Number.isFinite(n) ? `${Math.round(n / 1024 / 1024)} MB` : 'more than 4 GB');
  return `the file expands to ${mb(size)} when unzipped; the limit is ${mb(MAX_EXPANDED_BYTES)}`;
}

function describe(kind: ContentKind, bytes: Uint8Array): string {
  if (kind === 'zip' && zipHolds(bytes, 'xl/')) return 'an Excel workbook';
  if (kind === 'zip' && zipHolds(bytes, 'word/')) return 'a Word document';
  return KIND_NAMES[kind];
}

/** Null when the content fits the extension, else why it does not. */
export function contentMismatch(ext: string, bytes: Uint8Array): string | null {
  const kind = sniffContent(bytes);
  const is = `the content is ${describe(kind, bytes)}`;
  switch (ext) {
    case 'pdf':
      return kind === 'pdf' ? null : `${is}, not a PDF`;
    case 'docx':
      if (kind === 'ole') return `${is}; save it as an unprotected .docx`;
      if (kind !== 'zip') return `${is}, not a Word .docx document`;
      if (!zipHolds(bytes, 'word/') && zipHolds(bytes, 'xl/')) return 'the content is an Excel workbook, not a Word document; rename it to .xlsx';
      return tooLargeUnzipped(bytes);
    case 'xlsx':
    case 'xlsm':
      if (kind === 'ole') return `${is}; save it as an unprotected .xlsx`;
      if (kind !== 'zip') return `${is}, not an Excel .xlsx workbook`;
      if (!zipHolds(bytes, 'xl/') && zipHolds(bytes, 'word/')) return 'the content is a Word document, not a workbook; rename it to .docx';
      return tooLargeUnzipped(bytes);
    default:
      // txt, md, html, csv: text formats.
      if (kind === 'text') return null;
      return kind === 'binary' ? `${is}, not text` : `${is}, not text; upload it with its own extension`;
  }
}
