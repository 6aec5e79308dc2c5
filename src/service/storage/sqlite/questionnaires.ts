/** Questionnaires, their questions, generated answers and the evidence behind each answer. */
import type { Db } from './database';
import { nowIso } from '../../clock';
import { parseJson } from './json';
import { USER_COLUMNS } from './accounts';
import type { SqliteFiles } from './files';
import type {
  AnswerRecord,
  EvidenceRecord,
  GenerationStatus,
  NewAnswer,
  NewQuestionnaire,
  OfferingRecord,
  QuestionRecord,
  QuestionnaireApproval,
  QuestionnaireRecord,
  QuestionnaireRepository,
  UserRecord,
} from '../types';
import type { Evaluation } from '../../../api/schemas';

// Rows as SQLite returns them: the record's fields, with JSON as text, booleans as 0/1 and joins as ids.
type QuestionnaireRow = Omit<
  QuestionnaireRecord,
  'owner' | 'file' | 'team' | 'reviewers' | 'offerings' | 'scope_includes_company' | 'advanced_options' | 'warnings'
> & {
  file_id: number;
  team_id: number | null;
  team_name: string | null;
  scope_includes_company: number;
  advanced_options: string;
  warnings: string;
};

type QuestionRow = Omit<
  QuestionRecord,
  'section_path' | 'order' | 'answer_slots' | 'needs_filling' | 'flagged_for_review' | 'answers'
> & {
  section_path: string;
  ord: number;
  answer_slots: string;
  needs_filling: number;
  flagged_for_review: number;
};

type AnswerRow = Omit<AnswerRecord, 'evaluation' | 'facts_summary' | 'slot_responses' | 'evidence'> & {
  evaluation: string | null;
  facts_summary: string | null;
  slot_responses: string;
};

type EvidenceRow = Omit<EvidenceRecord, 'section_path'> & { section_path: string; answer_id: number };

const SELECT_QUESTIONNAIRE = `SELECT q.*, t.name AS team_name,
  (SELECT COUNT(*) FROM questions x WHERE x.questionnaire_id = q.id) AS question_count,
  (SELECT COUNT(*) FROM questions x WHERE x.questionnaire_id = q.id AND x.selected_answer_id IS NOT NULL) AS answered_count,
  (SELECT COUNT(*) FROM questions x JOIN answers a ON a.id = x.selected_answer_id
     WHERE x.questionnaire_id = q.id AND a.status = 'approved') AS approved_count
  FROM questionnaires q LEFT JOIN teams t ON t.id = q.team_id`;

export class SqliteQuestionnaires implements QuestionnaireRepository {
  constructor(
    private readonly db: Db,
    private readonly files: SqliteFiles,
  ) {}

  create(q: NewQuestionnaire): QuestionnaireRecord {
    const id = this.db.transaction(() => {
      const now = nowIso();
      const r = this.db
        .prepare(
          `INSERT INTO questionnaires (org_id, user_id, file_id, client, document_type, visibility, team_id, detected_language,
             language_override, advanced_options, warnings, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          q.org_id,
          q.user_id,
          q.file_id,
          q.client,
          q.document_type,
          q.visibility,
          q.team_id,
          q.detected_language,
          q.language_override,
          JSON.stringify(q.advanced_options),
          JSON.stringify(q.warnings),
          now,
          now,
        );
      const qid = Number(r.lastInsertRowid);
      for (const userId of new Set(q.reviewer_ids)) {
        this.db.prepare('INSERT OR IGNORE INTO questionnaire_reviewers (questionnaire_id, user_id) VALUES (?, ?)').run(qid, userId);
      }
      for (const offeringId of new Set(q.offering_ids)) {
        this.db.prepare('INSERT OR IGNORE INTO questionnaire_offerings (questionnaire_id, offering_id) VALUES (?, ?)').run(qid, offeringId);
      }
      const insert = this.db.prepare(
        `INSERT INTO questions (questionnaire_id, original_id, text, tab_name, section_path, ord, row, question_coordinate, block,
           answer_slots, needs_filling) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      for (const question of q.questions) {
        insert.run(
          qid,
          question.original_id,
          question.text,
          question.tab_name,
          JSON.stringify(question.section_path),
          question.order,
          question.row,
          question.question_coordinate,
          question.block,
          JSON.stringify(question.answer_slots),
          question.needs_filling ? 1 : 0,
        );
      }
      return qid;
    })();
    return this.getAny(id)!;
  }

  get(orgId: number, id: number): QuestionnaireRecord | null {
    const row = this.db.prepare(`${SELECT_QUESTIONNAIRE} WHERE q.org_id = ? AND q.id = ?`).get(orgId, id) as QuestionnaireRow | undefined;
    return row ? this.hydrate(row) : null;
  }

  getAny(id: number): QuestionnaireRecord | null {
    const row = this.db.prepare(`${SELECT_QUESTIONNAIRE} WHERE q.id = ?`).get(id) as QuestionnaireRow | undefined;
    return row ? this.hydrate(row) : null;
  }

  list(orgId: number, filter: { team_id?: number; visibility?: string }): QuestionnaireRecord[] {
    const where = ['q.org_id = ?'];
    const args: unknown[] = [orgId];
    if (filter.team_id !== undefined) {
      where.push('q.team_id = ?');
      args.push(filter.team_id);
    }
    if (filter.visibility !== undefined) {
      where.push('q.visibility = ?');
      args.push(filter.visibility);
    }
    const rows = this.db.prepare(`${SELECT_QUESTIONNAIRE} WHERE ${where.join(' AND ')} ORDER BY q.id DESC`).all(...args) as QuestionnaireRow[];
    return rows.map((r) => this.hydrate(r));
  }

  setGenerationStatus(id: number, status: GenerationStatus): void {
    this.db.prepare('UPDATE questionnaires SET generation_status = ?, updated_at = ? WHERE id = ?').run(status, nowIso(), id);
  }

  setStatus(id: number, status: QuestionnaireApproval): void {
    this.db.prepare('UPDATE questionnaires SET status = ?, updated_at = ? WHERE id = ?').run(status, nowIso(), id);
  }

  questions(questionnaireId: number, opts: { withAnswers?: boolean; withEvidence?: boolean } = {}): QuestionRecord[] {
    const rows = this.db.prepare('SELECT * FROM questions WHERE questionnaire_id = ? ORDER BY ord, id').all(questionnaireId) as QuestionRow[];
    const answers =
      opts.withAnswers === false ? new Map<number, AnswerRecord[]>() : this.answersOf(questionnaireId, opts.withEvidence !== false);
    return rows.map((r) => toQuestion(r, answers.get(r.id) ?? []));
  }

  unansweredQuestionIds(questionnaireId: number): number[] {
    return (
      this.db
        .prepare(
          `SELECT id FROM questions WHERE questionnaire_id = ? AND NOT EXISTS (SELECT 1 FROM answers a WHERE a.question_id = questions.id)
           ORDER BY ord, id`,
        )
        .all(questionnaireId) as { id: number }[]
    ).map((r) => r.id);
  }

  question(id: number): QuestionRecord | null {
    const row = this.db.prepare('SELECT * FROM questions WHERE id = ?').get(id) as QuestionRow | undefined;
    return row ? toQuestion(row, []) : null;
  }

  addAnswer(questionId: number, answer: NewAnswer): number {
    return this.db.transaction(() => {
      const now = nowIso();
      const r = this.db
        .prepare(
          `INSERT INTO answers (question_id, text, evaluation, slot_responses, method, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(questionId, answer.text, JSON.stringify(answer.evaluation), JSON.stringify(answer.slot_responses), answer.method, now, now);
      const answerId = Number(r.lastInsertRowid);
      const insert = this.db.prepare(
        `INSERT INTO answer_evidence (answer_id, type, content, filename, file_id, page_number, section_path, tab_name,
           relevance_score, rank, passage_id, qna_id, context_header, question_text, source_location, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      for (const e of answer.evidence) {
        insert.run(
          answerId,
          e.type,
          e.content,
          e.filename,
          e.file_id,
          e.page_number,
          JSON.stringify(e.section_path),
          e.tab_name,
          e.relevance_score,
          e.rank,
          e.passage_id,
          e.qna_id,
          e.context_header,
          e.question_text,
          e.source_location,
          now,
        );
      }
      this.db
        .prepare('UPDATE questions SET selected_answer_id = ?, flagged_for_review = ? WHERE id = ?')
        .run(answerId, answer.flagged_for_review ? 1 : 0, questionId);
      return answerId;
    })();
  }

  private answersOf(questionnaireId: number, withEvidence: boolean): Map<number, AnswerRecord[]> {
    const rows = this.db
      .prepare(
        `SELECT a.* FROM answers a JOIN questions x ON x.id = a.question_id WHERE x.questionnaire_id = ? ORDER BY a.question_id, a.id`,
      )
      .all(questionnaireId) as AnswerRow[];
    const evidence: EvidenceRow[] = withEvidence
      ? (this.db
          .prepare(
            `SELECT e.* FROM answer_evidence e JOIN answers a ON a.id = e.answer_id JOIN questions x ON x.id = a.question_id
             WHERE x.questionnaire_id = ? ORDER BY e.answer_id, e.rank`,
          )
          .all(questionnaireId) as EvidenceRow[])
      : [];
    const evidenceByAnswer = new Map<number, EvidenceRecord[]>();
    for (const e of evidence) {
      const list = evidenceByAnswer.get(e.answer_id) ?? [];
      const { answer_id: _answerId, ...rest } = e;
      list.push({ ...rest, section_path: parseJson<string[]>(e.section_path, []) });
      evidenceByAnswer.set(e.answer_id, list);
    }
    const byQuestion = new Map<number, AnswerRecord[]>();
    for (const a of rows) {
      const list = byQuestion.get(a.question_id) ?? [];
      list.push({
        id: a.id,
        question_id: a.question_id,
        text: a.text,
        evaluation: parseJson<Evaluation | null>(a.evaluation, null),
        facts_summary: parseJson<unknown>(a.facts_summary, null),
        slot_responses: parseJson(a.slot_responses, []),
        status: a.status,
        method: a.method,
        created_at: a.created_at,
        updated_at: a.updated_at,
        evidence: evidenceByAnswer.get(a.id) ?? [],
      });
      byQuestion.set(a.question_id, list);
    }
    return byQuestion;
  }

  private hydrate(r: QuestionnaireRow): QuestionnaireRecord {
    const owner = this.db.prepare(`SELECT ${USER_COLUMNS} FROM users u WHERE u.id = ?`).get(r.user_id) as UserRecord;
    const reviewers = this.db
      .prepare(`SELECT ${USER_COLUMNS} FROM questionnaire_reviewers qr JOIN users u ON u.id = qr.user_id WHERE qr.questionnaire_id = ? ORDER BY u.id`)
      .all(r.id) as UserRecord[];
    const offerings = this.db
      .prepare(
        `SELECT o.id, o.name, o.type FROM questionnaire_offerings qo JOIN offerings o ON o.id = qo.offering_id
         WHERE qo.questionnaire_id = ? ORDER BY o.id`,
      )
      .all(r.id) as OfferingRecord[];
    return {
      id: r.id,
      org_id: r.org_id,
      user_id: r.user_id,
      owner,
      file: this.files.getAny(r.file_id)!,
      client: r.client,
      document_type: r.document_type,
      status: r.status,
      visibility: r.visibility,
      team: r.team_id !== null && r.team_name !== null ? { id: r.team_id, name: r.team_name } : null,
      generation_status: r.generation_status,
      detected_language: r.detected_language,
      language_override: r.language_override,
      scope_includes_company: r.scope_includes_company === 1,
      advanced_options: parseJson<Record<string, unknown>>(r.advanced_options, {}),
      warnings: parseJson<string[]>(r.warnings, []),
      reviewers,
      offerings,
      submitted_for_review_at: r.submitted_for_review_at,
      approved_at: r.approved_at,
      created_at: r.created_at,
      updated_at: r.updated_at,
      question_count: r.question_count,
      answered_count: r.answered_count,
      approved_count: r.approved_count,
    };
  }
}

function toQuestion(r: QuestionRow, answers: AnswerRecord[]): QuestionRecord {
  return {
    id: r.id,
    questionnaire_id: r.questionnaire_id,
    original_id: r.original_id,
    text: r.text,
    tab_name: r.tab_name,
    section_path: parseJson<string[]>(r.section_path, []),
    order: r.ord,
    row: r.row,
    question_coordinate: r.question_coordinate,
    block: r.block,
    answer_slots: parseJson(r.answer_slots, []),
    needs_filling: r.needs_filling === 1,
    flagged_for_review: r.flagged_for_review === 1,
    selected_answer_id: r.selected_answer_id,
    security_control: r.security_control,
    category: r.category,
    answers,
  };
}
