import type { QuestionWithAnswers } from '../../src/api/schemas';
import type { CellState, WorkbookView } from '../../src/fill';

let nextId = 1;

export function question(partial: Partial<QuestionWithAnswers> & { tab_name?: string }): QuestionWithAnswers {
  const id = partial.id ?? nextId++;
  return {
    id,
    original_id: `Q-${id}`,
    original_question_text: `Question ${id}?`,
    tab_name: 'Sheet1',
    answers: [],
    ...partial,
  } as QuestionWithAnswers;
}

export function view(sheetNames: string[], cells: Record<string, CellState> = {}, protectedSheets: string[] = []): WorkbookView {
  return {
    sheetNames,
    protectedSheets,
    cell: (tab, address) => cells[`${tab}!${address}`],
  };
}
