/** One workbook, one answer: repeats get the same answer, contradictions within a fill are flagged. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkbookConsistency } from '../../../../src/service/knowledge/answer/consistency';
import { evaluation } from '../../../../src/service/knowledge/answer/evaluation';
import type { AnswerResult } from '../../../../src/service/knowledge/types';
import { client, files, questionnaireXlsx, startService, uploadKnowledge, waitForComplete, type Service } from '../../helpers';
import { YES_NO_SLOTS } from '../helpers';

const answer = (value: string, score = 90): AnswerResult => ({
  text: value,
  slot_responses: [{ slot_key: 'answer', content: value }],
  score,
  evaluation: evaluation(score, 'Extracted from policy.md', 'extractive'),
  flagged_for_review: false,
  evidence: [],
  method: 'extractive',
});

describe('WorkbookConsistency', () => {
  it('copies the answer to a repeated question and flags a question asking the same thing answered otherwise', () => {
    const c = new WorkbookConsistency();
    const first = { text: 'Do you encrypt customer data at rest?', answer_slots: YES_NO_SLOTS, where: 'General!B5' };
    expect(c.repeatOf(first)).toBeNull();
    c.record(first, answer('Yes'));
    const repeat = c.repeatOf({ ...first, text: ' do you encrypt  customer data at rest? ', where: 'Security!B5' });
    expect(repeat?.slot_responses).toEqual([{ slot_key: 'answer', content: 'Yes' }]);
    expect(repeat?.evaluation.reason).toContain('the same question is asked at General!B5');

    const reworded = { text: 'Do you encrypt your customer data at rest?', answer_slots: YES_NO_SLOTS, where: 'Privacy!B9' };
    expect(c.repeatOf(reworded)).toBeNull();
    const contradicted = c.record(reworded, answer('No'));
    expect(contradicted.flagged_for_review).toBe(true);
    expect(contradicted.evaluation.trust).toBe('low');
    expect(contradicted.evaluation.reason).toContain('contradicts the answer Yes to the same question at General!B5');
    expect(contradicted.evaluation.contradicts).toEqual({ where: 'General!B5', value: 'Yes' });

    // A different question with a different answer is no contradiction.
    const other = c.record({ text: 'Do you store cardholder data?', answer_slots: YES_NO_SLOTS, where: 'PCI!B2' }, answer('No'));
    expect(other.flagged_for_review).toBe(false);
  });

  it('does not copy or contrast the same words asked about another subject', () => {
    const c = new WorkbookConsistency();
    const reviewed = 'Are the policies and procedures reviewed and updated at least annually?';
    const bcr = {
      text: reviewed,
      original_id: null,
      follows: 'Are business continuity policies and procedures established?',
      answer_slots: YES_NO_SLOTS,
      where: 'CAIQ!C20',
    };
    c.record(bcr, answer('Yes'));
    const ccc = { ...bcr, follows: 'Are change control policies and procedures established?', where: 'CAIQ!C40' };
    expect(c.repeatOf(ccc)).toBeNull();
    expect(c.record(ccc, answer('No')).flagged_for_review).toBe(false);
    expect(c.repeatOf({ ...bcr, where: 'Other!C20' })?.slot_responses).toEqual([{ slot_key: 'answer', content: 'Yes' }]);
  });

  it('answers stored before a restart are checked against but not copied', () => {
    const c = new WorkbookConsistency();
    const q = { text: 'Do you encrypt customer data at rest?', answer_slots: YES_NO_SLOTS, where: 'General!B5' };
    c.record(q, answer('Yes'), false);
    expect(c.repeatOf({ ...q, where: 'Security!B5' })).toBeNull();
    expect(c.record({ ...q, where: 'Security!B5' }, answer('No')).flagged_for_review).toBe(true);
  });
});

describe("a row repeating another tab's question by formula", () => {
  it('gets the answer given where its answer cell shows, whatever its id and section', () => {
    const c = new WorkbookConsistency();
    const original = {
      text: 'Is the solution hosted by a third party?',
      original_id: 'GNRL-10',
      answer_slots: YES_NO_SLOTS,
      tab_name: 'START HERE',
      where: 'START HERE!B11',
    };
    c.record(original, {
      ...answer('Yes'),
      slot_responses: [
        { slot_key: 'answer', content: 'Yes' },
        { slot_key: 'comment', content: 'AWS us-east-1.' },
      ],
    });
    const blocked = YES_NO_SLOTS.map((s) => ({
      ...s,
      coordinate: s.coordinate.replace(/\d+$/, '2'),
      is_blocked: true,
      mirror_of: `'START HERE'!${s.coordinate}`,
    }));
    const mirror = {
      text: 'Is the solution hosted by a third party?',
      original_id: 'ORGA-01',
      section_path: ['Company'],
      answer_slots: blocked,
      tab_name: 'Organization',
      where: 'Organization!B2',
    };
    const copied = c.repeatOf(mirror);
    expect(copied?.slot_responses).toEqual([
      { slot_key: 'answer', content: 'Yes' },
      { slot_key: 'comment', content: 'AWS us-east-1.' },
    ]);
    expect(copied?.evaluation.reason).toContain(`this row shows START HERE!${YES_NO_SLOTS[0]!.coordinate} by formula`);
    // A row showing a cell no question answered here is answered on its own.
    const elsewhere = { ...mirror, answer_slots: blocked.map((s) => ({ ...s, mirror_of: "'Cover'!B2" })) };
    expect(c.repeatOf(elsewhere)).toBeNull();
  });
});

describe('one workbook, one answer over HTTP', () => {
  let service: Service;
  beforeAll(async () => {
    service = await startService();
  });
  afterAll(async () => service.destroy());

  it('gives a question repeated on two tabs the same answer, saying where else it is asked', async () => {
    const api = client(service, await service.key({ org: 'acme', user: 'alice' }));
    await uploadKnowledge(api);
    const general = { name: 'General', sections: [{ questions: [['GNRL-1', 'Is customer data encrypted at rest?'] as [string, string]] }] };
    const security = { name: 'Security', sections: [{ questions: [['GNRL-1', 'Is customer data encrypted at rest?'] as [string, string]] }] };
    const up = await api.post('/api/v2/filler/questionnaires/', files(['repeat.xlsx', await questionnaireXlsx([general, security])]));
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    const id = up.body.questionnaire_ids[0];
    await waitForComplete(api, id);
    const answers = (await api.get(`/api/v2/filler/questionnaires/${id}/answers/`)).body as any[];
    expect(answers).toHaveLength(2);
    const [a, b] = answers.map((x) => x.answers[0]);
    expect(b.slot_responses).toEqual(a.slot_responses);
    expect(a.slot_responses.some((r: { content: string }) => /AES-256/.test(r.content))).toBe(true);
    expect(b.evaluation.reason).toMatch(/the same question is asked at General!/);
  });
});
