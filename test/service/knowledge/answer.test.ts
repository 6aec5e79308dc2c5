import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { strToU8 } from 'fflate';
import { extractDocument } from '../../../src/service/knowledge';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { instanceField } from '../../../src/service/knowledge/answer/fields';
import { DEMO_SECTIONS } from '../../../src/workbench/demo-questionnaire';
import { addText, meta, tempKb, YES_NO_SLOTS, type TempKb } from './helpers';

const DEMO_KB = path.resolve('scripts/demo/kb');

let t: TempKb;
beforeEach(async () => {
  t = await tempKb();
});
afterEach(() => t.close());

async function addLibrary(csv: string, fileId = 100, filename = 'HECVAT answers.csv') {
  const doc = await extractDocument(strToU8(csv), filename);
  return t.kb.indexDocument(meta({ file_id: fileId, filename }), doc);
}

describe('answerQuestion', () => {
  it('reuses a matching library answer slot by slot and cites it', async () => {
    const counts = await addLibrary(
      'ID,Question,Answer,Additional Information\n' +
        'HFIH-01,Do you support role-based access control (RBAC) for end users?,Yes,"Admins assign roles per course; custom roles are supported."\n' +
        'DATA-02,Is customer data encrypted at rest?,Yes,AES-256 on all storage volumes.\n',
    );
    expect(counts).toEqual({ passage_count: 0, qa_count: 2, total_embeddings: 0, template: null });
    // A passage that also mentions encryption must not win over the approved answer.
    await addText(t.kb, meta({ file_id: 1, filename: 'overview.md' }), '# Encryption\n\nCustomer data is encrypted at rest and in transit.');

    const result = await t.kb.answerQuestion(1, { text: 'Is customer data encrypted at rest?', original_id: 'DATA-02', answer_slots: YES_NO_SLOTS }, {});
    expect(result.method).toBe('library');
    expect(result.text).toBe('Yes');
    expect(result.slot_responses).toEqual([
      { slot_key: 'answer', content: 'Yes' },
      { slot_key: 'comment', content: 'AES-256 on all storage volumes.' },
    ]);
    expect(result.flagged_for_review).toBe(false);
    expect(result.score).toBeGreaterThanOrEqual(90);
    expect(result.evaluation).toMatchObject({ trust: 'high', method: 'library' });
    expect(result.evaluation.reason).toMatch(/^Reused the approved answer to a matching question in HECVAT answers/);
    expect(result.evidence[0]).toMatchObject({ type: 'qna', rank: 1, filename: 'HECVAT answers.csv', question_text: 'Is customer data encrypted at rest?' });
    expect(result.evidence[0]!.qna_id).toEqual(expect.any(Number));

    // Worded a little differently, with a different id format: still the same question.
    const reworded = await t.kb.answerQuestion(
      1,
      { text: 'Does your platform support role based access control (RBAC) for end-users?', answer_slots: YES_NO_SLOTS },
      {},
    );
    expect(reworded.method).toBe('library');
    expect(reworded.slot_responses[0]).toEqual({ slot_key: 'answer', content: 'Yes' });
    expect(reworded.evaluation.reason).toContain('closely matching');
  });

  it('maps library values onto the allowed values of the target list (case, Y/N)', async () => {
    await addLibrary('Question,Response\nDo you perform annual penetration tests?,y\n');
    const result = await t.kb.answerQuestion(
      1,
      {
        text: 'Do you perform annual penetration tests?',
        answer_slots: [{ role: 'answer', header: 'Answer', coordinate: 'C2', allowed_values: ['YES', 'NO'] }],
      },
      {},
    );
    expect(result.slot_responses).toEqual([{ slot_key: 'answer', content: 'YES' }]);
  });

  it('flags a question the knowledge base cannot answer, with no evidence and no answer', async () => {
    await addText(t.kb, meta({ file_id: 1, filename: 'overview.md' }), '# Encryption\n\nCustomer data is encrypted at rest and in transit.');
    const result = await t.kb.answerQuestion(1, { text: 'What is the capital city of France?', answer_slots: YES_NO_SLOTS }, {});
    expect(result).toMatchObject({ method: 'none', text: '', slot_responses: [], score: 0, flagged_for_review: true, evidence: [] });
    expect(result.evaluation).toMatchObject({ trust: 'low', score: 0, method: 'none' });
  });

  it('answers Yes extractively only when the evidence states it, citing page and section', async () => {
    await addText(
      t.kb,
      meta({ file_id: 1, filename: 'Security Overview.md' }),
      '# Security Overview\n\n## Personnel\n\nWe perform background checks on all employees before hiring. Security training is annual.',
    );
    const result = await t.kb.answerQuestion(1, { text: 'Do you perform background checks on employees?', answer_slots: YES_NO_SLOTS }, {});
    expect(result.method).toBe('extractive');
    expect(result.slot_responses).toEqual([
      { slot_key: 'answer', content: 'Yes' },
      { slot_key: 'comment', content: 'We perform background checks on all employees before hiring.' },
    ]);
    expect(result.evidence[0]).toMatchObject({ type: 'passage', context_header: 'Security Overview > Personnel', rank: 1 });
    expect(result.evaluation.reason).toMatch(/^Extracted from Security Overview/);
  });

  it('answers No only when the evidence denies exactly what is asked, and flags it', async () => {
    await addText(
      t.kb,
      meta({ file_id: 1, filename: 'policy.md' }),
      '# Access\n\nMulti-factor authentication is not enforced for contractor accounts today.\n\n# Reviews\n\nFirewall rules are reviewed by the network team.',
    );
    const denied = await t.kb.answerQuestion(1, { text: 'Is MFA enforced for contractor accounts?', answer_slots: YES_NO_SLOTS }, {});
    expect(denied.method).toBe('extractive');
    expect(denied.slot_responses).toEqual([
      { slot_key: 'answer', content: 'No' },
      { slot_key: 'comment', content: 'Multi-factor authentication is not enforced for contractor accounts today.' },
    ]);
    expect(denied.text).toBe('No');
    expect(denied.flagged_for_review).toBe(true);
    expect(denied.score).toBeLessThanOrEqual(60);
    expect(denied.evaluation.reason).toContain('explicitly denies it, so the answer is No');
  });

  it('leaves the list slot empty and flags when the evidence does not decide it', async () => {
    await addText(
      t.kb,
      meta({ file_id: 1, filename: 'policy.md' }),
      '# Access\n\nMulti-factor authentication is not only enforced for employees but also offered to contractors.\n\n' +
        '# Reviews\n\nFirewall rules are reviewed by the network team.',
    );
    // "not only … but also" negates nothing: no No, and not a plain Yes either.
    const notADenial = await t.kb.answerQuestion(1, { text: 'Is MFA enforced for contractor accounts?', answer_slots: YES_NO_SLOTS }, {});
    expect(notADenial.method).toBe('extractive');
    expect(notADenial.slot_responses.find((s) => s.slot_key === 'answer')).toBeUndefined();
    expect(notADenial.slot_responses).toEqual([
      { slot_key: 'comment', content: 'Multi-factor authentication is not only enforced for employees but also offered to contractors.' },
    ]);
    expect(notADenial.text).toBe('');
    expect(notADenial.flagged_for_review).toBe(true);
    expect(notADenial.evaluation.reason).toContain('does not state Yes or No or N/A');

    // Partial overlap: the passage is relevant but does not say what the question asks.
    const partial = await t.kb.answerQuestion(1, { text: 'Are firewall rules reviewed quarterly by an external auditor?', answer_slots: YES_NO_SLOTS }, {});
    expect(partial.slot_responses.find((s) => s.slot_key === 'answer')).toBeUndefined();
    expect(partial.flagged_for_review).toBe(true);
    expect(partial.score).toBeLessThan(50);
  });

  it('puts the extracted text in `text` when the question has no list slot, and skips blocked slots', async () => {
    await addText(t.kb, meta({ file_id: 1, filename: 'bcp.md' }), '# Backups\n\nBackups are taken every 24 hours and kept for 30 days.');
    const result = await t.kb.answerQuestion(
      1,
      {
        text: 'How often are backups taken?',
        answer_slots: [
          { role: 'answer', header: 'Response', coordinate: 'C3' },
          { role: 'owner', header: 'Owner', coordinate: 'D3', is_blocked: true },
        ],
      },
      {},
    );
    expect(result.text).toBe('Backups are taken every 24 hours and kept for 30 days.');
    expect(result.slot_responses).toEqual([{ slot_key: 'answer', content: result.text }]);
  });

  it('flags a quoted free-text answer that covers only part of the question', async () => {
    await addText(t.kb, meta({ file_id: 1, filename: 'bcp.md' }), '# Backup testing\n\nCustomer data backups are kept for thirty days in a second region.');
    const result = await t.kb.answerQuestion(
      1,
      {
        text: 'How often are backups of customer data tested?',
        answer_slots: [{ role: 'answer', header: 'Response', coordinate: 'C3' }],
      },
      {},
    );
    // The sentence is on the subject (it is cited as a lead) but says nothing of how often they are tested.
    expect(result.text).toBe('Customer data backups are kept for thirty days in a second region.');
    expect(result.flagged_for_review).toBe(true);
    expect(result.score).toBeLessThanOrEqual(45);
    expect(result.evaluation.reason).toContain('covers only part of what the question asks');
  });

  it('respects filters when answering (no reuse from another offering)', async () => {
    const doc = await extractDocument(strToU8('Question,Answer\nIs customer data encrypted at rest?,Yes\n'), 'product-a.csv');
    await t.kb.indexDocument(meta({ file_id: 7, filename: 'product-a.csv', scope_includes_company: false, offering_ids: [1] }), doc);
    const q = { text: 'Is customer data encrypted at rest?', answer_slots: YES_NO_SLOTS };
    expect((await t.kb.answerQuestion(1, q, { offering_ids: [1] })).method).toBe('library');
    expect((await t.kb.answerQuestion(1, q, { offering_ids: [2] })).method).toBe('none');
    expect((await t.kb.answerQuestion(2, q, {})).method).toBe('none');
  });
});

describe('answerQuestion on field-like prompts', () => {
  it('cites evidence but quotes nothing for a field ("Date") even when a passage contains the word', async () => {
    await addText(t.kb, meta({ file_id: 1, filename: 'pci.txt' }), 'The self-assessment completion date is 2024-06-10 for this report.');
    const result = await t.kb.answerQuestion(1, { text: 'Date', answer_slots: [{ role: 'answer', header: 'Answer', coordinate: 'C3' }] }, {});
    expect(result).toMatchObject({ method: 'none', text: '', slot_responses: [], flagged_for_review: true });
    expect(result.evaluation.trust).toBe('low');
    expect(result.evaluation.reason).toContain('asks for a date specific to this questionnaire');
    expect(result.evidence[0]).toMatchObject({ filename: 'pci.txt', rank: 1 });
  });

  it('reuses a product-specific field from another questionnaire only as a low-trust draft, flagged', async () => {
    await addLibrary(
      'ID,Question,Answer\n' +
        'GNRL-02,Product Name,Canvas Catalog\n' +
        'GNRL-04,Web Link to Product Privacy Notice,https://example.com/privacy\n' +
        'DATE-01,Assessment Date,2024-10-04\n' +
        'HLEN-01,Do you support encryption of data at rest?,Yes\n',
    );
    const textSlot = [{ role: 'answer', header: 'Vendor Answer', coordinate: 'C7' }];
    const name = await t.kb.answerQuestion(1, { text: 'Product Name', original_id: 'GNRL-02', answer_slots: textSlot }, {});
    expect(name.method).toBe('library');
    expect(name.text).toBe('Canvas Catalog');
    expect(name.flagged_for_review).toBe(true);
    // Low, so the write policy ("free text at medium trust or more") keeps another product's name out of the cell.
    expect(name.evaluation.trust).toBe('low');
    expect(name.evaluation.reason).toContain('asks for a name specific to the questionnaire it came from');

    const link = await t.kb.answerQuestion(1, { text: 'Web Link to Product Privacy Notice', answer_slots: textSlot }, {});
    expect(link).toMatchObject({ method: 'library', text: 'https://example.com/privacy', flagged_for_review: true });
    expect(link.evaluation.trust).toBe('low');

    // Last year's date is almost never this questionnaire's date.
    const date = await t.kb.answerQuestion(1, { text: 'Assessment Date', original_id: 'DATE-01', answer_slots: textSlot }, {});
    expect(date).toMatchObject({ method: 'library', text: '2024-10-04', flagged_for_review: true });
    expect(date.evaluation.trust).toBe('low');

    // A practice question keeps its high trust.
    const practice = await t.kb.answerQuestion(1, { text: 'Do you support encryption of data at rest?', answer_slots: YES_NO_SLOTS }, {});
    expect(practice).toMatchObject({ method: 'library', text: 'Yes', flagged_for_review: false });
    expect(practice.evaluation.trust).toBe('high');
  });
});

describe('answerQuestion comment relevance', () => {
  it('leaves the comment empty when the best sentence shares only common words with the question', async () => {
    await addText(
      t.kb,
      meta({ file_id: 1, filename: 'Security Overview.md' }),
      '# Passwords\n\nPassword settings prevent the reuse of the last 12 passwords.\n\n' +
        '# Availability\n\nThe service status page lists maintenance windows for each product and service.\n\n' +
        '# Support\n\nSupport tickets for the service are answered within one business day.\n\n' +
        '# Continuity\n\nOutages of the service are reviewed in a post-incident report within 5 business days.',
    );
    const unrelated = await t.kb.answerQuestion(
      1,
      { text: 'Have you had an unplanned disruption to this service in the last 12 months?', answer_slots: YES_NO_SLOTS },
      {},
    );
    expect(unrelated.slot_responses).toEqual([]);
    expect(unrelated.text).toBe('');
    expect(unrelated.flagged_for_review).toBe(true);
    // Weighed by rarity ("unplanned", "disruption" are the question's words; "service", "last 12" are
    // everyone's), no passage is relevant enough to cite.
    expect(unrelated.evaluation.reason).toContain("No evidence in the knowledge base shares enough of this question's key terms");
    expect(unrelated.evidence).toEqual([]);

    const related = await t.kb.answerQuestion(1, { text: 'Are service outages reviewed in a post-incident report?', answer_slots: YES_NO_SLOTS }, {});
    expect(related.slot_responses).toEqual([
      { slot_key: 'answer', content: 'Yes' },
      { slot_key: 'comment', content: 'Outages of the service are reviewed in a post-incident report within 5 business days.' },
    ]);
  });
});

describe('instanceField', () => {
  it('recognises short field prompts, not questions about a practice', () => {
    expect(instanceField('Product Name')).toBe('name');
    expect(instanceField('Vendor Contact Email')).toBe('contact');
    expect(instanceField('GNRL-04: Web Link to Accessibility Statement or VPAT')).toBe('link');
    expect(instanceField('Date')).toBe('date');
    expect(instanceField('Software version')).toBe('version');
    expect(instanceField('Product Description')).toBe('description');
    expect(instanceField('Do you have a designated contact for security incidents?')).toBeNull();
    expect(instanceField('Vendor Hosting Regions')).toBeNull();
    expect(
      instanceField(
        'Describe your organization’s business background and ownership structure, including all parent and subsidiary relationships, and their names.',
      ),
    ).toBeNull();
  });
});

describe('the demo knowledge base (scripts/demo/kb) on the demo questionnaire', () => {
  it('answers TLS with Yes and a TLS comment, MFA with an MFA comment, and never says Yes to an own data center', async () => {
    for (const [i, name] of readdirSync(DEMO_KB)
      .filter((f) => f.endsWith('.md'))
      .entries()) {
      await addText(t.kb, meta({ file_id: i + 1, filename: name }), readFileSync(path.join(DEMO_KB, name), 'utf8'));
    }
    const question = (id: string) => DEMO_SECTIONS.flatMap((s) => s.questions).find((q) => q.id === id)!;
    const ask = (id: string) => t.kb.answerQuestion(1, { text: question(id).text, original_id: id, answer_slots: YES_NO_SLOTS }, {});

    const tls = await ask('DAT-01');
    expect(tls.slot_responses.find((s) => s.slot_key === 'answer')?.content).toBe('Yes');
    expect(tls.slot_responses.find((s) => s.slot_key === 'comment')?.content).toContain('TLS');

    const mfa = await ask('ACC-01');
    expect(mfa.slot_responses.find((s) => s.slot_key === 'comment')?.content).toMatch(/multi-factor|MFA/i);

    const dataCenter = await ask('DAT-04');
    expect(dataCenter.slot_responses.find((s) => s.slot_key === 'answer')?.content).not.toBe('Yes');
  });
});

describe('answerQuestion on paraphrased evidence', () => {
  const other =
    '# Network\n\nFirewall rules are reviewed by the network team every quarter.\n\n# Training\n\nSecurity awareness training is delivered to employees at hire.';

  it('answers Yes when the evidence states the claim in other words, citing the deciding sentence', async () => {
    await addText(
      t.kb,
      meta({ file_id: 1, filename: 'ir.md' }),
      `# Incident Response\n\nInstructure maintains a formal Incident Response Policy reviewed by the security team.\n\n${other}`,
    );
    const result = await t.kb.answerQuestion(1, { text: 'Do you have a documented incident response plan?', answer_slots: YES_NO_SLOTS }, {});
    expect(result.method).toBe('extractive');
    expect(result.slot_responses.find((s) => s.slot_key === 'answer')?.content).toBe('Yes');
    expect(result.slot_responses.find((s) => s.slot_key === 'comment')?.content).toContain('maintains a formal Incident Response Policy');
    expect(result.evaluation.reason).toContain('in other words');
    expect(result.score).toBeLessThanOrEqual(68);
    expect(result.evidence[0]).toMatchObject({ filename: 'ir.md', rank: 1 });
  });

  it('leaves a negated paraphrase undecided', async () => {
    await addText(
      t.kb,
      meta({ file_id: 1, filename: 'ir.md' }),
      `# Incident Response\n\nInstructure does not yet maintain a formal Incident Response Policy for the new product.\n\n${other}`,
    );
    const result = await t.kb.answerQuestion(1, { text: 'Do you have a documented incident response plan?', answer_slots: YES_NO_SLOTS }, {});
    expect(result.slot_responses.find((s) => s.slot_key === 'answer')?.content).not.toBe('Yes');
    expect(result.flagged_for_review).toBe(true);
  });

  it('leaves a conditional statement ("if requested") undecided', async () => {
    await addText(
      t.kb,
      meta({ file_id: 1, filename: 'enc.md' }),
      `# Storage\n\nCustomer data in storage can be encrypted with AES-256 if requested by the institution.\n\n${other}`,
    );
    const result = await t.kb.answerQuestion(1, { text: 'Is institution data encrypted at rest?', answer_slots: YES_NO_SLOTS }, {});
    expect(result.slot_responses.find((s) => s.slot_key === 'answer')).toBeUndefined();
    expect(result.flagged_for_review).toBe(true);
  });

  it('states the same claim unconditionally: Yes for encryption at rest phrased as "in storage"', async () => {
    await addText(t.kb, meta({ file_id: 1, filename: 'enc.md' }), `# Storage\n\nAll customer data in storage is encrypted using AES-256.\n\n${other}`);
    const result = await t.kb.answerQuestion(1, { text: 'Is institution data encrypted at rest?', answer_slots: YES_NO_SLOTS }, {});
    expect(result.slot_responses.find((s) => s.slot_key === 'answer')?.content).toBe('Yes');
  });
});

describe("a decision from the organisation's own statement", () => {
  it('says Yes from a practice stated as done, quoting the deciding sentence', async () => {
    await addText(
      t.kb,
      meta({ file_id: 1, filename: 'Acme Security Overview.md' }),
      '# Acme Security Overview\n\n## Access control\n\nEmployees utilize unique user IDs to authenticate to systems. Access is granted by managers.',
    );
    const result = await t.kb.answerQuestion(1, { text: 'Do employees have unique user IDs to access systems?', answer_slots: YES_NO_SLOTS }, {});
    expect(result.slot_responses[0]).toEqual({ slot_key: 'answer', content: 'Yes' });
    expect(result.slot_responses[1]!.content).toMatch(/^Employees utilize unique user IDs to authenticate to systems\./);
  });

  it('says Yes from a policy that exists for the subject, its heading naming it', async () => {
    await addText(
      t.kb,
      meta({ file_id: 1, filename: 'Acme Security Overview.md' }),
      '# Acme Security Overview\n\n## Password Policy\n\nAcme maintains policies and procedures to help ensure its personnel manage passwords securely and rotate them.',
    );
    const result = await t.kb.answerQuestion(1, { text: 'Do you have a password policy?', answer_slots: YES_NO_SLOTS }, {});
    expect(result.slot_responses[0]).toEqual({ slot_key: 'answer', content: 'Yes' });
  });

  it('says No from a weaker practice stated outright, flagged', async () => {
    await addText(
      t.kb,
      meta({ file_id: 1, filename: 'Acme Risk Notes.md' }),
      '# Vendor risk\n\nAt Acme the vendor risk review is a one-time, opportunistic write-up rather than a scheduled recurring process.',
    );
    const result = await t.kb.answerQuestion(1, { text: 'Is the vendor risk review a scheduled recurring process?', answer_slots: YES_NO_SLOTS }, {});
    expect(result.slot_responses[0]).toEqual({ slot_key: 'answer', content: 'No' });
    expect(result.flagged_for_review).toBe(true);
  });

  it('gives no Yes from a policy on another subject, however much of the lifecycle it shares', async () => {
    await addText(
      t.kb,
      meta({ file_id: 1, filename: 'Acme Security Overview.md' }),
      '# Acme Security Overview\n\n## Data protection\n\nAcme maintains a Data Protection Policy that is reviewed at least annually.',
    );
    const result = await t.kb.answerQuestion(
      1,
      { text: 'Are network configuration policies and procedures reviewed and updated at least annually?', answer_slots: YES_NO_SLOTS },
      {},
    );
    expect(result.slot_responses.find((r) => r.slot_key === 'answer')).toBeUndefined();
  });

  it('decides a question referring back only from a passage on the subject it refers to', async () => {
    await addText(
      t.kb,
      meta({ file_id: 1, filename: 'Acme Continuity.md' }),
      '# Business continuity\n\nAcme maintains business continuity policies and procedures which are reviewed and updated at least annually.',
    );
    const reviewed = 'Are the policies and procedures reviewed and updated at least annually?';
    const bcr = await t.kb.answerQuestion(
      1,
      { text: reviewed, follows: 'Are business continuity policies and procedures established?', answer_slots: YES_NO_SLOTS },
      {},
    );
    expect(bcr.slot_responses[0]).toEqual({ slot_key: 'answer', content: 'Yes' });
    const ccc = await t.kb.answerQuestion(
      1,
      { text: reviewed, follows: 'Are change control policies and procedures established?', answer_slots: YES_NO_SLOTS },
      {},
    );
    expect(ccc.slot_responses.find((r) => r.slot_key === 'answer')).toBeUndefined();
  });

  it('says No only when the denial holds this very claim, not a narrower one', async () => {
    await addText(
      t.kb,
      meta({ file_id: 1, filename: 'Acme PCI Summary.md' }),
      '# Payment cards\n\nAcme systems do not store, process, or transmit cardholder data. Payments go to a processor.',
    );
    const cards = await t.kb.answerQuestion(
      1,
      { text: 'Do your systems store, process, or transmit cardholder (payment/credit/debit card) data?', answer_slots: YES_NO_SLOTS },
      {},
    );
    expect(cards.slot_responses[0]).toEqual({ slot_key: 'answer', content: 'No' });
    const critical = await t.kb.answerQuestion(1, { text: 'Does the application store, process, or transmit critical data?', answer_slots: YES_NO_SLOTS }, {});
    expect(critical.slot_responses.find((r) => r.slot_key === 'answer')).toBeUndefined();
  });

  it('gives no Yes from a paraphrase when the organisation denies the claim outright', async () => {
    await addText(
      t.kb,
      meta({ file_id: 1, filename: 'Acme PCI Summary.md' }),
      "# Payment cards\n\nAcme systems do not store, process, or transmit cardholder data.\n\n# Checkout\n\nCardholder data is transmitted from the user's browser directly to a payment processor, and Acme systems process only the order.",
    );
    const result = await t.kb.answerQuestion(1, { text: 'Do your systems store, process, or transmit cardholder data?', answer_slots: YES_NO_SLOTS }, {});
    expect(result.slot_responses.find((r) => r.slot_key === 'answer')?.content).not.toBe('Yes');
  });

  it('reads "customers don\'t have to maintain patches" as no denial of patch management', async () => {
    await addText(
      t.kb,
      meta({ file_id: 1, filename: 'Acme Hosting.md' }),
      "# Hosting\n\nWith our SaaS model our customers don't have to worry about maintaining servers, patches or patch management processes.",
    );
    const result = await t.kb.answerQuestion(1, { text: 'Do you have a documented patch management process?', answer_slots: YES_NO_SLOTS }, {});
    expect(result.slot_responses.find((r) => r.slot_key === 'answer')?.content).not.toBe('No');
  });

  it('says No, as a draft, from a practice set aside ("instead of providing backups")', async () => {
    await addText(
      t.kb,
      meta({ file_id: 1, filename: 'Acme Data.md' }),
      '# Data export\n\nInstead of providing full or partial backups, customers can extract full or partial data via our API.',
    );
    const result = await t.kb.answerQuestion(1, { text: 'Can the institution extract a full or partial backup of data?', answer_slots: YES_NO_SLOTS }, {});
    expect(result.slot_responses[0]).toEqual({ slot_key: 'answer', content: 'No' });
    expect(result.flagged_for_review).toBe(true);
    expect(result.evaluation.trust).toBe('low');
  });

  it('says Yes when the documents spell out the acronym the question uses', async () => {
    await addText(
      t.kb,
      meta({ file_id: 1, filename: 'Acme Continuity.md' }),
      '# Disaster recovery\n\nThe Incident Commander ensures our Disaster Recovery Plan is reviewed at least annually and updated whenever major components change.',
    );
    const result = await t.kb.answerQuestion(
      1,
      { text: 'Are all components of the DRP reviewed at least annually and updated as needed to reflect change?', answer_slots: YES_NO_SLOTS },
      {},
    );
    expect(result.slot_responses[0]).toEqual({ slot_key: 'answer', content: 'Yes' });
  });

  it('decides from the question itself, not the instruction after it', async () => {
    await addText(
      t.kb,
      meta({ file_id: 1, filename: 'Acme Security Overview.md' }),
      '# Standards\n\nOur security program is built on internationally recognised standards such as ISO 27001 and the NIST Cybersecurity Framework, with which it conforms.',
    );
    const result = await t.kb.answerQuestion(
      1,
      {
        text: 'Do you conform with a specific industry standard security framework? (e.g. NIST Cybersecurity Framework, ISO 27001, etc.) Please identify which one under "additional information"',
        answer_slots: YES_NO_SLOTS,
      },
      {},
    );
    expect(result.slot_responses[0]).toEqual({ slot_key: 'answer', content: 'Yes' });
  });

  it('decides a lifecycle question only from a sentence naming the subject it refers to', async () => {
    await addText(
      t.kb,
      meta({ file_id: 1, filename: 'Acme Continuity.md' }),
      '# Acme policies\n\nAcme maintains business continuity policies and procedures which are reviewed and updated at least annually. Logs of the monitoring systems are kept for a year.',
    );
    const reviewed = 'Are the policies and procedures reviewed and updated at least annually?';
    const bcr = await t.kb.answerQuestion(
      1,
      { text: reviewed, follows: 'Are business continuity policies and procedures established?', answer_slots: YES_NO_SLOTS },
      {},
    );
    expect(bcr.slot_responses[0]).toEqual({ slot_key: 'answer', content: 'Yes' });
    const log = await t.kb.answerQuestion(
      1,
      { text: reviewed, follows: 'Are logging and monitoring policies and procedures established?', answer_slots: YES_NO_SLOTS },
      {},
    );
    expect(log.slot_responses.find((r) => r.slot_key === 'answer')).toBeUndefined();
  });

  it('gives no Yes from a sentence holding half the claim on another subject, and still decides from one whose passage implies the rest', async () => {
    await addText(
      t.kb,
      meta({ file_id: 1, filename: 'Acme Badges.md' }),
      '# Badges\n\nEven K-12 institutions are embracing the power of digital badging, which at its heart is a student-centered strategy.',
    );
    // Elsewhere the knowledge base speaks of redundancy, power and testing, so "strategies" (the generic
    // concept, folded into "plan") is the claim's rarest word, "redundant" as distinctive as "power" and
    // known, not absent. Among enough other passages the three weigh nearly alike: all are core.
    const others = [
      'Databases are replicated to redundant storage in a second zone.',
      'Redundant network links connect each office.',
      'Laptops are charged from power outlets in each office.',
      'Backups are tested every month.',
      'Restores are tested yearly by the operations team.',
      'Alarms are tested every week.',
      'Door locks are tested by the facilities team.',
      ...Array.from({ length: 40 }, (_, i) => `Office ${i + 1} keeps its visitor book at the front desk.`),
    ];
    await addText(t.kb, meta({ file_id: 2, filename: 'Acme Operations.md' }), others.map((text, i) => `# Topic ${i + 1}\n\n${text}`).join('\n\n'));
    const question = { text: 'Are redundant power strategies tested?', answer_slots: YES_NO_SLOTS };
    const badging = await t.kb.answerQuestion(1, question, {});
    expect(badging.slot_responses.find((r) => r.slot_key === 'answer')).toBeUndefined();

    await addText(
      t.kb,
      meta({ file_id: 3, filename: 'Acme Facilities.md' }),
      '# Data center power\n\nEvery data center has redundant power supplies and generators. These power strategies are tested every quarter by the facilities team.',
    );
    const facilities = await t.kb.answerQuestion(1, question, {});
    expect(facilities.slot_responses[0]).toEqual({ slot_key: 'answer', content: 'Yes' });
    expect(facilities.slot_responses[1]!.content).not.toMatch(/badging/);
  });

  it('decides nothing from a template, and keeps its passages out of the index', async () => {
    const counts = await addText(
      t.kb,
      meta({ file_id: 1, filename: 'monitoring-policy.md' }),
      "# Monitoring\n\nAcme monitors production systems: [FILL IN: what's actually monitored — metrics, logs, alerts?]\n\n# Review\n\nSay 'not yet' if true. Monitoring is reviewed by [securityOfficerName].",
    );
    expect(counts.template).toMatch(/^template only: 2 placeholders, 1 guidance sentence/);
    const result = await t.kb.answerQuestion(1, { text: 'Do you monitor production systems?', answer_slots: YES_NO_SLOTS }, {});
    expect(result.slot_responses).toEqual([]);
    expect(result.evidence).toEqual([]);
  });
});
