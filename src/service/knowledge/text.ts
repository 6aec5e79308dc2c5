/**
 * Text normalisation shared by indexing and querying, so both sides agree on what a term is.
 * Security vocabulary is full of acronyms and numbered standards (SOC 2, ISO 27001, AES-256) that a
 * plain word tokenizer would split into meaningless pieces ("soc", "2"); they are rewritten into single
 * canonical tokens, and spelled-out phrases gain their acronym so "MFA" finds "multi-factor authentication".
 */
import { porterStem } from './porter';
import { RELATED, SYNONYMS } from './vocabulary';

/** Numbered standards and algorithms joined into one token: `SOC 2` -> `soc2`, `AES-256` -> `aes256`. */
const JOINED_PATTERNS: [RegExp, string][] = [
  [/\bsoc\s*[-–]?\s*(1|2|3|i{1,3})\b/gi, 'soc$1'],
  [/\biso\s*(?:\/\s*iec)?\s*[-–]?\s*(\d{4,5})(?:[-–:]\d+)?\b/gi, 'iso$1'],
  [/\baes\s*[-–]?\s*(128|192|256)\b/gi, 'aes$1'],
  [/\bsha\s*[-–]?\s*(1|2|256|384|512)\b/gi, 'sha$1'],
  [/\brsa\s*[-–]?\s*(1024|2048|3072|4096)\b/gi, 'rsa$1'],
  [/\btls\s*v?\s*(1\.[0-3])\b/gi, 'tls $1'],
  [/\bnist\s*(?:sp\s*)?800\s*[-–]\s*(\d+)\b/gi, 'nist800$1'],
  [/\bpci\s*[-–]?\s*dss\b/gi, 'pcidss'],
  [/\bhi\s*trust\b/gi, 'hitrust'],
  [/\bfed\s*ramp\b/gi, 'fedramp'],
  [/\btx\s*[-–]\s*ramp\b/gi, 'txramp'],
  [/\b(\d+)\s*[-–]?\s*factor\b/gi, '$1factor'],
  [/\b24\s*[x×\/]\s*7\b/gi, '24x7'],
];

export { SYNONYMS } from './vocabulary';

/** All phrases in one alternation (longest first), so a text is scanned once, not once per phrase. */
const PHRASE_TO_ACRONYM = new Map<string, string>();
for (const [acronym, phrases] of Object.entries(SYNONYMS)) {
  for (const phrase of phrases) PHRASE_TO_ACRONYM.set(phrase.replace(/[\s\-–]+/g, ''), acronym);
}
const PHRASE_PATTERN = new RegExp(
  `\\b(?:${Object.values(SYNONYMS)
    .flat()
    .sort((a, b) => b.length - a.length)
    .map((phrase) => phrase.split(' ').map(escapeRegExp).join('[\\s\\-–]*'))
    .join('|')})\\b`,
  'gi',
);
const ACRONYMS = new Set(Object.keys(SYNONYMS));

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export const STOP_WORDS = new Set(
  (
    'a about above after again against all am an and any are aren as at be because been before being below ' +
    'between both but by can cannot could did didn do does doesn doing don down during each few for from further ' +
    'had has have having he her here hers herself him himself his how i if in into is isn it its itself just ' +
    'let me more most my myself no nor not of off on once only or other ought our ours ourselves out over own ' +
    'same she should so some such than that the their theirs them themselves then there these they this those ' +
    'through to too under until up very was we were what when where which while who whom why will with would ' +
    'you your yours yourself yourselves also etc e g ie eg may might must shall us use used using via ' +
    'please describe provide explain detail details list outline indicate specify state summarize answer question ' +
    'yes n/a na applicable'
  ).split(/\s+/),
);

/** Words that make a sentence deny what it states; an extractive Yes needs none of them. */
export const NEGATIONS = new Set([
  'not', 'no', 'never', 'none', 'neither', 'nor', 'cannot', 'without', "don't", "doesn't", "isn't", "aren't",
  "won't", "can't", 'dont', 'doesnt', 'isnt', 'arent', 'wont', 'cant', 'unable', 'lack', 'lacks',
]);

/** Lower-cases, folds quotes and rewrites standards/acronyms into single canonical tokens. */
export function normalizeText(text: string): string {
  let t = text.normalize('NFKC').toLowerCase().replace(/[’‘]/g, "'");
  for (const [pattern, replacement] of JOINED_PATTERNS) t = t.replace(pattern, replacement);
  return t;
}

/** Acronyms whose spelled-out phrase occurs in `normalized` text. */
function acronymsFor(normalized: string): string[] {
  const found = new Set<string>();
  for (const match of normalized.matchAll(PHRASE_PATTERN)) {
    const acronym = PHRASE_TO_ACRONYM.get(match[0].toLowerCase().replace(/[\s\-–]+/g, ''));
    if (acronym) found.add(acronym);
  }
  return [...found];
}

/** Raw word tokens of normalised text (letters/digits, keeping `tls 1.2` as `1.2`-free pieces). */
export function wordTokens(normalized: string): string[] {
  return normalized.match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** What goes into the FTS index: the text plus the acronyms its phrases stand for. */
export function textForIndex(text: string): string {
  const normalized = normalizeText(text);
  const extra = acronymsFor(normalized);
  return extra.length ? `${normalized}\n${extra.join(' ')}` : normalized;
}

/** Key terms of a question or passage: normalised, stop words dropped, acronyms added, unstemmed. */
export function keyTerms(text: string): string[] {
  const normalized = normalizeText(text);
  const terms = new Set<string>();
  for (const token of wordTokens(normalized)) {
    if (STOP_WORDS.has(token)) continue;
    if (token.length < 2 && !/\d/.test(token)) continue;
    terms.add(token);
  }
  for (const acronym of acronymsFor(normalized)) terms.add(acronym);
  return [...terms];
}

/** Stemmed key terms, the unit of every overlap/similarity computation. */
export function stemmedTerms(text: string): Set<string> {
  const stems = new Set<string>();
  for (const term of keyTerms(text)) stems.add(stem(term));
  return stems;
}

const stemCache = new Map<string, string>();

export function stem(term: string): string {
  let stemmed = stemCache.get(term);
  if (stemmed === undefined) {
    stemmed = ACRONYMS.has(term) ? term : porterStem(term);
    // Bounded: vocabularies are small, but an adversarial stream of unique tokens must not grow memory.
    if (stemCache.size > 200_000) stemCache.clear();
    stemCache.set(term, stemmed);
  }
  return stemmed;
}

/**
 * Weighted share of `query` stems present in `candidate` stems; by default acronyms and numbers count
 * double, `weightOf` may weigh by rarity instead. A candidate sharing a single term of a multi-term
 * question ("capital of France" vs "France: eu-west-3") is a coincidence, not evidence, so it is halved.
 */
export function coverage(query: Set<string>, candidate: TermSet, weightOf: TermWeights = termWeight): number {
  let total = 0;
  let hit = 0;
  let matched = 0;
  for (const term of query) {
    const weight = weightOf(term);
    total += weight;
    if (candidate.has(term)) {
      hit += weight;
      matched++;
    }
  }
  if (total === 0) return 0;
  const share = hit / total;
  return matched < Math.min(2, query.size) ? share / 2 : share;
}

/** How much a query term counts toward coverage. */
export type TermWeights = (stemmed: string) => number;

/** What coverage needs of a candidate's terms: membership. */
export interface TermSet {
  has(term: string): boolean;
}

/**
 * Stored space-separated stems, tested in place: a candidate is checked for a dozen query terms, so
 * building a Set of its hundred-odd stems would cost more than it saves.
 */
export class StemList implements TermSet {
  private readonly padded: string;
  constructor(spaceSeparated: string) {
    this.padded = ` ${spaceSeparated} `;
  }
  has(term: string): boolean {
    return term !== '' && this.padded.includes(` ${term} `);
  }
}

export function termWeight(term: string): number {
  return ACRONYMS.has(term) || /\d/.test(term) ? 2 : 1;
}

/** Cosine similarity of two stem sets (binary vectors), 0..1. */
export function setCosine(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let common = 0;
  for (const term of a) if (b.has(term)) common++;
  return common / Math.sqrt(a.size * b.size);
}

/**
 * An FTS5 MATCH expression from arbitrary user text: an OR of quoted terms. Terms contain only
 * letters and digits, so quotes, `*`, `-`, `NEAR`, `AND` or parentheses in the input can never
 * become query syntax. Returns null when no searchable term remains.
 */
export function ftsQuery(text: string, maxTerms = 32): string | null {
  const terms = keyTerms(text).slice(0, maxTerms);
  if (terms.length === 0) return null;
  return terms.map((term) => `"${term}"`).join(' OR ');
}

/** Sentences of a passage; keeps abbreviations such as "e.g." and numbers such as "1.2" intact. */
export function splitSentences(text: string): string[] {
  // Paragraph breaks end a sentence even without a full stop (headings, list items, table rows).
  return text.split(/\n+/).flatMap((paragraph) => {
    const cleaned = paragraph.replace(/\s+/g, ' ').trim();
    if (!cleaned) return [];
    const parts = cleaned.split(/(?<=[.!?])\s+(?=[A-Z0-9"“(•])|\s+(?=•\s)|(?<=:)\s+(?=[A-Z][a-z]+ [a-z]+ [a-z]+)/u);
    return parts.map((s) => s.replace(/^[^\p{L}\p{N}"“(]+/u, '').trim()).filter((s) => s.length > 0);
  });
}

/** Stem -> the stems of every RELATED group it belongs to (itself included). */
const RELATED_STEMS = new Map<string, Set<string>>();
for (const group of RELATED) {
  const stems = new Set(group.map((w) => stem(normalizeText(w))));
  for (const s of stems) RELATED_STEMS.set(s, new Set([...(RELATED_STEMS.get(s) ?? []), ...stems]));
}

/** A stem with the stems of the words related to it (vocabulary.ts RELATED), itself first. */
export function relatedStems(stemmed: string): Set<string> {
  return new Set([stemmed, ...(RELATED_STEMS.get(stemmed) ?? [])]);
}

/**
 * Share of `wanted` stems present in `candidate`, each counting as present when it or a word related to
 * it is ("algorithm" is held by a sentence about AES-256).
 */
export function relatedCoverage(wanted: Set<string>, candidate: TermSet): number {
  if (wanted.size === 0) return 0;
  let held = 0;
  for (const s of wanted) if ([...relatedStems(s)].some((r) => candidate.has(r))) held++;
  return held / wanted.size;
}
