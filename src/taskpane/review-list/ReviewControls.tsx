/** The top of the review: where it stands, "Next needing review", and the filters. */
import { SearchBox, Select, choicesOf, type Choice } from '../components/Controls';
import type { ReviewFilter } from '../review';
import type { ReviewFiltering } from './hooks';

const TRUST_CHOICES: Choice<ReviewFilter['trust']>[] = [
  { value: '', label: 'Any trust' },
  { value: 'high', label: 'High trust' },
  { value: 'medium', label: 'Medium trust' },
  { value: 'low', label: 'Low trust' },
  { value: 'none', label: 'No score' },
];

export interface ReviewCounts {
  answered: number;
  draft: number;
  untouched: number;
  needsReview: number;
}

/** "12 answered · 3 drafts · 1 untouched — 4 need review", and the button (Alt+N) to the next one needing review. */
export function ReviewHeadline(props: { counts: ReviewCounts; onNext: () => void }) {
  const { counts } = props;
  return (
    <>
      <p class="qf-headline" aria-label="Where the review stands">
        <strong>{counts.answered} answered</strong> · {counts.draft} draft{counts.draft === 1 ? '' : 's'} · {counts.untouched} untouched
        <span class="qf-muted qf-small">
          {' '}
          — {counts.needsReview === 0 ? 'nothing left to review' : `${counts.needsReview} need${counts.needsReview === 1 ? 's' : ''} review`}
        </span>
      </p>
      <div class="qf-row">
        <button type="button" class="qf-btn qf-btn-primary" onClick={props.onNext} aria-keyshortcuts="Alt+N" title="Alt+N" disabled={counts.needsReview === 0}>
          Next needing review (Alt+N)
        </button>
      </div>
    </>
  );
}

/** Filters by tab, section (where the tab has several), trust and "needs review", and the search box. */
export function ReviewFilters(props: { filtering: ReviewFiltering }) {
  const { filter, set, tabs, sections } = props.filtering;
  return (
    <>
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
    </>
  );
}
