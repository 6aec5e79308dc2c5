/** The organisation's review age, folded away: read by everyone, changed by admins and repository managers. */
import { useEffect } from 'preact/hooks';
import { ErrorMessage, Note } from '../components/Message';
import { useStore } from '../use-store';
import type { ReviewAgeController } from './review-age';

export function ReviewAge(props: { reviewAge: ReviewAgeController }) {
  const c = props.reviewAge;
  const s = useStore(c);
  useEffect(() => void c.load(), [c]);
  return (
    <details class="qf-more">
      <summary>Review age{s.months !== null ? `: ${s.months} months` : ''}</summary>
      <form
        aria-label="Review age"
        onSubmit={(e) => {
          e.preventDefault();
          void c.save();
        }}
      >
        <label class="qf-field">
          <span>Months after approval (or the as-of date) before an answer is due for review</span>
          <input class="qf-input" inputMode="numeric" value={s.text} disabled={s.months === null} onInput={(e) => c.setText(e.currentTarget.value)} />
        </label>
        <button type="submit" class="qf-btn" disabled={s.busy || s.months === null}>
          Save review age
        </button>
      </form>
      <ErrorMessage error={s.error} />
      {s.note && <Note kind="ok">{s.note}</Note>}
    </details>
  );
}
