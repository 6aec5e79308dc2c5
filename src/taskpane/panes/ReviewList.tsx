/**
 * The review list: where the work stands (answered · drafts · untouched), "Next needing review"
 * (button and Alt+N), filters by tab, section, trust and state; clicking one selects its cell in the
 * sheet and shows its answer beside what the cell holds now, its evaluation and evidence, the sides
 * of a conflict as one-click choices, and a correction pre-filled. The parent moves `selectedId`
 * when the analyst selects a cell in the sheet. Its parts are in src/taskpane/review-list.
 */
import { useMemo, useState } from 'preact/hooks';
import type { QuestionWithAnswers } from '../../api/schemas';
import type { CellRef } from '../../excel/types';
import { foldMirrors, reviewItemOf } from '../../fill/mirrors';
import { nextNeedingReview, reviewCounts } from '../review';
import { answeredWhere } from '../review-list/answered-where';
import { useCardInView, useCurrentValues, useNextKey, useReviewFilter } from '../review-list/hooks';
import { QuestionDetails } from '../review-list/QuestionDetails';
import { QuestionItems } from '../review-list/QuestionItems';
import { ReviewFilters, ReviewHeadline } from '../review-list/ReviewControls';
import type { CorrectFn } from './Correction';

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
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const written = props.written ?? null;
  // A question repeated by formula on other tabs is one item, answered where its answer cell is.
  const fold = useMemo(() => foldMirrors(props.questions), [props.questions]);
  const items = fold.items;
  const filtering = useReviewFilter(items);
  const counts = useMemo(() => reviewCounts(items, written, props.corrected), [items, written, props.corrected]);
  const picked = props.questions.find((q) => q.id === props.selectedId) ?? null;
  const selected = picked ? reviewItemOf(fold, props.questions, picked) : null;
  const where = useMemo(() => (selected ? answeredWhere(fold, selected, picked) : undefined), [selected, picked, fold]);
  const current = useCurrentValues(selected, props.readValues);
  const card = useCardInView(selected?.id);

  const next = () => {
    const q = nextNeedingReview(items, selected?.id ?? null, props.corrected);
    if (!q) return;
    // A filter hiding the question would leave it unseen in the list: the card shows it anyway.
    card.focusNext();
    props.onPick(q);
  };
  useNextKey(next);

  return (
    <section aria-label="Review answers">
      <h3>Review</h3>
      <ReviewHeadline counts={counts} onNext={next} />
      <ReviewFilters filtering={filtering} />
      <div ref={card.detailsRef} class="qf-anchor">
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
                    ...(current ? { current } : {}),
                    ...(props.heldBack ? { heldBack: props.heldBack } : {}),
                  }
                : undefined
            }
          />
        )}
      </div>
      <QuestionItems
        filtering={filtering}
        total={items.length}
        fold={fold}
        selectedId={selected?.id}
        onPick={props.onPick}
        written={written}
        corrected={props.corrected}
      />
    </section>
  );
}
