/** The questions the filters let through, a page at a time: each with its trust, where it is answered, and where it stands. */
import type { QuestionWithAnswers } from '../../api/schemas';
import { cellName, type FoldedQuestions } from '../../fill/mirrors';
import { evaluationOf, needsReview, reviewState } from '../review';
import { PAGE, type ReviewFiltering } from './hooks';
import { TrustBadge } from './TrustBadge';

export interface QuestionItemsProps {
  filtering: ReviewFiltering;
  /** How many review items there are in all ("3 of 40 questions"). */
  total: number;
  fold: FoldedQuestions;
  selectedId: number | undefined;
  onPick: (q: QuestionWithAnswers) => void;
  written: ReadonlySet<number> | null;
  corrected: ReadonlySet<number> | undefined;
}

function QuestionItem(props: Omit<QuestionItemsProps, 'filtering' | 'total'> & { question: QuestionWithAnswers }) {
  const { question: q, fold, corrected } = props;
  const ev = evaluationOf(q);
  const st = reviewState(q, props.written, corrected);
  return (
    <li>
      <button type="button" class="qf-q" aria-current={q.id === props.selectedId} onClick={() => props.onPick(q)}>
        <span class="qf-small qf-muted">{q.original_id ?? `#${q.order ?? q.id}`} </span>
        {q.original_question_text} <TrustBadge trust={ev?.trust} score={ev?.score} />
        {fold.answeredAt.has(q.id) && <span class="qf-small qf-muted"> · answered at {cellName(fold.answeredAt.get(q.id)!)}</span>}
        {corrected?.has(q.id) ? (
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
}

export function QuestionItems(props: QuestionItemsProps) {
  const { visible, shown, showMore } = props.filtering;
  return (
    <>
      <p class="qf-small qf-muted" role="status">
        {visible.length} of {props.total} questions
      </p>
      <ul class="qf-list" aria-label="Questions">
        {visible.slice(0, shown).map((q) => (
          <QuestionItem
            key={q.id}
            question={q}
            fold={props.fold}
            selectedId={props.selectedId}
            onPick={props.onPick}
            written={props.written}
            corrected={props.corrected}
          />
        ))}
      </ul>
      {visible.length > shown && (
        <button type="button" class="qf-btn" onClick={showMore}>
          Show {Math.min(PAGE, visible.length - shown)} more
        </button>
      )}
    </>
  );
}
