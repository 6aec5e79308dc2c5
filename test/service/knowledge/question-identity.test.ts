import { describe, expect, it } from 'vitest';
import {
  domainSubjects,
  followedQuestions,
  idDomain,
  LIBRARY_KEY_LIMITS,
  libraryQuestionKey,
  questionIdentity,
  questionInContext,
  questionSubject,
  refersBack,
  sameQuestion,
} from '../../../src/service/knowledge/question-identity';

const BCR =
  'Are business continuity management and operational resilience policies and procedures established, documented, approved, communicated, applied, evaluated and maintained?';
const CCC =
  'Are risk management policies and procedures for change control established, documented, approved, communicated, applied, evaluated and maintained?';
const REVIEWED = 'Are the policies and procedures reviewed and updated at least annually?';

describe('question identity', () => {
  it('tells a question that refers back from one that names its subject', () => {
    expect(refersBack(REVIEWED)).toBe(true);
    expect(refersBack('Are these procedures tested?')).toBe(true);
    expect(refersBack('Are policies and procedures reviewed and updated annually?')).toBe(true);
    expect(refersBack('Are strong password policies and procedures reviewed and updated at least annually?')).toBe(false);
    expect(refersBack('Do you encrypt customer data at rest?')).toBe(false);
  });

  it('makes the same words about two subjects two questions, and the same id one', () => {
    expect(sameQuestion({ text: REVIEWED, follows: BCR }, { text: REVIEWED, follows: CCC })).toBe(false);
    expect(sameQuestion({ text: REVIEWED, follows: BCR }, { text: ` ${REVIEWED.toLowerCase()} `, follows: BCR })).toBe(true);
    expect(
      sameQuestion({ text: 'Is data encrypted?', section_path: ['Datacenter'] }, { text: 'Is data encrypted?', section_path: ['Mobile Applications'] }),
    ).toBe(false);
    expect(questionIdentity({ text: 'Vendor name', original_id: 'GNRL-01', section_path: ['A'] })).toBe(
      questionIdentity({ text: 'Vendor name', original_id: 'gnrl-01', section_path: ['B'] }),
    );
  });

  it('searches a question with the subject it leaves to its context', () => {
    expect(questionInContext({ text: REVIEWED, follows: BCR, section_path: ['Business Continuity'] })).toEqual({
      query: `${REVIEWED}\nbusiness continuity management and operational resilience policies and procedures`,
      hint: 'Business Continuity',
    });
    // A question naming its own subject does not take the one before it; a section it names adds nothing.
    expect(questionInContext({ text: 'Is data encrypted at rest?', follows: BCR, section_path: ['Data'] })).toEqual({
      query: 'Is data encrypted at rest?',
      hint: '',
    });
  });

  it("learns each domain's subject from the questionnaire: the first question of an id group, searched as a hint with the rest", () => {
    expect([idDomain('IAM-02.2'), idDomain('HLAP-04'), idDomain('A&A-01.1'), idDomain('12'), idDomain(null)]).toEqual(['IAM', 'HLAP', 'A&A', null, null]);
    const iam =
      'Are identity and access management policies and procedures established, documented, approved, communicated, applied, evaluated and maintained?';
    const password = 'Are strong password policies and procedures reviewed and updated at least annually?';
    const subjects = domainSubjects([
      { original_id: 'IAM-01.1', text: iam },
      { original_id: 'IAM-02.2', text: password },
      { original_id: 'CEK-01.1', text: 'Are cryptography, encryption and key management policies established?' },
      { original_id: 'CEK-15.1', text: 'Are keys created in a pre-activated state?' },
      { original_id: null, text: 'Anything else?' },
      // A first question on one practice names no domain: "password aging" is not what AAAI-15 is about.
      { original_id: 'AAAI-01', text: 'Can you enforce password/passphrase aging requirements?' },
      { original_id: 'AAAI-15', text: 'Are audit logs available that include login and logout?' },
    ]);
    expect(subjects).toEqual([
      null,
      'identity and access management policies and procedures',
      null,
      'cryptography encryption and key management policies',
      null,
      null,
      null,
    ]);
    expect(questionInContext({ text: password, domain: subjects[1] }).hint).toBe('identity and access management policies and procedures');
  });

  it('searches without the enumeration of how any policy lives, which every list of policies matches', () => {
    expect(
      questionInContext({
        text: 'Are policies and procedures to protect against malware on managed assets established, documented, approved, communicated, applied, evaluated, and maintained?',
      }).query,
    ).toBe('Are policies and procedures to protect against malware on managed assets ?');
    expect(questionInContext({ text: REVIEWED }).query).toBe(REVIEWED);
  });

  it("keys the library's entries by the same definition: an id within its template, else the words under their subject", () => {
    const rows = [
      { text: BCR, tab_name: 'CAIQ' },
      { text: REVIEWED, tab_name: 'CAIQ' },
      { text: CCC, tab_name: 'CAIQ' },
      { text: REVIEWED, tab_name: 'CAIQ' },
      { text: 'Are these procedures tested?', tab_name: 'CAIQ' },
      { text: REVIEWED, tab_name: 'Other' },
    ];
    // A question referring back follows the last one that named its subject, on its own sheet.
    expect(followedQuestions(rows)).toEqual([null, BCR, BCR, CCC, CCC, null]);
    const key = (i: number, section_path: string[] = []) =>
      libraryQuestionKey({ text: rows[i]!.text, subject: questionSubject({ text: rows[i]!.text, section_path, follows: followedQuestions(rows)[i] }) });
    expect(key(1)).not.toBe(key(3));
    expect(key(1)).toBe(libraryQuestionKey({ text: ` ${REVIEWED.toUpperCase()}\n`, subject: questionSubject({ text: REVIEWED, follows: BCR }) }));
    expect(libraryQuestionKey({ text: 'Is data encrypted?', subject: 'datacenter' })).not.toBe(
      libraryQuestionKey({ text: 'Is data encrypted?', subject: 'mobile applications' }),
    );
    // An id is the same question only within its template (tab), whatever the words.
    expect(libraryQuestionKey({ text: 'Is MFA on?', original_id: 'IAM-01', tab_name: 'Lite' })).toBe(
      libraryQuestionKey({ text: 'MFA?', original_id: ' iam-01 ', tab_name: 'lite' }),
    );
    expect(libraryQuestionKey({ text: 'Is MFA on?', original_id: 'IAM-01', tab_name: 'Lite' })).not.toBe(
      libraryQuestionKey({ text: 'Is MFA on?', original_id: 'IAM-01', tab_name: 'Full' }),
    );
    // Bounded, as an indexed key must be.
    expect(libraryQuestionKey({ text: 'x'.repeat(5000), subject: 'y'.repeat(5000) }).length).toBe(5 + LIBRARY_KEY_LIMITS.text + 1 + LIBRARY_KEY_LIMITS.subject);
  });
});
