/**
 * Whose statement a document is: the organisation it describes when its text names one as its subject
 * (a cloud provider's SOC report, an auditor's report on some company, a standard's requirement
 * matrix). Read from the title, the first heading, the file name and the opening's report formulas
 * ("Report on the Amazon Web Services System", "We, as management of X", "X's Assertion",
 * "Company name: X"). Whether that organisation is the uploader's own is decided at answer time
 * against the organisation's names (see answer/ownership.ts), so changing the names needs no re-ingestion.
 */
import type { DocumentType } from '../../../api/schemas';
import { isSpace } from '../text';
import type { ExtractedPage } from '../types';

/** Cloud and service providers whose published reports vendors pass on as their own evidence. */
export const KNOWN_PROVIDERS: [RegExp, string][] = [
  [/\b(aws|amazon web services)\b/i, 'Amazon Web Services'],
  [/\b(microsoft azure|azure)\b/i, 'Microsoft Azure'],
  [/\b(google cloud|gcp)\b/i, 'Google Cloud'],
  [/\bcloudflare\b/i, 'Cloudflare'],
  [/\bsalesforce\b/i, 'Salesforce'],
  [/\bokta\b/i, 'Okta'],
  [/\bsnowflake\b/i, 'Snowflake'],
];

/** A standard's own requirement text: what it asks, not what anyone does. */
export const STANDARD_BODY = 'PCI Security Standards Council (requirement text)';

const OPENING_CHARS = 8000;
const NAME = "([A-Z][\\w&.'’-]*(?: (?:[A-Z][\\w&.'’-]*|of|and|&)){0,5})";

/** Report formulas that name the organisation a document is about. */
const SUBJECT_PATTERNS: RegExp[] = [
  new RegExp(`\\bReport on (?:the )?${NAME} System\\b`),
  new RegExp(`\\bas management of ${NAME}`),
  new RegExp(`\\b${NAME}[’']s? (?:Management )?Assertion\\b`),
  new RegExp(`\\b${NAME}[’']s Description of\\b`),
  new RegExp(`\\bCompany name:\\s+${NAME}`),
];

export interface SubjectInput {
  filename: string;
  title?: string;
  pages: ExtractedPage[];
  document_type?: DocumentType;
}

/** The organisation the document is about, or undefined when its text names none. */
export function documentSubject(input: SubjectInput): string | undefined {
  const name = input.filename.replace(/\.[A-Za-z0-9]+$/, '');
  const heading = input.pages.find((p) => p.text.trim() !== '')?.blocks?.find((b) => b.level > 0)?.text ?? '';
  const opening = input.pages
    .map((p) => p.text)
    .join('\n')
    .slice(0, OPENING_CHARS);
  if (isRequirementMatrix(input.pages)) return STANDARD_BODY;
  // A report or certificate whose title names a provider ("AWS SOC 3.pdf") is that provider's; a policy
  // titled "AWS access" is still the organisation's own statement about how it uses AWS.
  if (input.document_type === 'security_certificate') {
    for (const text of [name, input.title ?? '', heading]) {
      for (const [pattern, provider] of KNOWN_PROVIDERS) if (pattern.test(text)) return provider;
    }
  }
  for (const pattern of SUBJECT_PATTERNS) {
    const m = pattern.exec(opening);
    if (m?.[1]) return cleanName(m[1]);
  }
  return undefined;
}

function cleanName(raw: string): string {
  return raw
    .replace(/[,.]?\s*(Inc|LLC|Ltd|Limited|Corp|Corporation|GmbH|plc)\.?$/i, '')
    .replace(/[’']s$/, '')
    .trim();
}

/** A numbered requirement followed by its text: "1.1.2 Current network diagram…", "12.4.2 Perform reviews…". */
export const REQUIREMENT_ITEM = /(?:^|\s)\d{1,2}\.\d{1,2}(?:\.\d{1,2}){0,2}\s+[A-Z]/g;
/** A matrix's tick marks: lone "x" cells. */
export const TICK = /(?:^|\s)x(?=\s|$)/g;

/** A document made mostly of a standard's numbered requirements (a PCI responsibility matrix). */
export function isRequirementMatrix(pages: ExtractedPage[]): boolean {
  const text = pages.map((p) => p.text).join('\n');
  const items = text.match(REQUIREMENT_ITEM)?.length ?? 0;
  // One numbered requirement per ~40 words (at least 200) and tick marks beside them: a matrix, not prose
  // citing a requirement. So at least 5 items, and words are counted only as far as 40 per item.
  if (items < MIN_WORDS / WORDS_PER_ITEM) return false;
  const words = splitWordCount(text, items * WORDS_PER_ITEM + 1);
  if (words < MIN_WORDS || items < words / WORDS_PER_ITEM) return false;
  const ticks = text.match(TICK)?.length ?? 0;
  return ticks >= items / 2;
}

const MIN_WORDS = 200;
const WORDS_PER_ITEM = 40;

/**
 * `text.split(/\s+/).length`, counted without making the array (on a 10 MB upload that split made
 * 1.4 million strings: 0.6 s of the reader's time, most of it garbage collection), and only up to
 * `atMost` (the count returned is then `atMost`).
 */
export function splitWordCount(text: string, atMost = Infinity): number {
  let runs = 0;
  let inRun = false;
  for (let i = 0; i < text.length && runs + 1 < atMost; i++) {
    const space = isSpace(text.charCodeAt(i));
    if (space && !inRun) runs++;
    inRun = space;
  }
  return Math.min(runs + 1, atMost);
}
