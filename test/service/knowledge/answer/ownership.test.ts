/** Whose statement is it: third parties' documents, auditors' boilerplate and matrix rows never answer Yes for us. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strToU8 } from 'fflate';
import { extractDocument } from '../../../../src/service/knowledge';
import { statesPlainly } from '../../../../src/service/knowledge/answer/claim';
import { notAnAnswer, thirdPartyOf } from '../../../../src/service/knowledge/answer/ownership';
import { documentSubject, STANDARD_BODY } from '../../../../src/service/knowledge/extract/subject';
import type { Candidate } from '../../../../src/service/knowledge/retrieval';
import { fixture, meta, tempKb, YES_NO_SLOTS, type TempKb } from '../helpers';

async function subjectOf(name: string): Promise<string | undefined> {
  const doc = await extractDocument(fixture(`kb/instructure/${name}`), name);
  return documentSubject({ filename: name, title: doc.title, pages: doc.pages, document_type: doc.document_type });
}

function passage(content: string): Candidate {
  return {
    evidence: {
      type: 'passage',
      passage_id: 1,
      qna_id: null,
      file_id: 1,
      filename: 'x.pdf',
      page_number: 1,
      content,
      context_header: '',
      section_path: [],
      tab_name: '',
      relevance_score: 1,
      rank: 1,
    },
    stems: { has: () => false },
    fusion: 0,
  };
}

describe('whose statement a document is', () => {
  it("names the subject of the real reports: AWS's SOC 3, Instructure's own SOC 3 and PCI summary, the PCI matrix's standard", async () => {
    expect(await subjectOf('AWS SOC 3.pdf')).toBe('Amazon Web Services');
    expect(await subjectOf('Canvas LMS SOC 3.pdf')).toBe('Instructure');
    expect(await subjectOf('2024_Instructure_PCI_DSS_Summary.txt')).toBe('Instructure');
    expect(await subjectOf('Canvas Catalog PCI Responsibility Matrix.txt')).toBe(STANDARD_BODY);
    expect(await subjectOf('Instructure Security Overview.pdf')).toBeUndefined();
  });

  it("a policy titled after a provider stays the organisation's own statement", async () => {
    const doc = await extractDocument(strToU8('# AWS access\n\nExampleCo grants AWS console access through SSO with MFA only.'), 'cp-access-aws.md');
    expect(documentSubject({ filename: 'cp-access-aws.md', title: doc.title, pages: doc.pages, document_type: doc.document_type })).toBeUndefined();
  });

  it("decides third party against the organisation's names; without names only well-known providers and standards count", () => {
    expect(thirdPartyOf('Amazon Web Services', ['Instructure', 'Canvas'])).toBe('Amazon Web Services');
    expect(thirdPartyOf('Instructure', ['Instructure', 'Canvas'])).toBeNull();
    expect(thirdPartyOf('Acme Payroll', ['Instructure'])).toBe('Acme Payroll');
    expect(thirdPartyOf('Acme Payroll', [])).toBeNull();
    expect(thirdPartyOf('Amazon Web Services', [])).toBe('Amazon Web Services');
    expect(thirdPartyOf(STANDARD_BODY, [])).toBe(STANDARD_BODY);
    expect(thirdPartyOf(null, ['Instructure'])).toBeNull();
  });

  it("auditors' boilerplate and requirement matrix rows are nobody's answer; ordinary prose is", () => {
    expect(notAnAnswer(passage('We applied the Statements on Quality Control Standards established by the AICPA.'))).toBe('auditor boilerplate');
    expect(notAnAnswer(passage("In our opinion, management's assertion is fairly stated, in all material respects."))).toBe('auditor boilerplate');
    expect(notAnAnswer(passage('1.1.1 A formal process for approving network connections  x  x  1.1.2 Current network diagram  x'))).toBe(
      'requirement matrix rows',
    );
    expect(notAnAnswer(passage('Customer data is encrypted at rest with AES-256. Backups run daily (see section 4.2 Backups).'))).toBeNull();
  });

  it('a form\'s instruction (the PCI attestation\'s "Describe how the business stores…") is no statement', () => {
    expect(statesPlainly('Part 2b. Describe how the business stores, processes, and/or transmits account data.')).toBe(false);
    expect(statesPlainly("Instructure stores course data in AWS and processes it in the customer's region.")).toBe(true);
  });
});

describe("answers from another organisation's document", () => {
  let t: TempKb;
  beforeAll(async () => {
    t = await tempKb();
    const name = 'AWS SOC 3.pdf';
    await t.kb.indexDocument(meta({ file_id: 1, filename: name }), await extractDocument(fixture(`kb/instructure/${name}`), name));
  }, 60_000);
  afterAll(() => t.close());

  for (const names of [[], ['Instructure', 'Canvas']]) {
    it(`never yields a Yes from the AWS SOC 3 and labels it in the sources (names: ${names.join(', ') || 'none'})`, async () => {
      await t.kb.setOrganisationNames(1, names);
      expect(await t.kb.organisationNames(1)).toEqual(names);
      let cited = 0;
      for (const text of [
        'Do you have a backup and recovery process for data?',
        'Are policies reviewed and updated at least annually?',
        'Is data encrypted at rest?',
      ]) {
        const r = await t.kb.answerQuestion(1, { text, answer_slots: YES_NO_SLOTS }, {});
        expect(
          r.slot_responses.find((s) => s.slot_key === 'answer'),
          text,
        ).toBeUndefined();
        for (const e of r.evidence) {
          expect(e.third_party).toBe('Amazon Web Services');
          expect(e.context_header).toMatch(/^third party: Amazon Web Services/);
        }
        if (r.evidence.length) {
          cited++;
          expect(r.evaluation.third_party).toEqual(['Amazon Web Services']);
          expect(r.flagged_for_review).toBe(true);
          expect(r.evaluation.trust).toBe('low');
        }
        // The auditor's report formulas are never quoted as an answer.
        expect(r.slot_responses.map((s) => s.content).join(' ')).not.toMatch(/Quality Control Standards|in our opinion/i);
      }
      expect(cited).toBeGreaterThanOrEqual(2);
    });
  }

  it("the organisation's own name makes the same report its own", async () => {
    await t.kb.setOrganisationNames(1, ['Amazon Web Services']);
    const r = await t.kb.answerQuestion(1, { text: 'Do you have a backup and recovery process for data?', answer_slots: YES_NO_SLOTS }, {});
    expect(r.evidence.every((e) => e.third_party === undefined)).toBe(true);
    await t.kb.setOrganisationNames(1, []);
  });
});
