/**
 * Ask the knowledge base. Stateless by default (`ask`); "keep conversation" holds a session
 * (`createSession` + `sendMessage`). Every answer shows its sources and can go into the selected cell.
 * The state and its rules live in the controllers (src/taskpane/chat); this renders them.
 */
import { useEffect, useMemo, useRef } from 'preact/hooks';
import { LIMITS, type QuestionWithAnswers } from '../../api/schemas';
import type { WorkbookAdapter } from '../../excel/types';
import { createChatController } from '../chat/controller';
import { createSessionList, SESSIONS_PAGE } from '../chat/sessions';
import { CellWrite } from '../components/CellWrite';
import { Pager, SearchBox } from '../components/Controls';
import { ConnectFirst, ErrorMessage, Note } from '../components/Message';
import { Sources } from '../components/Sources';
import type { TaskpaneApi } from '../types';
import { useStore } from '../use-store';

const TRUST_WORDS: Record<string, string> = {
  high: 'the sources state this.',
  medium: 'check the sources.',
  low: 'the sources do not clearly state this.',
};

/** Trust shown per answer, in words beside the badge, as the review list shows it for fills. */
function AnswerTrust(props: { trust: string | null | undefined }) {
  const words = props.trust ? TRUST_WORDS[props.trust] : null;
  if (!words) return null;
  return (
    <p class="qf-small">
      <span class={`qf-badge qf-trust-${props.trust}`}>{props.trust} trust</span> {words}
    </p>
  );
}

export interface ChatPaneProps {
  client: TaskpaneApi | null;
  workbook: WorkbookAdapter;
  /** Questions of this workbook's questionnaire (from the Fill pane); empty when none is known. */
  questions: readonly QuestionWithAnswers[];
  onOpenSettings: () => void;
  active: boolean;
  /** Grows when the saved settings are shown to work: an old failure is no longer true. */
  connectionEpoch?: number;
}

function InsertButton(props: { workbook: WorkbookAdapter; text: string }) {
  return (
    <CellWrite
      write={(overwrite) => props.workbook.insertIntoSelection(props.text, { overwrite })}
      label="Insert into selected cell"
      doneText="Inserted into the selected cell."
    />
  );
}

function SessionList(props: { client: TaskpaneApi; currentId: number | null; onOpen: (id: number) => void; refreshKey: number; active: boolean }) {
  const list = useMemo(() => createSessionList(), []);
  useEffect(() => () => list.dispose(), [list]);
  const { search, page, data, error, loading } = useStore(list);
  useEffect(
    () => list.setInputs({ client: props.client, active: props.active, refreshKey: props.refreshKey }),
    [list, props.client, props.active, props.refreshKey],
  );

  return (
    <details class="qf-card">
      <summary>Conversations{data ? ` (${data.count})` : ''}</summary>
      <SearchBox label="Search conversations" placeholder="Search conversations" value={search} onChange={list.setSearch} />
      <ErrorMessage error={error} />
      {data && data.results.length === 0 && <p class="qf-muted">No conversations{search ? ' match' : ' yet'}.</p>}
      <ul class="qf-list" aria-busy={loading}>
        {data?.results.map((s) => (
          <li key={s.id}>
            <button type="button" class="qf-q" aria-current={s.id === props.currentId} onClick={() => props.onOpen(s.id)}>
              {s.title} <span class="qf-small qf-muted">· {s.message_count} messages</span>
            </button>
          </li>
        ))}
      </ul>
      {data && <Pager page={page} count={data.count} pageSize={SESSIONS_PAGE} hasNext={data.hasNext} onPage={list.setPage} />}
    </details>
  );
}

export function ChatPane(props: ChatPaneProps) {
  const { client, workbook, questions, active, connectionEpoch } = props;
  const c = useMemo(() => createChatController(), []);
  useEffect(() => () => c.dispose(), [c]);
  const st = useStore(c);
  useEffect(
    () => c.setInputs({ client, workbook, questions, active, ...(connectionEpoch !== undefined ? { connectionEpoch } : {}) }),
    [c, client, workbook, questions, active, connectionEpoch],
  );
  const inputRef = useRef<HTMLTextAreaElement>(null);

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      void c.send();
    }
  };

  const askAboutSelection = async () => {
    if (await c.askAboutSelection()) inputRef.current?.focus();
  };

  return (
    <div>
      <h2>Chat</h2>
      {!client && <ConnectFirst onOpenSettings={props.onOpenSettings} />}
      {client && (
        <SessionList client={client} currentId={st.sessionId} onOpen={(id) => void c.openSession(id)} refreshKey={st.sessionsVersion} active={props.active} />
      )}
      {client && st.turns.length === 0 && (
        <p class="qf-muted">
          Ask about your organisation's security, privacy or compliance: answers come from the documents in your library, each with its sources, and can go into
          the selected cell. To ask a questionnaire's question, select its cell in the sheet and choose "Ask about the selected question".
        </p>
      )}
      <div class="qf-chat-log" role="log" aria-live="polite" aria-label="Conversation">
        {st.turns.map((t) =>
          t.sender === 'user' ? (
            <div key={t.key} class="qf-bubble qf-bubble-user">
              <span class="qf-sr">You: </span>
              {t.text}
            </div>
          ) : (
            <div key={t.key} class="qf-bubble qf-bubble-assistant">
              <span class="qf-sr">Answer: </span>
              <div class="qf-answer">{t.text}</div>
              <AnswerTrust trust={t.trust} />
              <Sources sources={t.sources} />
              <InsertButton workbook={workbook} text={t.text} />
            </div>
          ),
        )}
      </div>
      <ErrorMessage error={st.error} />
      <label class="qf-field">
        <span>Question</span>
        <textarea
          ref={inputRef}
          class="qf-textarea"
          value={st.input}
          onInput={(e) => c.setInput(e.currentTarget.value)}
          onKeyDown={onKeyDown}
          placeholder="Ask the knowledge base… (Enter sends, Shift+Enter for a new line)"
          aria-describedby="qf-chat-help"
          maxLength={LIMITS.messageLength}
        />
      </label>
      <p id="qf-chat-help" class="qf-sr">
        Enter sends the question; Shift+Enter starts a new line.
      </p>
      <div class="qf-row">
        <button type="button" class="qf-btn qf-btn-primary" onClick={() => void c.send()} disabled={!client || st.busy || !st.input.trim()}>
          {st.busy ? 'Asking…' : 'Ask'}
        </button>
        <button type="button" class="qf-btn" onClick={() => void askAboutSelection()}>
          Ask about the selected question
        </button>
      </div>
      {st.hint && <Note kind="warn">{st.hint}</Note>}
      <div class="qf-row">
        <label class="qf-check">
          <input type="checkbox" checked={st.keep} onChange={(e) => c.setKeep(e.currentTarget.checked)} />
          <span>Keep conversation{st.sessionId !== null ? ' (continuing)' : ''}</span>
        </label>
        {st.sessionId !== null && (
          <button type="button" class="qf-link" onClick={c.newConversation}>
            New conversation
          </button>
        )}
      </div>
      <label class="qf-field">
        <span>Answer from</span>
        <select class="qf-select" value={st.fileId} onChange={(e) => c.setFileId(e.currentTarget.value)}>
          <option value="">The whole library</option>
          {st.files.map((f) => (
            <option key={f.id} value={String(f.id)}>
              {f.original_filename ?? `file ${f.id}`}
            </option>
          ))}
        </select>
      </label>
      {st.filesError !== null && <ErrorMessage error={st.filesError} />}
    </div>
  );
}
