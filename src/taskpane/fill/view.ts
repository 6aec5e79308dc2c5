/**
 * What the Fill pane shows for a fill session's state, as pure functions: which buttons are there and
 * enabled, their labels, the error to show, the values the review needs, and the words for Undo fill.
 */
import type { UndoResult } from '../../excel/types';
import { SessionError, STEP_ORDER, type FillState, type Outcome } from '../../fill/session';
import { explainQuestionnaireUploadError } from '../errors';

/** Reasons nothing was written that writing again cannot change: the answers are missing, not the options. */
const NOT_RETRYABLE = new Set(['no_value', 'no_slot', 'blocked']);

export const plural = (n: number, word: string, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;
export const when = (iso: string) => new Date(iso).toLocaleString();
export const clip = (text: string) => (text.length > 60 ? `${text.slice(0, 57)}…` : text);

export interface FillControls {
  /** Any step has moved: the steps list is shown. */
  started: boolean;
  /** Running, undoing or waiting for a confirmation: options and other actions wait. */
  busy: boolean;
  fillDisabled: boolean;
  /** The last write wrote nothing for reasons other options or the sheet can change: "Write again" is offered. */
  nothingWritten: boolean;
  undoLabel: string;
}

export function fillControls(state: FillState, connected: boolean, uploadBlocked: string | null): FillControls {
  const { outcome, report, phase } = state;
  const busy = phase === 'running' || phase === 'undoing' || phase === 'confirm-overwrite' || phase === 'confirm-undo';
  // Writing again helps only when options or the sheet can change the outcome, not when answers are missing.
  const nothingWritten =
    !!report && report.result.written === 0 && Object.entries(report.plan.report.byReason).some(([reason, n]) => n && !NOT_RETRYABLE.has(reason));
  // "Undo fill" after a run that wrote nothing would undo an earlier fill: it says so.
  const lastRunWrote = outcome?.kind === 'written' && !!report && report.result.written > 0;
  const undoLabel = lastRunWrote || !outcome || outcome.kind === 'already-written' || outcome.kind === 'undone' ? 'Undo fill' : 'Undo the earlier fill';
  return {
    started: STEP_ORDER.some((k) => state.steps[k].state !== 'pending'),
    busy,
    fillDisabled: busy || !connected || !!uploadBlocked,
    nothingWritten,
    undoLabel,
  };
}

/** Values the last fill held back as drafts (`tab!A1` → text), for the review's correction boxes. */
export function heldBackValues(report: FillState['report']): Record<string, string> {
  return Object.fromEntries(
    (report?.plan.skipped ?? []).filter((s) => s.reason === 'draft' && s.address && s.value).map((s) => [`${s.tab}!${s.address}`, s.value!]),
  );
}

/** The error of the last result, in the analyst's terms; null when the last result was not a failure. */
export function errorOf(outcome: Outcome | null): unknown {
  if (outcome?.kind === 'undo-failed') return outcome.error;
  if (outcome?.kind === 'link-gone') {
    return new Error('The questionnaire this workbook was linked to no longer exists on the service. Fill the workbook again.');
  }
  if (outcome?.kind !== 'failed') return null;
  const e = outcome.error;
  if (e instanceof SessionError && e.code === 'no-questionnaire') {
    return new Error('The service accepted the workbook but made no questionnaire of it. Check that it holds questions with answer columns.');
  }
  return outcome.step === 'upload' ? explainQuestionnaireUploadError(e) : e;
}

/** What Undo fill did, in words; cells Excel would not restore are named, as the snapshot stays for them. */
export function describeUndo(result: UndoResult | null, kept = 0): string {
  if (!result) return 'There was nothing to undo.';
  const done = `Undone: ${result.restored} cell${result.restored === 1 ? '' : 's'} restored.`;
  const failed = result.failed ?? [];
  if (failed.length === 0) return kept > 0 ? `${done} Your ${plural(kept, 'later edit')} ${kept === 1 ? 'was' : 'were'} kept.` : done;
  const named = failed
    .slice(0, 5)
    .map((f) => `${f.tab}${f.address ? `!${f.address}` : ''} (${f.reason})`)
    .join('; ');
  return `${done} ${failed.length} could not be put back: ${named}${failed.length > 5 ? '; …' : ''}. Fix that (e.g. unprotect the sheet) and choose Undo fill again.`;
}

/** How many documents the library holds, and how many are ready to answer from. */
export interface LibraryCounts {
  ready: number;
  total: number;
}

/** Why filling now would answer nothing (an empty library, or one still processing); null when it can answer. */
export function libraryHint(library: LibraryCounts | null): string | null {
  if (!library || library.ready > 0) return null;
  return library.total === 0
    ? 'Your library has no documents yet, and answers come only from your documents: upload them in Library first.'
    : `Your library's ${library.total} document${library.total === 1 ? ' is' : 's are'} still being processed: fill once ${library.total === 1 ? 'it shows' : 'they show'} Ready.`;
}
