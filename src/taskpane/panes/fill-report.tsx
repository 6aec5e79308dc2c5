/** What the Fill pane shows after writing: the report, and why nothing was written when nothing was. */
import type { ApplyResult } from '../../excel/types';
import type { SkipReason, WritePlan } from '../../fill/types';

// Partial: src/fill may add reasons; an unknown one is shown by its id.
export const SKIP_REASON_TEXT: Partial<Record<SkipReason, string>> = {
  blocked: 'blocked by the questionnaire',
  formula: 'cell holds a formula',
  occupied: 'cell already filled (overwrite is off)',
  missing_tab: 'tab not found in this workbook',
  no_value: 'no answer for this cell',
  not_allowed: "answer not among the cell's allowed values",
  protected: 'sheet is protected',
  bad_coordinate: 'unreadable cell address',
  duplicate: 'another answer writes the same cell',
  no_slot: 'no answer cell for this question',
  draft: 'a draft, kept for review (not defensible as it is)',
};

const SKIPPED_SHOWN = 200;

/** What to do about each reason a fill wrote nothing, most frequent first. */
const NEXT_STEP: Partial<Record<SkipReason, string>> = {
  occupied:
    'The answer cells already hold values. To replace them, tick "Overwrite cells that already hold a value" and choose "Write again with these options"; formulas are never touched and Undo fill puts everything back.',
  no_value: 'The knowledge base had no answers for these questions. Add documents in the Library tab, then fill again.',
  no_slot: 'The service found no answer cells for these questions. Check that the answer column has a header such as "Answer" or "Response".',
  protected: 'The answer cells are locked on protected sheets. Unprotect the sheets (Review › Unprotect Sheet), then write again.',
  missing_tab: 'The sheets the questions were found on are no longer in this workbook (renamed or deleted). Fill the workbook again.',
  formula: 'The answer cells hold formulas, which are never overwritten.',
  not_allowed: "The answers did not fit the cells' drop-down lists. Pick a value for each in the review below.",
  blocked: 'The questionnaire marks these cells as not to be filled.',
  draft: 'The answers are drafts (low trust, or free text without a list answer beside it): check them in the review below, or tick "Also write drafts into cells" and write again.',
};

/**
 * Why a fill wrote nothing, the most frequent real reason first. Cells an earlier fill of this workbook
 * wrote are "already filled by that fill", not the analyst's values and not missing answers.
 */
export function nothingWrittenAdvice(plan: WritePlan, result: Pick<ApplyResult, 'failed'>, earlier = 0, earlierAt: string | null = null): string[] {
  if (plan.writes.length > 0 && result.failed.length > 0) {
    return ['Excel refused the writes: the cells and reasons are listed below. Fix them, then choose "Write again with these options".'];
  }
  const counts = { ...plan.report.byReason };
  const lines: string[] = [];
  if (earlier > 0) {
    counts.occupied = (counts.occupied ?? 0) - earlier;
    lines.push(
      `${earlier} answer cell${earlier === 1 ? '' : 's'} already hold${earlier === 1 ? 's' : ''} the answers of the earlier fill of this workbook${
        earlierAt ? ` (${new Date(earlierAt).toLocaleString()})` : ''
      }: there was nothing new to write.`,
    );
  }
  const reasons = (Object.entries(counts) as [SkipReason, number][]).filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1]);
  lines.push(...reasons.map(([reason]) => NEXT_STEP[reason]).filter((line): line is string => !!line));
  return lines.length > 0 ? lines : ['This workbook has no answer cells the pane could write. Check the skipped cells below.'];
}

export function WriteReport(props: { plan: WritePlan; result: Pick<ApplyResult, 'written' | 'failed'>; earlier?: number; earlierAt?: string | null }) {
  const { plan, result } = props;
  const reasons = Object.entries(plan.report.byReason).filter(([, n]) => n) as [SkipReason, number][];
  return (
    <section aria-label="Fill report">
      <h3>Report</h3>
      <p role="status">
        Wrote {result.written} cell{result.written === 1 ? '' : 's'}; skipped {plan.report.skipped}
        {result.failed.length ? `; ${result.failed.length} failed` : ''}.
        {props.earlier && result.written > 0
          ? ` ${props.earlier} more already held the earlier fill's answers: ${result.written + props.earlier} answer cells in all.`
          : ''}
      </p>
      {result.written === 0 && (
        <div class="qf-msg qf-msg-warn" role="status">
          <p>Nothing was written.</p>
          {nothingWrittenAdvice(plan, result, props.earlier, props.earlierAt).map((line) => (
            <p key={line}>{line}</p>
          ))}
        </div>
      )}
      {reasons.length > 0 && (
        <ul class="qf-small">
          {reasons.map(([reason, n]) => (
            <li key={reason}>
              {n} skipped: {SKIP_REASON_TEXT[reason] ?? reason}
            </li>
          ))}
        </ul>
      )}
      {result.failed.length > 0 && (
        <div class="qf-msg qf-msg-warn">
          <p>These cells could not be written:</p>
          <ul class="qf-small">
            {result.failed.slice(0, SKIPPED_SHOWN).map((f) => (
              <li key={`${f.tab}!${f.address}`}>
                {f.tab}!{f.address}: {f.reason}
              </li>
            ))}
          </ul>
        </div>
      )}
      {plan.skipped.length > 0 && <SkippedCells plan={plan} />}
    </section>
  );
}

/**
 * The skipped cells grouped by reason, most frequent first; cells with no answer are one line (there
 * can be hundreds, and they are the review's drafts, not something to fix here).
 */
function SkippedCells(props: { plan: WritePlan }) {
  const groups = new Map<SkipReason, WritePlan['skipped']>();
  for (const s of props.plan.skipped) {
    const list = groups.get(s.reason) ?? [];
    list.push(s);
    groups.set(s.reason, list);
  }
  const ordered = [...groups].sort((a, b) => b[1].length - a[1].length);
  return (
    <details>
      <summary class="qf-small">Skipped cells ({props.plan.skipped.length})</summary>
      {ordered.map(([reason, list]) =>
        SUMMARISED.has(reason) ? (
          <p key={reason} class="qf-small">
            {list.length} cell{list.length === 1 ? '' : 's'}: {SKIP_REASON_TEXT[reason] ?? reason} (left as they were; see the review).
          </p>
        ) : (
          <div key={reason}>
            <p class="qf-small">
              <strong>
                {list.length} {SKIP_REASON_TEXT[reason] ?? reason}
              </strong>
            </p>
            <ul class="qf-small">
              {list.slice(0, SKIPPED_SHOWN).map((s, i) => (
                <li key={i}>
                  {s.tab}
                  {s.address ? `!${s.address}` : ''} ({s.originalId ?? `question ${s.questionId}`}): {s.detail || SKIP_REASON_TEXT[s.reason] || s.reason}
                </li>
              ))}
              {list.length > SKIPPED_SHOWN && <li>… and {list.length - SKIPPED_SHOWN} more.</li>}
            </ul>
          </div>
        ),
      )}
    </details>
  );
}

/** Reasons shown as one count: empty cells of unanswered questions and cells the questionnaire blocks. */
const SUMMARISED = new Set<SkipReason>(['no_value', 'blocked', 'draft']);
