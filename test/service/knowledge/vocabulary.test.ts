/** The security vocabulary (src/service/knowledge/vocabulary.ts): acronyms and phrases find each other both ways. */
import { describe, expect, it } from 'vitest';
import { keyTerms, relatedCoverage, relatedStems, stem, stemmedTerms } from '../../../src/service/knowledge/text';
import { PARAPHRASES, RELATED, SYNONYMS } from '../../../src/service/knowledge/vocabulary';
import { paraphrasesOf } from '../../../src/service/knowledge/retrieval';

/** Two texts share a search term when their key terms (what the index and a query both hold) overlap on it. */
function share(a: string, b: string, term: string): boolean {
  return keyTerms(a).includes(term) && keyTerms(b).includes(term);
}

describe('security vocabulary', () => {
  it.each([
    ['Do you enforce MFA?', 'All staff use two-factor authentication.', 'mfa'],
    ['Is 2FA required for admins?', 'Multi-factor authentication is required.', 'mfa'],
    ['Do you support SSO?', 'Customers can use single sign-on through their identity provider.', 'sso'],
    ['Do you have a BCP?', 'Our business continuity plan is tested yearly.', 'bcp'],
    ['What are your RTO and RPO?', 'The recovery time objective is 4 hours and the recovery point objective 1 hour.', 'rto'],
    ['What are your RTO and RPO?', 'The recovery time objective is 4 hours and the recovery point objective 1 hour.', 'rpo'],
    ['When was your last pentest?', 'An external penetration test is performed annually.', 'pentest'],
    ['Do you have a SOC 2 report?', 'Our SOC2 Type II report is available under NDA.', 'soc2'],
    ['Do you use a SIEM?', 'Log monitoring runs around the clock.', 'siem'],
    ['Is data encrypted with AES 256?', 'Volumes use AES-256.', 'aes256'],
  ])('"%s" and "%s" meet on %s', (query, text, term) => {
    expect(share(query, text, term)).toBe(true);
    expect(share(text, query, term)).toBe(true);
  });

  it('every acronym is found from each of its phrases', () => {
    for (const [acronym, phrases] of Object.entries(SYNONYMS)) {
      for (const phrase of phrases) expect(keyTerms(`We have ${phrase} in place.`), `${phrase} -> ${acronym}`).toContain(acronym);
    }
  });

  it('related words speak to each other for follow-ups, and unrelated ones do not', () => {
    expect(relatedStems(stem('algorithm'))).toContain('aes256');
    const aes = stemmedTerms('Customer data is encrypted at rest using AES-256.');
    expect(relatedCoverage(new Set([stem('algorithm')]), aes)).toBe(1);
    expect(relatedCoverage(new Set([stem('cipher')]), aes)).toBe(1);
    expect(relatedCoverage(new Set([stem('bounty')]), aes)).toBe(0);
    expect(RELATED.every((group) => group.length >= 2)).toBe(true);
  });

  it('paraphrases stand for each other both ways, and a question word brings only its own group', () => {
    expect(PARAPHRASES.every((group) => group.length >= 2)).toBe(true);
    const csc = [...paraphrasesOf(stemmedTerms('Can CSCs retrieve their data?')).words];
    expect(csc).toEqual(expect.arrayContaining(['export', 'customer']));
    expect(csc).not.toContain('destroy');
    expect([...paraphrasesOf(stemmedTerms('Are keys destroyed?')).words]).toContain('destruction');
    expect([...paraphrasesOf(stemmedTerms('Is there a key destruction procedure?')).words]).toContain('destroy');
    expect(paraphrasesOf(stemmedTerms('Is the office open on Fridays?')).words.size).toBe(0);
  });
});
