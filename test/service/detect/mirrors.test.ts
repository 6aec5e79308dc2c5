/**
 * Questions a workbook repeats by formula (HECVAT 4's START HERE questions on its other tabs): each stays
 * a question, its formula cells blocked, and its answer slot names the cell it shows (`mirror_of`).
 */
import { describe, expect, it } from 'vitest';
import { detectQuestionnaire } from '../../../src/service/detect';
import { createWorkbook } from '../../../src/xlsx/create';
import { byId, patchParts, slot } from './helpers';
import { HECVAT4_LIKE, hecvat4LikeWorkbook, startHereRow } from './hecvat4-like';

describe('questions repeated by formula', () => {
  it('keeps each repeated question, blocked, naming the START HERE cell it shows; the analyst reference sheet is no questionnaire', async () => {
    const d = await detectQuestionnaire(hecvat4LikeWorkbook({ 'GNRL-10': 'Yes' }), 'hecvat4-like.xlsx');
    expect(d.questions).toHaveLength(HECVAT4_LIKE.questions);
    expect(d.tabs).toEqual(['START HERE', 'Organization', 'Application', 'Data Privacy']);
    expect(d.warnings.join('\n')).toMatch(/Sheet "Analyst Reference" was skipped/);
    expect(d.warnings).toContain('Sheet "Data Privacy": 2 questions repeat questions of "START HERE" by formula: they are answered there.');

    const mirrors = d.questions.filter((q) => q.answer_slots.some((s) => s.mirror_of));
    expect(mirrors).toHaveLength(HECVAT4_LIKE.mirrors);
    const hosted = d.questions.find((q) => q.tab_name === 'Organization' && q.original_question_text === 'Is the solution hosted by a third party?')!;
    expect(slot(hosted, 'answer')).toMatchObject({ is_blocked: true, mirror_of: `'START HERE'!C${startHereRow('GNRL-10')}`, value: 'Yes' });
    expect(slot(hosted, 'comment')).toMatchObject({ is_blocked: true, mirror_of: `'START HERE'!D${startHereRow('GNRL-10')}` });
    // The original is an ordinary question: writable, no mirror.
    const original = byId(d, 'GNRL-01')!;
    expect(slot(original, 'answer')).toMatchObject({ is_blocked: false, coordinate: 'C2' });
    expect(original.answer_slots.some((s) => s.mirror_of)).toBe(false);
    // A tab's own questions mirror nothing.
    expect(byId(d, 'APPL-04')!.answer_slots.some((s) => s.mirror_of)).toBe(false);
  });

  it("follows a shared formula (Excel's fill-down) to each copy's own cell", async () => {
    const own = ['Do you encrypt backups?', 'Do you log administrator access?', 'Do you scan for vulnerabilities weekly?', 'Do you train staff yearly?'];
    const bytes = createWorkbook({
      sheets: [
        { name: 'START HERE', cells: { A1: 'Question', B1: 'Answer', A2: 'Do you host in the EU?', A3: 'Do you host in the US?', B3: 'Yes' } },
        {
          name: 'Hosting',
          cells: {
            A1: 'Question',
            B1: 'Answer',
            A2: { formula: "'START HERE'!A2", value: 'Do you host in the EU?' },
            B2: { formula: "'START HERE'!B2", value: '' },
            A3: { formula: "'START HERE'!A3", value: 'Do you host in the US?' },
            B3: { formula: "'START HERE'!B3", value: 'Yes' },
            ...Object.fromEntries(own.map((q, i) => [`A${i + 4}`, q])),
          },
        },
      ],
    });
    const shared = patchParts(bytes, (parts) => {
      const name = Object.keys(parts).find((p) => /worksheets\/sheet2\.xml$/.test(p))!;
      parts[name] = parts[name]!.replace("<f>'START HERE'!B2</f>", `<f t="shared" ref="B2:B3" si="0">'START HERE'!B2</f>`).replace(
        "<f>'START HERE'!B3</f>",
        '<f t="shared" si="0"/>',
      );
      expect(parts[name]).toContain('<f t="shared" si="0"/>');
    });
    const d = await detectQuestionnaire(shared, 'shared.xlsx');
    const hosting = d.questions.filter((q) => q.tab_name === 'Hosting');
    expect(hosting.map((q) => slot(q, 'answer')?.mirror_of ?? null)).toEqual(["'START HERE'!B2", "'START HERE'!B3", null, null, null, null]);
  });

  it('names no mirror for a formula that computes from several cells, or from a sheet the workbook lacks', async () => {
    const bytes = createWorkbook({
      sheets: [
        {
          name: 'Q',
          cells: {
            A1: 'Question',
            B1: 'Answer',
            A2: 'Do you encrypt backups?',
            B2: { formula: 'IF(C2="Yes",D2,"")', value: '' },
            A3: 'Do you log administrator access?',
            B3: { formula: "'Gone'!B3", value: '' },
            A4: 'Do you scan for vulnerabilities weekly?',
            A5: 'Do you train staff yearly?',
            A6: 'Do you test restores?',
          },
        },
      ],
    });
    const d = await detectQuestionnaire(bytes, 'computed.xlsx');
    expect(d.questions.length).toBe(5);
    expect(d.questions.flatMap((q) => q.answer_slots.filter((s) => s.mirror_of))).toEqual([]);
    expect(slot(d.questions[0], 'answer')?.is_blocked).toBe(true);
  });
});
