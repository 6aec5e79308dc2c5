/**
 * Asking the service: the question checked first, then asked once (stateless `ask`) or within a kept
 * session (`createSession` once, then `sendMessage`), optionally restricted to one library file.
 */
import { LIMITS, type ChatSession, type QuestionWithAnswers } from '../../api/schemas';
import type { WorkbookAdapter } from '../../excel/types';
import { findQuestionAt } from '../review';
import type { TaskpaneApi } from '../types';
import { askedTurns, type Turn } from './turns';

/** Why the service would refuse this question, before it is sent; null when it would not. */
export function questionProblem(question: string): string | null {
  return question.length > LIMITS.messageLength
    ? `The question is ${question.length} characters long; the service accepts at most ${LIMITS.messageLength}. Shorten it.`
    : null;
}

/** The question asked once, as its two turns. */
export async function askOnce(client: Pick<TaskpaneApi, 'ask'>, question: string, file: number | undefined): Promise<[Turn, Turn]> {
  return askedTurns(question, await client.ask({ question, ...(file ? { file_id: file } : {}) }));
}

/**
 * The question sent in session `sessionId`, or in a new one named after it (told to `onCreated` at once,
 * so a message that then fails is sent again in the same session). The session as it stands after.
 */
export async function askInSession(
  client: Pick<TaskpaneApi, 'createSession' | 'sendMessage'>,
  sessionId: number | null,
  question: string,
  file: number | undefined,
  onCreated: (id: number) => void,
): Promise<ChatSession> {
  let id = sessionId;
  if (id === null) {
    id = (await client.createSession({ title: question.slice(0, LIMITS.sessionTitleLength) })).id;
    onCreated(id);
  }
  return client.sendMessage(id, { message: question, ...(file ? { file_id: file } : {}) });
}

/** The question of the cell selected in the sheet, or the hint why there is none. */
export async function questionAtSelection(
  workbook: Pick<WorkbookAdapter, 'getSelection'>,
  questions: readonly QuestionWithAnswers[],
): Promise<{ question: QuestionWithAnswers } | { hint: string }> {
  const ref = await workbook.getSelection();
  if (!ref) return { hint: 'Select a cell of a question in the sheet first.' };
  if (questions.length === 0) return { hint: 'No questionnaire is known for this workbook yet: fill it first (Fill tab), or type the question.' };
  const question = findQuestionAt(questions, ref);
  return question ? { question } : { hint: `The selected cell ${ref.tab}!${ref.address} does not belong to a question of this questionnaire.` };
}
