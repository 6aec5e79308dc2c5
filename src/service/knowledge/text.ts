/**
 * Text normalisation shared by indexing and querying, so both sides agree on what a term is.
 * Security vocabulary is full of acronyms and numbered standards (SOC 2, ISO 27001, AES-256) that a
 * plain word tokenizer would split into meaningless pieces ("soc", "2"); they are rewritten into single
 * canonical tokens, and spelled-out phrases gain their acronym so "MFA" finds "multi-factor authentication".
 */
import { porterStem } from './porter';
import { hashOf, HASH_START, hashStep, TokenTable } from './token-table';
import { RELATED, SYNONYMS } from './vocabulary';

/**
 * Numbered standards and algorithms joined into one token: `SOC 2` -> `soc2`, `AES-256` -> `aes256`.
 * Each with a word every match of it holds (the text is lower-cased by then): a pattern whose word the
 * text lacks is not run, so a passage pays for a substring search instead of a regex scan.
 */
const JOINED_PATTERNS: [RegExp, string, string][] = [
  [/\bsoc\s*[-–]?\s*(1|2|3|i{1,3})\b/gi, 'soc$1', 'soc'],
  [/\biso\s*(?:\/\s*iec)?\s*[-–]?\s*(\d{4,5})(?:[-–:]\d+)?\b/gi, 'iso$1', 'iso'],
  [/\baes\s*[-–]?\s*(128|192|256)\b/gi, 'aes$1', 'aes'],
  [/\bsha\s*[-–]?\s*(1|2|256|384|512)\b/gi, 'sha$1', 'sha'],
  [/\brsa\s*[-–]?\s*(1024|2048|3072|4096)\b/gi, 'rsa$1', 'rsa'],
  [/\btls\s*v?\s*(1\.[0-3])\b/gi, 'tls $1', 'tls'],
  [/\bnist\s*(?:sp\s*)?800\s*[-–]\s*(\d+)\b/gi, 'nist800$1', 'nist'],
  [/\bpci\s*[-–]?\s*dss\b/gi, 'pcidss', 'pci'],
  [/\bhi\s*trust\b/gi, 'hitrust', 'trust'],
  [/\bfed\s*ramp\b/gi, 'fedramp', 'ramp'],
  [/\btx\s*[-–]\s*ramp\b/gi, 'txramp', 'ramp'],
  [/\b(\d+)\s*[-–]?\s*factor\b/gi, '$1factor', 'factor'],
  [/\b24\s*[x×\/]\s*7\b/gi, '24x7', '24'],
];

/**
 * Whether any of JOINED_PATTERNS matches anywhere: one scan of the text. Most passages hold none, and
 * then the patterns (each a scan, several triggered by common words such as "share" or "trusted") are
 * not run at all; when one matches they run in order as before, so the result is the same.
 */
const ANY_JOINED = new RegExp(JOINED_PATTERNS.map(([pattern]) => `(?:${pattern.source})`).join('|'), 'i');

export { SYNONYMS } from './vocabulary';

/** All phrases in one alternation (longest first), so a text is scanned once, not once per phrase. */
const PHRASE_TO_ACRONYM = new Map<string, string>();
for (const [acronym, phrases] of Object.entries(SYNONYMS)) {
  for (const phrase of phrases) PHRASE_TO_ACRONYM.set(phrase.replace(/[\s\-–]+/g, ''), acronym);
}
const PHRASES = Object.values(SYNONYMS)
  .flat()
  .sort((a, b) => b.length - a.length);
const phraseSource = (phrase: string) => phrase.split(' ').map(escapeRegExp).join('[\\s\\-–]*');
const PHRASE_PATTERN = new RegExp(`\\b(?:${PHRASES.map(phraseSource).join('|')})\\b`, 'gi');
/**
 * The same alternation split by a phrase's first three characters (order kept), each part anchored
 * (sticky): `acronymsFor` tries, at each word start, only the phrases that can begin there, instead of
 * the whole alternation at every position (two characters still let a regex run at most word starts:
 * "se", "co", "in"). Indexed by the first two characters, then the third. Null when a phrase does not
 * start with three letters or digits (the split would not be exact): then the whole pattern is used.
 */
const PHRASES_BY_START: (Map<number, RegExp> | undefined)[] | null = (() => {
  const groups = new Map<number, Map<number, string[]>>();
  for (const phrase of PHRASES) {
    const lower = phrase.toLowerCase();
    if (!/^[a-z0-9]{3}/.test(lower)) return null;
    const key = (lower.charCodeAt(0) << 7) | lower.charCodeAt(1);
    const byThird = groups.get(key) ?? new Map<number, string[]>();
    groups.set(key, byThird);
    byThird.set(lower.charCodeAt(2), [...(byThird.get(lower.charCodeAt(2)) ?? []), phraseSource(phrase)]);
  }
  const table: (Map<number, RegExp> | undefined)[] = new Array(1 << 14);
  for (const [key, byThird] of groups) {
    table[key] = new Map([...byThird].map(([third, sources]) => [third, new RegExp(`(?:${sources.join('|')})\\b`, 'iy')]));
  }
  return table;
})();
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
  'not',
  'no',
  'never',
  'none',
  'neither',
  'nor',
  'cannot',
  'without',
  "don't",
  "doesn't",
  "isn't",
  "aren't",
  "won't",
  "can't",
  'dont',
  'doesnt',
  'isnt',
  'arent',
  'wont',
  'cant',
  'unable',
  'lack',
  'lacks',
]);

const NON_ASCII = /[^\x00-\x7f]/;

/** Lower-cases, folds quotes and rewrites standards/acronyms into single canonical tokens. */
export function normalizeText(text: string): string {
  let t = foldCase(text);
  if (!ANY_JOINED.test(t)) return t;
  for (const [pattern, replacement, word] of JOINED_PATTERNS) if (t.includes(word)) t = t.replace(pattern, replacement);
  return t;
}

/**
 * NFKC, lower case, straight quotes: normalizeText before the joined standards. Character by character
 * (nothing maps across a line break), so folding two texts joined by `\n` is joining their folds.
 */
function foldCase(text: string): string {
  // ASCII text is its own NFKC form and holds no curly quote: most passages skip both passes.
  return NON_ASCII.test(text) ? text.normalize('NFKC').toLowerCase().replace(/[’‘]/g, "'") : text.toLowerCase();
}

/** JavaScript's `\s`: ASCII whitespace and Unicode space separators, line/paragraph separators, BOM. */
export function isSpace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
  );
}

/** `\w` of a non-unicode regex: ASCII letters, digits and `_`. */
function isWordChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || c === 95;
}

/** ASCII lower case of a character code (other codes unchanged). */
function lowerCode(c: number): number {
  return c >= 65 && c <= 90 ? c | 32 : c;
}

/** Acronyms whose spelled-out phrase occurs in `normalized` text: PHRASE_PATTERN's matches, in order. */
function acronymsFor(normalized: string): string[] {
  const found = new Set<string>();
  if (!PHRASES_BY_START) {
    for (const match of normalized.matchAll(PHRASE_PATTERN)) addAcronym(found, match[0]);
    return [...found];
  }
  scanAcronyms(normalized, found, 0, normalized.length);
  return [...found];
}

function addAcronym(found: Set<string>, matched: string): void {
  const acronym = acronymOf(matched);
  if (acronym) found.add(acronym);
}

/** The acronym of a phrase PHRASE_PATTERN matched. */
function acronymOf(matched: string): string | undefined {
  return PHRASE_TO_ACRONYM.get(matched.toLowerCase().replace(/[\s\-–]+/g, ''));
}

/**
 * Adds to `found` the acronyms of the phrases that begin at word starts in [from, to) of `normalized`
 * (PHRASES_BY_START must be set); returns where the scan stopped: `to`, or past it when the last phrase
 * found runs beyond `to`.
 */
function scanAcronyms(normalized: string, found: Set<string>, from: number, to: number): number {
  // A match begins where `\b` holds before a word character: a word start. Scanning on from each
  // match's end, as a global regex does.
  const n = normalized.length;
  let i = from;
  for (; i < to && i < n - 1; i++) {
    if (!isWordChar(normalized.charCodeAt(i)) || (i > 0 && isWordChar(normalized.charCodeAt(i - 1)))) continue;
    const matched = phraseAt(normalized, i);
    if (matched === null) continue;
    addAcronym(found, matched);
    i += matched.length - 1;
  }
  return i;
}

/**
 * The phrase of PHRASE_PATTERN that begins at word start `i` of `normalized` (i < length - 1), tried
 * among the phrases with the same first three characters only (PHRASES_BY_START must be set); null: none.
 */
function phraseAt(normalized: string, i: number): string | null {
  const c = lowerCode(normalized.charCodeAt(i));
  const next = lowerCode(normalized.charCodeAt(i + 1));
  if (c >= 128 || next >= 128) return null;
  const pattern = PHRASES_BY_START![(c << 7) | next]?.get(lowerCode(normalized.charCodeAt(i + 2)));
  if (!pattern) return null;
  pattern.lastIndex = i;
  const match = pattern.exec(normalized);
  return match ? match[0] : null;
}

/** Raw word tokens of normalised text (letters/digits, keeping `tls 1.2` as `1.2`-free pieces). */
export function wordTokens(normalized: string): string[] {
  // In ASCII text the letters and digits are [A-Za-z0-9]: a non-unicode pattern, twice as fast.
  return (NON_ASCII.test(normalized) ? normalized.match(/[\p{L}\p{N}]+/gu) : normalized.match(/[A-Za-z0-9]+/g)) ?? [];
}

/** What goes into the FTS index: the text plus the acronyms its phrases stand for. */
export function textForIndex(text: string): string {
  const normalized = normalizeText(text);
  return withAcronyms(normalized, acronymsFor(normalized));
}

function withAcronyms(normalized: string, acronyms: string[]): string {
  return acronyms.length ? `${normalized}\n${acronyms.join(' ')}` : normalized;
}

/** Key terms of a question or passage: normalised, stop words dropped, acronyms added, unstemmed. */
export function keyTerms(text: string): string[] {
  const normalized = normalizeText(text);
  const terms = new Set<string>();
  for (const token of wordTokens(normalized)) if (isKeyTerm(token)) terms.add(token);
  for (const acronym of acronymsFor(normalized)) terms.add(acronym);
  return [...terms];
}

function isKeyTerm(token: string): boolean {
  return !STOP_WORDS.has(token) && (token.length >= 2 || /\d/.test(token));
}

/**
 * Stemmed key terms, the unit of every overlap/similarity computation: the stems of `keyTerms(text)`,
 * in the same order, made in one pass (each token's stem, or that it is no key term, is cached).
 */
export function stemmedTerms(text: string): Set<string> {
  return new Set(stemList(normalizeText(text)));
}

/** `stemmedTerms` of normalised text, in order. */
function stemList(normalized: string): string[] {
  const scanned = PHRASES_BY_START ? scanAscii(normalized, 0, false) : null;
  if (scanned) return withAcronymStems(scanned.stems, scanned.bodyAcronyms);
  return withAcronymStems(tokenStems(normalized), acronymsFor(normalized));
}

/** What an indexed entry stores of its two texts (a passage's heading trail and content, a question and answer). */
export interface IndexTexts {
  /** `stemmedTerms(`${head}\n${body}`)`, joined by spaces */
  stems: string;
  /** `textForIndex(head)` */
  indexHead: string;
  /** `textForIndex(body)` */
  indexBody: string;
}

/**
 * `stemmedTerms(`${head}\n${body}`)`, `textForIndex(head)` and `textForIndex(body)`, with the body (most of
 * the text) normalised and scanned once instead of twice: the index text of a million passages is made at
 * ingestion. The same result as the three calls, which it falls back to when the line break between the
 * texts could matter: a joined standard or a phrase across it ("SOC" / "2").
 */
export function indexTexts(head: string, body: string): IndexTexts {
  const foldedHead = foldCase(head);
  const foldedBody = foldCase(body);
  // No joined standard anywhere: each text's normalisation is its fold, and the joined text's is theirs joined.
  const joined = `${foldedHead}\n${foldedBody}`;
  if (PHRASES_BY_START) {
    const scanned = scanAscii(joined, foldedHead.length, true);
    if (scanned) {
      if (!scanned.crossed && !scanned.joined) {
        const { headAcronyms, bodyAcronyms } = scanned;
        return {
          stems: withAcronymStems(scanned.stems, headAcronyms.length ? [...headAcronyms, ...bodyAcronyms] : bodyAcronyms).join(' '),
          indexHead: withAcronyms(foldedHead, headAcronyms),
          indexBody: withAcronyms(foldedBody, bodyAcronyms),
        };
      }
    } else if (!ANY_JOINED.test(joined)) {
      const acronyms = new Set<string>();
      // The joined scan, in two parts: the head's word starts, then (when no phrase ran across the line
      // break) the body's, which are then the body's own scan.
      if (scanAcronyms(joined, acronyms, 0, foldedHead.length) <= foldedHead.length) {
        // No phrase ran past the head, so its part of the joined scan is the head's own scan ("\n" ends a
        // word as the end of the text does).
        const headAcronyms = [...acronyms];
        const bodyAcronyms = acronymsFor(foldedBody);
        for (const acronym of bodyAcronyms) acronyms.add(acronym);
        return {
          stems: withAcronymStems(tokenStems(joined), [...acronyms]).join(' '),
          indexHead: withAcronyms(foldedHead, headAcronyms),
          indexBody: withAcronyms(foldedBody, bodyAcronyms),
        };
      }
    }
  }
  return { stems: stemList(normalizeText(`${head}\n${body}`)).join(' '), indexHead: textForIndex(head), indexBody: textForIndex(body) };
}

/** What one scan of normalised ASCII text finds (see scanAscii). */
interface Scanned {
  /** The stems of its key-term tokens, in order, each once (acronyms not added). */
  stems: string[];
  /** Acronyms of the phrases at word starts before `headEnd`, in order, each once; then those after it. */
  headAcronyms: string[];
  bodyAcronyms: string[];
  /** A phrase beginning before `headEnd` ends after it. */
  crossed: boolean;
  /** `ANY_JOINED.test(text)`, when asked (`checkJoined`), else false. */
  joined: boolean;
}

/**
 * `tokenStems` and the phrase scan (`scanAcronyms`) of normalised text in one pass over its characters,
 * the phrases found before `headEnd` apart from those after it, and with `checkJoined` whether a joined
 * standard matches; null when the text is not ASCII (its tokens are then Unicode letters and digits: see
 * wordTokens). Begins a pass of TOKENS.
 */
function scanAscii(text: string, headEnd: number, checkJoined: boolean): Scanned | null {
  TOKENS.beginPass();
  const stems: string[] = [];
  const headAcronyms: string[] = [];
  const bodyAcronyms: string[] = [];
  let crossed = false;
  let joined = false;
  // JOINED_CHECKS to run over the whole text once scanned (bit i: check i).
  let joinedLater = 0;
  const n = text.length;
  // Phrases are looked for at word starts from `resume` on: a match skips to its end, as scanAcronyms does.
  let resume = 0;
  // The character before the current one; a space before the text's start.
  let before = 32;
  for (let i = 0; i < n; ) {
    let c = text.charCodeAt(i);
    if (c >= 128) return null;
    if (!isAsciiAlnum(c)) {
      before = c;
      i++;
      continue;
    }
    const start = i;
    let hash = hashStep(HASH_START, c);
    while (++i < n && isAsciiAlnum((c = text.charCodeAt(i)))) hash = hashStep(hash, c);
    const e = TOKENS.entry(text, start, i, hash);
    const id = TOKENS.stemId(e);
    if (id >= 0 && TOKENS.take(id)) stems.push(TOKENS.stems[id]!);
    const flags = TOKENS.flags(e);
    // A word start (`before` is no letter or digit; `_` is a word character) where a phrase may begin.
    if (flags & PHRASE_START && before !== 95 && start >= resume && start < n - 1) {
      const matched = phraseAt(text, start);
      if (matched !== null) {
        resume = start + matched.length;
        const acronym = acronymOf(matched);
        if (acronym) {
          const found = start < headEnd ? headAcronyms : bodyAcronyms;
          if (!found.includes(acronym)) found.push(acronym);
        }
        if (start < headEnd && resume > headEnd) crossed = true;
      }
    }
    if (checkJoined && flags > PHRASE_START && !joined) {
      for (let k = 0; k < JOINED_CHECKS!.length; k++) {
        if (!(flags & (2 << k))) continue;
        const check = JOINED_CHECKS![k]!;
        if (check.at === 'start') {
          check.sticky.lastIndex = start;
          if (check.sticky.test(text)) joined = true;
        } else joinedLater |= 1 << k;
      }
    }
    before = text.charCodeAt(i - 1);
  }
  if (checkJoined && !JOINED_CHECKS) joined = ANY_JOINED.test(text);
  for (let k = 0; joinedLater !== 0 && k < JOINED_CHECKS!.length && !joined; k++) {
    if (joinedLater & (1 << k) && JOINED_CHECKS![k]!.anywhere.test(text)) joined = true;
  }
  return { stems, headAcronyms, bodyAcronyms, crossed, joined };
}

/** `[A-Za-z0-9]`: what wordTokens takes as a token's characters in ASCII text. */
function isAsciiAlnum(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90);
}

/** `stems` with the stems of `acronyms` not among them, in order (in the pass that made `stems`). */
function withAcronymStems(stems: string[], acronyms: string[]): string[] {
  for (const acronym of acronyms) {
    const id = TOKENS.idOfStem(stem(acronym));
    if (TOKENS.take(id)) stems.push(TOKENS.stems[id]!);
  }
  return stems;
}

/** The stems of the key-term tokens of normalised text, in order, each once (acronyms not added). Begins a pass of TOKENS. */
function tokenStems(normalized: string): string[] {
  TOKENS.beginPass();
  const stems: string[] = [];
  for (const token of wordTokens(normalized)) {
    const id = TOKENS.stemId(TOKENS.entry(token, 0, token.length, hashOf(token)));
    if (id >= 0 && TOKENS.take(id)) stems.push(TOKENS.stems[id]!);
  }
  return stems;
}

/**
 * Whether a joined standard matches, told from the tokens (lower-case ASCII text): each pattern of
 * JOINED_PATTERNS holds its word (letters and digits, so within one token) in every match. A pattern that
 * begins with `\b` and its word matches only at a token that starts with the word, so it is tried there
 * alone ('start', anchored: a passage holds many words such as "share" or "isolated"); one that ends with
 * its word and `\b` only where a token ends with the word ('end'); else where a token holds it ('any').
 * An 'end' or 'any' pattern is run over the whole text when such a token occurs. A token's flags: bit 0
 * PHRASE_START, bit k + 1 that check k applies. Null when a word is not letters and digits or there are
 * too many patterns for the flags: then ANY_JOINED decides.
 */
const JOINED_CHECKS: { word: string; at: 'start' | 'end' | 'any'; sticky: RegExp; anywhere: RegExp }[] | null =
  JOINED_PATTERNS.length <= 30 && JOINED_PATTERNS.every(([, , word]) => /^[a-z0-9]+$/.test(word))
    ? JOINED_PATTERNS.map(([pattern, , word]) => {
        const source = pattern.source;
        const plain = !hasTopLevelAlternation(source);
        const at =
          plain && source.startsWith(`\\b${word}`) && !/^[?*+{]/.test(source.slice(2 + word.length))
            ? 'start'
            : plain && source.endsWith(`${word}\\b`) && source[source.length - word.length - 3] !== '\\'
              ? 'end'
              : 'any';
        return { word, at, sticky: new RegExp(source, 'iy'), anywhere: new RegExp(source, 'i') };
      })
    : null;
const PHRASE_START = 1;

/** Whether a regex source has a `|` outside groups and classes (a match may then be any of its sides). */
function hasTopLevelAlternation(source: string): boolean {
  let depth = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') i++;
    else if (c === '[') {
      for (i++; i < source.length && source[i] !== ']'; i++) if (source[i] === '\\') i++;
    } else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) return true;
  }
  return false;
}

/** The flags of a token (see JOINED_CHECKS). */
function tokenFlags(token: string): number {
  const lower = token.toLowerCase();
  let flags = PHRASE_PREFIXES === null || PHRASE_PREFIXES.has(lower) ? PHRASE_START : 0;
  JOINED_CHECKS?.forEach(({ word, at }, k) => {
    if (at === 'start' ? lower.startsWith(word) : at === 'end' ? lower.endsWith(word) : lower.includes(word)) flags |= 2 << k;
  });
  return flags;
}

/**
 * Every prefix of every phrase with its spaces removed, when phrases are lower-case letters, digits and
 * single spaces: a phrase's match is then its words with separators between them, so the token it begins
 * with (letters and digits up to the first separator) is such a prefix. Null: every token may begin one.
 */
const PHRASE_PREFIXES = PHRASES.every((phrase) => /^[a-z0-9]+( [a-z0-9]+)*$/.test(phrase))
  ? new Set(
      PHRASES.flatMap((phrase) => {
        const joinedPhrase = phrase.replace(/ /g, '');
        return Array.from({ length: joinedPhrase.length }, (_, i) => joinedPhrase.slice(0, i + 1));
      }),
    )
  : null;

/** Each distinct token's stem (null: no key term) and what the scans need to know of it. Bounded like stemCache. */
const TOKENS = new TokenTable(200_000, (token) => ({ stem: isKeyTerm(token) ? stem(token) : null, flags: tokenFlags(token) }));
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
 * A term the candidate lacks may count for part of its weight (`partly`: a paraphrase held instead).
 */
export function coverage(query: Set<string>, candidate: TermSet, weightOf: TermWeights = termWeight, partly: (term: string) => number = () => 0): number {
  let total = 0;
  let hit = 0;
  let matched = 0;
  for (const term of query) {
    const weight = weightOf(term);
    total += weight;
    const held = candidate.has(term) ? 1 : partly(term);
    if (held > 0) {
      hit += weight * held;
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
