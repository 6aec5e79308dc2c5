/**
 * Questionnaire detection: bytes of an uploaded .xlsx or .csv → questions with their answer slots.
 * Used on questionnaire upload (to fill) and on repository upload of a completed questionnaire (slot
 * values become answer-library entries).
 */
import { isXlsxError, sniffSpreadsheet } from '../../xlsx';
import { csvToGrid } from './csv';
import { analyseSheet, type CellStyleLookup, type SheetQuestion } from './layout';
import { DetectError, type DetectedQuestion, type DetectedQuestionnaire } from './types';
import { validationLookup } from './validation';
import { readWorkbook, type Workbook } from './workbook';

export * from './types';

const LANGUAGE_SAMPLE_CHARS = 4000;

const NO_STYLES: CellStyleLookup = { locked: () => false, bold: () => false, look: () => '' };

export async function detectQuestionnaire(bytes: Uint8Array, filename: string): Promise<DetectedQuestionnaire> {
  return detecting(() => {
    const kind = sniffSpreadsheet(bytes, `"${filename}"`, { csvName: filename });
    return kind === 'csv' ? detectCsv(bytes, filename) : detectSheets(readWorkbook(bytes, filename), filename);
  });
}

/** The same, in a workbook already read (a caller that reads the workbook for more than its questions). */
export async function detectQuestionnaireIn(workbook: Workbook, filename: string): Promise<DetectedQuestionnaire> {
  return detecting(() => detectSheets(workbook, filename));
}

function detecting(detect: () => DetectedQuestionnaire): DetectedQuestionnaire {
  try {
    return detect();
  } catch (e) {
    // The package layer's messages already name the file and the problem.
    if (isXlsxError(e)) throw new DetectError(e.message);
    throw e;
  }
}

/** What the sheets' analyses found: the questions of each questionnaire tab, and why the others are not one. */
interface Found {
  perTab: { tab: string; questions: SheetQuestion[] }[];
  rejected: string[];
  skipped: { tab: string; reason: string }[];
  warnings: string[];
}

function detectCsv(bytes: Uint8Array, filename: string): DetectedQuestionnaire {
  const found: Found = { perTab: [], rejected: [], skipped: [], warnings: [] };
  const grid = csvToGrid(bytes, filename);
  const analysis = analyseSheet(grid, validationLookup(grid, null, 0), NO_STYLES);
  if (analysis.ok) found.perTab.push({ tab: grid.name, questions: analysis.questions });
  else found.rejected.push(`the CSV: ${analysis.reason}`);
  return assemble(found, filename);
}

function detectSheets(workbook: Workbook, filename: string): DetectedQuestionnaire {
  const found: Found = { perTab: [], rejected: [], skipped: [], warnings: [] };
  const { perTab, rejected, skipped, warnings } = found;
  const styles: CellStyleLookup = {
    locked: (s) => workbook.styles[s]?.locked ?? true,
    bold: (s) => workbook.styles[s]?.bold ?? false,
    look: (s) => workbook.styles[s]?.look ?? '',
  };
  const hidden = workbook.sheets.filter((s) => s.state !== 'visible').map((s) => s.name);
  if (hidden.length > 0) warnings.push(`Hidden sheets are not questionnaires and were skipped: ${hidden.join(', ')}.`);
  for (const sheet of workbook.sheets) {
    if (sheet.state !== 'visible') continue;
    const grid = workbook.grid(sheet);
    const analysis = analyseSheet(grid, validationLookup(grid, workbook, sheet.index), styles);
    if (analysis.ok) {
      perTab.push({ tab: sheet.name, questions: analysis.questions });
      const withdrawn = analysis.withdrawnRows.length;
      if (withdrawn > 0) {
        warnings.push(
          `Sheet "${sheet.name}": ${withdrawn} withdrawn or deleted item${withdrawn > 1 ? 's are' : ' is'} not ${withdrawn > 1 ? 'questions' : 'a question'}.`,
        );
      }
      if (analysis.templateDefault !== null) {
        warnings.push(
          `Sheet "${sheet.name}": every filled answer cell holds "${analysis.templateDefault}", a blank template's default; ` +
            'they are read as unanswered, and a fill replaces them.',
        );
      }
      const repeated = repeatedQuestions(analysis.questions);
      if (repeated) warnings.push(`Sheet "${sheet.name}": ${repeated}.`);
      const hiddenRows = analysis.hiddenQuestionRows;
      if (hiddenRows.length > 0) {
        const listed = hiddenRows.slice(0, 10).join(', ') + (hiddenRows.length > 10 ? ', ...' : '');
        warnings.push(
          `Sheet "${sheet.name}" has ${hiddenRows.length} hidden question row${hiddenRows.length > 1 ? 's' : ''} (${listed}); ` +
            'they are included: unhide them in Excel to review their answers.',
        );
      }
    } else {
      rejected.push(`"${sheet.name}": ${analysis.reason}`);
      skipped.push({ tab: sheet.name, reason: analysis.reason });
    }
  }
  return assemble(found, filename);
}

/** The questionnaire from the sheets' analyses: its questions in order, blocks numbered across tabs. */
function assemble({ perTab, rejected, skipped, warnings }: Found, filename: string): DetectedQuestionnaire {
  if (perTab.length === 0) {
    throw new DetectError(
      `No questionnaire found in "${filename}". Looked on every visible sheet for a column of questions ` +
        '(text ending in "?" or starting with words like "Do", "Describe", or a "Question" header) next to ' +
        'an answer column (headed e.g. "Answer", "Response", "Comments", or with a dropdown). ' +
        `Found: ${rejected.join('; ') || 'no sheets with cells'}.`,
    );
  }

  // Beside the questionnaire, every other visible sheet is accounted for: a report, a scorecard, a
  // reference or an instructions sheet is read and left out, and the analyst is told why.
  for (const { tab, reason } of skipped) warnings.push(`Sheet "${tab}" was skipped: ${reason}.`);

  const questions: DetectedQuestion[] = [];
  let order = 0;
  let blockBase = 0;
  for (const { tab, questions: qs } of perTab) {
    let maxBlock = -1;
    for (const q of qs) {
      questions.push({ ...q, tab_name: tab, order: ++order, block: blockBase + q.block });
      maxBlock = Math.max(maxBlock, q.block);
    }
    blockBase += maxBlock + 1;
  }

  let sample = '';
  for (const q of questions) {
    if (sample.length >= LANGUAGE_SAMPLE_CHARS) break;
    sample += (sample ? '\n' : '') + q.original_question_text;
  }
  return {
    questions,
    tabs: perTab.map((t) => t.tab),
    language_sample: sample.slice(0, LANGUAGE_SAMPLE_CHARS),
    warnings,
  };
}

/**
 * "2 questions repeat questions of START HERE by formula: they are answered there" when the sheet's
 * answer cells show another tab's (HECVAT 4 repeats its START HERE questions); null when none does.
 */
function repeatedQuestions(questions: readonly SheetQuestion[]): string | null {
  const sources = new Map<string, number>();
  for (const q of questions) {
    const mirror = q.answer_slots.find((s) => s.role === 'answer')?.mirror_of;
    if (typeof mirror !== 'string') continue;
    const bang = mirror.lastIndexOf('!');
    const tab = mirror
      .slice(0, bang)
      .replace(/^'(.*)'$/, '$1')
      .replace(/''/g, "'");
    sources.set(tab, (sources.get(tab) ?? 0) + 1);
  }
  const n = [...sources.values()].reduce((a, b) => a + b, 0);
  if (n === 0) return null;
  const tabs = [...sources.keys()].map((t) => `"${t}"`).join(', ');
  return `${n} question${n === 1 ? ' repeats a question' : 's repeat questions'} of ${tabs} by formula: ${n === 1 ? 'it is' : 'they are'} answered there`;
}
