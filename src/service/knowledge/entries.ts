/**
 * What the knowledge index stores for a document, before any embedding: its passages and answer-library
 * entries with their stems and full-text forms. Pure and CPU-heavy (splitting, stemming), so the reader's
 * worker thread computes it beside the extraction (`ExtractedDocument.prepared_index`).
 */
import type { PassageEntry, QaEntry } from '../storage/knowledge-index';
import { splitIntoPassages } from './passages';
import { qaContent } from './retrieval';
import { stemmedTerms, textForIndex } from './text';
import type { ExtractedDocument } from './types';

export interface IndexEntries {
  passages: Omit<PassageEntry, 'embedding'>[];
  qa: Omit<QaEntry, 'embedding'>[];
}

export function indexEntries(doc: ExtractedDocument): IndexEntries {
  const passages = splitIntoPassages(doc);
  const qa = doc.qa.filter((p) => p.question.trim() !== '' && p.slots.some((s) => s.content.trim() !== ''));
  const passageEntries = passages.map((p): Omit<PassageEntry, 'embedding'> => ({
    page_number: p.page_number,
    section_path: p.section_path,
    context_header: p.context_header,
    content: p.content,
    stems: [...stemmedTerms(`${p.context_header}\n${p.content}`)].join(' '),
    index_header: textForIndex(p.context_header),
    index_body: textForIndex(p.content),
  }));
  const qaEntries = qa.map((pair): Omit<QaEntry, 'embedding'> => {
    const slots = pair.slots.filter((s) => s.content.trim() !== '');
    const answer = pair.answer.trim() || slots[0]!.content;
    const answerText = qaContent(answer, slots);
    return {
      question: pair.question,
      answer,
      slots,
      original_id: pair.original_id ?? null,
      tab_name: pair.tab_name ?? '',
      location: pair.location ?? '',
      question_stems: [...stemmedTerms(pair.question)].join(' '),
      stems: [...stemmedTerms(`${pair.question}\n${answerText}`)].join(' '),
      index_question: textForIndex(pair.question),
      index_answer: textForIndex(answerText),
    };
  });
  return { passages: passageEntries, qa: qaEntries };
}
