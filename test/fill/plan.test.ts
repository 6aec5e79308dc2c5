import { describe, expect, it } from 'vitest';
import type { AnswerSlot } from '../../src/api/schemas';
import { planFill, SKIP_REASONS, summarise, targetCells, type WritePlan } from '../../src/fill';
import { question, view } from './helpers';

const answerSlot = (coordinate: string, extra: Partial<AnswerSlot> = {}): AnswerSlot => ({ role: 'answer', header: 'Answer', coordinate, ...extra });
const ynna = { type: 'list', allowed_values: ['Yes', 'No', 'NA'] };

function expectReportAddsUp(plan: WritePlan, slotCount: number) {
  const r = plan.report;
  expect(r.written).toBe(plan.writes.length);
  expect(r.skipped).toBe(plan.skipped.length);
  expect(r.written + r.skipped).toBe(slotCount);
  expect(r.tabs.reduce((n, t) => n + t.written, 0)).toBe(r.written);
  expect(r.tabs.reduce((n, t) => n + t.skipped, 0)).toBe(r.skipped);
  expect(Object.values(r.byReason).reduce((n, v) => n + (v ?? 0), 0)).toBe(r.skipped);
  for (const t of r.tabs) expect(Object.values(t.byReason).reduce((n, v) => n + (v ?? 0), 0)).toBe(t.skipped);
}

describe('planFill: choosing the answer and slot values', () => {
  it("uses the selected answer, else pickAnswer's rule (here: the highest id)", () => {
    const q1 = question({
      selected_answer_id: 2,
      answer_slots: [answerSlot('C3')],
      answers: [
        { id: 1, text: 'first' },
        { id: 2, text: 'second' },
      ],
    });
    const q2 = question({
      answer_slots: [answerSlot('C4')],
      answers: [
        { id: 3, text: 'first' },
        { id: 4, text: 'second' },
      ],
    });
    const q3 = question({ selected_answer_id: 99, answer_slots: [answerSlot('C5')], answers: [{ id: 5, text: 'fallback' }] });
    const plan = planFill([q1, q2, q3], view(['Sheet1']));
    expect(plan.writes.map((w) => [w.address, w.value])).toEqual([
      ['C3', 'second'],
      ['C4', 'second'],
      ['C5', 'fallback'],
    ]);
  });

  it('maps slot responses by role, then header, ignoring case and spaces; the answer text goes to the primary slot', () => {
    const q = question({
      answer_slots: [
        { role: 'answer', header: 'Vendor Answers', coordinate: 'C10', ...ynna },
        { role: 'additional_information', header: 'Additional Information', coordinate: 'D10' },
        { role: 'notes', header: 'Analyst Notes', coordinate: 'E10' },
        { role: 'owner', header: 'Control Owner', coordinate: 'F10' },
      ],
      answers: [
        {
          id: 1,
          text: 'Yes, we do.',
          slot_responses: [
            { slot_key: 'Additional Information', content: 'Encrypted with AES-256.' },
            { slot_key: 'analyst notes', content: 'See SOC 2.' },
          ],
        },
      ],
    });
    const plan = planFill([q], view(['Sheet1']));
    expect(plan.writes.map((w) => [w.address, w.value])).toEqual([
      ['C10', 'Yes'],
      ['D10', 'Encrypted with AES-256.'],
      ['E10', 'See SOC 2.'],
    ]);
    expect(plan.skipped).toMatchObject([{ address: 'F10', reason: 'no_value', slotRole: 'owner' }]);
    expectReportAddsUp(plan, 4);
  });

  it('uses the first slot as primary when no slot has role answer, and a slot response over the text', () => {
    const q = question({
      answer_slots: [
        { role: 'response', header: 'Response', coordinate: 'B2' },
        { role: 'comment', header: 'Comment', coordinate: 'C2' },
      ],
      answers: [{ id: 1, text: 'The text' }],
    });
    expect(planFill([q], view(['Sheet1'])).writes.map((w) => w.address)).toEqual(['B2']);
    const q2 = question({
      answer_slots: [answerSlot('B3')],
      answers: [{ id: 1, text: 'The text', slot_responses: [{ slot_key: 'ANSWER', content: 'From slot' }] }],
    });
    expect(planFill([q2], view(['Sheet1'])).writes[0]!.value).toBe('From slot');
  });

  it('carries trust, score and the top three sources (by rank, one per page)', () => {
    const ev = (rank: number, filename: string, page: number) => ({
      id: rank,
      type: 'passage',
      content: 'x',
      filename,
      file_id: 1,
      page_number: page,
      tab_name: '',
      relevance_score: 1 / rank,
      rank,
      created_at: '',
    });
    const q = question({
      answer_slots: [answerSlot('C3')],
      answers: [
        {
          id: 1,
          text: 'Yes',
          evaluation: { score: 62, trust: 'medium', reason: 'some' },
          source_evidence: [ev(3, 'b.pdf', 2), ev(1, 'a.pdf', 1), ev(2, 'a.pdf', 1), ev(4, 'c.pdf', 9), ev(5, 'd.pdf', 1)],
        },
      ],
    });
    const [w] = planFill([q], view(['Sheet1'])).writes;
    expect(w).toMatchObject({
      trust: 'medium',
      score: 62,
      sources: [
        { filename: 'a.pdf', page_number: 1 },
        { filename: 'b.pdf', page_number: 2 },
        { filename: 'c.pdf', page_number: 9 },
      ],
    });
    const [plain] = planFill(
      [question({ answer_slots: [answerSlot('C4')], answers: [{ text: 'x', evaluation: 'opaque', status: 'approved' }] })],
      view(['Sheet1']),
    ).writes;
    expect(plain).toMatchObject({ trust: null, score: null, sources: [] });
  });
});

describe('planFill: every skip reason', () => {
  const cells = {
    'Sheet1!C4': { value: 'Typed by the analyst', hasFormula: false },
    'Sheet1!C5': { value: 'cached', hasFormula: true },
    'Locked!C3': { value: null, hasFormula: false, locked: true },
    'Locked!C4': { value: null, hasFormula: false, locked: false },
  };
  const questions = [
    question({ id: 1, answer_slots: [answerSlot('C3', { is_blocked: true })], answers: [{ text: 'x' }] }),
    question({ id: 2, answer_slots: [answerSlot('C4')], answers: [{ text: 'x' }] }),
    question({ id: 3, answer_slots: [answerSlot('C5')], answers: [{ text: 'x' }] }),
    question({ id: 4, tab_name: 'Nope', answer_slots: [answerSlot('C3')], answers: [{ text: 'x' }] }),
    question({ id: 5, answer_slots: [answerSlot('C6')], answers: [] }),
    question({ id: 6, answer_slots: [answerSlot('C7', ynna)], answers: [{ text: 'Maybe' }] }),
    question({ id: 7, tab_name: 'Locked', answer_slots: [answerSlot('C3')], answers: [{ text: 'x' }] }),
    question({ id: 8, answer_slots: [answerSlot('not a cell')], answers: [{ text: 'x' }] }),
    question({ id: 9, answer_slots: [answerSlot('C8')], answers: [{ text: 'first' }] }),
    question({ id: 10, answer_slots: [answerSlot('$C$8')], answers: [{ text: 'second' }] }),
    question({ id: 11, answer_slots: [], answers: [{ text: 'x' }] }),
    question({ id: 12, tab_name: 'Locked', answer_slots: [answerSlot('C4')], answers: [{ text: 'unlocked cell' }] }),
    question({ id: 13, answer_slots: [answerSlot('C9')], answers: [{ text: '   ' }] }),
    question({ id: 14, answer_slots: [answerSlot('C10')], answers: [{ text: 'weak', evaluation: { score: 20, trust: 'low', reason: 'thin' } }] }),
  ];

  it('gives each slot its reason and never writes blocked, formula, locked or occupied cells', () => {
    const plan = planFill(questions, view(['Sheet1', 'Locked'], cells, ['Locked']));
    const reasons = Object.fromEntries(plan.skipped.map((s) => [s.questionId, s.reason]));
    expect(reasons).toEqual({
      1: 'blocked',
      2: 'occupied',
      3: 'formula',
      4: 'missing_tab',
      5: 'no_value',
      6: 'not_allowed',
      7: 'protected',
      8: 'bad_coordinate',
      10: 'duplicate',
      11: 'no_slot',
      13: 'no_value',
      14: 'draft',
    });
    expect(plan.writes.map((w) => [w.tab, w.address, w.value])).toEqual([
      ['Sheet1', 'C8', 'first'],
      ['Locked', 'C4', 'unlocked cell'],
    ]);
    const covered = new Set([...plan.skipped.map((s) => s.reason)]);
    for (const reason of SKIP_REASONS) expect(covered.has(reason), reason).toBe(true);
    for (const s of plan.skipped) expect(s.detail.length).toBeGreaterThan(10);
    expect(plan.skipped.find((s) => s.reason === 'not_allowed')!.detail).toContain('"Maybe" is not one of Yes, No, NA');
    expect(plan.skipped.find((s) => s.reason === 'occupied')!.detail).toContain('Typed by the analyst');
    expectReportAddsUp(plan, 14);
  });

  it("carries an occupied cell's current value as data, whole, while the detail shortens it", () => {
    const long = `"Quoted" ${'x'.repeat(100)}`;
    const plan = planFill(
      [question({ answer_slots: [answerSlot('C4')], answers: [{ text: 'new' }] })],
      view(['Sheet1'], { 'Sheet1!C4': { value: long, hasFormula: false } }),
    );
    const skip = plan.skipped[0]!;
    expect(skip).toMatchObject({ reason: 'occupied', current: long });
    expect(skip.detail.length).toBeLessThan(long.length);
    expect(plan.skipped.every((s) => s.reason === 'occupied' || s.current === undefined)).toBe(true);
  });

  it('overwrites occupied cells only when asked, still never formulas or locked cells', () => {
    const plan = planFill(questions, view(['Sheet1', 'Locked'], cells, ['Locked']), { overwrite: true });
    expect(plan.writes.map((w) => w.address)).toContain('C4');
    expect(plan.skipped.map((s) => s.reason)).toEqual(expect.arrayContaining(['formula', 'protected', 'blocked']));
    expect(plan.skipped.map((s) => s.reason)).not.toContain('occupied');
  });

  it('treats a cell with unknown lock state on a protected sheet as locked (Excel default)', () => {
    const plan = planFill([questions[6]!], view(['Sheet1', 'Locked'], {}, ['Locked']));
    expect(plan.skipped[0]!.reason).toBe('protected');
  });

  it('reports per tab and totals that add up, tabs in order of appearance', () => {
    const plan = planFill(questions, view(['Sheet1', 'Locked'], cells, ['Locked']));
    expect(plan.report.tabs.map((t) => t.tab)).toEqual(['Sheet1', 'Nope', 'Locked']);
    expect(plan.report.tabs.find((t) => t.tab === 'Locked')).toEqual({ tab: 'Locked', written: 1, skipped: 1, byReason: { protected: 1 } });
    expect(summarise(plan)).toMatch(/^Wrote 2 answers on 2 tabs; skipped 12 \(/);
  });
});

describe('planFill: tabs, coordinates, text safety', () => {
  it('resolves tab names case-insensitively and accepts sheet-qualified coordinates and ranges', () => {
    const qs = [
      question({ tab_name: ' caiqv4.0.3 ', answer_slots: [answerSlot('$C$5')], answers: [{ text: 'a' }] }),
      question({ tab_name: 'CAIQv4.0.3', answer_slots: [answerSlot("'Other Tab'!D5")], answers: [{ text: 'b' }] }),
      question({ tab_name: 'CAIQv4.0.3', answer_slots: [answerSlot('C6:E6')], answers: [{ text: 'c' }] }),
    ];
    const plan = planFill(qs, view(['CAIQv4.0.3', 'Other Tab']));
    expect(plan.writes.map((w) => `${w.tab}!${w.address}`)).toEqual(['CAIQv4.0.3!C5', 'Other Tab!D5', 'CAIQv4.0.3!C6']);
  });

  it('marks formula-like and auto-converted values forceText', () => {
    const values = ['=HYPERLINK("http://x","y")', '+44 20 7946 0000', '123456789012', '10%', 'Plain', '42'];
    const qs = values.map((text, i) => question({ answer_slots: [answerSlot(`C${i + 1}`)], answers: [{ text }] }));
    const plan = planFill(qs, view(['Sheet1']));
    expect(plan.writes.map((w) => w.forceText)).toEqual([true, true, true, true, false, false]);
    expect(plan.writes[0]!.value).toBe('=HYPERLINK("http://x","y")');
  });

  it('coerces list values before writing', () => {
    const qs = ['Y', 'No.', 'n.a.'].map((text, i) => question({ answer_slots: [answerSlot(`C${i + 1}`, ynna)], answers: [{ text }] }));
    expect(planFill(qs, view(['Sheet1'])).writes.map((w) => w.value)).toEqual(['Yes', 'No', 'NA']);
  });
});

describe('targetCells', () => {
  it('lists the unique cells per resolved tab, without blocked slots, unknown tabs or bad coordinates', () => {
    const qs = [
      question({ tab_name: 'sheet1', answer_slots: [answerSlot('C3'), { role: 'x', header: 'X', coordinate: 'D3' }], answers: [] }),
      question({ tab_name: 'Sheet1', answer_slots: [answerSlot('$C$3'), answerSlot('C4', { is_blocked: true })], answers: [] }),
      question({ tab_name: 'Missing', answer_slots: [answerSlot('C3')], answers: [] }),
      question({ tab_name: 'Sheet1', answer_slots: [answerSlot('bad'), answerSlot('Two!B2')], answers: [] }),
    ];
    expect(targetCells(qs, ['Sheet1', 'Two'])).toEqual([
      { tab: 'Sheet1', addresses: ['C3', 'D3'] },
      { tab: 'Two', addresses: ['B2'] },
    ]);
  });
});

describe('planFill: only what an analyst could defend is written by default', () => {
  const ev = (trust: 'low' | 'medium' | 'high') => ({ score: trust === 'low' ? 30 : 70, trust, reason: 'test' });
  const comment = (coordinate: string) => ({ role: 'comment', header: 'Comment', coordinate });
  const qa = (id: number, row: number, text: string, comment_: string, evaluation: unknown, list = true) =>
    question({
      id,
      answer_slots: list ? [answerSlot(`C${row}`, ynna), comment(`D${row}`)] : [comment(`D${row}`)],
      answers: [{ id, text, evaluation, slot_responses: [{ slot_key: 'comment', content: comment_ }] } as never],
    });
  const questions = [
    qa(1, 2, 'Yes', 'We encrypt.', ev('high')), // list + comment beside it: both written
    qa(2, 3, 'No', 'We do not.', ev('low')), // low trust list answer: both drafts
    qa(3, 4, 'Maybe', 'Depends.', ev('high')), // list value not allowed: the comment alone is a draft
    qa(4, 5, '', 'Free text only.', ev('medium'), false), // no list slot, medium trust: written
    qa(5, 6, '', 'Free text, weak.', ev('low'), false), // no list slot, low trust: draft
    qa(6, 7, 'Yes', 'Unrated.', 'opaque'), // no trust given: drafts
    question({ id: 7, answer_slots: [answerSlot('C8', ynna)], answers: [{ id: 7, text: 'Yes', evaluation: 'opaque', status: 'approved' }] }), // approved: written
  ];

  it('writes list answers of medium or high trust and free text beside them or alone at medium trust; the rest are drafts', () => {
    const plan = planFill(questions, view(['Sheet1']));
    expect(plan.writes.map((w) => w.address)).toEqual(['C2', 'D2', 'D5', 'C8']);
    const drafts = plan.skipped.filter((s) => s.reason === 'draft');
    expect(drafts.map((d) => [d.address, d.value])).toEqual([
      ['C3', 'No'],
      ['D3', 'We do not.'],
      ['D4', 'Depends.'],
      ['D6', 'Free text, weak.'],
      ['C7', 'Yes'],
      ['D7', 'Unrated.'],
    ]);
    expect(drafts.find((d) => d.address === 'D4')!.detail).toMatch(/free text without a list answer written beside it is a draft/);
    expect(drafts.find((d) => d.address === 'C3')!.detail).toMatch(/a low-trust answer is a draft/);
    expect(plan.report.byReason.draft).toBe(6);
    expect(summarise(plan)).toMatch(/drafts for review 6/);
    expectReportAddsUp(plan, 11);
  });

  it('writes drafts too when asked, marked as drafts', () => {
    const plan = planFill(questions, view(['Sheet1']), { writeDrafts: true });
    expect(plan.skipped.filter((s) => s.reason === 'draft')).toEqual([]);
    expect(plan.writes.filter((w) => w.draft).map((w) => w.address)).toEqual(['C3', 'D3', 'D4', 'D6', 'C7', 'D7']);
    expect(plan.writes.filter((w) => !w.draft).map((w) => w.address)).toEqual(['C2', 'D2', 'D5', 'C8']);
  });
});
