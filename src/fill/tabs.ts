/** Tab names from the service matched to the workbook's sheets. */

/**
 * The sheet a tab name refers to: exact match first, then trimmed and case-insensitive (the service
 * may have normalised case or whitespace). Null when none, or when the loose match is ambiguous.
 */
export function resolveTab(name: string, sheetNames: readonly string[]): string | null {
  if (sheetNames.includes(name)) return name;
  const wanted = looseName(name);
  if (!wanted) return null;
  const matches = sheetNames.filter((s) => looseName(s) === wanted);
  return matches.length === 1 ? matches[0]! : null;
}

function looseName(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toLowerCase();
}
