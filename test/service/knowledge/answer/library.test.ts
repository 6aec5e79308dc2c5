/** The conflict-aware answer library: disagreeing past answers are surfaced or settled by a stated rule. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { strToU8 } from 'fflate';
import { extractDocument } from '../../../../src/service/knowledge';
import { detectQuestionnaire } from '../../../../src/service/detect';
import { fixture, meta, tempKb, YES_NO_SLOTS, type TempKb } from '../helpers';

let t: TempKb;
beforeEach(async () => {
  t = await tempKb();
});
afterEach(() => t.close());

async function addCsv(fileId: number, filename: string, csv: string, offering_ids: number[] = []) {
  const doc = await extractDocument(strToU8(csv), filename);
  await t.kb.indexDocument(meta({ file_id: fileId, filename, offering_ids }), doc);
}

const HEADER = 'ID,Question,Answer,Additional Information\n';
const Q = { text: 'Do you perform annual penetration tests?', original_id: 'PT-01', answer_slots: YES_NO_SLOTS };

describe('conflict-aware answer library', () => {
  it('a past answer that left a secondary list empty (control ownership) still answers, high, with that list left empty', async () => {
    await addCsv(1, 'caiq (reviewed answers).csv', `${HEADER}PT-01,Do you perform annual penetration tests?,Yes,Yearly by an outside firm.\n`);
    const owner = { role: 'owner', header: 'Control Ownership', coordinate: 'D2', type: 'list', allowed_values: ['CSP-owned', 'CSC-owned'] };
    const r = await t.kb.answerQuestion(1, { ...Q, answer_slots: [...YES_NO_SLOTS, owner] }, {});
    expect(r.method).toBe('library');
    expect(r.slot_responses.map((s) => s.slot_key)).toEqual(['answer', 'comment']);
    expect(r.evaluation.trust).toBe('high');
    expect(r.flagged_for_review).toBe(false);
  });

  it('leaves the list slot empty and names both sides when past answers disagree and no rule decides', async () => {
    await addCsv(1, 'alpha.csv', `${HEADER}PT-01,Do you perform annual penetration tests?,No,Only scans.\n`);
    await addCsv(2, 'beta.csv', `${HEADER}PT-01,Do you perform annual penetration tests?,Yes,Yearly by an outside firm.\n`);
    const r = await t.kb.answerQuestion(1, Q, {});
    expect(r.method).toBe('library');
    expect(r.slot_responses).toEqual([]);
    expect(r.text).toBe('');
    expect(r.flagged_for_review).toBe(true);
    expect(r.evaluation.trust).toBe('low');
    expect(r.evaluation.reason).toContain('alpha: No · beta: Yes');
    expect(r.evaluation.conflict).toEqual({ slot_key: 'answer', rule: null, sides: 'alpha: No · beta: Yes' });
    const alternatives = r.evaluation.alternatives as { value: string; source_file: string; slot_responses: unknown[]; chosen: boolean }[];
    expect(alternatives.map((a) => [a.value, a.source_file, a.chosen])).toEqual([
      ['No', 'alpha.csv', false],
      ['Yes', 'beta.csv', false],
    ]);
    expect(alternatives[1]!.slot_responses).toEqual([
      { slot_key: 'answer', content: 'Yes' },
      { slot_key: 'comment', content: 'Yearly by an outside firm.' },
    ]);
    expect(r.evidence.map((e) => e.filename).sort()).toEqual(['alpha.csv', 'beta.csv']);
  });

  it('decides by the same offering, then by the analyst\'s "prefer the most recent", then by a clear majority', async () => {
    await addCsv(1, 'alpha.csv', `${HEADER}PT-01,Do you perform annual penetration tests?,No,\n`, [7]);
    await addCsv(2, 'beta.csv', `${HEADER}PT-01,Do you perform annual penetration tests?,Yes,\n`);
    const offering = await t.kb.answerQuestion(1, Q, { offering_ids: [7] });
    expect(offering.slot_responses[0]).toEqual({ slot_key: 'answer', content: 'No' });
    expect(offering.evaluation.conflict).toMatchObject({ rule: 'same_offering' });
    expect(offering.flagged_for_review).toBe(false);

    const recent = await t.kb.answerQuestion(1, Q, {}, { prefer_recent: true });
    expect(recent.slot_responses[0]).toEqual({ slot_key: 'answer', content: 'Yes' });
    expect(recent.evaluation.conflict).toMatchObject({ rule: 'most_recent' });
    expect(recent.evaluation.reason).toMatch(/prefer the most recent questionnaire: beta/);
    expect(recent.evaluation.trust).toBe('medium');

    await addCsv(3, 'gamma.csv', `${HEADER}PT-01,Do you perform annual penetration tests?,Yes,\n`);
    const majority = await t.kb.answerQuestion(1, Q, {});
    expect(majority.slot_responses[0]).toEqual({ slot_key: 'answer', content: 'Yes' });
    expect(majority.evaluation.conflict).toMatchObject({ rule: 'majority', sides: 'alpha: No · beta: Yes · gamma: Yes' });
    expect(majority.evaluation.reason).toContain('2 of 3 past answers say Yes');
  });

  it('an empty answer cell never beats a value, and a comment never lands in a list slot', async () => {
    await addCsv(1, 'alpha.csv', `${HEADER}CM-01,Do you have a documented change management process?,,A documented process is in place.\n`);
    const alone = await t.kb.answerQuestion(1, { text: 'Do you have a documented change management process?', answer_slots: YES_NO_SLOTS }, {});
    expect(alone.slot_responses.find((s) => s.slot_key === 'answer')).toBeUndefined();
    expect(alone.text).toBe('');
    expect(alone.flagged_for_review).toBe(true);

    await addCsv(2, 'beta.csv', `${HEADER}CM-01,Do you have a documented change management process?,Yes,Per ISO 27001.\n`);
    const both = await t.kb.answerQuestion(1, { text: 'Do you have a documented change management process?', answer_slots: YES_NO_SLOTS }, {});
    expect(both.slot_responses).toEqual([
      { slot_key: 'answer', content: 'Yes' },
      { slot_key: 'comment', content: 'Per ISO 27001.' },
    ]);
    expect(both.evaluation.conflict).toBeUndefined();
  });

  it('a newer upload of the same questionnaire supersedes the older one instead of conflicting with it', async () => {
    await addCsv(1, 'acme answers.csv', `${HEADER}PT-01,Do you perform annual penetration tests?,No,\n`);
    await addCsv(5, 'Acme Answers.csv', `${HEADER}PT-01,Do you perform annual penetration tests?,Yes,Corrected after review.\n`);
    const r = await t.kb.answerQuestion(1, Q, {});
    expect(r.slot_responses[0]).toEqual({ slot_key: 'answer', content: 'Yes' });
    expect(r.evaluation.conflict).toBeUndefined();
    expect(r.evidence.map((e) => e.file_id)).toEqual([5]);
    // Nor is the superseded answer evidence anywhere else: search and chat cite the newer upload only.
    const found = await t.kb.search(1, 'annual penetration tests', {});
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((e) => e.file_id === 5)).toBe(true);
    const chat = await t.kb.answerChat(1, 'Do you perform annual penetration tests?', [], {});
    expect(chat.sources.map((s) => s.file_id)).not.toContain(1);
  });

  it('question ids count only within the same template: another template needs the same meaning', async () => {
    const doc = await extractDocument(strToU8(`${HEADER}HLAP-06,Do you have a dedicated software security team?,Yes,\n`), 'other.csv');
    doc.qa.forEach((p) => (p.tab_name = 'K-12 template'));
    await t.kb.indexDocument(meta({ file_id: 1, filename: 'other.csv' }), doc);
    const asked = { text: 'Do you validate user input for the application?', original_id: 'HLAP-06', answer_slots: YES_NO_SLOTS };
    expect((await t.kb.answerQuestion(1, { ...asked, tab_name: 'HECVAT' }, {})).method).not.toBe('library');
  });

  it('a past question worded differently answers only when nothing closer does, flagged for a look', async () => {
    const asked = { text: 'Can employees access customer data remotely?', answer_slots: YES_NO_SLOTS };
    await addCsv(1, 'k12.csv', `${HEADER}HLAP-03,Can employees access protected or sensitive data remotely?,No,Only from the office.\n`);
    const near = await t.kb.answerQuestion(1, asked, {});
    expect(near.method).toBe('library');
    expect(near.slot_responses[0]).toEqual({ slot_key: 'answer', content: 'No' });
    expect(near.flagged_for_review).toBe(true);
    expect(near.evaluation.trust).toBe('medium');
    expect(near.evaluation.reason).toContain('worded differently');

    // The same question in the same words elsewhere: it answers, and the differently worded one raises no conflict.
    await addCsv(2, 'full.csv', `${HEADER}APPL-03,Can employees access customer data remotely?,Yes,Through the VPN.\n`);
    const close = await t.kb.answerQuestion(1, asked, {});
    expect(close.slot_responses[0]).toEqual({ slot_key: 'answer', content: 'Yes' });
    expect(close.evaluation.conflict).toBeUndefined();
    expect(close.flagged_for_review).toBe(false);

    // Sharing a few words is not the same question.
    const unrelated = await t.kb.answerQuestion(1, { text: 'Do employees receive remote security awareness training?', answer_slots: YES_NO_SLOTS }, {});
    expect(unrelated.method).not.toBe('library');
  });

  it('surfaces every Yes/No on which the real Canvas Catalog and Canvas Studio HECVATs disagree', async () => {
    const catalog = 'hecvat-lite-3.04-canvas-catalog-completed.xlsx';
    const studio = 'hecvat-lite-3.04-canvas-studio-completed.xlsx';
    for (const [i, name] of [catalog, studio].entries()) {
      await t.kb.indexDocument(meta({ file_id: i + 1, filename: name }), await extractDocument(fixture(`questionnaires/${name}`), name));
    }
    const a = await detectQuestionnaire(fixture(`questionnaires/${catalog}`), catalog);
    const b = await detectQuestionnaire(fixture(`questionnaires/${studio}`), studio);
    const value = (q: (typeof a.questions)[number]) => q.answer_slots.find((s) => s.role === 'answer')?.value?.trim() ?? '';
    const disagreements = a.questions.filter((q) => {
      const other = b.questions.find((x) => x.original_id === q.original_id);
      return other && /^(yes|no)$/i.test(value(q)) && /^(yes|no)$/i.test(value(other)) && value(q) !== value(other);
    });
    expect(disagreements.length).toBeGreaterThanOrEqual(5);
    for (const q of disagreements) {
      const slots = q.answer_slots.map(({ value: _v, ...s }) => s);
      const r = await t.kb.answerQuestion(1, { text: q.original_question_text, original_id: q.original_id, answer_slots: slots, tab_name: q.tab_name }, {});
      expect(
        r.slot_responses.find((s) => s.slot_key === 'answer'),
        q.original_id ?? '',
      ).toBeUndefined();
      expect(r.flagged_for_review).toBe(true);
      expect(r.evaluation.reason).toMatch(/Canvas (Catalog|Studio): (Yes|No) · Canvas (Catalog|Studio): (Yes|No)/);
    }
    // Catalog's DOCU-11 has only a comment: Studio's Yes answers, the comment never becomes the list value.
    const docu = b.questions.find((q) => q.original_id === 'DOCU-11')!;
    const r = await t.kb.answerQuestion(
      1,
      {
        text: docu.original_question_text,
        original_id: 'DOCU-11',
        tab_name: docu.tab_name,
        answer_slots: docu.answer_slots.map(({ value: _v, ...s }) => s),
      },
      {},
    );
    expect(r.slot_responses.find((s) => s.slot_key === 'answer')?.content).toBe('Yes');
  });
});
