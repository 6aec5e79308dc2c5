/** The in-memory Excel host (browser-safe). The xlsx loader is separate: `./load-xlsx`. */
export { ExcelHost, compareVersions } from './host';
export type { ExcelHostOptions, HostStats, FileFaults } from './host';
export { installExcelHost } from './install';
export { HostOfficeError } from './errors';
export type { HostErrorCode } from './errors';
export { HostRequestContext, utf8Length } from './excel-api';
export { createOfficeNamespace } from './office';
export type { HostCell, HostSheet, HostValidation, HostSheetProtection, WorkbookSnapshot, SheetSnapshot, CellValue, Rect } from './model';
export { enterValue, emptyCell } from './model';
