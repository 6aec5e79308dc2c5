/**
 * The tokens SQLite's FTS5 `porter unicode61` tokenizer makes of a text, made in JavaScript so the
 * PostgreSQL index's postings hold the same terms: runs of letters and digits, lower-cased, diacritics
 * removed, Porter-stemmed. BM25 over them then ranks as FTS5 does.
 */
import { porterStem } from '../../../knowledge/porter';

export function indexTokens(text: string): string[] {
  const folded = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
  const words = folded.match(/[\p{L}\p{N}]+/gu) ?? [];
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

/**
 * Per lexeme of a row, the occurrences BM25 counts: `a` weighted 'A' (heading, question), `d` the rest,
 * as a tsvector with positions held them (at most 256 positions a lexeme, one per position, none past
 * 16,383), so rows indexed when their frequencies came from a tsvector rank alike.
 */
export function indexCounts(parts: { tokens: string[]; weight: 'A' | '' }[]): Map<string, { a: number; d: number }> {
  const positions = new Map<string, Map<number, 'A' | ''>>();
  let position = 0;
  for (const { tokens, weight } of parts) {
    for (const token of tokens) {
      position = Math.min(16383, position + 1);
      let list = positions.get(token);
      if (!list) positions.set(token, (list = new Map()));
      const had = list.get(position);
      // A repeated position (past 16383) is one position; PostgreSQL keeps its highest weight.
      if (had === undefined ? list.size < 256 : had === '') list.set(position, weight === 'A' ? 'A' : (had ?? ''));
    }
  }
  const counts = new Map<string, { a: number; d: number }>();
  for (const [token, list] of positions) {
    let a = 0;
    for (const w of list.values()) if (w === 'A') a++;
    counts.set(token, { a, d: list.size - a });
  }
  return counts;
}
