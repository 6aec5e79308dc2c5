/** What the Fill pane shows after writing: the report, and why nothing was written when nothing was. */
import type { ApplyResult } from '../../excel/types';
import { describeModelUsage } from '../../fill/report';
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

/** What to do about each reason a fill wrote nothing, most frequent first; `n` cells had that reason. */
const NEXT_STEP: Partial<Record<SkipReason, string | ((n: number) => string)>> = {
  occupied: (n) =>
    `${count(n, 'answer cell')} already ${n === 1 ? 'holds a value' : 'hold values'}. To replace them, tick "Overwrite…" and write again (you confirm first; Undo fill puts them back).`,
  no_value: (n) => `Your library had no answer for ${count(n, 'answer cell')}: add documents in Library, then fill again.`,
  no_slot: 'The service found no answer cells (a column headed "Answer" or "Response").',
  protected: 'The answer cells are locked on protected sheets: unprotect them, then write again.',
  missing_tab: 'The sheets of these questions are gone (renamed or deleted): fill again.',
  formula: 'The answer cells hold formulas, which are never overwritten.',
  not_allowed: "The answers do not fit the cells' drop-down lists: pick values in the review.",
  blocked: 'The questionnaire marks these cells as not to be filled.',
  draft: 'The answers are drafts: check them in the review, or tick "Also write drafts into cells" and write again.',
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
  for (const [reason, n] of reasons) {
    const next = NEXT_STEP[reason];
    if (next) lines.push(typeof next === 'function' ? next(n) : next);
  }
  return lines.length > 0 ? lines : ['This workbook has no answer cells the pane could write. Check the skipped cells below.'];
}

const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** "Wrote 2 cells; skipped 3 cells and 1 question without an answer cell": cells and questions named apart. */
export function headline(plan: WritePlan, result: Pick<ApplyResult, 'written' | 'failed'>): string {
  const questions = plan.skipped.filter((s) => s.reason === 'no_slot').length;
  const cells = plan.report.skipped - questions;
  const skipped = [cells > 0 || questions === 0 ? count(cells, 'cell') : '', questions > 0 ? `${count(questions, 'question')} without an answer cell` : '']
    .filter(Boolean)
    .join(' and ');
  return `Wrote ${count(result.written, 'cell')}; skipped ${skipped}${result.failed.length ? `; ${result.failed.length} failed` : ''}.`;
}

export function WriteReport(props: {
  plan: WritePlan;
  result: Pick<ApplyResult, 'written' | 'failed' | 'warnings'>;
  earlier?: number;
  earlierAt?: string | null;
}) {
  const { plan, result } = props;
  const reasons = (Object.entries(plan.report.byReason) as [SkipReason, number][]).filter(([, n]) => n).sort((a, b) => b[1] - a[1]);
  return (
    <section aria-label="Fill report">
      <h3>Report</h3>
      <p role="status">
        {headline(plan, result)}
        {props.earlier && result.written > 0
          ? ` ${props.earlier} more already held the earlier fill's answers: ${result.written + props.earlier} answer cells in all.`
          : ''}
      </p>
      {/* Colours and notes that could not be added (a protected sheet, an older Excel): the answers are there without them. */}
      {result.warnings?.length ? (
        <div class="qf-msg qf-msg-warn" role="status" data-testid="write-warnings">
          {result.warnings.map((w) => (
            <p key={w}>{w}</p>
          ))}
        </div>
      ) : null}
      {plan.report.model && <p class="qf-small">{describeModelUsage(plan.report.model)}</p>}
      {result.written === 0 && (
        <div class="qf-msg qf-msg-warn" role="status">
          <p>Nothing was written.</p>
          {nothingWrittenAdvice(plan, result, props.earlier, props.earlierAt).map((line) => (
            <p key={line}>{line}</p>
          ))}
        </div>
      )}
      {reasons.length > 0 && (
        <ul class="qf-small" aria-label="Skipped cells">
          {reasons.map(([reason, n]) => {
            const text = `${n} skipped: ${SKIP_REASON_TEXT[reason] ?? reason}`;
            const list = plan.skipped.filter((s) => s.reason === reason);
            // Cells with no answer or held back as drafts can be hundreds: one line, the review lists them.
            return (
              <li key={reason}>
                {SUMMARISED.has(reason) ? (
                  `${text} (see the review)`
                ) : (
                  <details>
                    <summary>{text}</summary>
                    <ul>
                      {list.slice(0, SKIPPED_SHOWN).map((s, i) => (
                        <li key={i}>
                          {s.tab}
                          {s.address ? `!${s.address}` : ''} ({s.originalId ?? `question ${s.questionId}`}):{' '}
                          {s.detail || SKIP_REASON_TEXT[s.reason] || s.reason}
                        </li>
                      ))}
                      {list.length > SKIPPED_SHOWN && <li>… and {list.length - SKIPPED_SHOWN} more.</li>}
                    </ul>
                  </details>
                )}
              </li>
            );
          })}
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
    </section>
  );
}

/** Reasons shown as one count: empty cells of unanswered questions and cells the questionnaire blocks. */
const SUMMARISED = new Set<SkipReason>(['no_value', 'blocked', 'draft']);
