/** The steps of a fill as they go, with the reading and answering progress, and a word when the service goes quiet. */
import { STEP_ORDER, type FillState, type StepKey } from '../../fill/session';
import { Note } from '../components/Message';
import { ProgressBar } from '../components/Progress';
import { formatBytes, formatDuration } from '../eta';

const STEP_LABELS: Record<StepKey, string> = {
  read: 'Reading the workbook',
  upload: 'Uploading',
  detect: 'Detecting questions',
  generate: 'Generating answers',
  write: 'Writing answers into cells',
};

export function FillSteps(props: { state: FillState }) {
  const { steps, read, progress, secondsLeft } = props.state;
  return (
    <ol class="qf-steps" aria-label="Fill steps">
      {STEP_ORDER.map((k) => (
        <li key={k} data-state={steps[k].state} aria-current={steps[k].state === 'active' ? 'step' : undefined}>
          {STEP_LABELS[k]}
          {steps[k].state === 'failed' ? ' — failed' : steps[k].state === 'stopped' ? ' — stopped' : ''}
          {steps[k].detail && <span class="qf-muted">: {steps[k].detail}</span>}
          {k === 'read' && steps.read.state === 'active' && read && read.total > 0 && (
            <ProgressBar value={read.loaded} max={read.total} label="Reading the workbook" text={`${formatBytes(read.loaded)} of ${formatBytes(read.total)}`} />
          )}
          {k === 'generate' && steps.generate.state === 'active' && progress && (
            <ProgressBar
              value={progress.answers_received}
              max={progress.answers_expected}
              label="Answers generated"
              text={`${progress.answers_received} of ${progress.answers_expected} answers${secondsLeft !== null ? `, about ${formatDuration(secondsLeft)} left` : ''}`}
            />
          )}
        </li>
      ))}
    </ol>
  );
}

/** The service has said nothing for a while: wait, or stop and pick the fill up later. */
export function StalledNote(props: { stallMs: number }) {
  return (
    <Note kind="warn">
      The service has reported no progress for {formatDuration(props.stallMs / 1000)}. It may be busy with other work or stuck: wait, or Stop and pick the fill
      up later.
    </Note>
  );
}
