/** The pieces of `qfill fill` without a service: arguments, progress display, the workbook view. */
import { describe, expect, it } from 'vitest';
import type { QuestionWithAnswers } from '../../src/api/schemas';
import { parseFillArgs } from '../../src/cli/fill-args';
import { createProgressDisplay, progressBar, timeLeft } from '../../src/cli/fill-progress';
import { anchorSlotsInPackage, workbookView } from '../../src/cli/fill-view';
import { planFill } from '../../src/fill';
import { XlsxPackage } from '../../src/xlsx';
import { protectedMultiTabWorkbook, smallWorkbook } from '../xlsx/helpers';

describe('parseFillArgs', () => {
  it('takes --base and --key from the environment unless given', () => {
    const env = { QFILL_BASE_URL: 'http://env', QFILL_API_KEY: 'k-env' };
    expect(parseFillArgs(['q.xlsx', '--out', 'o.xlsx'], env)).toMatchObject({
      input: 'q.xlsx',
      out: 'o.xlsx',
      baseUrl: 'http://env',
      apiKey: 'k-env',
      overwrite: false,
    });
    expect(
      parseFillArgs(['q.xlsx', '--out=o.xlsx', '--base=http://flag', '--key', 'k', '--overwrite', '--report', 'r.json', '--timeout', '30'], env),
    ).toMatchObject({
      baseUrl: 'http://flag',
      apiKey: 'k',
      overwrite: true,
      reportPath: 'r.json',
      timeoutSeconds: 30,
    });
  });

  it('names what is wrong', () => {
    expect(() => parseFillArgs(['q.xlsx', '--out', 'o.xlsx', '--timeout', 'soon'], {})).toThrow('--timeout must be a positive number of seconds, not "soon".');
    expect(() => parseFillArgs(['a.xlsx', 'b.xlsx', '--out', 'o.xlsx'], {})).toThrow(/One questionnaire at a time/);
    expect(() => parseFillArgs(['q.xlsx', '--out'], {})).toThrow('--out needs a value.');
    expect(() => parseFillArgs(['--out', 'o.xlsx'], {})).toThrow(/Name the questionnaire/);
  });
});

describe('progress display', () => {
  const p = (received: number, expected = 261, status: 'generating' | 'complete' = 'generating') => ({
    status,
    answers_received: received,
    answers_expected: expected,
    percent: Math.round((received / expected) * 100),
  });

  it('draws a bar with answers and time left on a terminal', () => {
    expect(timeLeft(120, 261, 12_000)).toBe('~15 s left');
    expect(timeLeft(0, 261, 12_000)).toBe('');
    expect(progressBar(p(120), '~15 s left')).toBe('[###########-------------] 120/261 answers · ~15 s left');
    let t = 0;
    const chunks: string[] = [];
    const display = createProgressDisplay({ write: (s: string) => chunks.push(s), isTTY: true, columns: 100 }, () => t);
    t = 12_000;
    display.update(p(120));
    display.update(p(261, 261, 'complete'));
    display.done();
    expect(chunks[0]).toBe('\r[###########-------------] 120/261 answers · ~15 s left');
    expect(chunks[1]!.startsWith('\r[########################] 261/261 answers')).toBe(true);
    expect(chunks.at(-1)).toBe('\n');
  });

  it('draws the whole bar on a terminal that reports no width', () => {
    const chunks: string[] = [];
    const display = createProgressDisplay({ write: (s: string) => chunks.push(s), isTTY: true, columns: 0 }, () => 0);
    display.update(p(261, 261, 'complete'));
    expect(chunks[0]).toBe('\r[########################] 261/261 answers');
  });

  it('prints plain lines, one per change, when not a terminal', () => {
    let t = 0;
    const chunks: string[] = [];
    const display = createProgressDisplay({ write: (s: string) => chunks.push(s), isTTY: false }, () => t);
    display.update(p(0));
    display.update(p(0));
    t = 2000;
    display.update(p(100));
    t = 2100;
    display.update(p(101)); // within a second of the last line: folded into the next one
    display.update(p(261, 261, 'complete'));
    display.done();
    expect(chunks).toEqual(['Answers 0/261 (generating)\n', 'Answers 100/261 (generating)\n', 'Answers 261/261 (complete)\n']);
  });
});

const q = (
  id: number,
  tab: string,
  coordinate: string,
  text = 'Yes',
  extra: Partial<QuestionWithAnswers['answer_slots'] extends (infer S)[] | undefined ? S : never> = {},
) =>
  ({
    id,
    original_id: `Q-${id}`,
    original_question_text: `Question ${id}`,
    tab_name: tab,
    answer_slots: [{ role: 'answer', header: 'Answer', coordinate, ...extra }],
    answers: [{ id: id * 10, text, evaluation: { score: 80, trust: 'high', reason: 'ok' }, source_evidence: [] }],
  }) as unknown as QuestionWithAnswers;

describe('workbook view for the planner', () => {
  it('never plans a write into a formula cell or a locked cell, even when the service did not block them', async () => {
    const pkg = XlsxPackage.open(await protectedMultiTabWorkbook());
    const questions = [q(1, 'Security', 'C2'), q(2, 'Security', 'C4'), q(3, 'Privacy', 'D5'), q(4, 'privacy', 'C3'), q(5, 'Privacy', 'C4')];
    const plan = planFill(questions, workbookView(pkg, questions), {});
    expect(plan.writes.map((w) => `${w.tab}!${w.address}`)).toEqual(['Security!C2', 'Privacy!C4']);
    expect(plan.skipped.map((s) => `${s.tab}!${s.address}:${s.reason}`)).toEqual(['Security!C4:formula', 'Privacy!D5:protected', 'Privacy!C3:formula']);
    expect(() => pkg.applyWrites(plan.writes)).not.toThrow();
  });

  it('moves slots inside a merged area to its top-left cell', async () => {
    const pkg = XlsxPackage.open(await smallWorkbook());
    const anchored = anchorSlotsInPackage([q(1, 'Questions', 'E6'), q(2, 'Questions', "'Questions'!E5"), q(3, 'Questions', 'C2')], pkg);
    expect(anchored.map((x) => x.answer_slots![0]!.coordinate)).toEqual(['D5', 'Questions!D5', 'C2']);
  });
});
