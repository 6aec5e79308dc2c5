/** Lossless .xlsx reading and writing for `qfill fill`: see package.ts. */
export { XlsxPackage, type ReadCell, type XlsxWrite, type WriteResult, type SheetInfo } from './package';
export { XlsxError, isXlsxError, type XlsxErrorCode } from './errors';
export { DEFAULT_ZIP_LIMITS, type ZipLimits } from './zip';
export { EXCEL_MAX_CELL_CHARS } from './cell-text';
