/**
 * The review list: filter questions by tab, section, trust and "needs review"; clicking one selects its
 * cell in the sheet and shows its answer, score, evaluation and evidence. The parent moves `selectedId`
 * when the analyst selects a cell in the sheet.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { QuestionWithAnswers, TrustLevel } from '../../api/schemas';
import { SearchBox, Select, choicesOf, type Choice } from '../components/Controls';
import { Sources } from '../components/Sources';
import { Correction, type CorrectFn } from './Correction';
import {
  EMPTY_FILTER,
  chosenAnswer,
  distinct,
  evaluationOf,
  filterQuestions,
  needsReview,
  sectionOf,
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
}

export function QuestionDetails(props: { question: QuestionWithAnswers; correction?: CorrectionProps }) {
  const q = props.question;
  const answer = chosenAnswer(q);
  const ev = evaluationOf(q);
  const slotTexts = (answer?.slot_responses ?? []).filter((s) => s.content.trim());
  const headerOf = (key: string) => q.answer_slots?.find((s) => s.role === key || s.header === key)?.header ?? key;
  return (
    <article class="qf-card" aria-label="Selected question">
      <p class="qf-small qf-muted">
        {q.tab_name}
        {sectionOf(q) ? ` › ${sectionOf(q)}` : ''}
        {q.original_id ? ` · ${q.original_id}` : ''}
      </p>
      <p>
        <strong>{q.original_question_text}</strong>
      </p>
      {answer ? (
        <>
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
            {needsReview(q) ? ' Needs review.' : ''}
          </p>
          <Sources
            sources={(answer.source_evidence ?? []).map((e) => ({
              filename: e.filename,
              page: e.page_number,
              excerpt: e.content,
              score: e.relevance_score,
              thirdParty: e.third_party ?? null,
            }))}
          />
        </>
      ) : (
        <p class="qf-muted">No answer was generated for this question: write one below, or ask about it in Chat.</p>
      )}
      {props.correction && <Correction question={q} {...props.correction} />}
    </article>
  );
}

export function ReviewList(props: {
  questions: readonly QuestionWithAnswers[];
  selectedId: number | null;
  onPick: (q: QuestionWithAnswers) => void;
  /** Writes a correction into the workbook; without it the review is read-only. */
  onCorrect?: CorrectFn;
  /** Questions the analyst corrected in this session. */
  corrected?: ReadonlySet<number>;
}) {
  const [filter, setFilter] = useState<ReviewFilter>(EMPTY_FILTER);
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const [shown, setShown] = useState(PAGE);
  const tabs = useMemo(() => distinct(props.questions.map((q) => q.tab_name)), [props.questions]);
  const sections = useMemo(
    () => distinct(props.questions.filter((q) => !filter.tab || q.tab_name === filter.tab).map(sectionOf)),
    [props.questions, filter.tab],
  );
  const visible = useMemo(() => filterQuestions(props.questions, filter), [props.questions, filter]);
  const selected = props.questions.find((q) => q.id === props.selectedId) ?? null;
  const detailsRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (selected) detailsRef.current?.scrollIntoView?.({ block: 'nearest' });
  }, [selected?.id]);

  const set = (patch: Partial<ReviewFilter>) => {
    setFilter((f) => ({ ...f, ...patch }));
    setShown(PAGE);
  };

  return (
    <section aria-label="Review answers">
      <h3>Review</h3>
      <div class="qf-filters">
        <Select label="Filter by tab" value={filter.tab} choices={choicesOf('All tabs', tabs)} onChange={(tab) => set({ tab, section: '' })} />
        {sections.length > 0 && (
          <Select label="Filter by section" value={filter.section} choices={choicesOf('All sections', sections)} onChange={(section) => set({ section })} />
        )}
        <Select label="Filter by trust" value={filter.trust} choices={TRUST_CHOICES} onChange={(trust) => set({ trust })} />
        <label class="qf-check">
          <input type="checkbox" checked={filter.needsReviewOnly} onChange={(e) => set({ needsReviewOnly: e.currentTarget.checked })} />
          <span>Needs review</span>
        </label>
      </div>
      <SearchBox label="Search questions" placeholder="Search questions" value={filter.text} onChange={(text) => set({ text })} />
      <div ref={detailsRef} class="qf-anchor">{selected && (
          <QuestionDetails
            question={selected}
            correction={
              props.onCorrect
                ? { drafts, onDraft: (key, text) => setDrafts((d) => ({ ...d, [key]: text })), onCorrect: props.onCorrect }
                : undefined
            }
          />
        )}</div>
      <p class="qf-small qf-muted" role="status">
        {visible.length} of {props.questions.length} questions
      </p>
      <ul class="qf-list" aria-label="Questions">
        {visible.slice(0, shown).map((q) => {
          const ev = evaluationOf(q);
          return (
            <li key={q.id}>
              <button type="button" class="qf-q" aria-current={q.id === props.selectedId} onClick={() => props.onPick(q)}>
                <span class="qf-small qf-muted">{q.original_id ?? `#${q.order ?? q.id}`} </span>
                {q.original_question_text} <TrustBadge trust={ev?.trust} score={ev?.score} />
                {props.corrected?.has(q.id) ? (
                  <span class="qf-small qf-muted"> · corrected</span>
                ) : (
                  needsReview(q) && <span class="qf-small qf-muted"> · review</span>
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
