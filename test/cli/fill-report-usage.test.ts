import { describe, expect, it } from 'vitest';
import { FILL_USAGE } from '../../src/cli/fill-args';
import { buildFillReport, summaryLines, VALUES_ONLY } from '../../src/cli/fill-report';
import { planFill } from '../../src/fill';
import { question, view } from '../fill/helpers';

const slot = (coordinate: string) => ({ role: 'answer', header: 'Answer', coordinate });
const ctx = { input: 'in.xlsx', output: 'out.xlsx', service: 'http://127.0.0.1:3000', questionnaireId: 1, overwrite: false, changedParts: [], notes: [] };

describe('fill report: what the language model cost', () => {
  it('sums requests and tokens over the answers (the first of each batch carries its batch) and names the model', () => {
    const usage = (requests: number, tokens: number) => ({
      score: 80,
      trust: 'high',
      reason: 'r',
      method: 'llm',
      model: 'gpt-4o-mini',
      llm_usage: { requests, tokens, questions: 2 },
    });
    const questions = [
      question({ answer_slots: [slot('C3')], answers: [{ id: 1, text: 'Yes', evaluation: usage(2, 1500) }] }),
      question({ answer_slots: [slot('C4')], answers: [{ id: 2, text: 'No', evaluation: { score: 80, trust: 'high', reason: 'r', model: 'gpt-4o-mini' } }] }),
      question({
        answer_slots: [slot('C5')],
        answers: [
          { id: 3, text: 'Yes', evaluation: usage(1, 700) },
          { id: 4, text: 'older', evaluation: usage(1, 650) },
        ],
      }),
    ];
    const plan = planFill(questions, view(['Sheet1']));
    expect(plan.report.model).toEqual({ models: ['gpt-4o-mini'], requests: 4, tokens: 2850 });
    const report = buildFillReport(plan, questions, ctx);
    expect(report.model_usage).toEqual({ models: ['gpt-4o-mini'], requests: 4, tokens: 2850 });
    expect(summaryLines(plan, report)).toContain('Model gpt-4o-mini: 4 requests, 2850 tokens.');
  });

  it('says nothing about a model when no answer came from one', () => {
    const questions = [
      question({ answer_slots: [slot('C3')], answers: [{ id: 1, text: 'Yes', evaluation: { score: 80, trust: 'high', reason: 'r', method: 'extractive' } }] }),
    ];
    const plan = planFill(questions, view(['Sheet1']));
    const report = buildFillReport(plan, questions, ctx);
    expect(report.model_usage).toBeNull();
    expect(summaryLines(plan, report).join('\n')).not.toMatch(/Model/);
  });
});

describe('fill report: values only', () => {
  it('without --highlight or --source-notes, says in the report, the summary and --help that cells are neither highlighted nor given source notes', () => {
    const questions = [question({ answer_slots: [slot('C3')], answers: [{ id: 1, text: 'Yes', evaluation: { score: 80, trust: 'high', reason: 'r' } }] })];
    const plan = planFill(questions, view(['Sheet1']));
    const report = buildFillReport(plan, questions, ctx);
    expect(report).toMatchObject({ highlighted: false, source_notes: false });
    expect(summaryLines(plan, report)).toContain(VALUES_ONLY);
    expect(FILL_USAGE).toMatch(/By default only the answer cells' values\s+change; --highlight and --source-notes add what the Excel add-in adds/);
  });

  it('with them, says what was added and what could not be', () => {
    const questions = [question({ answer_slots: [slot('C3')], answers: [{ id: 1, text: 'Yes', evaluation: { score: 80, trust: 'high', reason: 'r' } }] })];
    const plan = planFill(questions, view(['Sheet1']));
    const annotations = {
      highlight: true,
      sourceNotes: true,
      coloured: 0,
      noted: 0,
      gaps: [{ kind: 'colour' as const, why: 'protected' as const, tab: 'Sheet1', count: 1 }],
    };
    const report = buildFillReport(plan, questions, { ...ctx, annotations });
    expect(report).toMatchObject({ highlighted: true, source_notes: true, coloured_cells: 0, source_note_cells: 0 });
    expect(report.annotation_gaps).toEqual(['1 answer on "Sheet1" has no trust colour: the sheet is protected.']);
    const lines = summaryLines(plan, report);
    expect(lines).not.toContain(VALUES_ONLY);
    expect(lines).toEqual(expect.arrayContaining(['0 answers coloured by trust; 0 source notes added.', ...report.annotation_gaps]));
  });
});
