/** The knowledge module's boundary: what ingestion produces and what answering returns. */
import type { IndexEntries } from './entries';
import type { AnswerSlot, DocumentType, Evaluation, FileFormat, TrustLevel } from '../../api/schemas';
import type { IndexedFile } from '../storage/knowledge-index';
import type { QuestionnaireSearch } from './retrieval';
import type { ProductContext } from './answer/product';

export interface ExtractedPage {
  page_number: number;
  text: string;
  /**
   * The page's text as headings and paragraphs, in reading order, when the format shows structure.
   * Passages take their heading trail (`context_header`) from it; without it `text` is split on blank lines.
   */
  blocks?: TextBlock[];
}

/** A heading (`level` 1 = outermost) or a paragraph (`level` 0). */
export interface TextBlock {
  level: number;
  text: string;
}

/** A question/answer pair from a Q&A sheet or a completed questionnaire: an answer-library entry. */
export interface QaPair {
  question: string;
  /** The main answer text (e.g. `Yes` or a sentence). */
  answer: string;
  /** Every answer slot as written (e.g. answer=`Yes`, comment=`We use SAML SSO`). */
  slots: { slot_key: string; header?: string; content: string }[];
  original_id?: string | null;
  tab_name?: string;
  /** Where it came from, e.g. `Sheet1!C12`. */
  location?: string;
  /** What it is about beyond its words (question-identity.ts questionSubject): its section and what it refers back to. */
  subject?: string;
  /** The section of its sheet it sits in: its section rows' titles, outermost first, joined by " > " (absent: none). */
  section?: string;
  /** Its question key as the library gave it (a library export read back), instead of one computed here. */
  qkey?: string;
  /** What a library export says was decided about it (approved, or canonical for its question). */
  decision?: Pick<LibraryDecision, 'status' | 'approved_by'>;
}

/**
 * A decision a library export states about one of its rows (../domain/library-import.ts applies it):
 * canonical (its question settled on it), or approved by the person the export names.
 */
export interface LibraryDecision {
  /** The row's entry as it is learned: where and what. */
  location: string;
  question: string;
  status: 'canonical' | 'approved';
  /** The export's "Approved by", '' when it names nobody. */
  approved_by: string;
}

export interface ExtractedDocument {
  file_format: FileFormat;
  document_type: DocumentType;
  pages: ExtractedPage[];
  qa: QaPair[];
  /** A title from the document's own metadata (e.g. YAML front matter `name:`), if any. */
  title?: string;
  /** The organisation the document is about, when its text names one (see extract/subject.ts). */
  subject?: string;
  /** Where a document without pages states its own date (a workbook's top rows), for extract/document-dates.ts. */
  dates_text?: string;
  /** Its index entries, when the reader's worker thread already computed them (see entries.ts). */
  prepared_index?: IndexEntries;
  /** The answer library's own export read back: what it says was approved or settled, row by row. */
  library_decisions?: LibraryDecision[];
}

/**
 * A document as a reader thread sends it back for indexing: its index entries computed there, and so
 * without its pages and pairs, which are the bulk of a large file (sent whole, they were copied between
 * threads a second and third time: 40 µs a passage of a 10 MB upload).
 */
export interface ReadDocument extends Omit<ExtractedDocument, 'pages' | 'qa' | 'prepared_index'> {
  /** Whether it had any text or answered pair at all (`documentHasText` of the document read). */
  has_text: boolean;
  prepared_index: IndexEntries & { subject: string | null };
}

/** Whether a document has anything to index: a page with text, or a question/answer pair. */
export function documentHasText(doc: ExtractedDocument | ReadDocument): boolean {
  if ('has_text' in doc) return doc.has_text;
  return doc.pages.some((p) => p.text.trim() !== '') || doc.qa.length > 0;
}

/** A file that cannot be ingested; `message` is the reason shown to the user. */
export class ExtractError extends Error {
  override name = 'ExtractError';
}

/** What scopes a file's content in searches: the knowledge index's own description of a file. */
export type FileMeta = IndexedFile;

export interface SearchFilters {
  file_id?: number;
  offering_ids?: number[];
  /**
   * Files whose rows are left out of what was found (a replay fills a past questionnaire from the rest of
   * the library): dropped from each search's pool, so a few pooled rows fewer remain to rank.
   */
  exclude_file_ids?: number[];
}

/** One ranked piece of evidence; maps onto SourceEvidence (2.10) and chat sources (2.5). */
export interface Evidence {
  type: 'passage' | 'qna';
  passage_id: number | null;
  qna_id: number | null;
  file_id: number;
  filename: string;
  page_number: number;
  content: string;
  context_header: string;
  section_path: string[];
  tab_name: string;
  question_text?: string;
  source_location?: string;
  /** The other organisation this evidence speaks for (its file's subject is not one of ours), if any. */
  third_party?: string;
  /** 0..1, higher is better. */
  relevance_score: number;
  /** 1 = best. */
  rank: number;
}

export interface QuestionInput {
  text: string;
  original_id?: string | null;
  answer_slots: AnswerSlot[];
  /** The tab it is asked on: question ids are compared only between questions of the same template (tab). */
  tab_name?: string;
  /** Section titles it sits under, outermost first: part of what it is about. */
  section_path?: string[];
  /** The question before it on its sheet that names a subject; see question-identity.ts. */
  follows?: string | null;
  /** What its domain is about: the first question of its id group ("IAM" of "IAM-02.2"); see question-identity.ts. */
  domain?: string | null;
  /** The subject it refers back to, when it names none of its own (referredSubject). */
  subject?: string | null;
}

/** Questionnaire-level choices that shape answering. */
export interface AnswerOptions {
  /** The analyst chose "prefer the most recent questionnaire" when past answers disagree. */
  prefer_recent?: boolean;
  /** The questionnaire's searches made up front (KnowledgeBase.searchQuestionnaire): its passage prior, and each question's search. */
  questionnaire?: QuestionnaireSearch;
  /** The product the questionnaire is about and the corpus' titles (answer/product.ts): another product's statement is a draft. */
  product?: ProductContext;
}

export interface AnswerResult {
  text: string;
  slot_responses: { slot_key: string; content: string }[];
  score: number;
  evaluation: Evaluation;
  flagged_for_review: boolean;
  evidence: Evidence[];
  /** `settings`: from the organisation's own settings (its names answer "Solution Provider Name"). */
  method: 'library' | 'extractive' | 'llm' | 'settings' | 'none';
}

/** Which engine writes generated answers (extension field of `GET /extensions/`, for the pane). */
export type AnsweringEngine =
  | { engine: 'extractive' }
  | { engine: 'llm'; model: string; structured_output: boolean | null; concurrency: number; token_budget: number | null };

export interface ChatTurn {
  sender: 'user' | 'assistant';
  content: string;
}

export interface ChatAnswer {
  answer: string;
  sources: Evidence[];
  /** The query actually searched (follow-ups expanded with earlier turns). */
  resolved_query: string;
  /** How far the quoted source states what was asked; low for a third party's document. Absent when nothing was found. */
  trust?: TrustLevel;
}
