/**
 * What kind of file an upload really is, from its first bytes: the one place that tells an .xlsx
 * package from an old `.xls`, a password-protected workbook, a CSV or a renamed PDF, so the
 * messages for the usual mistakes are the same in the service and the CLI.
 */
import { XlsxError } from './errors';
import { isZip } from './zip';

export type SpreadsheetKind = 'zip' | 'csv';

export interface SniffOptions {
  /** The file name: a `.csv`/`.tsv` name makes a non-binary file a CSV. Without it CSV is refused. */
  csvName?: string;
}

const OLE_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

function startsWith(bytes: Uint8Array, magic: readonly number[]): boolean {
  return bytes.length >= magic.length && magic.every((b, i) => bytes[i] === b);
}

/** True when the UTF-16LE form of `name` appears anywhere (OLE directory entries store names so). */
function containsUtf16(bytes: Uint8Array, name: string): boolean {
  const needle = new Uint8Array(name.length * 2);
  for (let i = 0; i < name.length; i++) needle[i * 2] = name.charCodeAt(i);
  const first = needle[0]!;
  outer: for (let p = bytes.indexOf(first); p >= 0 && p + needle.length <= bytes.length; p = bytes.indexOf(first, p + 1)) {
    for (let i = 1; i < needle.length; i++) if (bytes[p + i] !== needle[i]) continue outer;
    return true;
  }
  return false;
}

/**
 * `zip` for a zip container (an .xlsx candidate), `csv` for a CSV/TSV when allowed; otherwise
 * throws an XlsxError whose code and message name the problem. `label` names the file in messages.
 */
export function sniffSpreadsheet(bytes: Uint8Array, label: string, options: SniffOptions = {}): SpreadsheetKind {
  const csvAllowed = options.csvName !== undefined;
  if (bytes.length === 0) {
    throw new XlsxError('not_zip', `${label} is empty (0 bytes), not an .xlsx file${csvAllowed ? ' or a CSV file' : ''}.`);
  }
  if (isZip(bytes)) return 'zip';
  if (startsWith(bytes, OLE_MAGIC)) {
    if (containsUtf16(bytes, 'EncryptedPackage') || containsUtf16(bytes, 'EncryptionInfo')) {
      throw new XlsxError(
        'encrypted',
        `${label} is a password-protected (encrypted) workbook: open it in Excel, remove the password ` +
          '(File > Info > Protect Workbook > Encrypt with Password) and save it as .xlsx.',
      );
    }
    throw new XlsxError(
      'legacy_xls',
      `${label} is a legacy Excel 97-2003 file (.xls), not an .xlsx: open it in Excel or LibreOffice and ` + 'save it as an Excel Workbook (.xlsx).',
    );
  }
  if (csvAllowed && /\.(csv|tsv)$/i.test(options.csvName!)) return 'csv';
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 5));
  const hint = head === '%PDF-' ? ' (it is a PDF)' : head.startsWith('PK') ? ' (a damaged zip archive)' : '';
  throw new XlsxError(
    'not_zip',
    csvAllowed
      ? `${label} is not an .xlsx file (not a zip archive)${hint} nor a .csv file. Upload the questionnaire as .xlsx or .csv.`
      : `${label} is not an .xlsx file (not a zip archive)${hint}.`,
  );
}
