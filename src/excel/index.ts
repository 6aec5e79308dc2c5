/** The only Office.js code: the workbook adapter the task pane uses, and its parts. */
export * from './types';
export { createExcelWorkbook, sourceNoteText, TRUST_FILLS, DEFAULT_PAYLOAD_BUDGET } from './workbook';
export type { ExcelWorkbookOptions } from './workbook';
export { readOpenWorkbook, fileNameFromUrl, ReadFileError, DEFAULT_MAX_FILE_BYTES, MAX_SLICE_BYTES } from './read-file';
export type { ReadFileOptions } from './read-file';
export { cellTextForValues } from './cell-text';
export { runBatched } from './batch';
export type { BatchOp, BatchOptions, BatchResult, CellFailure } from './batch';
export { detectSupport, officeErrorCode, API_SETS } from './office';
export type { ApiFeature } from './office';
export { UndoStore, memoryStorage } from './undo-store';
export type { StorageLike, UndoSnapshot } from './undo-store';
