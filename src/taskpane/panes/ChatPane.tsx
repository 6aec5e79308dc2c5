/**
 * Ask the knowledge base. Stateless by default (`ask`); "keep conversation" holds a session
 * (`createSession` + `sendMessage`). Every answer shows its sources and can go into the selected cell.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { LIMITS, type ChatSession, type QuestionWithAnswers, type RepositoryFile } from '../../api/schemas';
import type { WorkbookAdapter } from '../../excel/types';
import { ConnectFirst, ErrorMessage, Note } from '../components/Message';
import { CellWrite } from '../components/CellWrite';
import { Pager, SearchBox } from '../components/Controls';
import { Sources, thirdPartyOf, type SourceItem } from '../components/Sources';
import { bySourceRank } from '../../fill/answer';
import { findQuestionAt } from '../review';
import type { TaskpaneApi } from '../types';

interface Turn {
  key: number;
  sender: 'user' | 'assistant';
  text: string;
  sources: SourceItem[];
  /** The service's trust in this answer (extension), when it gives one. */
  trust?: string | null;
}

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

const SESSIONS_PAGE = 10;
let turnKeys = 0;

function turnsOf(session: ChatSession): Turn[] {
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
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [data, setData] = useState<{ count: number; results: ChatSession[]; hasNext: boolean } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(false);

  useEffect(() => {
    if (!props.active) return;
    const ctl = new AbortController();
    setLoading(true);
    const timer = setTimeout(() => {
      props.client
        .listSessions({ page, page_size: SESSIONS_PAGE, ...(search.trim() ? { search: search.trim() } : {}) }, { signal: ctl.signal })
        .then((r) => {
          setData({ count: r.count, results: r.results, hasNext: r.next !== null });
          setError(null);
        })
        .catch((e) => !ctl.signal.aborted && setError(e))
        .finally(() => !ctl.signal.aborted && setLoading(false));
    }, search ? 250 : 0); // wait for typing to pause before searching
    return () => {
      clearTimeout(timer);
      ctl.abort();
    };
  }, [props.client, page, search, props.refreshKey, props.active]);

  return (
    <details class="qf-card">
      <summary>Conversations{data ? ` (${data.count})` : ''}</summary>
      <SearchBox
        label="Search conversations"
        placeholder="Search conversations"
        value={search}
        onChange={(text) => (setSearch(text), setPage(1))}
      />
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
      {data && <Pager page={page} count={data.count} pageSize={SESSIONS_PAGE} hasNext={data.hasNext} onPage={setPage} />}
    </details>
  );
}

export function ChatPane(props: ChatPaneProps) {
  const { client, workbook } = props;
  const [input, setInput] = useState('');
  const [turns, setTurns] = useState<Turn[]>([]);
  const [keep, setKeep] = useState(false);
  const [sessionId, setSessionId] = useState<number | null>(null);
  const [fileId, setFileId] = useState('');
  const [files, setFiles] = useState<RepositoryFile[]>([]);
  const [filesError, setFilesError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [hint, setHint] = useState<string | null>(null);
  const [sessionsVersion, setSessionsVersion] = useState(0);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (props.connectionEpoch) setError(null);
  }, [props.connectionEpoch]);

  // The "restrict to a file" list: ready files only, loaded when the pane is first shown.
  useEffect(() => {
    if (!client || !props.active) return;
    const ctl = new AbortController();
    client
      .listRepositoryFiles({ status: 'ready', page_size: LIMITS.pageSizeMax, ordering: 'original_filename' }, { signal: ctl.signal })
      .then((r) => {
        setFiles(r.results);
        setFilesError(null);
      })
      .catch((e) => !ctl.signal.aborted && setFilesError(e));
    return () => ctl.abort();
  }, [client, props.active]);

  const send = async () => {
    const question = input.trim();
    if (!client || !question || busy) return;
    if (question.length > LIMITS.messageLength) {
      setError(`The question is ${question.length} characters long; the service accepts at most ${LIMITS.messageLength}. Shorten it.`);
      return;
    }
    setBusy(true);
    setError(null);
    const file = fileId ? Number(fileId) : undefined;
    try {
      if (keep) {
        let id = sessionId;
        if (id === null) {
          const created = await client.createSession({ title: question.slice(0, LIMITS.sessionTitleLength) });
          id = created.id;
          setSessionId(id);
        }
        const session = await client.sendMessage(id, { message: question, ...(file ? { file_id: file } : {}) });
        setTurns(turnsOf(session));
        setSessionsVersion((v) => v + 1);
      } else {
        const answer = await client.ask({ question, ...(file ? { file_id: file } : {}) });
        setTurns((t) => [
          ...t,
          { key: ++turnKeys, sender: 'user', text: question, sources: [] },
          {
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
          },
        ]);
      }
      setInput(''); // only once the answer is in: a failed question stays in the box
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      void send();
    }
  };

  const askAboutSelection = async () => {
    setHint(null);
    try {
      const ref = await workbook.getSelection();
      if (!ref) {
        setHint('Select a cell of a question in the sheet first.');
        return;
      }
      if (props.questions.length === 0) {
        setHint('No questionnaire is known for this workbook yet: fill it first (Fill tab), or type the question.');
        return;
      }
      const q = findQuestionAt(props.questions, ref);
      if (!q) {
        setHint(`The selected cell ${ref.tab}!${ref.address} does not belong to a question of this questionnaire.`);
        return;
      }
      setInput(q.original_question_text);
      inputRef.current?.focus();
    } catch (e) {
      setError(e);
    }
  };

  const openSession = async (id: number) => {
    if (!client) return;
    setError(null);
    try {
      const session = await client.getSession(id);
      setTurns(turnsOf(session));
      setSessionId(session.id);
      setKeep(true);
    } catch (e) {
      setError(e);
    }
  };

  const newConversation = () => {
    setSessionId(null);
    setTurns([]);
    setError(null);
  };

  return (
    <div>
      <h2>Chat</h2>
      {!client && <ConnectFirst onOpenSettings={props.onOpenSettings} />}
      {client && <SessionList client={client} currentId={sessionId} onOpen={openSession} refreshKey={sessionsVersion} active={props.active} />}
      {client && turns.length === 0 && (
        <p class="qf-muted">
          Ask about your organisation's security, privacy or compliance: answers come from the documents in your library, each with its
          sources, and can go into the selected cell. To ask a questionnaire's question, select its cell in the sheet and choose "Ask about
          the selected question".
        </p>
      )}
      <div class="qf-chat-log" role="log" aria-live="polite" aria-label="Conversation">
        {turns.map((t) =>
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
      <ErrorMessage error={error} />
      <label class="qf-field">
        <span>Question</span>
        <textarea
          ref={inputRef}
          class="qf-textarea"
          value={input}
          onInput={(e) => setInput(e.currentTarget.value)}
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
        <button type="button" class="qf-btn qf-btn-primary" onClick={send} disabled={!client || busy || !input.trim()}>
          {busy ? 'Asking…' : 'Ask'}
        </button>
        <button type="button" class="qf-btn" onClick={askAboutSelection}>
          Ask about the selected question
        </button>
      </div>
      {hint && <Note kind="warn">{hint}</Note>}
      <div class="qf-row">
        <label class="qf-check">
          <input
            type="checkbox"
            checked={keep}
            onChange={(e) => {
              setKeep(e.currentTarget.checked);
              if (!e.currentTarget.checked) setSessionId(null);
            }}
          />
          <span>Keep conversation{sessionId !== null ? ' (continuing)' : ''}</span>
        </label>
        {sessionId !== null && (
          <button type="button" class="qf-link" onClick={newConversation}>
            New conversation
          </button>
        )}
      </div>
      <label class="qf-field">
        <span>Answer from</span>
        <select class="qf-select" value={fileId} onChange={(e) => setFileId(e.currentTarget.value)}>
          <option value="">The whole library</option>
          {files.map((f) => (
            <option key={f.id} value={String(f.id)}>
              {f.original_filename ?? `file ${f.id}`}
            </option>
          ))}
        </select>
      </label>
      {filesError !== null && <ErrorMessage error={filesError} />}
    </div>
  );
}
