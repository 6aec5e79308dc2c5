import { describe, expect, it } from 'vitest';
import { claimCoverage, evidenceConcepts, questionClaim, questionProper, withAllData } from '../../../../src/service/knowledge/answer/claim';
import { rejectsClaim } from '../../../../src/service/knowledge/answer/decision';

const concepts = (question: string) => questionClaim(question).map((t) => t.concept);

describe('questionProper: the question without what surrounds it', () => {
  it('drops an instruction after the question mark', () => {
    expect(
      questionProper('Do you conform with a specific industry standard security framework? Please identify which one under "additional information"'),
    ).toBe('Do you conform with a specific industry standard security framework?');
    expect(questionProper('Does the environment provide for dedicated single-tenant capabilities? If not, describe how your product separates data')).toBe(
      'Does the environment provide for dedicated single-tenant capabilities?',
    );
  });

  it('keeps an example list that follows the question mark (the claim drops it later)', () => {
    expect(questionProper('Does your portal support multi-factor authentication? (e.g. Duo, OTP)')).toBe(
      'Does your portal support multi-factor authentication? (e.g. Duo, OTP)',
    );
  });

  it('drops a leading condition, keeping the question and its id', () => {
    expect(questionProper("If you don't support SSO, does your application support multi-factor authentication?")).toBe(
      'does your application support multi-factor authentication?',
    );
    expect(questionProper('COMP-07: If applicable, do you have dedicated customer support?')).toBe('COMP-07: do you have dedicated customer support?');
  });

  it('leaves a question that is all condition-free as it is', () => {
    expect(questionProper('Is data encrypted at rest?')).toBe('Is data encrypted at rest?');
    expect(questionProper('If a breach occurs, who is notified')).toBe('If a breach occurs, who is notified');
  });
});

describe('questionClaim: alternatives, acronyms, glosses, compounds', () => {
  it('folds "A/B" into one concept either word states, weighed as the commoner', () => {
    const weights: Record<string, number> = { password: 2, passphras: 5, encrypt: 2, store: 1, user: 1, account: 1 };
    const claim = questionClaim('Are user account passwords/passphrases stored encrypted?', (s) => weights[s] ?? 1);
    const password = claim.find((t) => t.concept === 'password')!;
    expect(password.weight).toBe(2);
    expect(claim.some((t) => t.concept === 'passphras')).toBe(false);
    expect(evidenceConcepts('Passphrases are hashed and encrypted.', claim).has('password')).toBe(true);
  });

  it('folds "A or B" only where both qualify the same next word', () => {
    const claim = questionClaim('Does the system have password complexity or length limitations?');
    expect(claim.some((t) => t.concept === 'length')).toBe(false);
    expect(evidenceConcepts('Authentication requires a minimum password length of eight characters.', claim).has('complex')).toBe(true);
    // The ends of two phrases are not alternatives: "team or retain".
    expect(concepts('Do you have either an internal incident response team or retain an external team?')).toContain('retain');
  });

  it('lets words spelled out state an acronym the vocabulary does not know, and only such an acronym', () => {
    const claim = questionClaim('Are all components of the DRP reviewed at least annually?');
    expect(evidenceConcepts('Our Disaster Recovery Plan is reviewed at least annually.', claim).has('drp')).toBe(true);
    expect(evidenceConcepts('Our disaster recovery site is tested yearly.', claim).has('drp')).toBe(false);
    // Without the claim (or for a word that is not an acronym in the question) initials count for nothing.
    expect(evidenceConcepts('Our Disaster Recovery Plan is reviewed at least annually.').has('drp')).toBe(false);
    expect(evidenceConcepts('Data retention policies apply.', questionClaim('Do you keep a drp of records?')).has('drp')).toBe(false);
  });

  it('leaves out a gloss of alternatives in parentheses', () => {
    expect(concepts('Do your systems store cardholder (payment/credit/debit card) data?')).not.toContain('payment');
    expect(concepts('Have you implemented an Intrusion Detection System (network-based)?')).toContain('network-based');
  });

  it('holds "host-based" only where the evidence says host-based, not "hosted"', () => {
    const claim = questionClaim('Do you employ host-based intrusion detection?');
    expect(claim.map((t) => t.concept)).toContain('host-based');
    expect(evidenceConcepts('GuardDuty alerts on incidents against services hosted in AWS.', claim).has('host-based')).toBe(false);
    expect(evidenceConcepts('A host-based agent detects intrusions on every server.', claim).has('host-based')).toBe(true);
  });

  it('claims nothing from a trailing instruction', () => {
    expect(
      concepts('Do you conform with a specific industry standard security framework? Please identify which one under "additional information"'),
    ).not.toContain('identifi');
  });
});

describe('withAllData: "all data" states it of every kind of data', () => {
  const claim = questionClaim('Is sensitive data encrypted in storage?');
  it('adds the kind of data asked about when the sentence speaks of all data', () => {
    const sentence = 'All data is encrypted in storage (at rest) using AES-256.';
    expect(claimCoverage(claim, withAllData(sentence, evidenceConcepts(sentence, claim), claim)).missing).toBe(0);
  });
  it('adds nothing for some data', () => {
    const sentence = 'Backup data is encrypted in storage using AES-256.';
    expect(withAllData(sentence, evidenceConcepts(sentence, claim), claim).has('sensit')).toBe(false);
  });
});

describe('rejectsClaim: part of the claim set aside', () => {
  const claim = questionClaim('Can the Institution extract a full or partial backup of data?');
  it('finds the claim in the clause set aside', () => {
    expect(rejectsClaim('Instead of providing full or partial backups, customers can extract full or partial data via our API.', claim)).toBe(true);
  });
  it('does not when the set-aside clause names something else', () => {
    expect(rejectsClaim('Customers can extract a full backup of their data via our API rather than through support tickets.', claim)).toBe(false);
    expect(rejectsClaim('Customers can extract a full backup of their data via our API.', claim)).toBe(false);
  });
});
