/** The questionnaire detector's output: what the service stores as questions and answer slots. */
import type { AnswerSlot } from '../../api/schemas';

export interface DetectedQuestion {
  /** Question id as written in the sheet (`A&A-01.1`), or null when the sheet has none. */
  original_id: string | null;
  /** The question text; the cached value when the cell is a formula. */
  original_question_text: string;
  tab_name: string;
  /** Section titles from section rows, outermost first. */
  section_path: string[];
  /** Global reading order across tabs, starting at 1. */
  order: number;
  /** 1-based sheet row of the question. */
  row: number;
  /** A1 address of the question text cell. */
  question_coordinate: string;
  /** Index (per workbook, from 0) of the table block the question belongs to: groups are formed from it. */
  block: number;
  answer_slots: AnswerSlot[];
}

export interface DetectedQuestionnaire {
  questions: DetectedQuestion[];
  /** Answer tabs in workbook order (tabs that hold at least one question). */
  tabs: string[];
  /** Text the language detector reads (question texts joined). */
  language_sample: string;
  /** Things a person should know (e.g. a sheet skipped as a lookup table). */
  warnings: string[];
}

/** A file that cannot be read as a questionnaire; `message` is shown to the user as is. */
export class DetectError extends Error {
  override name = 'DetectError';
}
