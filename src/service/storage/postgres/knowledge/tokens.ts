/**
 * The tokens SQLite's FTS5 `porter unicode61` tokenizer makes of a text, made in JavaScript so the
 * PostgreSQL index's postings hold the same terms: runs of letters and digits, lower-cased, diacritics
 * removed, Porter-stemmed. BM25 over them then ranks as FTS5 does.
 */
import { porterStem } from '../../../knowledge/porter';

/** Text of ASCII characters only: no diacritics to remove, and its letters and digits are [a-z0-9] once lower-cased. */
const ASCII = /^[\x00-\x7f]*$/;

export function indexTokens(text: string): string[] {
  // Most text is ASCII, where Unicode folding changes nothing and costs most of the time.
  const ascii = ASCII.test(text);
  const folded = ascii
    ? text.toLowerCase()
    : text
        .normalize('NFKD')
        .replace(/\p{M}+/gu, '')
        .toLowerCase();
  const words = (ascii ? folded.match(/[a-z0-9]+/g) : folded.match(/[\p{L}\p{N}]+/gu)) ?? [];
  // A postings key holds the lexeme, and a btree key must fit a third of a page: lexemes over 2,046
  // bytes are left out (as the tsvector that came before refused them); no real word is that long.
  return words.map(stemToken).filter(fitsLexeme);
}

const MAX_LEXEME_BYTES = 2046;

function fitsLexeme(token: string): boolean {
  return token.length <= MAX_LEXEME_BYTES / 4 || Buffer.byteLength(token) <= MAX_LEXEME_BYTES;
}

const cache = new Map<string, string>();

function stemToken(word: string): string {
  let stemmed = cache.get(word);
  if (stemmed === undefined) {
    // FTS5's porter stems ASCII words of 3 to 64 characters and leaves others as they are.
    stemmed = word.length > 2 && word.length <= 64 && /^[a-z]+$/.test(word) ? porterStem(word) : word;
    // Bounded: an adversarial stream of unique words must not grow memory.
    if (cache.size > 200_000) cache.clear();
    cache.set(word, stemmed);
  }
  return stemmed;
}

/** A tsvector's last position, and the positions it keeps of a lexeme. */
const LAST_POSITION = 16383;
const MAX_POSITIONS = 256;

/**
 * Per lexeme of a row, the occurrences BM25 counts: `a` weighted 'A' (heading, question), `d` the rest,
 * as a tsvector with positions held them (at most 256 positions a lexeme, one per position, none past
 * 16,383), so rows indexed when their frequencies came from a tsvector rank alike.
 */
export function indexCounts(parts: { tokens: string[]; weight: 'A' | '' }[]): Map<string, { a: number; d: number }> {
  // Below the last position every occurrence has a position of its own; at the last, occurrences share
  // it, and `last` is the weight it holds (PostgreSQL keeps the highest).
  const counts = new Map<string, { a: number; d: number; last: 'A' | '' | null }>();
  let position = 0;
  for (const { tokens, weight } of parts) {
    for (const token of tokens) {
      position = Math.min(LAST_POSITION, position + 1);
      let c = counts.get(token);
      if (!c) counts.set(token, (c = { a: 0, d: 0, last: null }));
      if (position === LAST_POSITION && c.last !== null) {
        if (c.last === '' && weight === 'A') {
          c.last = 'A';
          c.a++;
          c.d--;
        }
        continue;
      }
      if (c.a + c.d >= MAX_POSITIONS) continue;
      if (position === LAST_POSITION) c.last = weight;
      if (weight === 'A') c.a++;
      else c.d++;
    }
  }
  const out = new Map<string, { a: number; d: number }>();
  for (const [token, { a, d }] of counts) out.set(token, { a, d });
  return out;
}
