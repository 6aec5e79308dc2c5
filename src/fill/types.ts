/**
 * The write plan: what `src/fill` decides and what every writer (Office.js in `src/excel`, the
 * lossless xlsx writer of `qfill fill`) applies. Pure data, no Office, no DOM.
 */
import type { TrustLevel } from '../api/schemas';

/** Why a slot was not written. Stable identifiers: reports and the UI key off them. */
export type SkipReason =
  | 'blocked' // the service marked the slot is_blocked
  | 'formula' // the cell holds a formula in the workbook
  | 'occupied' // the cell already has a value and overwrite is off
  | 'missing_tab' // no sheet of that name, even case-insensitively
  | 'no_value' // the answer has nothing for this slot
  | 'not_allowed' // a list slot whose value matches no allowed value: left for review
  | 'protected' // the sheet is protected and the cell is locked
  | 'bad_coordinate' // the slot's coordinate is not an A1 cell address
  | 'duplicate' // another slot (earlier in the list) already writes this cell
  | 'no_slot' // the question has no answer slot, so there is no cell to write
  | 'draft'; // a value an analyst could not defend as it is (low trust, free text alone): left for review

export const SKIP_REASONS: readonly SkipReason[] = [
  'blocked',
  'formula',
  'occupied',
  'missing_tab',
  'no_value',
  'not_allowed',
  'protected',
  'bad_coordinate',
  'duplicate',
  'no_slot',
  'draft',
];

export interface SourceRef {
  filename: string;
  page_number: number;
}

/** One cell to write. `value` is plain text: writers store it as text, never as a formula. */
export interface CellWrite {
  /** Sheet name exactly as it is in the workbook (after case-insensitive resolution). */
  tab: string;
  /** A1 address of the cell (top-left cell of a merged area), no sheet prefix, no `$`. */
  address: string;
  value: string;
  questionId: number;
  originalId: string | null;
  slotRole: string;
  slotHeader: string;
  score: number | null;
  trust: TrustLevel | null;
  sources: SourceRef[];
  /** True when `value` would be read by Excel as a formula or a number and must be forced to text. */
  forceText: boolean;
  /** A draft written only because the analyst asked for drafts too (`writeDrafts`). */
  draft?: boolean;
  /**
   * For an answer given by a mark: `set` puts the mark in the chosen column, `clear` empties another
   * column of the same answer (`value` is then '', and the cell gets no trust colour or note).
   */
  mark?: 'set' | 'clear';
}

export interface SkippedSlot {
  tab: string;
  address: string | null;
  questionId: number;
  originalId: string | null;
  slotRole: string;
  reason: SkipReason;
  /** A sentence for a person: what was there or what was wrong. */
  detail: string;
  /** For a `draft`: the value the fill held back, for the review to show. */
  value?: string;
  /** For an `occupied` cell: the value it holds now, whole (the detail shortens it for reading). */
  current?: string | number | boolean;
}

export interface TabReport {
  tab: string;
  written: number;
  skipped: number;
  byReason: Partial<Record<SkipReason, number>>;
}

export interface FillReport {
  written: number;
  skipped: number;
  byReason: Partial<Record<SkipReason, number>>;
  tabs: TabReport[];
  /** What generating the answers cost in language-model calls; absent when no answer came from a model. */
  model?: ModelUsage;
}

/** Summed from the answers' evaluations (`llm_usage`, `model`: extension fields of this project's service). */
export interface ModelUsage {
  models: string[];
  requests: number;
  tokens: number;
}

export interface WritePlan {
  writes: CellWrite[];
  skipped: SkippedSlot[];
  report: FillReport;
}

/**
 * A fill planned both ways from one read of the cells: `keep` leaves every value in place, `all`
 * overwrites (never formulas, never locked cells). The overwrite confirmation compares them.
 */
export interface OverwritePlans {
  keep: WritePlan;
  all: WritePlan;
}

/** What a writer knows about a target cell before planning (read from the workbook). */
export interface CellState {
  /** Displayed/cached value; null or '' when empty. */
  value: string | number | boolean | null;
  /** True when the cell holds a formula. */
  hasFormula: boolean;
  /** True when the cell is locked on a protected sheet. */
  locked?: boolean;
}

/** The planner's view of the workbook: names of its sheets and the state of the cells it asks for. */
export interface WorkbookView {
  sheetNames: readonly string[];
  protectedSheets?: readonly string[];
  /** State of a cell; undefined means empty. `tab` is the resolved sheet name. */
  cell(tab: string, address: string): CellState | undefined;
}

export interface PlanOptions {
  /** Overwrite cells that already hold a value (never formulas or blocked slots). Default false. */
  overwrite?: boolean;
  /** "Also write drafts into cells": write what the fill would otherwise leave for review. Default false. */
  writeDrafts?: boolean;
}

/**
 * Cells that were written but could not be shown as the fill meant: no trust colour or no source
 * note, because the sheet is protected, Excel is too old for it, or Excel refused the change.
 */
export interface AnnotationGap {
  kind: 'colour' | 'note';
  /** `no-styles`: a file without a style sheet (styles.xml) to add colours to (`qfill fill --highlight`). */
  why: 'protected' | 'unsupported' | 'refused' | 'no-styles';
  /** The sheet, or null for the whole fill (an Excel without notes has none on any sheet). */
  tab: string | null;
  count: number;
}
