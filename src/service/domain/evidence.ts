/** An answer's evidence from retrieval to storage: what the answering job keeps of each source. */
import type { Evidence } from '../knowledge/types';
import type { EvidenceRecord } from '../storage/types';

/** The fields an answer's evidence keeps unchanged from retrieval through storage to the response. */
export function evidenceCore(e: Evidence | EvidenceRecord) {
  return {
    type: e.type,
    content: e.content,
    filename: e.filename,
    file_id: e.file_id,
    page_number: e.page_number,
    section_path: e.section_path,
    tab_name: e.tab_name,
    relevance_score: e.relevance_score,
    rank: e.rank,
  };
}

/** The stored row of one piece of evidence. */
export function evidenceRow(e: Evidence): Omit<EvidenceRecord, 'id' | 'created_at'> {
  return {
    ...evidenceCore(e),
    passage_id: e.passage_id,
    qna_id: e.qna_id,
    context_header: e.context_header,
    question_text: e.question_text ?? null,
    source_location: e.source_location ?? null,
  };
}
