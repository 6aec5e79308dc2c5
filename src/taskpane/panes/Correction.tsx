/**
 * Correcting the selected question's answer: one field per writable answer cell, prefilled with what
 * the answer says (else what the cell holds), and a button that writes the field into that cell (through the adapter's safety
 * rules; Undo fill puts the cell back). Drafts live in the parent, so switching questions keeps them.
 */
import type { QuestionWithAnswers } from '../../api/schemas';
import { CellWrite, type CellWriteResult } from '../components/CellWrite';
import { correctionTargets, type CorrectionChoice as CorrectionTarget } from '../../fill/session/targets';

export type CorrectFn = (q: QuestionWithAnswers, target: CorrectionTarget, text: string, overwrite: boolean) => Promise<CellWriteResult>;

export const draftKey = (q: QuestionWithAnswers, target: CorrectionTarget) => `${q.id}:${target.cell.tab}!${target.cell.address}`;

export function Correction(props: {
  question: QuestionWithAnswers;
  drafts: Readonly<Record<string, string>>;
  onDraft: (key: string, text: string) => void;
  onCorrect: CorrectFn;
  /** What each answer cell holds now (`tab!A1` → text), once read. */
  current?: Readonly<Record<string, string>>;
  /** Values the last fill held back as drafts (`tab!A1` → text). */
  heldBack?: Readonly<Record<string, string>>;
}) {
  const q = props.question;
  const targets = correctionTargets(q);
  if (targets.length === 0) {
    return <p class="qf-small qf-muted">This question has no answer cell the pane may write, so it cannot be corrected here.</p>;
  }
  return (
    <details class="qf-correct" open>
      <summary>Correct the answer</summary>
      {targets.map((t) => {
        const key = draftKey(q, t);
        const where = `${t.cell.tab}!${t.cell.address}`;
        // Pre-filled with what the fill held back (fitted to the dropdown), else the suggestion, else what the
        // cell holds now: the analyst edits, never retypes.
        const now = props.current?.[where] ?? '';
        const held = props.heldBack?.[where];
        const text = props.drafts[key] ?? (held || t.value || now);
        const name = t.slot.header || t.slot.role || 'Answer';
        const allowed = (t.slot.allowed_values ?? []).filter((v) => v.trim() !== '');
        const id = `qf-correct-${q.id}-${t.cell.address}`;
        return (
          <div key={key} class="qf-field">
            <label for={id} class="qf-label">
              {name}{' '}
              <span class="qf-muted">
                ({where}
                {held ? ', held back as a draft' : ''})
              </span>
            </label>
            {allowed.length > 0 ? (
              <select id={id} class="qf-select qf-input" value={text} onChange={(e) => props.onDraft(key, e.currentTarget.value)}>
                {!allowed.includes(text) && <option value={text}>{text === '' ? '(empty)' : text}</option>}
                {allowed.map((v) => (
                  <option key={v} value={v}>
                    {v}
                  </option>
                ))}
              </select>
            ) : (
              <textarea id={id} class="qf-textarea" rows={3} value={text} onInput={(e) => props.onDraft(key, e.currentTarget.value)} />
            )}
            <CellWrite
              key={key}
              write={(overwrite) => props.onCorrect(q, t, text, overwrite)}
              label={`Write to ${t.cell.address}`}
              doneText={`Written to ${where}. Undo fill puts back what was there before.`}
            />
          </div>
        );
      })}
    </details>
  );
}
