/**
 * The Library pane's "Answers" view (extension "answers.library"), loaded on demand: the entries the
 * product reuses, searched with the retrieval answering uses, filtered (conflicts, review due, not
 * approved, by offering, by source), paged and keyboard-friendly (arrow keys move, Enter opens);
 * an entry's detail with edit, approve, retire and restore; conflicts side by side to settle once; an
 * answer added by hand. The state lives in the controllers beside it; this renders them.
 */
import type { RefObject } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { LIBRARY_FILTERS, type LibraryEntry, type LibraryFilter } from '../../api/library';
import { LibraryClient } from '../../api/library-client';
import { ReplayClient } from '../../api/replay-client';
import { LIMITS, type Offering, type RepositoryFile } from '../../api/schemas';
import { Pager, SearchBox, Select, type Choice } from '../components/Controls';
import { ErrorMessage } from '../components/Message';
import type { Extensions } from '../library/state';
import type { TaskpaneApi } from '../types';
import { useStore } from '../use-store';
import { AddEntry } from './AddEntry';
import { createAddEntry } from './add';
import { ConflictGroups } from './ConflictGroups';
import { createConflicts } from './conflicts';
import { EntryBadges } from './EntryBadges';
import { EntryDetail } from './EntryDetail';
import { createEntry } from './entry';
import { createEntryList, ENTRIES_PAGE, type EntryListState } from './list';
import { ReplayCard } from './ReplayCard';
import { createReplayCard } from './replay';
import { ReviewAge } from './ReviewAge';
import { createReviewAge } from './review-age';
import { FILTER_LABELS, runsBy, sectionText, sourceText } from './words';

export interface AnswersViewProps {
  client: Pick<TaskpaneApi, 'extensionTransport' | 'listRepositoryFiles' | 'getCurrentKey'>;
  offerings: readonly Offering[];
  /** Whether the Library tab is shown: coming back to it lists the entries again (a fill or an upload may have changed them). */
  active: boolean;
  /** What the service announced (GET /extensions/): the view calls only those extensions. */
  ext: Pick<Extensions, 'replay' | 'keysCurrent'>;
}

const FILTER_CHOICES: Choice<LibraryFilter | ''>[] = [
  { value: '', label: 'All answers' },
  ...LIBRARY_FILTERS.map((f) => ({ value: f, label: FILTER_LABELS[f] })),
];
const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** Files that gave the library answers (completed questionnaires, Q&A sheets): the "by source" choices. */
function useSourceFiles(client: AnswersViewProps['client']): RepositoryFile[] {
  const [files, setFiles] = useState<RepositoryFile[]>([]);
  useEffect(() => {
    const ctl = new AbortController();
    client
      .listRepositoryFiles({ status: 'ready', page_size: LIMITS.pageSizeMax, ordering: 'original_filename' }, { signal: ctl.signal })
      .then((r) => !ctl.signal.aborted && setFiles(r.results.filter((f) => (f.qa_count ?? 0) > 0)))
      .catch(() => undefined); // without the list the filter offers "Any source" alone
    return () => ctl.abort();
  }, [client]);
  return files;
}

/** Whose key this is, for who may start a replay; null where the service does not say (no "keys.current"). */
const replayRole = (client: AnswersViewProps['client'], announced: boolean) => async () => {
  if (!announced) return null;
  const k = await client.getCurrentKey();
  return { role: k.user.role, read_only: k.read_only };
};

type ListState = EntryListState;

function AnswerFilters(props: { list: ReturnType<typeof createEntryList>; state: ListState; offerings: readonly Offering[]; sources: RepositoryFile[] }) {
  const { list, state: s } = props;
  const offeringChoices: Choice<string>[] = [{ value: '', label: 'Any offering' }, ...props.offerings.map((o) => ({ value: String(o.id), label: o.name }))];
  const sourceChoices: Choice<string>[] = [
    { value: '', label: 'Any source' },
    ...props.sources.map((f) => ({ value: String(f.id), label: f.original_filename ?? `file ${f.id}` })),
  ];
  return (
    <div role="search" aria-label="Find answers">
      <SearchBox label="Search answers" placeholder="Search questions and answers" value={s.q} onChange={list.setSearch} />
      <div class="qf-filters">
        <Select label="Filter answers" value={s.filter} choices={FILTER_CHOICES} onChange={list.setFilter} />
        <Select
          label="Filter by offering"
          value={s.offeringId ? String(s.offeringId) : ''}
          choices={offeringChoices}
          onChange={(v) => list.setOffering(v ? Number(v) : null)}
        />
        <Select
          label="Filter by source"
          value={s.fileId ? String(s.fileId) : ''}
          choices={sourceChoices}
          onChange={(v) => list.setFile(v ? Number(v) : null)}
        />
      </div>
    </div>
  );
}

interface AnswerResultsProps {
  list: ReturnType<typeof createEntryList>;
  state: ListState;
  listbox: RefObject<HTMLUListElement | null>;
  onOpen: (id: number) => void;
  onKeyDown: (e: KeyboardEvent) => void;
}

/** One entry of the list: an option of the listbox, the cursor's outlined. */
function EntryOption(props: { entry: LibraryEntry; index: number; cursor: number; onPick: () => void }) {
  const { entry: e, index: i } = props;
  return (
    <li
      id={`qf-answer-${e.id}`}
      role="option"
      aria-selected={i === props.cursor}
      style={i === props.cursor ? { outline: '2px solid var(--qf-accent, currentColor)' } : undefined}
      onClick={props.onPick}
    >
      <div>
        <strong>{e.question}</strong> <EntryBadges entry={e} />
      </div>
      <div class="qf-answer">{e.answer}</div>
      <div class="qf-small qf-muted">
        {sourceText(e)}
        {e.section ? ` · ${e.section}` : ''} · as of {e.as_of}
      </div>
    </li>
  );
}

/** The entries found, a keyboard listbox: the cursor is the active descendant. */
function AnswerResults({ list, state: s, listbox, onOpen, onKeyDown }: AnswerResultsProps) {
  const cursorId = s.list?.results[s.cursor] ? `qf-answer-${s.list.results[s.cursor]!.id}` : undefined;
  return (
    <section aria-label="Answers found">
      <ErrorMessage error={s.error} />
      {s.list && (
        <p class="qf-small qf-muted" role="status">
          {plural(s.list.count, 'answer')}
          {s.list.count > 0 ? ' · ↑ ↓ to move, Enter to open' : ''}
        </p>
      )}
      {s.list && s.list.results.length === 0 && (
        <p class="qf-muted">
          {s.q || s.filter || s.offeringId || s.fileId
            ? 'No answers match.'
            : 'No reusable answers yet: upload a completed questionnaire or a Q&A sheet under Files, or add one by hand.'}
        </p>
      )}
      {s.list && s.list.results.length > 0 && (
        <ul
          ref={listbox}
          class="qf-list"
          role="listbox"
          aria-label="Answers"
          tabIndex={0}
          aria-activedescendant={cursorId}
          aria-busy={s.loading}
          onKeyDown={onKeyDown}
        >
          {s.filter === 'review_due'
            ? // Review due is worked through by section: each section's answers under its heading.
              runsBy(s.list.results, sectionText).map((run) => (
                <li key={`${run.heading}-${run.items[0]!.index}`} role="presentation">
                  <ul class="qf-list" role="group" aria-label={`Section ${run.heading}`}>
                    <li role="presentation" aria-hidden="true" class="qf-small">
                      <strong>{run.heading}</strong>
                    </li>
                    {run.items.map(({ item, index }) => (
                      <EntryOption key={item.id} entry={item} index={index} cursor={s.cursor} onPick={() => (list.setCursor(index), onOpen(item.id))} />
                    ))}
                  </ul>
                </li>
              ))
            : s.list.results.map((e, i) => <EntryOption key={e.id} entry={e} index={i} cursor={s.cursor} onPick={() => (list.setCursor(i), onOpen(e.id))} />)}
        </ul>
      )}
      {s.list && <Pager page={s.page} count={s.list.count} pageSize={ENTRIES_PAGE} hasNext={s.list.hasNext} onPage={list.setPage} />}
    </section>
  );
}

export function AnswersView(props: AnswersViewProps) {
  // Built here, not in the client: the library's schemas load with this view, not with the first paint.
  const api = useMemo(() => new LibraryClient(props.client.extensionTransport), [props.client]);
  const list = useMemo(() => createEntryList(api), [api]);
  const entry = useMemo(() => createEntry(api, (d) => list.replace(d)), [api, list]);
  const conflicts = useMemo(() => createConflicts(api, () => list.load()), [api, list]);
  const add = useMemo(() => createAddEntry(api, (d) => (list.load(), void entry.open(d.id))), [api, list, entry]);
  const wasActive = useRef(props.active);
  useEffect(() => {
    if (props.active && !wasActive.current) list.load();
    wasActive.current = props.active;
  }, [props.active, list]);
  const reviewAge = useMemo(() => createReviewAge(api), [api]);
  const { replay: replayOffered, keysCurrent } = props.ext;
  const replay = useMemo(
    () => (replayOffered ? createReplayCard(new ReplayClient(props.client.extensionTransport), replayRole(props.client, keysCurrent)) : null),
    [props.client, replayOffered, keysCurrent],
  );
  useEffect(() => () => replay?.dispose(), [replay]);
  useEffect(() => {
    list.load();
    return () => {
      list.dispose();
      entry.dispose();
      conflicts.dispose();
      add.dispose();
      reviewAge.dispose();
    };
  }, [list, entry, conflicts, add, reviewAge]);
  const s = useStore(list);
  const opened = useStore(entry).id;
  const sources = useSourceFiles(props.client);

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      list.move(e.key === 'ArrowDown' ? 1 : -1);
    } else if (e.key === 'Enter') {
      const current = list.current();
      if (current) {
        e.preventDefault();
        void entry.open(current.id);
      }
    }
  };

  // Back from an entry, the keyboard is where it was: on the list, at the entry it opened.
  const listbox = useRef<HTMLUListElement>(null);
  const wasOpen = useRef(false);
  useEffect(() => {
    if (opened === null && wasOpen.current) listbox.current?.focus();
    wasOpen.current = opened !== null;
  }, [opened]);

  if (opened !== null) return <EntryDetail entry={entry} offerings={props.offerings} onClose={entry.close} />;

  return (
    <section aria-label="Answer library">
      <AnswerFilters list={list} state={s} offerings={props.offerings} sources={sources} />
      <AddEntry add={add} offerings={props.offerings} />
      <ReviewAge reviewAge={reviewAge} />
      {replay && <ReplayCard replay={replay} />}
      {s.filter === 'conflicts' && !s.q.trim() && !s.fileId ? (
        <ConflictGroups conflicts={conflicts} offerings={props.offerings} offeringId={s.offeringId ?? null} />
      ) : (
        <AnswerResults list={list} state={s} listbox={listbox} onOpen={(id) => void entry.open(id)} onKeyDown={onKeyDown} />
      )}
    </section>
  );
}
