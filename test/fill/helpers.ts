import type { QuestionWithAnswers } from '../../src/api/schemas';
import type { CellState, WorkbookView } from '../../src/fill';

let nextId = 1;

/** A defensible answer unless the test says otherwise: tests of other rules are not held back as drafts. */
export const HIGH_TRUST = { score: 90, trust: 'high', reason: 'test' } as const;

export function question(partial: Partial<QuestionWithAnswers> & { tab_name?: string }): QuestionWithAnswers {
  const id = partial.id ?? nextId++;
  return {
    id,
    original_id: `Q-${id}`,
    original_question_text: `Question ${id}?`,
    tab_name: 'Sheet1',
    ...partial,
    answers: (partial.answers ?? []).map((a) => ('evaluation' in a ? a : { ...a, evaluation: HIGH_TRUST })),
  } as QuestionWithAnswers;
}

export function view(sheetNames: string[], cells: Record<string, CellState> = {}, protectedSheets: string[] = []): WorkbookView {
  return {
    sheetNames,
    protectedSheets,
    cell: (tab, address) => cells[`${tab}!${address}`],
  };
}
