/**
 * Answers given by a mark: the planner puts the mark under the chosen column and clears the others,
 * clearing only with overwrite consent; the xlsx writer applies it and a re-read gives the choice.
 */
import { describe, expect, it } from 'vitest';
import type { AnswerSlot, QuestionWithAnswers } from '../../src/api/schemas';
import { workbookView } from '../../src/cli/fill-view';
import { planFill as planWithoutMarks, type WritePlan } from '../../src/fill';
import { planFillWithMarks as planFill, withMarksWritable } from '../../src/fill/plan-marks';
import { detectQuestionnaire } from '../../src/service/detect';
import { XlsxPackage } from '../../src/xlsx';
import { caiqV3Workbook } from '../service/detect/helpers';
import { question, view } from './helpers';

const CHOICES = ['Yes', 'No', 'Not Applicable'];
const markSlot = (role: string, choice: string, coordinate: string): AnswerSlot => ({
  role,
  header: choice,
  coordinate,
  type: 'mark',
  choice,
  mark: 'x',
  mark_group: 'answer',
  allowed_values: CHOICES,
  value: null,
  // As the detector reports them: blocked for writers that only write text (the task pane).
  is_blocked: true,
});
const marks = [markSlot('answer', 'Yes', 'F5'), markSlot('answer_no', 'No', 'G5'), markSlot('answer_not_applicable', 'Not Applicable', 'H5')];
const notes: AnswerSlot = { role: 'comment', header: 'Notes', coordinate: 'I5', type: 'text' };
const ask = (text: string) =>
  question({
    id: 1,
    tab_name: 'CAIQ',
    answer_slots: [...marks, notes],
    answers: [{ text, slot_responses: [{ slot_key: 'comment', content: 'Per policy P-7' }] }],
  });
const written = (plan: WritePlan) => plan.writes.map((w) => [w.address, w.value, w.mark ?? null]).sort((a, b) => String(a[0]).localeCompare(String(b[0])));

describe('planning a marked answer', () => {
  it('puts the mark under the chosen column, leaves the empty others unmarked, and writes the notes', () => {
    const plan = planFill([ask('No')], view(['CAIQ']));
    expect(written(plan)).toEqual([
      ['G5', 'x', 'set'],
      ['I5', 'Per policy P-7', null],
    ]);
    expect(plan.skipped.map((s) => [s.address, s.reason])).toEqual([
      ['F5', 'no_value'],
      ['H5', 'no_value'],
    ]);
    expect(plan.report.written + plan.report.skipped).toBe(4);
  });

  it('matches the answer to a choice as a list answer is matched (case, short forms)', () => {
    expect(written(planFill([ask('not applicable')], view(['CAIQ'])))[0]).toEqual(['H5', 'x', 'set']);
    const refused = planFill([ask('Maybe')], view(['CAIQ']));
    expect(refused.writes.filter((w) => w.mark)).toEqual([]);
    expect(refused.skipped.filter((s) => s.reason === 'not_allowed')).toHaveLength(3);
  });

  it('changing a marked answer clears the other mark only with overwrite consent, never half-way', () => {
    const marked = view(['CAIQ'], { 'CAIQ!F5': { value: 'x', hasFormula: false } });
    const held = planFill([ask('No')], marked);
    expect(held.writes.filter((w) => w.mark)).toEqual([]);
    expect(held.skipped.filter((s) => s.reason === 'occupied').map((s) => s.address)).toEqual(['F5', 'G5', 'H5']);
    expect(held.skipped.find((s) => s.address === 'F5')!.detail).toContain('under "Yes"; marking "No" would change it');

    const consented = planFill([ask('No')], marked, { overwrite: true });
    expect(written(consented).filter((w) => w[2] !== null)).toEqual([
      ['F5', '', 'clear'],
      ['G5', 'x', 'set'],
    ]);
    const clear = consented.writes.find((w) => w.mark === 'clear')!;
    expect([clear.trust, clear.sources]).toEqual([null, []]);
  });

  it('gives the answer’s text to the marks, never to the Notes column beside them', () => {
    const bare = question({ id: 3, tab_name: 'CAIQ', answer_slots: [...marks, notes], answers: [{ text: 'Yes' }] });
    const plan = planFill([bare], view(['CAIQ']));
    expect(written(plan)).toEqual([['F5', 'x', 'set']]);
    expect(plan.skipped.find((s) => s.address === 'I5')?.reason).toBe('no_value');
  });

  it('counts a question of marks alone as having answer cells', () => {
    const plan = planFill([question({ id: 4, tab_name: 'CAIQ', answer_slots: marks, answers: [{ text: 'No' }] })], view(['CAIQ']));
    expect(plan.skipped.map((s) => s.reason)).not.toContain('no_slot');
    expect(plan.report.written + plan.report.skipped).toBe(3);
  });

  it('holds a changed answer back with each cell’s current value as data, for the overwrite question', () => {
    const held = planFill([ask('No')], view(['CAIQ'], { 'CAIQ!F5': { value: 'x', hasFormula: false } }));
    expect(held.skipped.filter((s) => s.reason === 'occupied').map((s) => [s.address, s.current])).toEqual([
      ['F5', 'x'],
      ['G5', undefined],
      ['H5', undefined],
    ]);
  });

  it('keeps the same answer without asking: the mark is already there', () => {
    const plan = planFill([ask('Yes')], view(['CAIQ'], { 'CAIQ!F5': { value: 'x', hasFormula: false } }));
    expect(written(plan)[0]).toEqual(['F5', 'x', 'set']);
  });

  it('writes nothing of a group when one of its cells is a formula or blocked', () => {
    const plan = planFill([ask('Yes')], view(['CAIQ'], { 'CAIQ!H5': { value: '', hasFormula: true } }));
    expect(plan.writes.filter((w) => w.mark)).toEqual([]);
    expect(plan.skipped.filter((s) => s.reason === 'formula')).toHaveLength(3);
  });

  it('holds a low-trust choice back as a draft, mark and clears together', () => {
    const weak = question({
      id: 2,
      tab_name: 'CAIQ',
      answer_slots: marks,
      answers: [{ text: 'Yes', evaluation: { score: 20, trust: 'low', reason: 'thin' } }],
    });
    const plan = planFill([weak], view(['CAIQ']));
    expect(plan.writes).toEqual([]);
    expect(plan.skipped.find((s) => s.address === 'F5')!.reason).toBe('draft');
  });
});

describe('the text planner (for writers that only write text)', () => {
  it('never writes a mark slot as text: it is skipped as blocked', () => {
    const plan = planWithoutMarks([ask('No')], view(['CAIQ']));
    expect(plan.writes.map((w) => w.address)).toEqual(['I5']);
    expect(plan.skipped.filter((s) => s.reason === 'blocked').map((s) => s.slotRole)).toEqual(['answer', 'answer_no', 'answer_not_applicable']);
  });
});

describe('a CAIQ v3-like workbook filled by the xlsx writer', () => {
  it('marks the chosen columns, clears a changed one with consent, and reads back as the choices', async () => {
    const bytes = await caiqV3Workbook({ 'AIS-01.2': 'Yes' });
    const detected = await detectQuestionnaire(bytes, 'caiq-v3.xlsx');
    const choose: Record<string, string> = { 'AIS-01.1': 'Yes', 'AIS-01.2': 'No', 'AIS-02.1': 'Not Applicable', 'AIS-03.1': 'No' };
    const questions: QuestionWithAnswers[] = detected.questions.map((q, i) =>
      question({ id: 100 + i, original_id: q.original_id, tab_name: q.tab_name, answer_slots: q.answer_slots, answers: [{ text: choose[q.original_id!]! }] }),
    );
    const pkg = XlsxPackage.open(bytes, 'caiq-v3.xlsx');
    const plan = planFill(questions, workbookView(pkg, withMarksWritable(questions)), { overwrite: true });
    expect(plan.writes.filter((w) => w.mark === 'set')).toHaveLength(4);
    const result = pkg.applyWrites(plan.writes.map((w) => ({ tab: w.tab, address: w.address, value: w.mark === 'clear' ? null : w.value })));
    const reread = await detectQuestionnaire(result.bytes, 'caiq-v3-filled.xlsx');
    const choice = (id: string) => reread.questions.find((q) => q.original_id === id)!.answer_slots.find((s) => s.role === 'answer')!.value;
    for (const [id, want] of Object.entries(choose)) expect(choice(id), id).toBe(want);
    const cells = pkg.readCells('CAIQ v3.0.1', ['F4', 'G4']);
    expect(cells.get('F4')?.value).toBe('x');
    expect(XlsxPackage.open(result.bytes, 'x').readCells('CAIQ v3.0.1', ['F4', 'G4']).get('F4')?.value ?? null).toBeNull();
  });
});

describe('a blank template’s pre-filled placeholder', () => {
  const status = { role: 'answer', header: 'Status', type: 'list', allowed_values: ['Pass', 'Fail', 'N/A'], template_default: 'N/A' };

  it('is replaced by qfill without asking to overwrite, while any other value still needs consent', () => {
    const plan = planFill(
      [
        question({ id: 1, answer_slots: [{ ...status, coordinate: 'G5' }], answers: [{ text: 'Pass' }] }),
        question({ id: 2, answer_slots: [{ ...status, coordinate: 'G6' }], answers: [{ text: 'Pass' }] }),
      ],
      view(['Sheet1'], { 'Sheet1!G5': { value: 'N/A', hasFormula: false }, 'Sheet1!G6': { value: 'Fail', hasFormula: false } }),
    );
    expect(plan.writes.map((w) => [w.address, w.value])).toEqual([['G5', 'Pass']]);
    expect(plan.skipped.map((s) => [s.address, s.reason])).toEqual([['G6', 'occupied']]);
  });
});
