/** The sides of a conflict between past answers, each one click away from the question's cells. */
import type { QuestionWithAnswers } from '../../api/schemas';
import { slotResponseFor } from '../../fill/answer';
import { CellWrite, type CellWriteResult } from '../components/CellWrite';
import type { CorrectFn } from '../panes/Correction';
import { conflictSides, type Alternative } from '../review';
import { correctionTargets, type CorrectionChoice as CorrectionTarget } from '../../fill/session/targets';

/** What choosing one side writes: for each answer cell, that side's response for it (or its value, in its own slot). */
export function sideWrites(targets: readonly CorrectionTarget[], alt: Alternative): { target: CorrectionTarget; text: string }[] {
  return targets.flatMap((target) => {
    const response = slotResponseFor(alt.slot_responses, target.slot);
    const text = response?.content ?? (target.slot.role === alt.slot_key ? alt.value : null);
    return text === null || text === undefined ? [] : [{ target, text }];
  });
}

/** Writes one side into its cells in turn, stopping at the first cell that is not written. */
async function writeSide(q: QuestionWithAnswers, alt: Alternative, onCorrect: CorrectFn, overwrite: boolean): Promise<CellWriteResult> {
  const writes = sideWrites(correctionTargets(q), alt);
  if (writes.length === 0) return { written: false, reason: 'This choice has nothing for these answer cells.' };
  for (const { target, text } of writes) {
    const r = await onCorrect(q, target, text, overwrite);
    if (!r.written) return r;
  }
  return { written: true };
}

export function ConflictChoices(props: { question: QuestionWithAnswers; alternatives: Alternative[]; onCorrect?: CorrectFn | undefined }) {
  const { question: q, onCorrect } = props;
  const sides = conflictSides(q) ?? props.alternatives.map((a) => `${a.questionnaire || a.source_file}: ${a.value}`).join(' · ');
  return (
    <div class="qf-msg qf-msg-warn" role="group" aria-label="Past answers disagree">
      <p>
        <strong>Past answers disagree:</strong> {sides}.
      </p>
      {onCorrect &&
        props.alternatives.map((alt, i) => (
          <CellWrite
            key={`${q.id}:${i}`}
            write={(overwrite) => writeSide(q, alt, onCorrect, overwrite)}
            label={`Use “${alt.value}” (${alt.questionnaire || alt.source_file})`}
            doneText={`Written: “${alt.value}” from ${alt.questionnaire || alt.source_file}.`}
          />
        ))}
    </div>
  );
}
