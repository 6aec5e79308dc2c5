/** Add an answer by hand: question, answer, comment, offerings. */
import type { Offering } from '../../api/schemas';
import { ErrorMessage, Note } from '../components/Message';
import { useStore } from '../use-store';
import type { AddEntryController } from './add';

export function AddEntry(props: { add: AddEntryController; offerings: readonly Offering[] }) {
  const c = props.add;
  const s = useStore(c);
  return (
    <details class="qf-more">
      <summary>Add an answer by hand</summary>
      <form
        aria-label="Add an answer"
        onSubmit={(e) => {
          e.preventDefault();
          void c.submit();
        }}
      >
        <label class="qf-field">
          <span>Question</span>
          <textarea class="qf-textarea" value={s.question} onInput={(e) => c.set({ question: e.currentTarget.value })} />
        </label>
        <label class="qf-field">
          <span>Answer</span>
          <input class="qf-input" value={s.answer} placeholder="e.g. Yes" onInput={(e) => c.set({ answer: e.currentTarget.value })} />
        </label>
        <label class="qf-field">
          <span>Comment (optional)</span>
          <textarea class="qf-textarea" value={s.comment} onInput={(e) => c.set({ comment: e.currentTarget.value })} />
        </label>
        {props.offerings.length > 0 && (
          <fieldset class="qf-fieldset">
            <legend>Offerings of the new answer</legend>
            {props.offerings.map((o) => (
              <label key={o.id} class="qf-check">
                <input type="checkbox" checked={s.offeringIds.includes(o.id)} onChange={(e) => c.toggleOffering(o.id, e.currentTarget.checked)} />
                <span>{o.name}</span>
              </label>
            ))}
          </fieldset>
        )}
        <button type="submit" class="qf-btn qf-btn-primary" disabled={s.busy}>
          {s.busy ? 'Adding…' : 'Add to the library'}
        </button>
      </form>
      <ErrorMessage error={s.error} />
      {s.added && <Note kind="ok">Added "{s.added.question}": fills reuse it from now on.</Note>}
    </details>
  );
}
