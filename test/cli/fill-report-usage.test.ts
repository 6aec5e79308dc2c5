import { describe, expect, it } from 'vitest';
import { FILL_USAGE } from '../../src/cli/fill-args';
import { buildFillReport, summaryLines, VALUES_ONLY } from '../../src/cli/fill-report';
import { planFill } from '../../src/fill';
import { question, view } from '../fill/helpers';

const slot = (coordinate: string) => ({ role: 'answer', header: 'Answer', coordinate });
const ctx = { input: 'in.xlsx', output: 'out.xlsx', service: 'http://127.0.0.1:3000', questionnaireId: 1, overwrite: false, changedParts: [], notes: [] };

describe('fill report: what the language model cost', () => {
  it('sums requests and tokens over the answers (the first of each batch carries its batch) and names the model', () => {
    const usage = (requests: number, tokens: number) => ({ score: 80, trust: 'high', reason: 'r', method: 'llm', model: 'gpt-4o-mini', llm_usage: { requests, tokens, questions: 2 } });
    const questions = [
      question({ answer_slots: [slot('C3')], answers: [{ id: 1, text: 'Yes', evaluation: usage(2, 1500) }] }),
      question({ answer_slots: [slot('C4')], answers: [{ id: 2, text: 'No', evaluation: { score: 80, trust: 'high', reason: 'r', model: 'gpt-4o-mini' } }] }),
      question({ answer_slots: [slot('C5')], answers: [{ id: 3, text: 'Yes', evaluation: usage(1, 700) }, { id: 4, text: 'older', evaluation: usage(1, 650) }] }),
    ];
    const plan = planFill(questions, view(['Sheet1']));
    expect(plan.report.model).toEqual({ models: ['gpt-4o-mini'], requests: 4, tokens: 2850 });
    const report = buildFillReport(plan, questions, ctx);
    expect(report.model_usage).toEqual({ models: ['gpt-4o-mini'], requests: 4, tokens: 2850 });
    expect(summaryLines(plan, report)).toContain('Model gpt-4o-mini: 4 requests, 2850 tokens.');
  });

  it('says nothing about a model when no answer came from one', () => {
    const questions = [question({ answer_slots: [slot('C3')], answers: [{ id: 1, text: 'Yes', evaluation: { score: 80, trust: 'high', reason: 'r', method: 'extractive' } }] })];
    const plan = planFill(questions, view(['Sheet1']));
    const report = buildFillReport(plan, questions, ctx);
    expect(report.model_usage).toBeNull();
    expect(summaryLines(plan, report).join('\n')).not.toMatch(/Model/);
  });
});

describe('fill report: values only', () => {
  it('says in the report, the summary and --help that cells are neither highlighted nor given source notes', () => {
    const questions = [question({ answer_slots: [slot('C3')], answers: [{ id: 1, text: 'Yes', evaluation: { score: 80, trust: 'high', reason: 'r' } }] })];
    const plan = planFill(questions, view(['Sheet1']));
    const report = buildFillReport(plan, questions, ctx);
    expect(report).toMatchObject({ highlighted: false, source_notes: false });
    expect(summaryLines(plan, report)).toContain(VALUES_ONLY);
    expect(FILL_USAGE).toMatch(/does not highlight the cells it writes nor add source notes/);
  });
});
