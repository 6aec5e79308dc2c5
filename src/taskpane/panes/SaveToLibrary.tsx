/**
 * After review: what the analyst reviewed goes to the library. The answer cells are read as they are
 * now (through the workbook, never the file Excel last saved), the pane says what the library will
 * learn and asks first, then sends them as a Q&A sheet named after the workbook, which supersedes
 * an earlier save of it.
 */
import { useState } from 'preact/hooks';
import type { QuestionWithAnswers } from '../../api/schemas';
import type { WorkbookAdapter } from '../../excel/types';
import { qaSheetCsv, qaSheetName } from '../../fill/qa-sheet';
import { reviewedAnswers, reviewedCells, type ReviewedAnswers } from '../../fill/reviewed';
import type { LaterEdit } from '../../fill/session';
import { ErrorMessage, Note } from '../components/Message';
import type { TaskpaneApi } from '../types';

export interface SaveToLibraryProps {
  client: TaskpaneApi;
  workbook: WorkbookAdapter;
  questions: readonly QuestionWithAnswers[];
  /** The workbook's file name (the Q&A sheet is named after it). */
  fileName: string | null;
  /** Cells changed since the fill, in the sheet or from the review: "corrected by you". */
  laterEdits: () => Promise<LaterEdit[]>;
  blocked: string | null;
}

type Status =
  | { kind: 'reading' }
  | { kind: 'confirm'; reviewed: ReviewedAnswers }
  | { kind: 'saving'; reviewed: ReviewedAnswers }
  | { kind: 'done'; name: string; count: number }
  | { kind: 'error'; error: unknown };

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** "93 answers from 'HECVAT - Lite | Vendor Response', 5 corrected by you". */
export function describeReviewed(r: ReviewedAnswers): string {
  const from = r.byTab.map((t) => (r.byTab.length > 1 ? `${t.count} from '${t.tab}'` : `from '${t.tab}'`)).join(', ');
  return `${plural(r.entries.length, 'answer')} ${from}${r.corrected > 0 ? `, ${r.corrected} corrected by you` : ''}`;
}

export function SaveToLibrary(props: SaveToLibraryProps) {
  const [status, setStatus] = useState<Status | null>(null);
  const name = qaSheetName(props.fileName ?? 'Workbook.xlsx');

  const read = async () => {
    setStatus({ kind: 'reading' });
    try {
      const { workbook } = props;
      if (!workbook.readValues) throw new Error('The answer cells of this workbook cannot be read from here.');
      const cells = reviewedCells(props.questions);
      const [values, edits] = await Promise.all([workbook.readValues(cells), props.laterEdits().catch(() => [])]);
      const changed = new Set(edits.map((e) => `${e.tab}!${e.address}`));
      setStatus({ kind: 'confirm', reviewed: reviewedAnswers(props.questions, cells, values, changed) });
    } catch (e) {
      setStatus({ kind: 'error', error: e });
    }
  };

  const save = async (reviewed: ReviewedAnswers) => {
    setStatus({ kind: 'saving', reviewed });
    try {
      const data = new TextEncoder().encode(qaSheetCsv(reviewed.entries));
      const result = await props.client.uploadRepositoryFiles([{ name, data, type: 'text/csv' }], { tags: ['completed-questionnaire'] });
      const failed = result.failed?.[0];
      if (failed) throw new Error(`The library refused ${name}: ${failed}`);
      setStatus({ kind: 'done', name, count: reviewed.entries.length });
    } catch (e) {
      setStatus({ kind: 'error', error: e });
    }
  };

  const busy = status?.kind === 'reading' || status?.kind === 'saving';
  return (
    <section aria-label="Save to library">
      {status?.kind !== 'confirm' && (
        <div class="qf-row">
          <button type="button" class="qf-btn" onClick={read} disabled={!!props.blocked || busy}>
            {status?.kind === 'reading' ? 'Reading the answer cells…' : status?.kind === 'saving' ? 'Saving…' : 'Save to library'}
          </button>
        </div>
      )}
      {status?.kind === 'confirm' && status.reviewed.entries.length === 0 && (
        <Note kind="warn">
          No answer cell holds an answer yet: there is nothing for the library to learn.{' '}
          <button type="button" class="qf-link" onClick={() => setStatus(null)}>
            Close
          </button>
        </Note>
      )}
      {status?.kind === 'confirm' && status.reviewed.entries.length > 0 && (
        <div class="qf-msg qf-msg-warn" role="group" aria-label="Confirm save">
          <p>
            <strong>The library will learn {describeReviewed(status.reviewed)}.</strong> The next fill reuses them; they replace what an earlier save of this
            workbook taught.
            {status.reviewed.unanswered > 0 &&
              ` ${plural(status.reviewed.unanswered, 'question')} without an answer ${status.reviewed.unanswered === 1 ? 'is' : 'are'} left out.`}
          </p>
          <div class="qf-row">
            <button type="button" class="qf-btn qf-btn-primary" onClick={() => void save(status.reviewed)}>
              Learn {plural(status.reviewed.entries.length, 'answer')}
            </button>
            <button type="button" class="qf-btn" onClick={() => setStatus(null)}>
              Cancel
            </button>
          </div>
        </div>
      )}
      {status?.kind === 'done' && (
        <Note kind="ok">
          Saved {plural(status.count, 'answer')} to your library as {status.name}: once it is Ready there, the next fill reuses them.
        </Note>
      )}
      {status?.kind === 'error' && <ErrorMessage error={status.error} />}
    </section>
  );
}
