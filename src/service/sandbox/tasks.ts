/**
 * What a reader worker does with one file: extract a document's text or detect a questionnaire's
 * questions, within the size limits. Plain async functions, so they also run in-process.
 */
import { detectQuestionnaire, DetectError, type DetectedQuestionnaire } from '../detect';
import { megabytes, type ReadLimits } from '../files/limits';
import { sourceBytes, sourceSize, type FileSource } from '../files/source';
import { documentDatesOf, indexEntries } from '../knowledge/entries';
import { extractDocument } from '../knowledge/extract';
import { documentSubject } from '../knowledge/extract/subject';
import { documentHasText, type ExtractedDocument, type ReadDocument } from '../knowledge/types';

export interface TaskInput {
  source: FileSource;
  filename: string;
  limits: ReadLimits;
}

/**
 * The document's index entries and subject (under `filename`, the name it is indexed by), computed here
 * rather than on the request thread, and what else indexing needs of it; not its pages.
 */
export async function extractTask(input: TaskInput): Promise<ReadDocument> {
  return readDocument(await extractDocument(input.source, input.filename, input.limits), input.filename);
}

/** What a reader thread sends back of a document it read (see `ReadDocument`). */
export function readDocument(doc: ExtractedDocument, filename: string): ReadDocument {
  const subject = documentSubject({ filename, title: doc.title, pages: doc.pages, document_type: doc.document_type }) ?? null;
  const { pages: _pages, qa: _qa, prepared_index: _prepared, dates_text: _dates, ...rest } = doc;
  return { ...rest, has_text: documentHasText(doc), prepared_index: { ...indexEntries(doc), subject, dates: documentDatesOf(doc) } };
}

export async function detectTask(input: TaskInput): Promise<DetectedQuestionnaire> {
  const { source, filename, limits } = input;
  // A CSV is parsed whole into a grid: refuse one too large before reading it.
  if (/\.csv$/i.test(filename)) {
    const size = await sourceSize(source);
    if (size > limits.maxTextFileBytes) {
      throw new DetectError(
        `${filename} is ${megabytes(size)} of text; the limit is ${megabytes(limits.maxTextFileBytes)} per CSV questionnaire (save it as .xlsx, or split it)`,
      );
    }
  }
  return detectQuestionnaire(await sourceBytes(source), filename);
}

export const TASKS = { extract: extractTask, detect: detectTask } as const;
export type TaskName = keyof typeof TASKS;
