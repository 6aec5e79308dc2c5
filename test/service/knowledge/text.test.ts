import { describe, expect, it } from 'vitest';
import { indexTexts, keyTerms, normalizeText, stem, stemmedTerms, textForIndex, wordTokens } from '../../../src/service/knowledge/text';

/** Texts that exercise the tokeniser's shortcuts: ASCII and not, phrases at and off word starts. */
const TEXTS = [
  'We enforce Multi-Factor Authentication (MFA) for all SOC 2 systems.',
  'xmulti factor is not a phrase; amulti-factor neither, but 2-factor authentication is.',
  'Café naïve résumé: données personnelles, personal data and İstanbul’s ﬁle servers.',
  'ISO/IEC 27001:2013, AES-256, SHA 256, RSA-2048, TLS v1.2, NIST SP 800-53, PCI-DSS, HI TRUST, Fed Ramp, TX-RAMP, 24/7.',
  'Disaster\u2013recovery and business continuity planning; single sign-on via SAML.\nSecurity information and event management',
  'Shall share the isolation trust factor 24 hours',
  '日本語のテキスト with tokens 123 and a_b',
  '',
];

describe('tokeniser', () => {
  it('rewrites numbered standards into single tokens and adds acronyms only for phrases at word starts', () => {
    expect(normalizeText('SOC 2 and AES-256 with TLS v1.2, 24/7')).toBe('soc2 and aes256 with tls 1.2, 24x7');
    expect(keyTerms(TEXTS[0]!)).toEqual(expect.arrayContaining(['mfa', 'soc2', 'enforce']));
    const terms = keyTerms(TEXTS[1]!);
    expect(terms).toContain('mfa'); // "2-factor authentication" (joined to "2factor authentication")
    expect(keyTerms('xmulti factor and amulti-factor')).not.toContain('mfa');
    expect(textForIndex('Personal data\nand SSO')).toBe('personal data\nand sso\npii');
  });

  it('tokenises non-ASCII text by Unicode letters and digits, ASCII by the same rule', () => {
    expect(wordTokens(normalizeText(TEXTS[2]!))).toEqual(expect.arrayContaining(['café', 'naïve', 'données', 'file', 'personal', 'data']));
    expect(wordTokens('a_b 123 x-y')).toEqual(['a', 'b', '123', 'x', 'y']);
    expect(wordTokens('日本語 abc')).toEqual(['日本語', 'abc']);
  });

  it('stemmedTerms are the stems of keyTerms, in the same order', () => {
    for (const text of TEXTS) {
      expect([...stemmedTerms(text)]).toEqual([...new Set(keyTerms(text).map(stem))]);
    }
  });

  it('indexTexts gives what stemmedTerms and textForIndex give, also across the line break between the texts', () => {
    const heads = [...TEXTS, 'Policy > SOC', 'Access > Use multi', 'Controls - ISO', 'Identity > single sign', 'Ops > 24/', 'Keys > TLS'];
    const bodies = [...TEXTS, '2 Type II report.', 'factor authentication everywhere.', '27001 certified', 'on is required.', '7 monitoring', 'v1.2 only'];
    for (const head of heads) {
      for (const body of bodies) {
        const texts = indexTexts(head, body);
        expect([texts.stems, texts.indexHead, texts.indexBody]).toEqual([
          [...stemmedTerms(`${head}\n${body}`)].join(' '),
          textForIndex(head),
          textForIndex(body),
        ]);
      }
    }
    // The joined text is one text: "SOC" ending the heading and "2" opening the body are SOC 2.
    expect(indexTexts('Policy > SOC', '2 Type II report.').stems.split(' ')).toContain('soc2');
    expect(indexTexts('Access > Use multi', 'factor authentication everywhere.').stems.split(' ')).toContain('mfa');
  });
});
