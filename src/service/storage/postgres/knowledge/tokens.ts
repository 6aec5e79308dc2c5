/**
 * The tokens SQLite's FTS5 `porter unicode61` tokenizer makes of a text, made in JavaScript so the
 * PostgreSQL index holds the same terms (tsvector of ready-made lexemes, 'simple' configuration): runs
 * of letters and digits, lower-cased, diacritics removed, Porter-stemmed. BM25 over them then ranks as
 * FTS5 does.
 */
import { porterStem } from '../../../knowledge/porter';

export function indexTokens(text: string): string[] {
  const folded = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
  const words = folded.match(/[\p{L}\p{N}]+/gu) ?? [];
  // PostgreSQL refuses a lexeme over 2047 bytes ("word is too long"); no real word is that long.
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

/** A row's text as the index stores it: the tsvector literal, and each lexeme's occurrences by weight. */
export interface IndexVector {
  /**
   * The row's distinct lexemes, without positions or weights: searches only ask which rows hold a
   * lexeme (BM25's counts are in `tf`), and positions would double the tsvector a row stores and parses.
   */
  literal: string;
  /** Per lexeme, the positions a tsvector keeps: `a` weighted 'A' (heading, question), `d` the rest. */
  counts: Map<string, { a: number; d: number }>;
}

/**
 * The tsvector literal and, from the token positions, the counts BM25 needs: what PostgreSQL would keep
 * of a tsvector with positions (at most 256 per lexeme, one per position, at most 16383), so rows
 * indexed before the literal lost its positions (whose `tf` came from their tsvector) rank alike.
 */
export function indexVector(parts: { tokens: string[]; weight: 'A' | '' }[]): IndexVector {
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
  const literal = [...positions]
    .map(([token, list]) => {
      let a = 0;
      for (const w of list.values()) if (w === 'A') a++;
      counts.set(token, { a, d: list.size - a });
      return `'${token.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
    })
    .join(' ');
  return { literal, counts };
}

/** A tsquery of lexemes joined by `|` (any) or `&` (all). */
export function tsqueryLiteral(lexemes: string[], match: 'any' | 'all'): string {
  return lexemes
    .filter(fitsLexeme)
    .map((l) => `'${l.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`)
    .join(match === 'all' ? ' & ' : ' | ');
}
