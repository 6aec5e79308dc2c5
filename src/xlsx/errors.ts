/**
 * The one error type of the xlsx package layer. `code` is stable (tests and the CLI key off it);
 * `message` is one line a person can act on.
 */
export type XlsxErrorCode =
  | 'missing_file'
  | 'not_zip'
  | 'not_workbook'
  | 'encrypted'
  | 'legacy_xls'
  | 'binary_workbook'
  | 'zip_bomb'
  | 'corrupt'
  | 'unsupported'
  | 'bad_write';

export class XlsxError extends Error {
  readonly code: XlsxErrorCode;
  constructor(code: XlsxErrorCode, message: string) {
    super(message);
    this.name = 'XlsxError';
    this.code = code;
  }
}

export function isXlsxError(e: unknown, code?: XlsxErrorCode): e is XlsxError {
  return e instanceof XlsxError && (code === undefined || e.code === code);
}
