/**
 * Splits extracted pages into retrieval passages: ~120-250 words, cut on heading and paragraph
 * boundaries, never across pages (so `page_number` is exact), each carrying its heading trail.
 * A long section continues into the next passage with one sentence of overlap, so a statement cut at
 * the boundary is still found whole in one of them.
 */
import type { ExtractedDocument, TextBlock } from './types';
import { isSpace, splitSentences } from './text';

export interface Passage {
  page_number: number;
  section_path: string[];
  context_header: string;
  content: string;
}

const TARGET_WORDS = 180;
const MAX_WORDS = 250;
const MIN_WORDS = 5;
const OVERLAP_MAX_WORDS = 40;

export function splitIntoPassages(doc: ExtractedDocument): Passage[] {
  const passages: Passage[] = [];
  const trail: { level: number; text: string }[] = [];
  const root = doc.title ? [doc.title] : [];

  for (const page of doc.pages) {
    const blocks: TextBlock[] = page.blocks ?? page.text.split(/\n\s*\n/).map((text) => blockFromText(text));
    let current: string[] = [];
    let words = 0;

    const sectionPath = () => [...root, ...trail.map((t) => t.text)];
    // `words` is always countWords(current.join('\n')): joining on whitespace neither merges nor splits words.
    const flush = (overlap: boolean) => {
      const content = current.join('\n').trim();
      if (content && words >= MIN_WORDS) {
        const section_path = sectionPath();
        passages.push({ page_number: page.page_number, section_path, context_header: section_path.join(' > '), content });
      }
      const carried = overlap ? lastSentence(content) : '';
      current = carried ? [carried] : [];
      words = countWords(carried);
    };

    for (const block of blocks) {
      const text = block.text.trim();
      if (!text) continue;
      if (block.level > 0) {
        flush(false);
        while (trail.length && trail[trail.length - 1]!.level >= block.level) trail.pop();
        trail.push({ level: block.level, text });
        continue;
      }
      for (const { piece, pieceWords } of piecesOf(text)) {
        if (words > 0 && words + pieceWords > MAX_WORDS) flush(true);
        current.push(piece);
        words += pieceWords;
        if (words >= TARGET_WORDS) flush(true);
      }
    }
    flush(false);
  }
  return dedupeOverlapOnly(passages);
}

function blockFromText(text: string): TextBlock {
  const heading = /^(#{1,6})\s+(.+)$/.exec(text.trim());
  return heading ? { level: heading[1]!.length, text: heading[2]! } : { level: 0, text };
}

/**
 * A paragraph longer than a passage is cut into sentence groups. Each piece with its word count (counted
 * once: pieces joined on whitespace have the sum of their words).
 */
function piecesOf(paragraph: string): { piece: string; pieceWords: number }[] {
  const total = countWords(paragraph);
  if (total <= MAX_WORDS) return [{ piece: paragraph, pieceWords: total }];
  const pieces: { piece: string; pieceWords: number }[] = [];
  let current: string[] = [];
  let words = 0;
  for (const sentence of splitSentences(paragraph)) {
    const n = countWords(sentence);
    if (words > 0 && words + n > TARGET_WORDS) {
      pieces.push({ piece: current.join(' '), pieceWords: words });
      current = [];
      words = 0;
    }
    // A "sentence" longer than a passage (a table flattened to text) is cut by words.
    if (n > MAX_WORDS) {
      const tokens = sentence.split(/\s+/);
      for (let i = 0; i < tokens.length; i += TARGET_WORDS) {
        const chunk = tokens.slice(i, i + TARGET_WORDS);
        pieces.push({ piece: chunk.join(' '), pieceWords: chunk.length });
      }
      continue;
    }
    current.push(sentence);
    words += n;
  }
  if (current.length) pieces.push({ piece: current.join(' '), pieceWords: words });
  return pieces;
}

/**
 * The sentence carried into the next passage: `splitSentences(content)`'s last, when it is short and
 * not the only one. Found from the end (a passage is cut every ~180 words; splitting all of it again
 * to keep its last sentence cost as much as the rest of indexing it).
 */
export function lastSentence(content: string): string {
  let last: string | null = null;
  // The paragraphs of split(/\n+/), last first (the empty ones between two line breaks hold no sentence).
  for (let stop = content.length; stop >= 0; ) {
    const start = stop > 0 ? content.lastIndexOf('\n', stop - 1) + 1 : 0;
    const paragraph = content.slice(start, stop);
    stop = start - 1;
    // Collapsing whitespace changes nothing where the only whitespace is single spaces (most paragraphs):
    // scanned as it is, and again collapsed only if the part scanned holds other whitespace.
    const scanned: Found | typeof UNCLEAN = sentencesFromEnd(paragraph.trim(), last, true);
    const found: Found = scanned === UNCLEAN ? sentencesFromEnd(paragraph.replace(/\s+/g, ' ').trim(), last, false) : scanned;
    if (typeof found === 'object' && found !== null) return countWords(found.last) <= OVERLAP_MAX_WORDS ? found.last : '';
    last = found;
  }
  return '';
}

/** What sentencesFromEnd found: the last sentence so far (null: none), or `{ last }` when a sentence precedes it. */
type Found = string | null | { last: string };
/** sentencesFromEnd met whitespace that collapsing would change. */
const UNCLEAN = Symbol('unclean');

/**
 * The sentences of a whitespace-collapsed, trimmed paragraph, last first, until two are known: `{ last }`
 * when one is found before `last` (given, or found here), else `last` (or the paragraph's first sentence).
 * With `checkClean` the paragraph is trimmed but maybe not collapsed: UNCLEAN when a character scanned
 * is whitespace other than a single space (what is not scanned does not change what is found: the
 * sentences are cut from the end).
 */
function sentencesFromEnd(cleaned: string, last: string | null, checkClean: false): Found;
function sentencesFromEnd(cleaned: string, last: string | null, checkClean: boolean): Found | typeof UNCLEAN;
function sentencesFromEnd(cleaned: string, last: string | null, checkClean: boolean): Found | typeof UNCLEAN {
  let end = cleaned.length;
  // Sentences of the paragraph, last first: the text after each boundary (a space, see isBoundary).
  for (let j = end - 1; j >= -1; j--) {
    if (j >= 0) {
      const c = cleaned.charCodeAt(j);
      if (c !== 32) {
        if (checkClean && (c < 128 ? c >= 9 && c <= 13 : isSpace(c))) return UNCLEAN;
        continue;
      }
      if (checkClean && cleaned.charCodeAt(j + 1) === 32) return UNCLEAN;
      if (!isBoundary(cleaned, j)) continue;
    }
    const sentence = cleaned
      .slice(j + 1, end)
      .replace(LEADING_NON_TEXT, '')
      .trim();
    end = j;
    if (!sentence) continue;
    if (last !== null) return { last };
    last = sentence;
  }
  return last;
}

/** What splitSentences strips from the start of each sentence. */
const LEADING_NON_TEXT = /^[^\p{L}\p{N}"“(]+/u;
const SENTENCE_START = /[A-Z0-9"“(•]/u;
const THREE_WORDS = /[A-Z][a-z]+ [a-z]+ [a-z]+/y;

/**
 * Whether splitSentences cuts a whitespace-collapsed paragraph at its space `j`: after [.!?] before a
 * capital, digit, quote, bracket or bullet; before a bullet and a space; after a colon before three words.
 * (At a space before a bullet, the character before it may be unscanned whitespace: see sentencesFromEnd.)
 */
function isBoundary(cleaned: string, j: number): boolean {
  const beforeCode = cleaned.charCodeAt(j - 1);
  // Most spaces follow none of . ! ? : and precede no bullet.
  if (beforeCode !== 46 && beforeCode !== 33 && beforeCode !== 63 && beforeCode !== 58 && cleaned.charCodeAt(j + 1) !== 0x2022) return false;
  const before = cleaned[j - 1];
  const after = cleaned.codePointAt(j + 1);
  if (after === undefined) return false;
  if ((before === '.' || before === '!' || before === '?') && SENTENCE_START.test(String.fromCodePoint(after))) return true;
  if (after === 0x2022 && /\s/.test(cleaned[j + 2] ?? '')) return true;
  if (before === ':') {
    THREE_WORDS.lastIndex = j + 1;
    return THREE_WORDS.test(cleaned);
  }
  return false;
}

/** Drops a passage that holds nothing but the overlap sentence carried from its predecessor. */
function dedupeOverlapOnly(passages: Passage[]): Passage[] {
  return passages.filter((p, i) => i === 0 || !passages[i - 1]!.content.endsWith(p.content));
}

/** Runs of non-whitespace (what `/\S+/g` matches), counted without building the array of them. */
export function countWords(text: string): number {
  let words = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const space = isSpace(text.charCodeAt(i));
    if (!space && !inWord) words++;
    inWord = !space;
  }
  return words;
}
