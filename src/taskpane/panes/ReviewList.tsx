/**
 * The review list: where the work stands (answered · drafts · untouched), "Next needing review"
 * (button and Alt+N), filters by tab, section, trust and state; clicking one selects its cell in the
 * sheet and shows its answer beside what the cell holds now, its evaluation and evidence, the sides
 * of a conflict as one-click choices, and a correction pre-filled. The parent moves `selectedId`
 * when the analyst selects a cell in the sheet.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { QuestionWithAnswers, TrustLevel } from '../../api/schemas';
import type { CellRef } from '../../excel/types';
import { bySourceRank, slotResponseFor } from '../../fill/answer';
import { cellAt, cellName, foldMirrors, reviewItemOf, type CellAt } from '../../fill/mirrors';
import { CellWrite } from '../components/CellWrite';
import { SearchBox, Select, choicesOf, type Choice } from '../components/Controls';
import { Sources } from '../components/Sources';
import { Correction, draftKey, type CorrectFn } from './Correction';
import {
  EMPTY_FILTER,
  alternativesOf,
  chosenAnswer,
  conflictSides,
  correctionTargets,
  distinct,
  evaluationOf,
  filterQuestions,
  needsReview,
  nextNeedingReview,
  reviewCounts,
  reviewState,
  sectionOf,
  type Alternative,
  type ReviewFilter,
} from '../review';

const PAGE = 100;

const TRUST_CHOICES: Choice<ReviewFilter['trust']>[] = [
  { value: '', label: 'Any trust' },
  { value: 'high', label: 'High trust' },
  { value: 'medium', label: 'Medium trust' },
  { value: 'low', label: 'Low trust' },
  { value: 'none', label: 'No score' },
];


/** A reason as a sentence: ends with a full stop, so the next sentence does not run on. */
const sentence = (text: string) => (/[.!?]$/.test(text.trim()) || !text.trim() ? text.trim() : `${text.trim()}.`);
const cellId = (c: CellRef) => `${c.tab}!${c.address}`;

export function TrustBadge(props: { trust: TrustLevel | null | undefined; score?: number | null }) {
  if (!props.trust) return <span class="qf-badge qf-muted">no score</span>;
  return (
    <span class={`qf-badge qf-trust-${props.trust}`}>
      {props.trust}
      {props.score != null ? ` ${Math.round(props.score)}` : ''}
    </span>
  );
}

export interface CorrectionProps {
  drafts: Readonly<Record<string, string>>;
  onDraft: (key: string, text: string) => void;
  onCorrect: CorrectFn;
  /** What each answer cell holds now (`tab!A1` → text), once read. */
  current?: Readonly<Record<string, string>>;
  /** Values the last fill held back as drafts (`tab!A1` → text, dropdown values already fitted). */
  heldBack?: Readonly<Record<string, string>>;
}

/** The sides of a conflict between past answers, each one click away from its cells. */
function ConflictChoices(props: { question: QuestionWithAnswers; alternatives: Alternative[]; onCorrect?: CorrectFn }) {
  const q = props.question;
  const targets = correctionTargets(q);
  const sides = conflictSides(q) ?? props.alternatives.map((a) => `${a.questionnaire || a.source_file}: ${a.value}`).join(' · ');
  const choose = (alt: Alternative) => async (overwrite: boolean) => {
    const writes = targets.flatMap((t) => {
      const response = slotResponseFor(alt.slot_responses, t.slot);
      const text = response?.content ?? (t.slot.role === alt.slot_key ? alt.value : null);
      return text === null || text === undefined ? [] : [{ t, text }];
    });
    if (writes.length === 0) return { written: false, reason: 'This choice has nothing for these answer cells.' };
    for (const { t, text } of writes) {
      const r = await props.onCorrect!(q, t, text, overwrite);
      if (!r.written) return r;
    }
    return { written: true };
  };
  return (
    <div class="qf-msg qf-msg-warn" role="group" aria-label="Past answers disagree">
      <p>
        <strong>Past answers disagree:</strong> {sides}.
      </p>
      {props.onCorrect &&
        props.alternatives.map((alt, i) => (
          <CellWrite
            key={`${q.id}:${i}`}
            write={choose(alt)}
            label={`Use “${alt.value}” (${alt.questionnaire || alt.source_file})`}
            doneText={`Written: “${alt.value}” from ${alt.questionnaire || alt.source_file}.`}
          />
        ))}
    </div>
  );
}

/** Where a question repeated by formula on other tabs is answered, and where else it shows. */
export interface AnsweredWhere {
  /** The question's own answer cell, where it is answered (or the cell its formula shows). */
  at: CellAt | null;
  /** Cells on other tabs showing this answer by formula. */
  mirrors: CellAt[];
  /** The mirror the analyst selected in the sheet, if that is how the question came up. */
  selected?: CellAt | null;
}

function AnsweredAt(props: { where: AnsweredWhere }) {
  const { at, mirrors, selected } = props.where;
  if (!at) return null;
  return (
    <p class="qf-small" data-testid="answered-at">
      {selected ? `${cellName(selected)} repeats this question by formula. ` : ''}
      Answered at {cellName(at)}
      {mirrors.length > 0 ? `; shown again by formula at ${mirrors.map(cellName).join(', ')}` : ''}.
    </p>
  );
}

export function QuestionDetails(props: { question: QuestionWithAnswers; correction?: CorrectionProps; corrected?: boolean; where?: AnsweredWhere }) {
  const q = props.question;
  const answer = chosenAnswer(q);
  const ev = evaluationOf(q);
  const slotTexts = (answer?.slot_responses ?? []).filter((s) => s.content.trim());
  const headerOf = (key: string) => q.answer_slots?.find((s) => s.role === key || s.header === key)?.header ?? key;
  const alternatives = alternativesOf(q);
  const current = props.correction?.current;
  // What the cells hold now, beside the suggestion: say so when a cell holds something else.
  const differing = current
    ? correctionTargets(q).filter((t) => (current[cellId(t.cell)] ?? '').trim() !== '' && current[cellId(t.cell)]!.trim() !== t.value.trim())
    : [];
  return (
    <article class="qf-card" aria-label="Selected question" tabIndex={-1}>
      <p class="qf-small qf-muted">
        {q.tab_name}
        {sectionOf(q) ? ` › ${sectionOf(q)}` : ''}
        {q.original_id ? ` · ${q.original_id}` : ''}
      </p>
      <p>
        <strong>{q.original_question_text}</strong>
      </p>
      {props.where && <AnsweredAt where={props.where} />}
      {answer ? (
        <>
          <p class="qf-small qf-muted">Suggested answer</p>
          {slotTexts.length > 1 ? (
            <dl>
              {slotTexts.map((s) => (
                <div key={s.slot_key}>
                  <dt class="qf-small qf-muted">{headerOf(s.slot_key)}</dt>
                  <dd class="qf-answer" style={{ margin: 0 }}>
                    {s.content}
                  </dd>
                </div>
              ))}
            </dl>
          ) : (
            <p class="qf-answer" data-testid="answer-text">
              {answer.text || '(empty answer)'}
            </p>
          )}
          <p class="qf-small">
            <TrustBadge trust={ev?.trust} score={ev?.score} /> {ev ? `Score ${Math.round(ev.score)}/100. ${sentence(ev.reason)}` : 'No evaluation.'}
            {props.corrected ? ' Corrected by you.' : needsReview(q) ? ' Needs review.' : ''}
          </p>
        </>
      ) : (
        <p class="qf-muted">No answer was generated for this question: write one below, or ask about it in Chat.</p>
      )}
      {differing.length > 0 && (
        <div class="qf-msg qf-msg-warn" role="status" data-testid="cell-now">
          {differing.map((t) => (
            <p key={cellId(t.cell)}>
              {t.cell.tab}!{t.cell.address} already holds something else: “{current![cellId(t.cell)]}”
              {t.value ? ` (the suggestion is “${t.value}”)` : ''}.
            </p>
          ))}
        </div>
      )}
      {alternatives.length > 1 && <ConflictChoices question={q} alternatives={alternatives} onCorrect={props.correction?.onCorrect} />}
      {answer && (
        <Sources
          sources={bySourceRank(answer.source_evidence ?? []).map((e) => ({
            filename: e.filename,
            page: e.page_number,
            excerpt: e.content,
            score: e.relevance_score,
            thirdParty: e.third_party ?? null,
          }))}
        />
      )}
      {props.correction && <Correction question={q} {...props.correction} />}
    </article>
  );
}

/** Alt+N, from anywhere in the pane: the key that moves the review on (Option+N on a Mac; `code` is layout-proof). */
const isNextKey = (e: KeyboardEvent) => e.altKey && !e.ctrlKey && !e.metaKey && (e.code === 'KeyN' || e.key === 'n' || e.key === 'N');

export function ReviewList(props: {
  questions: readonly QuestionWithAnswers[];
  selectedId: number | null;
  onPick: (q: QuestionWithAnswers) => void;
  /** Writes a correction into the workbook; without it the review is read-only. */
  onCorrect?: CorrectFn;
  /** Questions the analyst corrected in this session. */
  corrected?: ReadonlySet<number>;
  /** Questions answered in the cells after the last fill (written by it, or already holding a value); null when unknown (e.g. a reopened pane). */
  written?: ReadonlySet<number> | null;
  /** Reads what cells hold now (for "the cell already holds something else"). */
  readValues?: (refs: CellRef[]) => Promise<string[]>;
  /** Values the last fill held back as drafts (`tab!A1` → text). */
  heldBack?: Readonly<Record<string, string>>;
}) {
  const [filter, setFilter] = useState<ReviewFilter>(EMPTY_FILTER);
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const [shown, setShown] = useState(PAGE);
  const [current, setCurrent] = useState<{ id: number; values: Record<string, string> } | null>(null);
  const written = props.written ?? null;
  // A question repeated by formula on other tabs is one item, answered where its answer cell is.
  const fold = useMemo(() => foldMirrors(props.questions), [props.questions]);
  const items = fold.items;
  const tabs = useMemo(() => distinct(items.map((q) => q.tab_name)), [items]);
  const sections = useMemo(() => distinct(items.filter((q) => !filter.tab || q.tab_name === filter.tab).map(sectionOf)), [items, filter.tab]);
  const visible = useMemo(() => filterQuestions(items, filter), [items, filter]);
  const counts = useMemo(() => reviewCounts(items, written, props.corrected), [items, written, props.corrected]);
  const picked = props.questions.find((q) => q.id === props.selectedId) ?? null;
  const selected = picked ? reviewItemOf(fold, props.questions, picked) : null;
  const where = useMemo((): AnsweredWhere | undefined => {
    if (!selected) return undefined;
    const mirrors = fold.mirroredAt.get(selected.id) ?? [];
    const own = fold.answeredAt.get(selected.id) ?? null;
    if (!own && mirrors.length === 0) return undefined;
    const answerSlot = (selected.answer_slots ?? []).find((s) => !s.is_blocked);
    const at = own ?? (answerSlot ? cellAt(answerSlot.coordinate, selected.tab_name) : null);
    const via = picked && picked.id !== selected.id ? picked : null;
    const viaSlot = via ? (via.answer_slots ?? []).find((s) => s.mirror_of) : undefined;
    return { at, mirrors, selected: via && viaSlot ? cellAt(viaSlot.coordinate, via.tab_name) : null };
  }, [selected, picked, fold]);
  const detailsRef = useRef<HTMLDivElement>(null);
  const focusCard = useRef(false);

  useEffect(() => {
    if (!selected) return;
    detailsRef.current?.scrollIntoView?.({ block: 'nearest' });
    if (focusCard.current) {
      focusCard.current = false;
      detailsRef.current?.querySelector<HTMLElement>('article')?.focus();
    }
  }, [selected?.id]);

  // What the selected question's cells hold now: read again whenever the selection or its answer changes.
  useEffect(() => {
    const read = props.readValues;
    if (!selected || !read) return;
    let gone = false;
    const cells = correctionTargets(selected).map((t) => t.cell);
    read(cells)
      .then((values) => !gone && setCurrent({ id: selected.id, values: Object.fromEntries(cells.map((c, i) => [cellId(c), values[i] ?? ''])) }))
      .catch(() => {
        /* only a hint: the suggestion is still shown */
      });
    return () => {
      gone = true;
    };
  }, [selected, props.readValues]);

  const next = () => {
    const q = nextNeedingReview(items, selected?.id ?? null, props.corrected);
    if (!q) return;
    // A filter hiding the question would leave it unseen in the list: the card shows it anyway.
    focusCard.current = true;
    props.onPick(q);
  };
  const nextRef = useRef(next);
  nextRef.current = next;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!isNextKey(e)) return;
      e.preventDefault();
      nextRef.current();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const set = (patch: Partial<ReviewFilter>) => {
    setFilter((f) => ({ ...f, ...patch }));
    setShown(PAGE);
  };

  return (
    <section aria-label="Review answers">
      <h3>Review</h3>
      <p class="qf-headline" aria-label="Where the review stands">
        <strong>{counts.answered} answered</strong> · {counts.draft} draft{counts.draft === 1 ? '' : 's'} · {counts.untouched} untouched
        <span class="qf-muted qf-small"> — {counts.needsReview === 0 ? 'nothing left to review' : `${counts.needsReview} need${counts.needsReview === 1 ? 's' : ''} review`}</span>
      </p>
      <div class="qf-row">
        <button type="button" class="qf-btn qf-btn-primary" onClick={next} aria-keyshortcuts="Alt+N" title="Alt+N" disabled={counts.needsReview === 0}>
          Next needing review (Alt+N)
        </button>
      </div>
      <div class="qf-filters">
        <Select label="Filter by tab" value={filter.tab} choices={choicesOf('All tabs', tabs)} onChange={(tab) => set({ tab, section: '' })} />
        {sections.length > 1 && (
          <Select label="Filter by section" value={filter.section} choices={choicesOf('All sections', sections)} onChange={(section) => set({ section })} />
        )}
        <Select label="Filter by trust" value={filter.trust} choices={TRUST_CHOICES} onChange={(trust) => set({ trust })} />
        <label class="qf-check">
          <input type="checkbox" checked={filter.needsReviewOnly} onChange={(e) => set({ needsReviewOnly: e.currentTarget.checked })} />
          <span>Needs review</span>
        </label>
      </div>
      <SearchBox label="Search questions" placeholder="Search questions" value={filter.text} onChange={(text) => set({ text })} />
      <div ref={detailsRef} class="qf-anchor">
        {selected && (
          <QuestionDetails
            question={selected}
            corrected={!!props.corrected?.has(selected.id)}
            {...(where ? { where } : {})}
            correction={
              props.onCorrect
                ? {
                    drafts,
                    onDraft: (key, text) => setDrafts((d) => ({ ...d, [key]: text })),
                    onCorrect: props.onCorrect,
                    ...(current?.id === selected.id ? { current: current.values } : {}),
                    ...(props.heldBack ? { heldBack: props.heldBack } : {}),
                  }
                : undefined
            }
          />
        )}
      </div>
      <p class="qf-small qf-muted" role="status">
        {visible.length} of {items.length} questions
      </p>
      <ul class="qf-list" aria-label="Questions">
        {visible.slice(0, shown).map((q) => {
          const ev = evaluationOf(q);
          const st = reviewState(q, written, props.corrected);
          return (
            <li key={q.id}>
              <button type="button" class="qf-q" aria-current={q.id === selected?.id} onClick={() => props.onPick(q)}>
                <span class="qf-small qf-muted">{q.original_id ?? `#${q.order ?? q.id}`} </span>
                {q.original_question_text} <TrustBadge trust={ev?.trust} score={ev?.score} />
                {fold.answeredAt.has(q.id) && <span class="qf-small qf-muted"> · answered at {cellName(fold.answeredAt.get(q.id)!)}</span>}
                {props.corrected?.has(q.id) ? (
                  <span class="qf-small qf-muted"> · corrected</span>
                ) : (
                  <>
                    {st !== 'answered' && <span class="qf-small qf-muted"> · {st}</span>}
                    {needsReview(q) && <span class="qf-small qf-muted"> · review</span>}
                  </>
                )}
              </button>
            </li>
          );
        })}
      </ul>
      {visible.length > shown && (
        <button type="button" class="qf-btn" onClick={() => setShown((n) => n + PAGE)}>
          Show {Math.min(PAGE, visible.length - shown)} more
        </button>
      )}
    </section>
  );
}

export { draftKey };
