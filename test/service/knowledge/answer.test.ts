import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { strToU8 } from 'fflate';
import { extractDocument } from '../../../src/service/knowledge';
import { addText, meta, tempKb, YES_NO_SLOTS, type TempKb } from './helpers';

let t: TempKb;
beforeEach(() => {
  t = tempKb();
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
    expect(counts).toEqual({ passage_count: 0, qa_count: 2, total_embeddings: 0 });
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
    const reworded = await t.kb.answerQuestion(1, { text: 'Does your platform support role based access control (RBAC) for end-users?', answer_slots: YES_NO_SLOTS }, {});
    expect(reworded.method).toBe('library');
    expect(reworded.slot_responses[0]).toEqual({ slot_key: 'answer', content: 'Yes' });
    expect(reworded.evaluation.reason).toContain('closely matching');
  });

  it('maps library values onto the allowed values of the target list (case, Y/N)', async () => {
    await addLibrary('Question,Response\nDo you perform annual penetration tests?,y\n');
    const result = await t.kb.answerQuestion(1, {
      text: 'Do you perform annual penetration tests?',
      answer_slots: [{ role: 'answer', header: 'Answer', coordinate: 'C2', allowed_values: ['YES', 'NO'] }],
    }, {});
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

  it('leaves the list slot empty and flags when the evidence does not decide it', async () => {
    await addText(
      t.kb,
      meta({ file_id: 1, filename: 'policy.md' }),
      '# Access\n\nMulti-factor authentication is not enforced for contractor accounts today.\n\n# Reviews\n\nFirewall rules are reviewed by the network team.',
    );
    const negated = await t.kb.answerQuestion(1, { text: 'Is MFA enforced for contractor accounts?', answer_slots: YES_NO_SLOTS }, {});
    expect(negated.method).toBe('extractive');
    expect(negated.slot_responses.find((s) => s.slot_key === 'answer')).toBeUndefined();
    expect(negated.slot_responses).toEqual([{ slot_key: 'comment', content: 'Multi-factor authentication is not enforced for contractor accounts today.' }]);
    expect(negated.text).toBe('');
    expect(negated.flagged_for_review).toBe(true);
    expect(negated.evaluation.reason).toContain('does not state Yes or No or N/A');

    // Partial overlap: the passage is relevant but does not say what the question asks.
    const partial = await t.kb.answerQuestion(1, { text: 'Are firewall rules reviewed quarterly by an external auditor?', answer_slots: YES_NO_SLOTS }, {});
    expect(partial.slot_responses.find((s) => s.slot_key === 'answer')).toBeUndefined();
    expect(partial.flagged_for_review).toBe(true);
    expect(partial.score).toBeLessThan(50);
  });

  it('puts the extracted text in `text` when the question has no list slot, and skips blocked slots', async () => {
    await addText(t.kb, meta({ file_id: 1, filename: 'bcp.md' }), '# Backups\n\nBackups are taken every 24 hours and kept for 30 days.');
    const result = await t.kb.answerQuestion(1, {
      text: 'How often are backups taken?',
      answer_slots: [
        { role: 'answer', header: 'Response', coordinate: 'C3' },
        { role: 'owner', header: 'Owner', coordinate: 'D3', is_blocked: true },
      ],
    }, {});
    expect(result.text).toBe('Backups are taken every 24 hours and kept for 30 days.');
    expect(result.slot_responses).toEqual([{ slot_key: 'answer', content: result.text }]);
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

describe('answerQuestion on vague prompts', () => {
  it('flags a one-word field ("Date") even when a passage contains the word', async () => {
    const local = tempKb();
    try {
      await addText(local.kb, meta({ file_id: 1, filename: 'pci.txt' }), 'The self-assessment completion date is 2024-06-10 for this report.');
      const result = await local.kb.answerQuestion(1, { text: 'Date', answer_slots: [{ role: 'answer', header: 'Answer', coordinate: 'C3' }] }, {});
      expect(result.method).toBe('extractive');
      expect(result.flagged_for_review).toBe(true);
      expect(result.score).toBeLessThanOrEqual(35);
      expect(result.evaluation.reason).toContain('too few distinctive words');
    } finally {
      local.close();
    }
  });
});
