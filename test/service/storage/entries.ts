/** Index entries for the knowledge index suites, made as ingestion makes them (one heading, one answer slot). */
import type { PassageEntry, QaEntry } from '../../../src/service/storage/knowledge-index';
import { libraryQuestionKey } from '../../../src/service/knowledge/question-identity';
import { stemmedTerms, textForIndex } from '../../../src/service/knowledge/text';

export function passageOf(header: string, content: string, embedding: number[] | null = null): PassageEntry {
  return {
    page_number: 1,
    section_path: [header],
    context_header: header,
    content,
    stems: [...stemmedTerms(`${header}\n${content}`)].join(' '),
    index_header: textForIndex(header),
    index_body: textForIndex(content),
    embedding: embedding ? Float32Array.from(embedding) : null,
  };
}

export function qaOf(question: string, answer: string): QaEntry {
  return {
    question,
    answer,
    slots: [{ slot_key: 'answer', content: answer }],
    original_id: null,
    tab_name: 'Sheet1',
    location: 'Sheet1!C2',
    qkey: libraryQuestionKey({ text: question, tab_name: 'Sheet1' }),
    question_stems: [...stemmedTerms(question)].join(' '),
    stems: [...stemmedTerms(`${question}\n${answer}`)].join(' '),
    index_question: textForIndex(question),
    index_answer: textForIndex(answer),
    embedding: null,
  };
}
