/**
 * The dates a document or questionnaire states about itself: when it speaks as of ("Date: 2024-03-01",
 * "Effective date", "Last reviewed", a report's date, a SOC report's period end) and until when it is
 * valid (a certificate's "valid until" or expiry, a report's period end). Read from the text near its
 * top for as-of labels (a date further down is usually about something else), from the whole text for a
 * validity period. Pure; dates come back as YYYY-MM-DD, null when the text states none.
 */

export interface DocumentDates {
  /** The date the document speaks as of, and the words it was read from. */
  as_of: string | null;
  as_of_said: string | null;
  /** The last day the document is valid for, and the words it was read from. */
  valid_until: string | null;
  valid_said: string | null;
}

/** Characters from the top searched for an as-of label. */
const TOP_CHARS = 3000;

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const MONTH = `(?:${MONTHS.map((m) => `${m.slice(0, 3)}(?:${m.slice(3)})?`).join('|')})\\.?`;

/** One date in the forms documents write: 2024-03-01, March 1, 2024, 1 March 2024, 03/01/2024 (US), March 2024. */
const DATE = `(\\d{4}-\\d{1,2}-\\d{1,2}|${MONTH}\\s+\\d{1,2}(?:st|nd|rd|th)?,?\\s+\\d{4}|\\d{1,2}(?:st|nd|rd|th)?\\s+${MONTH},?\\s+\\d{4}|\\d{1,2}/\\d{1,2}/\\d{4}|${MONTH}\\s+\\d{4})`;

const pad = (n: number) => String(n).padStart(2, '0');

function ymd(year: number, month: number, day: number): string | null {
  if (year < 1990 || year > 2100 || month < 1 || month > 12 || day < 1) return null;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > last) return null;
  return `${year}-${pad(month)}-${pad(day)}`;
}

const monthOf = (word: string) => MONTHS.findIndex((m) => m.startsWith(word.toLowerCase().replace('.', '').slice(0, 3))) + 1;

/**
 * A date as YYYY-MM-DD, or null. A month without a day is its first day, or its last when `end` (a period
 * that ends "September 2024" runs to its end).
 */
export function parseDate(text: string, end = false): string | null {
  const t = text.trim().replace(/(\d)(st|nd|rd|th)\b/i, '$1');
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(t);
  if (m) return ymd(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(t);
  if (m) return ymd(Number(m[3]), Number(m[1]), Number(m[2]));
  m = /^([a-z]+)\.?\s+(\d{1,2}),?\s+(\d{4})$/i.exec(t);
  if (m) return ymd(Number(m[3]), monthOf(m[1]!), Number(m[2]));
  m = /^(\d{1,2})\s+([a-z]+)\.?,?\s+(\d{4})$/i.exec(t);
  if (m) return ymd(Number(m[3]), monthOf(m[2]!), Number(m[1]));
  m = /^([a-z]+)\.?\s+(\d{4})$/i.exec(t);
  if (m) {
    const year = Number(m[2]);
    const month = monthOf(m[1]!);
    return ymd(year, month, end ? new Date(Date.UTC(year, month, 0)).getUTCDate() : 1);
  }
  return null;
}

/** Labels a document dates itself with, strongest first. */
const AS_OF_LABELS = [
  'effective date',
  'last reviewed',
  'last review date',
  'review date',
  'last updated',
  'last revised',
  'revision date',
  'report date',
  'date of report',
  'date issued',
  'issue date',
  'certificate granted',
  'granted',
  'publication date',
  'as of',
  'dated',
  'date',
];

const VALID_UNTIL = [
  `valid\\s+(?:until|through|thru|to)`,
  `expir(?:es|y\\s+date|ation\\s+date|ation)(?:\\s+on)?`,
  `certificate\\s+expir(?:y|ation)(?:\\s+date)?`,
  `valid\\s+from\\s+${DATE}\\s+(?:to|until|through)`,
];

/** "for the period October 1, 2023 to September 30, 2024", "period from … through …". */
const PERIOD = new RegExp(`(?:for\\s+the\\s+)?period\\s+(?:from\\s+)?${DATE}\\s*(?:to|through|thru|until|-|–)\\s*${DATE}`, 'i');

function labelled(text: string, label: string): { date: string; said: string } | null {
  const re = new RegExp(`\\b${label.replace(/ /g, '\\s+')}\\b\\s*[:\\-–]?\\s*(?:on\\s+)?${DATE}`, 'i');
  const m = re.exec(text);
  if (!m) return null;
  const date = parseDate(m[m.length - 1]!);
  return date ? { date, said: m[0].replace(/\s+/g, ' ').trim() } : null;
}

export function documentDates(text: string): DocumentDates {
  const top = text.slice(0, TOP_CHARS);
  let as_of: { date: string; said: string } | null = null;
  for (const label of AS_OF_LABELS) {
    as_of = labelled(top, label);
    if (as_of) break;
  }
  let valid: { date: string; said: string } | null = null;
  for (const label of VALID_UNTIL) {
    valid = labelled(text, label);
    if (valid) break;
  }
  const period = PERIOD.exec(text);
  const periodEnd = period ? parseDate(period[2]!, true) : null;
  if (period && periodEnd) {
    const said = period[0].replace(/\s+/g, ' ').trim();
    // A report on a period speaks as of its end, and holds until it (unless a validity is stated).
    if (!as_of) as_of = { date: periodEnd, said };
    if (!valid) valid = { date: periodEnd, said };
  }
  return { as_of: as_of?.date ?? null, as_of_said: as_of?.said ?? null, valid_until: valid?.date ?? null, valid_said: valid?.said ?? null };
}

/** Whether a document valid until `validUntil` (YYYY-MM-DD) has expired on `now`: after that whole day. */
export function isExpired(validUntil: string | null, now: Date): boolean {
  if (!validUntil) return false;
  return now.toISOString().slice(0, 10) > validUntil;
}
