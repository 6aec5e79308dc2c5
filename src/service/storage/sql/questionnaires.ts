/** Questionnaires, their questions, generated answers and the evidence behind each answer. */
import { nowIso } from '../../clock';
import { parseJson, type Sql } from './executor';
import { USER_COLUMNS } from './accounts';
import { hydrate as hydrateFiles, SELECT_FILE, type FileRow } from './files';
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

// Rows as the database returns them: the record's fields, with JSON as text, booleans as 0/1 and joins as ids.
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

type QuestionRow = Omit<QuestionRecord, 'section_path' | 'order' | 'answer_slots' | 'needs_filling' | 'flagged_for_review' | 'answers'> & {
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

export class SqlQuestionnaires implements QuestionnaireRepository {
  constructor(private readonly sql: Sql) {}

  create(q: NewQuestionnaire): Promise<QuestionnaireRecord> {
    return this.sql.atomic(async (sql) => {
      const now = nowIso();
      const qid = await sql.insert(
        `INSERT INTO questionnaires (org_id, user_id, file_id, client, document_type, visibility, team_id, detected_language,
           language_override, advanced_options, warnings, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
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
        ],
      );
      for (const userId of new Set(q.reviewer_ids)) {
        await sql.run('INSERT INTO questionnaire_reviewers (questionnaire_id, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING', [qid, userId]);
      }
      for (const offeringId of new Set(q.offering_ids)) {
        await sql.run('INSERT INTO questionnaire_offerings (questionnaire_id, offering_id) VALUES (?, ?) ON CONFLICT DO NOTHING', [qid, offeringId]);
      }
      // Several rows per statement: a 1,000-question workbook is a few round trips, not 1,000.
      const columns = 12;
      const batch = 50;
      for (let i = 0; i < q.questions.length; i += batch) {
        const chunk = q.questions.slice(i, i + batch);
        const args: unknown[] = [];
        for (const question of chunk) {
          args.push(
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
            0,
          );
        }
        const values = chunk.map(() => `(${new Array(columns).fill('?').join(', ')})`).join(', ');
        await sql.run(
          `INSERT INTO questions (questionnaire_id, original_id, text, tab_name, section_path, ord, row, question_coordinate, block,
             answer_slots, needs_filling, flagged_for_review) VALUES ${values}`,
          args,
        );
      }
      return await this.hydrate(sql, (await sql.get<QuestionnaireRow>(`${SELECT_QUESTIONNAIRE} WHERE q.id = ?`, [qid]))!);
    });
  }

  async get(orgId: number, id: number): Promise<QuestionnaireRecord | null> {
    const row = await this.sql.get<QuestionnaireRow>(`${SELECT_QUESTIONNAIRE} WHERE q.org_id = ? AND q.id = ?`, [orgId, id]);
    return row ? this.hydrate(this.sql, row) : null;
  }

  async getAny(id: number): Promise<QuestionnaireRecord | null> {
    const row = await this.sql.get<QuestionnaireRow>(`${SELECT_QUESTIONNAIRE} WHERE q.id = ?`, [id]);
    return row ? this.hydrate(this.sql, row) : null;
  }

  async list(orgId: number, filter: { team_id?: number; visibility?: string }): Promise<QuestionnaireRecord[]> {
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
    const rows = await this.sql.all<QuestionnaireRow>(`${SELECT_QUESTIONNAIRE} WHERE ${where.join(' AND ')} ORDER BY q.id DESC`, args);
    const out: QuestionnaireRecord[] = [];
    for (const r of rows) out.push(await this.hydrate(this.sql, r));
    return out;
  }

  async setGenerationStatus(id: number, status: GenerationStatus): Promise<void> {
    await this.sql.run('UPDATE questionnaires SET generation_status = ?, updated_at = ? WHERE id = ?', [status, nowIso(), id]);
  }

  async setStatus(id: number, status: QuestionnaireApproval): Promise<void> {
    await this.sql.run('UPDATE questionnaires SET status = ?, updated_at = ? WHERE id = ?', [status, nowIso(), id]);
  }

  async questions(questionnaireId: number, opts: { withAnswers?: boolean; withEvidence?: boolean } = {}): Promise<QuestionRecord[]> {
    const rows = await this.sql.all<QuestionRow>('SELECT * FROM questions WHERE questionnaire_id = ? ORDER BY ord, id', [questionnaireId]);
    const answers = opts.withAnswers === false ? new Map<number, AnswerRecord[]>() : await this.answersOf(questionnaireId, opts.withEvidence !== false);
    return rows.map((r) => toQuestion(r, answers.get(r.id) ?? []));
  }

  async unansweredQuestionIds(questionnaireId: number): Promise<number[]> {
    const rows = await this.sql.all<{ id: number }>(
      `SELECT id FROM questions WHERE questionnaire_id = ? AND NOT EXISTS (SELECT 1 FROM answers a WHERE a.question_id = questions.id)
       ORDER BY ord, id`,
      [questionnaireId],
    );
    return rows.map((r) => r.id);
  }

  async question(id: number): Promise<QuestionRecord | null> {
    const row = await this.sql.get<QuestionRow>('SELECT * FROM questions WHERE id = ?', [id]);
    return row ? toQuestion(row, []) : null;
  }

  addAnswer(questionId: number, answer: NewAnswer): Promise<number> {
    return this.sql.atomic(async (sql) => {
      const now = nowIso();
      const answerId = await sql.insert(
        `INSERT INTO answers (question_id, text, evaluation, slot_responses, method, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
        [questionId, answer.text, JSON.stringify(answer.evaluation), JSON.stringify(answer.slot_responses), answer.method, now, now],
      );
      for (const e of answer.evidence) {
        await sql.run(
          `INSERT INTO answer_evidence (answer_id, type, content, filename, file_id, page_number, section_path, tab_name,
             relevance_score, rank, passage_id, qna_id, context_header, question_text, source_location, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          [
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
          ],
        );
      }
      await sql.run('UPDATE questions SET selected_answer_id = ?, flagged_for_review = ? WHERE id = ?', [
        answerId,
        answer.flagged_for_review ? 1 : 0,
        questionId,
      ]);
      return answerId;
    });
  }

  private async answersOf(questionnaireId: number, withEvidence: boolean): Promise<Map<number, AnswerRecord[]>> {
    const rows = await this.sql.all<AnswerRow>(
      `SELECT a.* FROM answers a JOIN questions x ON x.id = a.question_id WHERE x.questionnaire_id = ? ORDER BY a.question_id, a.id`,
      [questionnaireId],
    );
    const evidence: EvidenceRow[] = withEvidence
      ? await this.sql.all<EvidenceRow>(
          `SELECT e.* FROM answer_evidence e JOIN answers a ON a.id = e.answer_id JOIN questions x ON x.id = a.question_id
           WHERE x.questionnaire_id = ? ORDER BY e.answer_id, e.rank`,
          [questionnaireId],
        )
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

  private async hydrate(sql: Sql, r: QuestionnaireRow): Promise<QuestionnaireRecord> {
    const owner = (await sql.get<UserRecord>(`SELECT ${USER_COLUMNS} FROM users u WHERE u.id = ?`, [r.user_id]))!;
    const reviewers = await sql.all<UserRecord>(
      `SELECT ${USER_COLUMNS} FROM questionnaire_reviewers qr JOIN users u ON u.id = qr.user_id WHERE qr.questionnaire_id = ? ORDER BY u.id`,
      [r.id],
    );
    const offerings = await sql.all<OfferingRecord>(
      `SELECT o.id, o.name, o.type FROM questionnaire_offerings qo JOIN offerings o ON o.id = qo.offering_id
       WHERE qo.questionnaire_id = ? ORDER BY o.id`,
      [r.id],
    );
    const fileRow = (await sql.get<FileRow>(`${SELECT_FILE} WHERE f.id = ?`, [r.file_id]))!;
    return {
      id: r.id,
      org_id: r.org_id,
      user_id: r.user_id,
      owner,
      file: (await hydrateFiles(sql, [fileRow]))[0]!,
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
      question_count: Number(r.question_count),
      answered_count: Number(r.answered_count),
      approved_count: Number(r.approved_count),
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
