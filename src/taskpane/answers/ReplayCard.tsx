/**
 * "How good is the library for us?": the last replay of past questionnaires against the library (agreement,
 * coverage), the trend over kept runs, the answers that differed, the questions nothing in the library
 * answers by section, and "Run again" for admins and repository managers. See ./replay.ts.
 */
import { useEffect } from 'preact/hooks';
import type { ReplayRun } from '../../api/replay';
import { ErrorMessage } from '../components/Message';
import { useStore } from '../use-store';
import { percent, type ReplayCardController } from './replay';

const day = (iso: string | null) => (iso ?? '').slice(0, 10);

function Headline(props: { run: ReplayRun }) {
  const r = props.run;
  if (r.status === 'failed') return <p>The last run failed: {r.error ?? 'no reason was given'}.</p>;
  const o = r.overall;
  if (!o || r.questionnaires.length === 0) {
    return <p class="qf-muted">No completed questionnaire in the library to replay yet: upload past questionnaires with their answers under Files.</p>;
  }
  return (
    <p>
      <strong>Agreement {percent(o.agreement)}</strong> · <strong>coverage {percent(o.coverage)}</strong>
      <span class="qf-small qf-muted">
        {' '}
        ({o.answered} of {o.questions} past answers given again, {o.agreed} the same; {r.questionnaires.length} questionnaire
        {r.questionnaires.length === 1 ? '' : 's'}, {day(r.finished_at ?? r.created_at)} by {r.started_by})
      </span>
    </p>
  );
}

export function ReplayCard(props: { replay: ReplayCardController }) {
  const c = props.replay;
  const s = useStore(c);
  useEffect(() => void c.open(), [c]);
  if (!s.offered) return null;
  const done = (s.runs ?? []).filter((r) => r.status === 'done' && r.overall).reverse();
  const last = s.last;
  return (
    <section aria-label="How good is the library for us?" class="qf-card">
      <h3>How good is the library for us?</h3>
      {last ? (
        <Headline run={last} />
      ) : (
        s.runs &&
        s.runs.length === 0 && (
          <p class="qf-muted">Not measured yet: a run fills each past questionnaire in the library again from the rest of the library and compares.</p>
        )
      )}
      {s.pending && (
        <p role="status" class="qf-small">
          Replaying the library ({s.pending.status})…
        </p>
      )}
      {s.canStart && (
        <button type="button" class="qf-btn" disabled={s.busy || s.pending !== null} onClick={() => void c.start()}>
          {s.runs && s.runs.length > 0 ? 'Run again' : 'Run'}
        </button>
      )}
      <ErrorMessage error={s.error} />
      {last && last.status === 'done' && (
        <details class="qf-more">
          <summary>Trend, answers that differed, gaps ({last.gap_count ?? 0})</summary>
          {done.length > 1 && (
            <p class="qf-small" aria-label="Agreement over time">
              Trend: {done.map((r) => `${percent(r.overall!.agreement)} (${day(r.created_at)})`).join(' → ')}
            </p>
          )}
          {last.wrong_count > 0 && (
            <details class="qf-more">
              <summary>Answered otherwise ({last.wrong_count})</summary>
              <ul class="qf-list" aria-label="Answered otherwise">
                {last.wrong.map((w) => (
                  <li key={`${w.file_id}-${w.question}`}>
                    <div>{w.question}</div>
                    <div class="qf-small">
                      {w.file_name}: <strong>{w.expected}</strong> · library: <strong>{w.got}</strong>
                    </div>
                  </li>
                ))}
              </ul>
            </details>
          )}
          <details class="qf-more" open={last.gaps.length > 0 && last.gaps.length <= 3}>
            <summary>Nothing in the library answers ({last.gap_count ?? 0})</summary>
            {last.gaps.length === 0 ? (
              <p class="qf-small qf-muted">The library answers every question of your recent questionnaires.</p>
            ) : (
              last.gaps.map((g) => (
                <section key={g.section} aria-label={`Gaps in ${g.section}`}>
                  <h4>
                    {g.section} ({g.questions.length})
                  </h4>
                  <ul class="qf-list">
                    {g.questions.map((q) => (
                      <li key={`${q.questionnaire_id}-${q.question}`}>
                        {q.original_id ? `${q.original_id} ` : ''}
                        {q.question} <span class="qf-small qf-muted">({q.questionnaire})</span>
                      </li>
                    ))}
                  </ul>
                </section>
              ))
            )}
          </details>
        </details>
      )}
    </section>
  );
}
