/**
 * The fill as a plain state machine: what it needs from outside (a v2 client, the workbook, a place
 * to remember the workbook's fill) and the state it publishes. No Office, no DOM: the task pane and
 * `qfill fill` hand in their own workbook port and render the same state.
 */
import type { ApiClient } from '../../api/client';
import type { AnswerSlot, Progress, QuestionWithAnswers, Structure } from '../../api/schemas';
import type { CellRef } from '../../xlsx/a1';
import type { OverwritePlans, PlanOptions, WritePlan } from '../types';

/** The part of the v2 client a fill calls. */
export type SessionApi = Pick<ApiClient, 'uploadQuestionnaires' | 'pollAnswerProgress' | 'getAnswers'> &
  Partial<Pick<ApiClient, 'getStructure' | 'getQuestionnaire'>>;

export type { CellRef } from '../../xlsx/a1';

/** A cell and the text a correction puts there ('' clears it). */
export interface CellText {
  ref: CellRef;
  text: string;
}

export interface ReadProgress {
  loaded: number;
  total: number;
}

export interface ApplyOutcome {
  written: number;
  /** Writes refused at apply time (e.g. the sheet became protected), with the reason. */
  failed: (CellRef & { reason: string })[];
  /** What the analyst should know that is not a failed write (e.g. a protected tab got no colours). */
  warnings?: string[];
}

export interface UndoOutcome {
  restored: number;
  failed?: { tab: string; address: string; reason: string }[];
}

export interface WriteOptions {
  highlight?: boolean;
  sourceNotes?: boolean;
}

/** The workbook as the fill sees it (src/excel's adapter, the CLI's xlsx package, a test's memory). */
export interface WorkbookPort {
  readFile(onProgress?: (p: ReadProgress) => void): Promise<{ bytes: Uint8Array; fileName: string; type?: string }>;
  plan(questions: QuestionWithAnswers[], options: PlanOptions): Promise<WritePlan>;
  /**
   * The plans without and with overwrite from one read of the cells: what the overwrite confirmation
   * compares (each cell `keep` skips as occupied carries its current value). A port without it is
   * planned twice.
   */
  planOverwrite?(questions: QuestionWithAnswers[], options: Omit<PlanOptions, 'overwrite'>): Promise<OverwritePlans>;
  apply(plan: WritePlan, options: WriteOptions): Promise<ApplyOutcome>;
  canUndo?(): Promise<boolean>;
  /** Puts back every cell the fill touched except `keep` (edits made since, which stay as they are). */
  undo?(options?: { keep?: readonly CellRef[] }): Promise<UndoOutcome | null>;
  writeCell?(ref: CellRef, text: string, options: { overwrite?: boolean }): Promise<{ written: boolean; reason?: string }>;
  /** Several cells as one correction (a mark moved): all written, or none when any is refused. */
  writeCells?(cells: readonly CellText[], options: { overwrite?: boolean }): Promise<{ written: boolean; reason?: string }>;
  /** Current displayed text of cells ('' when empty): lets Undo fill say which later edits it would discard. */
  readValues?(refs: CellRef[]): Promise<string[]>;
}

/** What is remembered about this workbook's fill between sessions (the pane's storage; the CLI keeps none). */
export interface FillLink {
  questionnaireId: number;
  startedAt: string;
  /** The workbook's file name when it was uploaded (what its reviewed answers are saved as). */
  fileName?: string;
  /** Set once answers were written into the workbook, so a reopened pane does not write them twice. */
  writtenAt?: string;
  /** Cells the fills wrote since the last undo, with a fingerprint of what was written (`tab!A1` → hash). */
  cells?: Record<string, string>;
  /** When the cells in `cells` were written (the last fill that wrote any). */
  cellsWrittenAt?: string;
  /** Cells corrected from the review since the last undo. */
  corrected?: string[];
  /** Set when the fill was undone: a reopened pane shows the answers for review and writes nothing. */
  undoneAt?: string;
}

export interface LinkStore {
  read(): Promise<FillLink | null>;
  write(link: FillLink): Promise<void>;
  clear(): Promise<void>;
}

export interface FillOptions {
  overwrite: boolean;
  highlight: boolean;
  sourceNotes: boolean;
  /** Also write answers that are only drafts (the planner's default writes only defensible ones). */
  writeDrafts: boolean;
  /** Where past answers disagree, the most recently uploaded questionnaire decides (sent at upload). */
  preferRecent?: boolean;
}

export type StepKey = 'read' | 'upload' | 'detect' | 'generate' | 'write';
export type StepState = 'pending' | 'active' | 'done' | 'failed' | 'stopped';
export type Steps = Record<StepKey, { state: StepState; detail: string }>;
export const STEP_ORDER: readonly StepKey[] = ['read', 'upload', 'detect', 'generate', 'write'];

/** A value an overwrite would replace: shown before anything is destroyed. */
export interface Replacement {
  tab: string;
  address: string;
  questionId: number;
  originalId: string | null;
  current: string;
  next: string;
}

/** A cell changed after the fill (in the sheet, or corrected from the review) that Undo fill would put back. */
export interface LaterEdit {
  tab: string;
  address: string;
  value: string;
}

export interface WriteResult {
  plan: WritePlan;
  result: ApplyOutcome;
  /** Skipped as occupied, but holding what an earlier fill of this workbook wrote. */
  earlier: number;
  /** When that earlier fill wrote them. */
  earlierAt: string | null;
  /** This write finished a fill that had been interrupted (continued, or checked again after a Stop). */
  resumed: boolean;
}

/** The last thing that happened, from which every message is derived (never accumulated). */
export type Outcome =
  | { kind: 'written' }
  | { kind: 'no-questions' }
  | { kind: 'failed'; step: StepKey | null; error: unknown }
  | { kind: 'stopped'; resumable: boolean }
  | { kind: 'already-written'; writtenAt: string }
  | { kind: 'link-gone' }
  | { kind: 'discarded' }
  | { kind: 'undone'; result: UndoOutcome | null; kept: number }
  | { kind: 'undo-failed'; error: unknown }
  | { kind: 'overwrite-declined' };

export type Phase =
  | 'idle' // nothing started, or back to nothing
  | 'interrupted' // an unfinished fill of this workbook: continue or discard, nothing written unasked
  | 'running'
  | 'confirm-overwrite'
  | 'confirm-undo'
  | 'undoing'
  | 'settled'; // the last run ended (see outcome)

export interface FillState {
  phase: Phase;
  steps: Steps;
  outcome: Outcome | null;
  read: ReadProgress | null;
  progress: Progress | null;
  secondsLeft: number | null;
  stalled: boolean;
  questionnaireId: number | null;
  /** The workbook's file name, once read (or remembered from its fill). */
  fileName: string | null;
  /** When the interrupted fill was started (phase 'interrupted'). */
  interruptedAt: string | null;
  structure: Structure | null;
  warnings: string[];
  questions: QuestionWithAnswers[];
  corrected: ReadonlySet<number>;
  report: WriteResult | null;
  canUndo: boolean;
  options: FillOptions;
  replacements: Replacement[] | null;
  laterEdits: LaterEdit[] | null;
}

export interface CorrectionTarget {
  slot: AnswerSlot;
  cell: CellRef;
}

export interface SessionDeps {
  api: SessionApi;
  workbook: WorkbookPort;
  links?: LinkStore;
  /** Also fetch the structure and the service's notes (the pane's summary). */
  details?: boolean;
  /** Ask before an overwrite replaces values (the pane); the CLI's --overwrite is the analyst's word already. */
  confirmOverwrite?: boolean;
  /** How long generation may show no progress before it is called stalled (ms). Default 3 minutes. */
  stallMs?: number;
  now?: () => number;
}
