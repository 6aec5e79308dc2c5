/**
 * The tokens SQLite's FTS5 `porter unicode61` tokenizer makes of a text, made in JavaScript so the
 * PostgreSQL index holds the same terms (tsvector of ready-made lexemes, 'simple' configuration): runs
 * of letters and digits, lower-cased, diacritics removed, Porter-stemmed. BM25 over them then ranks as
 * FTS5 does.
 */
import { porterStem } from '../../../knowledge/porter';

export function indexTokens(text: string): string[] {
  const folded = text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
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

/** A tsvector literal: each token at its position (1-based, at most 16383), `weight` 'A' or none. */
export function tsvectorLiteral(parts: { tokens: string[]; weight: 'A' | '' }[]): string {
  const positions = new Map<string, string[]>();
  let position = 0;
  for (const { tokens, weight } of parts) {
    for (const token of tokens) {
      position = Math.min(16383, position + 1);
      const list = positions.get(token);
      // tsvector keeps at most 256 positions per lexeme.
      if (list) {
        if (list.length < 256) list.push(`${position}${weight}`);
      } else positions.set(token, [`${position}${weight}`]);
    }
  }
  return [...positions].map(([token, list]) => `'${token.replace(/\\/g, '\\\\').replace(/'/g, "''")}':${list.join(',')}`).join(' ');
}

/** A tsquery of lexemes joined by `|` (any) or `&` (all). */
export function tsqueryLiteral(lexemes: string[], match: 'any' | 'all'): string {
  return lexemes.filter(fitsLexeme).map((l) => `'${l.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`).join(match === 'all' ? ' & ' : ' | ');
}
