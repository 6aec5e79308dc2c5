/**
 * The one low-level .xlsx layer: file-type sniffing, a zip reader with a zip-bomb guard and a
 * lossless rewriter, and the workbook and sheet parts. The writer (`qfill fill`) and the
 * questionnaire detector both read packages through it.
 */
export {
  XlsxPackage,
  type ReadCell,
  type XlsxWrite,
  type WriteResult,
  type ApplyOptions,
  type SheetInfo,
  type SheetPart,
  type CellStyle,
  type DefinedName,
} from './package';
export { XlsxError, isXlsxError, type XlsxErrorCode } from './errors';
export { sniffSpreadsheet, type SpreadsheetKind } from './sniff';
export { DEFAULT_ZIP_LIMITS, type ZipLimits } from './zip';
export { defaultZipCodec, nodeZipCodec, portableZipCodec, type ZipCodec } from './codec';
export { EXCEL_MAX_CELL_CHARS } from './cell-text';
export { blankCells } from './blank';
export { type NoteWrite } from './notes-write';
