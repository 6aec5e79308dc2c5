/** Stored records to the v2 response shapes (section 2). The only place that knows both. */
import type { AskSource, ChatMessage, ChatSession, ChatSource, Questionnaire, QuestionWithAnswers, RepositoryFile, SourceEvidence } from '../../api/schemas';
import { permissionsFor, roleFor } from '../domain/access';
import { evidenceCore } from '../domain/evidence';
import type { Evidence } from '../knowledge/types';
import { isExpired } from '../knowledge/extract/document-dates';
import type { FileDates } from '../storage/knowledge-index';
import { duplicateOf } from '../jobs/duplicate';
import { templateOf } from '../jobs/template-label';
import { importNoteOf } from '../jobs/import-note';
import { THIRD_PARTY_LABEL } from '../knowledge/answer/ownership';
import type {
  AnswerRecord,
  EvidenceRecord,
  FileRecord,
  MessageRecord,
  Principal,
  QuestionnaireRecord,
  QuestionRecord,
  SessionRecord,
  SourceRecord,
  UserRecord,
} from '../storage/types';

const STATUS_DISPLAY: Record<FileRecord['status'], string> = {
  submitted: 'Submitted',
  processing: 'Processing',
  ready: 'Ready',
  failed: 'Failed',
};

/**
 * A repository file as the API shows it; with the dates it states about itself (`dates`), its as-of
 * date and whether it has expired on `now`.
 */
export function repositoryFile(f: FileRecord, dates?: FileDates, now: Date = new Date()): RepositoryFile {
  // Extension: content already in the library; the full sentence is `note`.
  const duplicate = duplicateOf(f.processing_stage);
  // Extension: a file with template text says so ("template: 12 placeholders; …"); those passages answer nothing.
  const template = templateOf(f.processing_stage);
  // Extension: a library export uploaded back says what became of its approvals and settlements.
  const imported = importNoteOf(f.processing_stage);
  return {
    ...(duplicate !== null ? { duplicate_of: duplicate, note: f.processing_stage } : {}),
    ...(imported !== null ? { note: imported } : {}),
    ...(template !== null ? { template } : {}),
    id: f.id,
    original_filename: f.original_filename,
    status: f.status,
    status_display: f.status === 'failed' && f.error ? `Failed: ${f.error}` : STATUS_DISPLAY[f.status],
    processing_stage: duplicate !== null ? 'duplicate' : template !== null || imported !== null ? 'done' : f.processing_stage.slice(0, 20),
    processing_percent: f.processing_percent,
    document_type: f.document_type,
    file_format: f.file_format,
    source_provider: null,
    created_at: f.created_at,
    tags: f.tags.map((t) => ({ ...t })),
    relevant_offerings: f.offerings.map((o) => ({ ...o })),
    scope_includes_company: f.scope_includes_company,
    use_as_source: f.use_as_source,
    url: null,
    user: f.user_display,
    qa_count: f.qa_count,
    data_count: f.data_count,
    passage_count: f.passage_count,
    total_embeddings: f.total_embeddings,
    is_reprocessable: f.status === 'failed' || f.status === 'ready',
    error: f.error,
    ...(dates
      ? {
          as_of: dates.as_of ?? f.created_at.slice(0, 10),
          valid_until: dates.valid_until,
          valid_said: dates.valid_said,
          expired: isExpired(dates.valid_until, now),
        }
      : {}),
  };
}

export function chatSource(s: SourceRecord): ChatSource {
  return {
    id: s.id,
    type: s.type,
    relevance_score: s.relevance_score,
    content: s.content,
    source_file: s.source_file,
    page_number: s.page_number,
    context_header: s.context_header,
    source_url: s.source_url,
    file_id: s.file_id,
  };
}

export function chatMessage(m: MessageRecord): ChatMessage {
  return {
    id: m.id,
    sender: m.sender,
    content: m.content,
    created_at: m.created_at,
    is_edited: m.is_edited,
    metadata: m.metadata ?? null,
    sources: m.sources.map(chatSource),
  };
}

export function chatSession(s: SessionRecord, messages?: MessageRecord[]): ChatSession {
  const out: ChatSession = {
    id: s.id,
    title: s.title,
    created_at: s.created_at,
    updated_at: s.updated_at,
    is_archived: s.is_archived,
    message_count: s.message_count,
    // An object (2.3 does not make it nullable): empty until the session has a message.
    last_message: s.last_message
      ? {
          id: s.last_message.id,
          sender: s.last_message.sender,
          content: s.last_message.content,
          created_at: s.last_message.created_at,
        }
      : {},
  };
  if (messages) out.messages = messages.map(chatMessage);
  return out;
}

/** A stored source row from retrieval evidence (before it has an id). */
export function sourceFromEvidence(e: Evidence): Omit<SourceRecord, 'id'> {
  return {
    type: e.type,
    relevance_score: e.relevance_score,
    content: e.content,
    source_file: e.filename,
    file_id: e.file_id,
    page_number: e.page_number,
    context_header: e.context_header,
    source_url: '',
  };
}

/** Ask sources (2.2) carry no stored row; their id is the passage or Q&A entry they quote. */
export function askSource(e: Evidence): AskSource {
  return {
    id: e.passage_id ?? e.qna_id ?? 0,
    filename: e.filename,
    page_number: e.page_number,
    content: e.content,
    type: e.type,
    relevance_score: e.relevance_score,
    source_file: e.filename,
    context_header: e.context_header,
    source_url: '',
    file_id: e.file_id,
    ...(e.third_party ? { third_party: e.third_party } : {}),
  };
}

/** Extension `third_party`: read back from the label knowledge/answer/ownership.ts puts on the heading trail. */
function thirdPartyFromHeader(header: string): string | null {
  if (!header.startsWith(THIRD_PARTY_LABEL)) return null;
  return header.slice(THIRD_PARTY_LABEL.length).split(' · ')[0]!.trim() || null;
}

function sourceEvidence(e: EvidenceRecord): SourceEvidence {
  const out: SourceEvidence = {
    id: e.id,
    ...evidenceCore(e),
    created_at: e.created_at,
    context_header: e.context_header,
  };
  // Optional integers of 2.10, not nullable: absent when the evidence has none.
  if (e.passage_id !== null) out.passage_id = e.passage_id;
  if (e.qna_id !== null) out.qna_id = e.qna_id;
  if (e.question_text !== null) out.question_text = e.question_text;
  if (e.source_location !== null) out.source_location = e.source_location;
  const party = thirdPartyFromHeader(e.context_header);
  if (party) out.third_party = party;
  return out;
}

function answer(a: AnswerRecord) {
  return {
    id: a.id,
    text: a.text,
    evaluation: a.evaluation,
    facts_summary: a.facts_summary,
    slot_responses: a.slot_responses.map((r) => ({ slot_key: r.slot_key, content: r.content, is_manually_edited: false })),
    status: a.status,
    created_at: a.created_at,
    updated_at: a.updated_at,
    source_evidence: a.evidence.map(sourceEvidence),
    method: a.method,
  };
}

export function questionWithAnswers(q: QuestionRecord): QuestionWithAnswers {
  const out: QuestionWithAnswers = {
    id: q.id,
    original_question_text: q.text,
    answer_slots: q.answer_slots,
    tab_name: q.tab_name,
    section_path: q.section_path,
    order: q.order,
    needs_filling: q.needs_filling,
    flagged_for_review: q.flagged_for_review,
    translations: {},
    assigned_users: [],
    answers: q.answers.map(answer),
    comment_count: 0,
    unread_comment_count: 0,
    mentions_me: false,
    row: q.row,
    question_coordinate: q.question_coordinate,
  };
  // Strings and an integer in 2.10, none of them nullable: absent rather than null when unknown.
  if (q.original_id !== null) out.original_id = q.original_id;
  if (q.selected_answer_id !== null) out.selected_answer_id = q.selected_answer_id;
  if (q.security_control !== null) out.security_control = q.security_control;
  if (q.category !== null) out.category = q.category;
  return out;
}

export function displayName(u: UserRecord): string {
  const full = `${u.first_name} ${u.last_name}`.trim();
  return full || u.username;
}

const APPROVAL_DISPLAY: Record<QuestionnaireRecord['status'], string> = {
  ready: 'Ready',
  draft: 'Draft',
  in_review: 'In review',
  approved: 'Approved',
};

export function questionnaire(q: QuestionnaireRecord, p: Principal): Questionnaire {
  const permissions = permissionsFor(p, q);
  const myTeams = q.team !== null && p.team_ids.includes(q.team.id) ? [q.team] : [];
  return {
    id: q.id,
    file: {
      id: q.file.id,
      original_filename: q.file.original_filename,
      file_format: q.file.file_format,
      status: q.file.status,
      created_at: q.file.created_at,
    },
    file_name: q.file.original_filename,
    client: q.client,
    status: q.status,
    status_display: APPROVAL_DISPLAY[q.status],
    visibility: q.visibility,
    user: displayName(q.owner),
    answers_count: q.question_count,
    approved_count: q.approved_count,
    submitted_for_review_at: q.submitted_for_review_at,
    approved_at: q.approved_at,
    owner: displayName(q.owner),
    reviewers: q.reviewers.map(displayName),
    contributors: [],
    my_role: roleFor(p, q),
    permissions,
    stats: {
      question_count: q.question_count,
      answered_count: q.answered_count,
      approved_count: q.approved_count,
      generation_status: q.generation_status,
    },
    teams: q.team ? [{ ...q.team }] : [],
    my_teams: { results: myTeams },
    relevant_offerings: q.offerings.map((o) => ({ ...o })),
    scope_includes_company: q.scope_includes_company,
    detected_language: q.detected_language,
    effective_language: q.language_override ?? q.detected_language,
    ...permissions,
    document_type: q.document_type,
    warnings: q.warnings,
    created_at: q.created_at,
  };
}
