/**
 * What the task pane needs from the open workbook. `src/excel` implements it on Office.js (and so on
 * the in-memory Excel host of the workbench); task pane components receive it as a prop.
 */
import type { QuestionWithAnswers } from '../api/schemas';
import type { CellRef } from '../fill';
import type { AnnotationGap, OverwritePlans, PlanOptions, WritePlan } from '../fill/types';

export type { OverwritePlans } from '../fill/types';

export type { CellRef };

export interface AnnotateOptions {
  /** Fill colour by trust level (high/medium/low). */
  highlight?: boolean;
  /** A note (or comment on older Excel) with the top sources. */
  sourceNotes?: boolean;
}

export interface ApplyResult {
  written: number;
  /** Writes that failed at apply time (e.g. the sheet became protected), with the reason. */
  failed: (CellRef & { reason: string })[];
  syncs: number;
  /** Things the analyst should know that are not failed answers (e.g. a protected tab got no colours). */
  warnings?: string[];
  /** Written cells left without their trust colour or source note, and why (also said in `warnings`). */
  annotationGaps?: AnnotationGap[];
}

export interface UndoResult {
  restored: number;
  /** Cells Excel refused to restore (e.g. the sheet was protected since); the snapshot is kept then. */
  failed?: { tab: string; address: string; reason: string }[];
  syncs?: number;
}

export interface UndoOptions {
  /** Cells edited since the fill that stay exactly as they are (the analyst chose to keep their edits). */
  keep?: readonly CellRef[];
}

export interface ReadProgress {
  loaded: number;
  total: number;
}

export interface WorkbookAdapter {
  /** The open workbook as .xlsx bytes (getFileAsync, Compressed, slices reassembled). */
  readFile(onProgress?: (p: ReadProgress) => void): Promise<{ bytes: Uint8Array; fileName: string }>;
  /** Reads the target cells' state and plans the fill with src/fill (marks placed, template defaults read as empty). */
  plan(questions: QuestionWithAnswers[], options: PlanOptions): Promise<WritePlan>;
  /** The plans without and with overwrite from one read of the cells (what the overwrite confirmation compares). */
  planOverwrite?(questions: QuestionWithAnswers[], options: Omit<PlanOptions, 'overwrite'>): Promise<OverwritePlans>;
  /** Captures an undo snapshot of every touched cell, then writes the plan in batches. */
  apply(plan: WritePlan, options: AnnotateOptions): Promise<ApplyResult>;
  /** True when a fill of this workbook can be undone (also after the pane was reopened). */
  canUndo(): Promise<boolean>;
  /** Restores every cell touched by the last fill exactly, but those in `keep`; null when there is nothing to undo. */
  undo(options?: UndoOptions): Promise<UndoResult | null>;
  /** Activates the tab and selects the cell. */
  select(ref: CellRef): Promise<void>;
  getSelection(): Promise<CellRef | null>;
  /** Subscribes to selection changes; returns an unsubscribe function. */
  onSelectionChanged(handler: (ref: CellRef) => void): Promise<() => void>;
  /** Writes text into the selected cell with the write-back safety rules. */
  insertIntoSelection(text: string, options: { overwrite?: boolean }): Promise<{ written: boolean; reason?: string }>;
  /**
   * An analyst's correction of one answer cell, with the write-back safety rules: never a formula, never
   * a locked cell on a protected sheet, a cell holding a value the last fill did not write only with
   * `overwrite`. The cell's content before the correction joins the Undo fill snapshot (a cell the fill
   * wrote keeps its pre-fill content there), so Undo fill puts back what was there before either.
   * Empty text clears the cell.
   */
  writeCell(ref: CellRef, text: string, options: { overwrite?: boolean }): Promise<{ written: boolean; reason?: string }>;
  /**
   * Several cells as one correction (a marked answer's mark moved: the new column marked, the old one
   * cleared), with `writeCell`'s rules checked for every cell before any is written: all are written
   * in one sync, or none. Undo fill puts them back like any correction.
   */
  writeCells?(cells: readonly { ref: CellRef; text: string }[], options: { overwrite?: boolean }): Promise<{ written: boolean; reason?: string }>;
  /** The displayed text of cells ('' when empty), in the order asked: what undo would discard, what the review saves. */
  readValues?(refs: CellRef[]): Promise<string[]>;
  /**
   * A key for this file of the workbook (where its undo snapshot is kept): its own id joined to its
   * address, so neither another copy of the template nor a saved-as copy finds its undo. Not secret.
   */
  documentKey(): Promise<string>;
  /** The workbook's own id, kept in the workbook (document settings) since its first upload; null before. */
  workbookId?(): Promise<string | null>;
  /**
   * Gives the workbook its own id when it has none: one settings write, at its first upload (saving
   * settings can clear Excel's undo stack, so never while cells are written). Null where the host
   * keeps no document settings.
   */
  assignWorkbookId?(): Promise<string | null>;
}
