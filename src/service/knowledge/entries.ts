/**
 * What the knowledge index stores for a document, before any embedding: its passages and answer-library
 * entries with their stems and full-text forms. Pure and CPU-heavy (splitting, stemming), so the reader's
 * worker thread computes them beside the extraction (`ExtractedDocument.prepared_index`).
 */
import type { FileDates, PassageEntry, QaEntry } from '../storage/knowledge-index';
import { documentDates } from './extract/document-dates';
import { libraryQuestionKey } from './question-identity';
import { splitIntoPassages, type Passage } from './passages';
import { qaContent } from './retrieval';
import { indexTexts, stemmedTerms } from './text';
import type { ExtractedDocument, QaPair } from './types';

export type PreparedPassage = Omit<PassageEntry, 'embedding'>;
export type PreparedQa = Omit<QaEntry, 'embedding'>;

export interface IndexEntries {
  passages: PreparedPassage[];
  qa: PreparedQa[];
  /**
   * `documentSubject` of the document under the name it is indexed by (null: none), when the reader
   * computed it: it reads the whole text, too long a pause for the request thread on a large file.
   */
  subject?: string | null;
  /** The dates the document states about itself (`documentDatesOf`), when the reader computed them. */
  dates?: FileDates;
}

/** Characters of a document searched for its dates: its top holds them, a report's period is on its first pages. */
const DATES_CHARS = 200_000;

/** The dates a document states about itself: from its pages' text, else from what its reader kept for them (a workbook's top rows). */
export function documentDatesOf(doc: ExtractedDocument): FileDates {
  let text = doc.dates_text ?? '';
  for (const page of doc.pages) {
    if (text.length >= DATES_CHARS) break;
    text += `${page.text}\n`;
  }
  const d = documentDates(text.slice(0, DATES_CHARS));
  return { as_of: d.as_of, valid_until: d.valid_until, valid_said: d.valid_said };
}

export function indexEntries(doc: ExtractedDocument): IndexEntries {
  return { passages: splitIntoPassages(doc).map(passageEntry), qa: pairsToIndex(doc).map(qaEntry) };
}

/** Answer-library pairs worth indexing: a question and at least one answered slot. */
export function pairsToIndex(doc: ExtractedDocument): QaPair[] {
  return doc.qa.filter((p) => p.question.trim() !== '' && p.slots.some((s) => s.content.trim() !== ''));
}

export function passageEntry(p: Passage): PreparedPassage {
  const texts = indexTexts(p.context_header, p.content);
  return {
    page_number: p.page_number,
    section_path: p.section_path,
    context_header: p.context_header,
    content: p.content,
    stems: texts.stems,
    index_header: texts.indexHead,
    index_body: texts.indexBody,
  };
}

export function qaEntry(pair: QaPair): PreparedQa {
  const slots = pair.slots.filter((s) => s.content.trim() !== '');
  const answer = pair.answer.trim() || slots[0]!.content;
  const answerText = qaContent(answer, slots);
  const texts = indexTexts(pair.question, answerText);
  return {
    question: pair.question,
    answer,
    slots,
    original_id: pair.original_id ?? null,
    tab_name: pair.tab_name ?? '',
    location: pair.location ?? '',
    qkey: pair.qkey ?? libraryQuestionKey({ text: pair.question, original_id: pair.original_id, tab_name: pair.tab_name, subject: pair.subject }),
    question_stems: [...stemmedTerms(pair.question)].join(' '),
    stems: texts.stems,
    index_question: texts.indexHead,
    index_answer: texts.indexBody,
  };
}
