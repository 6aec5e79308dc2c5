/**
 * The PostgreSQL index's tokens are FTS5's `porter unicode61` tokens: ASCII text (read without Unicode
 * folding) and text with diacritics or other scripts alike; and each lexeme's counts are what a tsvector
 * with positions keeps (at most 256 positions, none past 16,383, the highest weight at a shared one).
 */
import { describe, expect, it } from 'vitest';
import { indexCounts, indexTokens } from '../../../../src/service/storage/postgres/knowledge/tokens';

describe('PostgreSQL index tokens', () => {
  it('splits, folds and stems ASCII and non-ASCII text alike', () => {
    expect(indexTokens('Encrypted BACKUPS, rotated-keys x509 TLS1.2')).toEqual(['encrypt', 'backup', 'rotat', 'kei', 'x509', 'tls1', '2']);
    expect(indexTokens('Café ÉCOLE naïve encrypted 東京 ١٢٣')).toEqual(['cafe', 'ecol', 'naiv', 'encrypt', '東京', '١٢٣']);
    expect(indexTokens('naïve')).toEqual(indexTokens('naive'));
  });

  it('counts positions as a tsvector keeps them', () => {
    const head = { tokens: ['audit', 'log'], weight: 'A' as const };
    expect(indexCounts([head, { tokens: ['audit', 'audit'], weight: '' }])).toEqual(
      new Map([
        ['audit', { a: 1, d: 2 }],
        ['log', { a: 1, d: 0 }],
      ]),
    );
    // 300 occurrences: 256 positions kept.
    expect(indexCounts([{ tokens: Array(300).fill('data'), weight: '' }]).get('data')).toEqual({ a: 0, d: 256 });
    // Past 16,383 every token shares the last position, weighted 'A' once any occurrence there is.
    const filler = Array(16_382).fill('x');
    const counts = indexCounts([
      { tokens: filler, weight: '' },
      { tokens: ['end', 'end'], weight: '' },
      { tokens: ['end', 'tail'], weight: 'A' },
    ]);
    expect(counts.get('end')).toEqual({ a: 1, d: 0 });
    expect(counts.get('tail')).toEqual({ a: 1, d: 0 });
  });
});
