/**
 * Formula-injection and auto-conversion safety: which answer texts Excel would NOT keep as typed.
 * The writer (src/excel `cellTextForValues`) forces these to text; this module only decides.
 */

/** Characters that make Excel itself parse a typed or written cell as a formula. */
const EXCEL_FORMULA_PREFIXES = ['=', '+', '-', '@'];
/** Also read as a formula by CSV consumers after an export (the tab and carriage return before `=`). */
const FORMULA_PREFIXES = [...EXCEL_FORMULA_PREFIXES, '\t', '\r'];

const CONVERTED_BY_EXCEL: RegExp[] = [
  /^\d{12,}$/, // long digit strings: precision lost after 15 digits, shown as 1.23E+11
  /^0\d+$/, // leading zeros dropped (postcodes, ids)
  /^\d+(\.\d+)?e[+-]?\d+$/i, // 1E5 -> 100000
  /^\d+(\.\d+)?\s*%$/, // 10% -> 0.1
  /^\d{1,4}\s*[/-]\s*\d{1,4}(\s*[/-]\s*\d{1,4})?$/, // 3/4, 1-2, 2024-01-05 -> dates
  /^\d{1,2}\s*[/-]\s*(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*(\s*[/-]\s*\d{1,4})?$/i, // 1-Jan
  /^(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\s*[/-]\s*\d{1,4}$/i, // Jan-24
  /^\d{1,2}:\d{2}(:\d{2})?(\s*[ap]m)?$/i, // 10:30 -> time
  /^(true|false)$/i, // TRUE -> boolean
  /^[$€£¥]\s*\d[\d,]*(\.\d+)?$/, // $5 -> currency number
  /^\d{1,3}(,\d{3})+(\.\d+)?$/, // 1,000 -> 1000
  /^\(\d+(\.\d+)?\)$/, // (5) -> -5
];

/** True when Excel, or a CSV consumer after an export, would read `value` as a formula: the one formula-prefix rule. */
export function startsLikeFormula(value: string): boolean {
  return value.length > 0 && FORMULA_PREFIXES.includes(value[0]!);
}

/** The part of that rule Excel's own parser applies: where a `@` number format alone may not keep text as text. */
export function excelParsesAsFormula(value: string): boolean {
  return value.length > 0 && EXCEL_FORMULA_PREFIXES.includes(value[0]!);
}

/**
 * True when Excel would read `value` as a formula, or convert a string the analyst did not mean as a
 * number into one (dates, percentages, scientific notation, long ids, leading zeros, booleans).
 * Plain integers and decimals (`42`, `3.5`) stay numbers: that is what the analyst meant.
 */
export function needsTextProtection(value: string): boolean {
  if (value.length === 0) return false;
  if (startsLikeFormula(value)) return true;
  // A leading apostrophe is Excel's own text prefix: written as is, it would be swallowed.
  if (value[0] === "'") return true;
  const trimmed = value.trim();
  return CONVERTED_BY_EXCEL.some((re) => re.test(trimmed));
}
