/** Small helpers over the global `Office`/`Excel` objects: requirement sets and error codes. */

/** Optional API sets this code uses, and what for. */
export const API_SETS = {
  /** worksheet.protection, format.protection.locked, workbook.onSelectionChanged */
  protection: '1.2',
  /** application.suspendApiCalculationUntilNextSync */
  suspendCalculation: '1.6',
  /** range.getCellProperties (per-cell fill and lock state in one call) */
  cellProperties: '1.9',
  /** workbook.comments */
  comments: '1.10',
  /** range.getMergedAreasOrNullObject */
  mergedAreas: '1.13',
  /** worksheet.notes */
  notes: '1.18',
  /** Excel.run({ mergeUndoGroup: true }) */
  mergeUndoGroup: '1.20',
} as const;

export type ApiFeature = keyof typeof API_SETS;

function versionLessOrEqual(a: string, b: string): boolean {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d < 0;
  }
  return true;
}

/**
 * Which optional features this Excel supports, asked once with `isSetSupported`. `cap` limits the
 * answer to a version (to behave like an older Excel, or to rule a feature out).
 */
export function detectSupport(cap?: string): Record<ApiFeature, boolean> {
  const requirements = typeof Office !== 'undefined' ? Office.context?.requirements : undefined;
  const supported = (version: string) => !!requirements?.isSetSupported('ExcelApi', version) && (cap === undefined || versionLessOrEqual(version, cap));
  const out = {} as Record<ApiFeature, boolean>;
  for (const [feature, version] of Object.entries(API_SETS) as [ApiFeature, string][]) out[feature] = supported(version);
  return out;
}

/** The Office error code of an error thrown by `context.sync()` (`ItemNotFound`, ...), or null. */
export function officeErrorCode(error: unknown): string | null {
  if (error && typeof error === 'object' && 'code' in error && typeof (error as { code: unknown }).code === 'string') {
    return (error as { code: string }).code;
  }
  return null;
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
