/**
 * The selected question's card: where it sits, the suggested answer with its trust and evaluation, what
 * its cells hold now where that differs, the sides of a conflict, the sources, and the correction.
 */
import type { QuestionWithAnswers } from '../../api/schemas';
import type { CellRef } from '../../excel/types';
import { bySourceRank } from '../../fill/answer';
import { cellName } from '../../fill/mirrors';
import { Sources } from '../components/Sources';
import { Correction, type CorrectFn } from '../panes/Correction';
import { alternativesOf, chosenAnswer, evaluationOf, needsReview, sectionOf } from '../review';
import { correctionTargets, type CorrectionChoice as CorrectionTarget } from '../../fill/session/targets';
import type { AnsweredWhere } from './answered-where';
import { ConflictChoices } from './ConflictChoices';
import { TrustBadge } from './TrustBadge';

export interface CorrectionProps {
  drafts: Readonly<Record<string, string>>;
  onDraft: (key: string, text: string) => void;
  onCorrect: CorrectFn;
  /** What each answer cell holds now (`tab!A1` → text), once read. */
  current?: Readonly<Record<string, string>>;
  /** Values the last fill held back as drafts (`tab!A1` → text, dropdown values already fitted). */
  heldBack?: Readonly<Record<string, string>>;
}

/** A reason as a sentence: ends with a full stop, so the next sentence does not run on. */
const sentence = (text: string) => (/[.!?]$/.test(text.trim()) || !text.trim() ? text.trim() : `${text.trim()}.`);
export const cellId = (c: Pick<CellRef, 'tab' | 'address'>) => `${c.tab}!${c.address}`;

/** The answer cells that hold something other than the suggestion now (an empty cell differs from nothing). */
export function differingCells(q: QuestionWithAnswers, current: Readonly<Record<string, string>> | undefined): CorrectionTarget[] {
  if (!current) return [];
  return correctionTargets(q).filter((t) => {
    const now = (current[cellId(t.cell)] ?? '').trim();
    return now !== '' && now !== t.value.trim();
  });
}

function AnsweredAt(props: { where: AnsweredWhere }) {
  const { at, mirrors, selected } = props.where;
  if (!at) return null;
  return (
    <p class="qf-small" data-testid="answered-at">
      {selected ? `${cellName(selected)} repeats this question by formula. ` : ''}
      Answered at {cellName(at)}
      {mirrors.length > 0 ? `; shown again by formula at ${mirrors.map(cellName).join(', ')}` : ''}.
    </p>
  );
}

/** The suggested answer (one entry per answer column when it has several), its trust and evaluation. */
function SuggestedAnswer(props: { question: QuestionWithAnswers; corrected?: boolean | undefined }) {
  const q = props.question;
  const answer = chosenAnswer(q);
  if (!answer) return <p class="qf-muted">No answer was generated for this question: write one below, or ask about it in Chat.</p>;
  const ev = evaluationOf(q);
  const slotTexts = (answer.slot_responses ?? []).filter((s) => s.content.trim());
  const headerOf = (key: string) => q.answer_slots?.find((s) => s.role === key || s.header === key)?.header ?? key;
  return (
    <>
      <p class="qf-small qf-muted">Suggested answer</p>
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
        {props.corrected ? ' Corrected by you.' : needsReview(q) ? ' Needs review.' : ''}
      </p>
    </>
  );
}

/** What the cells hold now, beside the suggestion: said when a cell holds something else. */
function CellsNow(props: { differing: CorrectionTarget[]; current: Readonly<Record<string, string>> }) {
  if (props.differing.length === 0) return null;
  return (
    <div class="qf-msg qf-msg-warn" role="status" data-testid="cell-now">
      {props.differing.map((t) => (
        <p key={cellId(t.cell)}>
          {t.cell.tab}!{t.cell.address} already holds something else: “{props.current[cellId(t.cell)]}”{t.value ? ` (the suggestion is “${t.value}”)` : ''}.
        </p>
      ))}
    </div>
  );
}

export function QuestionDetails(props: {
  question: QuestionWithAnswers;
  correction?: CorrectionProps | undefined;
  corrected?: boolean;
  where?: AnsweredWhere;
}) {
  const q = props.question;
  const answer = chosenAnswer(q);
  const alternatives = alternativesOf(q);
  const current = props.correction?.current;
  return (
    <article class="qf-card" aria-label="Selected question" tabIndex={-1}>
      <p class="qf-small qf-muted">
        {q.tab_name}
        {sectionOf(q) ? ` › ${sectionOf(q)}` : ''}
        {q.original_id ? ` · ${q.original_id}` : ''}
      </p>
      <p>
        <strong>{q.original_question_text}</strong>
      </p>
      {props.where && <AnsweredAt where={props.where} />}
      <SuggestedAnswer question={q} corrected={props.corrected} />
      {current && <CellsNow differing={differingCells(q, current)} current={current} />}
      {alternatives.length > 1 && <ConflictChoices question={q} alternatives={alternatives} onCorrect={props.correction?.onCorrect} />}
      {answer && (
        <Sources
          sources={bySourceRank(answer.source_evidence ?? []).map((e) => ({
            filename: e.filename,
            page: e.page_number,
            excerpt: e.content,
            score: e.relevance_score,
            thirdParty: e.third_party ?? null,
          }))}
        />
      )}
      {props.correction && <Correction question={q} {...props.correction} />}
    </article>
  );
}
