/**
 * Finds the question table of one sheet, in named phases: the question column (question-column.ts),
 * the id column (id-column.ts), header rows (header-rows.ts), the sheet's slot columns
 * (slot-columns.ts), then a walk over the rows that tells questions from headings (row-walk.ts);
 * sections.ts nests the headings and this file cuts blocks and rejects what is no questionnaire.
 * Decisions use generic signals only: question-like text, id patterns, header words, data
 * validations, merges, formulas, protection and formatting.
 */
import type { AnswerSlot } from '../../api/schemas';
import { parseCell } from '../../xlsx/ranges';
import type { SheetGrid } from './grid';
import { findHeaderRows } from './header-rows';
import { findIdColumn } from './id-column';
import { findQuestionColumn } from './question-column';
import { walkRows, type Walk } from './row-walk';
import { sectionPaths } from './sections';
import { sheetView, type CellStyleLookup, type SheetView } from './sheet-view';
import { findSlotColumns } from './slot-columns';
import type { ValidationLookup } from './validation';

export type { CellStyleLookup };

export interface SheetQuestion {
  original_id: string | null;
  original_question_text: string;
  section_path: string[];
  row: number;
  question_coordinate: string;
  /** Local block number within the sheet (from 0). */
  block: number;
  answer_slots: AnswerSlot[];
}

export type SheetAnalysis =
  | {
      ok: true;
      questions: SheetQuestion[];
      questionColumn: number;
      idColumn: number | null;
      hiddenQuestionRows: number[];
      /** Rows of withdrawn or deleted items, left out. */
      withdrawnRows: number[];
      /** The one placeholder every filled answer cell holds in a blank template (`N/A`), reported as no answer. */
      templateDefault: string | null;
    }
  | { ok: false; reason: string };

/** Share of question rows whose answer cell is a formula above which a sheet is a derived report. */
const DERIVED_FORMULA_SHARE = 0.8;
/** Share of question rows whose question and answer are both formulas above which a sheet is a report. */
const MIRRORED_SHARE = 0.5;
/** Share of items whose status says they were deprecated, moved or removed above which a sheet is a change log. */
const CHANGE_LOG_SHARE = 0.6;

export function analyseSheet(grid: SheetGrid, validations: ValidationLookup, styles: CellStyleLookup): SheetAnalysis {
  const view = sheetView(grid, validations, styles);
  const questionColumn = findQuestionColumn(view);
  if (!questionColumn) return { ok: false, reason: 'it has no column of question-like text and no "Question" column header' };
  const { col: Q, headerRow: explicitHeaderRow } = questionColumn;

  const textRows = view.rows.filter((r) => view.text(r, Q) && (explicitHeaderRow === null || r > explicitHeaderRow));
  const id = findIdColumn(view, Q, withoutRepeatedText(view, Q, textRows), explicitHeaderRow);
  const headerRows = findHeaderRows(view, Q, id?.col ?? null);
  const slotColumns = findSlotColumns(view, headerRows, textRows, [Q, id?.col ?? -1]);
  if (slotColumns.size === 0) {
    return {
      ok: false,
      reason: 'it has question-like text but no header row naming an answer column (e.g. "Answer", "Response") and no dropdown answer cells',
    };
  }
  const answerColumn = [...slotColumns.values()].find((s) => s.role === 'answer');
  if (!answerColumn) {
    return { ok: false, reason: 'its columns are reference material (guidance, scoring, mappings) with no answer column' };
  }

  const walk = walkRows({ view, questionCol: Q, idCol: id?.col ?? null, id, explicitHeaderRow, headerRows, slotColumns, answerCol: answerColumn.col });
  const questions = withBlocks(walk);
  if (questions.length === 0) return { ok: false, reason: 'it has a question column but no question rows' };
  const hasExplicitTable = explicitHeaderRow !== null || headerRows.length > 0;
  if (!hasExplicitTable && questions.length < 2) return { ok: false, reason: 'it has only one question-like row and no table header' };
  if (isDerivedReport(view, questions)) {
    return { ok: false, reason: 'its answer cells are formulas that mirror other cells (a report or lookup, not a questionnaire)' };
  }
  if (isChangeLog(questions)) {
    return { ok: false, reason: 'its items are marked deprecated, merged, moved or removed (a change log, not a questionnaire)' };
  }
  const hiddenQuestionRows = questions.filter((q) => grid.hiddenRows.has(q.row)).map((q) => q.row);
  const templateDefault = clearTemplateDefaults(questions);
  return { ok: true, questions, questionColumn: Q, idColumn: id?.col ?? null, hiddenQuestionRows, withdrawnRows: walk.withdrawnRows, templateDefault };
}

/**
 * Rows whose text in the question column is not repeated on three or more rows: a text written on many
 * rows (`Automatic from the Interview Sheet`) labels a table of results, whose keys are no question ids.
 */
function withoutRepeatedText(view: SheetView, Q: number, rows: readonly number[]): number[] {
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(view.text(r, Q) as string, (counts.get(view.text(r, Q) as string) ?? 0) + 1);
  return rows.filter((r) => (counts.get(view.text(r, Q) as string) ?? 0) < 3);
}

/** Section paths from the walk's headings; blocks are runs of questions under one section and one header row. */
export function withBlocks(walk: Walk): SheetQuestion[] {
  const paths = sectionPaths(walk.events);
  let block = -1;
  let blockKey: string | null = null;
  walk.questions.forEach((q, i) => {
    q.section_path = paths.get(i) ?? [];
    const key = `${q.section_path.join('\u0001')}\u0000${walk.headerOf[i]}`;
    if (key !== blockKey) {
      block++;
      blockKey = key;
    }
    q.block = block;
  });
  return walk.questions;
}

/**
 * Most answer cells are formulas, or most rows mirror both question and answer from elsewhere: the
 * sheet reports on another (an analyst report, a scorecard, a lookup).
 */
function isDerivedReport(view: SheetView, questions: readonly SheetQuestion[]): boolean {
  const isFormula = (a1: string | undefined) => {
    const ref = a1 ? parseCell(a1) : null;
    return ref !== null && view.cell(ref.row, ref.column)?.formula === true;
  };
  const answerFormula = (q: SheetQuestion) => isFormula(q.answer_slots.find((s) => s.role === 'answer')?.coordinate);
  const formulas = questions.filter(answerFormula).length;
  const mirrored = questions.filter((q) => answerFormula(q) && isFormula(q.question_coordinate)).length;
  return formulas / questions.length >= DERIVED_FORMULA_SHARE || mirrored / questions.length >= MIRRORED_SHARE;
}

const PLACEHOLDER_RE = /^(?:n\/?a|not\s+applicable|tbd|to\s+be\s+determined|-+|select(?:\s.*)?|choose(?:\s.*)?|please\s+select.*|\.\.\.)$/i;

/**
 * A blank template that pre-fills its answer cells with one placeholder (`N/A` in every status cell)
 * carries no answers: when every filled answer cell holds the same placeholder and no other writable
 * slot holds anything, those values are template content and are reported as empty. Returns the
 * placeholder, or null when the answers look like a respondent's.
 */
export function clearTemplateDefaults(questions: readonly SheetQuestion[]): string | null {
  const answers = questions.map((q) => q.answer_slots.find((s) => s.role === 'answer')).filter((s) => s?.value != null);
  if (answers.length === 0) return null;
  const value = answers[0]!.value!.trim();
  if (!PLACEHOLDER_RE.test(value) || answers.some((s) => s!.value!.trim() !== value)) return null;
  const othersFilled = questions.some((q) => q.answer_slots.some((s) => s.role !== 'answer' && !s.is_blocked && s.value != null));
  if (othersFilled) return null;
  for (const s of answers) {
    s!.value = null;
    s!.template_default = value;
  }
  return value;
}

const CHANGE_STATUS_RE = /^(?:deprecated|merged|moved|removed|withdrawn|deleted|superseded|retired|replaced|obsolete|updated|renamed)\b/i;

/** Most items carry a status saying what became of them: a list of changes between versions. */
function isChangeLog(questions: readonly SheetQuestion[]): boolean {
  const changed = questions.filter((q) => CHANGE_STATUS_RE.test(q.answer_slots.find((s) => s.role === 'answer')?.value?.trim() ?? '')).length;
  return changed / questions.length >= CHANGE_LOG_SHARE;
}
