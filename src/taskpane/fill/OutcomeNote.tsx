/** What the last result of a fill means, when it is not an error or a report. */
import type { Outcome } from '../../fill/session';
import { Note } from '../components/Message';
import { describeUndo, when } from './view';

export function OutcomeNote(props: { outcome: Outcome | null }) {
  const o = props.outcome;
  if (!o) return null;
  switch (o.kind) {
    case 'stopped':
      return (
        <Note>
          Stopped.{' '}
          {o.resumable
            ? 'The service keeps what it generated so far: choose "Check again" to pick this fill up, or fill the workbook again.'
            : 'Nothing was written.'}
        </Note>
      );
    case 'already-written':
      return <Note>Answers were written into this workbook on {when(o.writtenAt)}.</Note>;
    case 'no-questions':
      return <Note>The service found no questions in this workbook (a sheet of questions with answer columns).</Note>;
    case 'discarded':
      return <Note>The interrupted fill was discarded; nothing was written.</Note>;
    case 'overwrite-declined':
      return <Note>Nothing was written: no existing value was replaced.</Note>;
    case 'undone':
      return <Note kind={o.result?.failed?.length ? 'warn' : 'ok'}>{describeUndo(o.result, o.kept)}</Note>;
    default:
      return null;
  }
}
