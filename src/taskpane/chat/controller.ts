/**
 * The Chat pane as state and steps, without DOM: the question being typed, the conversation so far
 * (stateless `ask`, or a kept session through `createSession` + `sendMessage`), the file answers are
 * restricted to, and asking about the question in the selected cell. `ChatPane` renders this state.
 */
import { LIMITS, type ChatSession, type QuestionWithAnswers, type RepositoryFile } from '../../api/schemas';
import type { WorkbookAdapter } from '../../excel/types';
import { bySourceRank } from '../../fill/answer';
import { thirdPartyOf, type SourceItem } from '../components/Sources';
import { findQuestionAt } from '../review';
import { controllerOf, createStore } from '../store';
import type { TaskpaneApi } from '../types';

export interface Turn {
  key: number;
  sender: 'user' | 'assistant';
  text: string;
  sources: SourceItem[];
  /** The service's trust in this answer (extension), when it gives one. */
  trust?: string | null;
}

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

let turnKeys = 0;

/** A session's messages as turns, each answer's sources best first. */
export function turnsOf(session: ChatSession): Turn[] {
  return (session.messages ?? []).map((m) => ({
    key: ++turnKeys,
    sender: m.sender,
    text: m.content,
    trust: (m.metadata as { trust?: string } | null | undefined)?.trust ?? null,
    sources: bySourceRank(m.sources).map((s) => ({
      filename: s.source_file,
      page: s.page_number,
      excerpt: s.content,
      score: s.relevance_score,
      thirdParty: thirdPartyOf(s),
    })),
  }));
}

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

  async function askInSession(client: TaskpaneApi, question: string, file: number | undefined): Promise<void> {
    let id = store.state.sessionId;
    if (id === null) {
      const created = await client.createSession({ title: question.slice(0, LIMITS.sessionTitleLength) });
      id = created.id;
      store.update({ sessionId: id });
    }
    const session = await client.sendMessage(id, { message: question, ...(file ? { file_id: file } : {}) });
    store.update((s) => ({ turns: turnsOf(session), sessionsVersion: s.sessionsVersion + 1 }));
  }

  async function askOnce(client: TaskpaneApi, question: string, file: number | undefined): Promise<void> {
    const answer = await client.ask({ question, ...(file ? { file_id: file } : {}) });
    const asked: Turn = { key: ++turnKeys, sender: 'user', text: question, sources: [] };
    const answered: Turn = {
      key: ++turnKeys,
      sender: 'assistant',
      text: answer.answer,
      trust: answer.trust ?? null,
      sources: bySourceRank(answer.sources).map((s) => ({
        filename: s.filename,
        page: s.page_number,
        excerpt: s.content,
        score: s.relevance_score ?? null,
        thirdParty: thirdPartyOf(s),
      })),
    };
    store.update((s) => ({ turns: [...s.turns, asked, answered] }));
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
      const { input, busy, keep, fileId } = store.state;
      const question = input.trim();
      if (!client || !question || busy) return;
      if (question.length > LIMITS.messageLength) {
        store.update({ error: `The question is ${question.length} characters long; the service accepts at most ${LIMITS.messageLength}. Shorten it.` });
        return;
      }
      store.update({ busy: true, error: null });
      const file = fileId ? Number(fileId) : undefined;
      try {
        await (keep ? askInSession(client, question, file) : askOnce(client, question, file));
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
      const { workbook, questions } = inputs;
      try {
        const ref = await workbook.getSelection();
        if (!ref) {
          store.update({ hint: 'Select a cell of a question in the sheet first.' });
          return false;
        }
        if (questions.length === 0) {
          store.update({ hint: 'No questionnaire is known for this workbook yet: fill it first (Fill tab), or type the question.' });
          return false;
        }
        const q = findQuestionAt(questions, ref);
        if (!q) {
          store.update({ hint: `The selected cell ${ref.tab}!${ref.address} does not belong to a question of this questionnaire.` });
          return false;
        }
        store.update({ input: q.original_question_text });
        return true;
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
