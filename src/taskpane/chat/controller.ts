/**
 * The Chat pane as state and steps, without DOM: the question being typed, the conversation so far
 * (stateless `ask`, or a kept session through `createSession` + `sendMessage`), the file answers are
 * restricted to, and asking about the question in the selected cell. `ChatPane` renders this state.
 * The steps are beside it: asking (ask.ts) and the turns of a conversation (turns.ts).
 */
import { LIMITS, type QuestionWithAnswers, type RepositoryFile } from '../../api/schemas';
import type { WorkbookAdapter } from '../../excel/types';
import { controllerOf, createStore } from '../store';
import type { TaskpaneApi } from '../types';
import { askInSession, askOnce, questionAtSelection, questionProblem } from './ask';
import { turnsOf, type Turn } from './turns';

export interface ChatState {
  input: string;
  turns: Turn[];
  /** "Keep conversation": questions go to a session, which the service remembers. */
  keep: boolean;
  sessionId: number | null;
  /** The file answers come from ('' for the whole library). */
  fileId: string;
  /** Ready files of the library, for "Answer from". */
  files: RepositoryFile[];
  filesError: unknown;
  busy: boolean;
  error: unknown;
  hint: string | null;
  /** Grows with each message sent in a session: the conversations list is read again. */
  sessionsVersion: number;
}

export interface ChatInputs {
  client: TaskpaneApi | null;
  workbook: WorkbookAdapter;
  /** Questions of this workbook's questionnaire (from the Fill pane); empty when none is known. */
  questions: readonly QuestionWithAnswers[];
  active: boolean;
  connectionEpoch?: number;
}

export const initialChatState = (): ChatState => ({
  input: '',
  turns: [],
  keep: false,
  sessionId: null,
  fileId: '',
  files: [],
  filesError: null,
  busy: false,
  error: null,
  hint: null,
  sessionsVersion: 0,
});

export function createChatController() {
  const store = createStore(initialChatState());
  let inputs: ChatInputs | null = null;
  let filesLoad: AbortController | null = null;

  // The "restrict to a file" list: ready files only, loaded when the pane is first shown.
  function loadFiles(): void {
    filesLoad?.abort();
    filesLoad = null;
    const client = inputs?.active ? inputs.client : null;
    if (!client) return;
    const ctl = (filesLoad = new AbortController());
    client
      .listRepositoryFiles({ status: 'ready', page_size: LIMITS.pageSizeMax, ordering: 'original_filename' }, { signal: ctl.signal })
      .then((r) => void (!ctl.signal.aborted && store.update({ files: r.results, filesError: null })))
      .catch((e) => void (!ctl.signal.aborted && store.update({ filesError: e })));
  }

  return controllerOf(store, {
    setInputs(next: ChatInputs): void {
      const prev = inputs;
      inputs = next;
      if (next.connectionEpoch !== prev?.connectionEpoch && next.connectionEpoch) store.update({ error: null });
      if (next.client !== prev?.client || next.active !== prev?.active) loadFiles();
    },

    setInput: (input: string) => store.update({ input }),
    setFileId: (fileId: string) => store.update({ fileId }),
    /** Turning "keep conversation" off ends the session: the next question starts afresh. */
    setKeep: (keep: boolean) => store.update(keep ? { keep } : { keep, sessionId: null }),

    /** Sends the typed question; it leaves the box only once answered, so a failed question can be sent again. */
    async send(): Promise<void> {
      const client = inputs?.client;
      const { input, busy, keep, fileId, sessionId } = store.state;
      const question = input.trim();
      if (!client || !question || busy) return;
      const problem = questionProblem(question);
      if (problem) {
        store.update({ error: problem });
        return;
      }
      store.update({ busy: true, error: null });
      const file = fileId ? Number(fileId) : undefined;
      try {
        if (keep) {
          const session = await askInSession(client, sessionId, question, file, (id) => store.update({ sessionId: id }));
          store.update((s) => ({ turns: turnsOf(session), sessionsVersion: s.sessionsVersion + 1 }));
        } else {
          const turns = await askOnce(client, question, file);
          store.update((s) => ({ turns: [...s.turns, ...turns] }));
        }
        store.update({ input: '' });
      } catch (e) {
        store.update({ error: e });
      } finally {
        store.update({ busy: false });
      }
    },

    /** Puts the question of the selected cell in the box; true when it did (the pane then focuses the box). */
    async askAboutSelection(): Promise<boolean> {
      store.update({ hint: null });
      if (!inputs) return false;
      try {
        const found = await questionAtSelection(inputs.workbook, inputs.questions);
        store.update('hint' in found ? { hint: found.hint } : { input: found.question.original_question_text });
        return 'question' in found;
      } catch (e) {
        store.update({ error: e });
        return false;
      }
    },

    async openSession(id: number): Promise<void> {
      const client = inputs?.client;
      if (!client) return;
      store.update({ error: null });
      try {
        const session = await client.getSession(id);
        store.update({ turns: turnsOf(session), sessionId: session.id, keep: true });
      } catch (e) {
        store.update({ error: e });
      }
    },

    newConversation: () => store.update({ sessionId: null, turns: [], error: null }),

    dispose(): void {
      filesLoad?.abort();
      store.clear();
    },
  });
}

export type ChatController = ReturnType<typeof createChatController>;
