/**
 * How good the answer library is for this organisation, measured on its own past questionnaires (extension
 * "answers.replay", src/api/replay.ts). Each completed questionnaire in the library, newest first, is
 * blanked and filled from the rest of the library: its questions, as the library learned them, are asked
 * with the entries learned from it left out, through the answering a fill uses (the knowledge base's
 * library answer, with every decision analysts made: settled, retired, edited, approved entries). Its own
 * answers are the key. Beside it, the gaps: questions of the organisation's recent questionnaires that
 * nothing in the library answers.
 *
 * A question's list answer (Yes, No, N/A) is compared as a list value; a free-text answer agrees when it
 * says the same (the same key terms, mostly). The questionnaire's answers are what it said when it was
 * learned (an entry's later edit is the library's answer now, not the questionnaire's).
 */
import type { AnswerSlot } from '../../api/schemas';
import {
  REPLAY_LIMITS,
  type ReplayConflict,
  type ReplayGapSection,
  type ReplayQuestionnaire,
  type ReplayRun,
  type ReplayRunSummary,
  type ReplayWrong,
} from '../../api/replay';
import { matchAllowed } from '../../fill/coerce';
import { JOB_KINDS, type Knowledge } from '../context';
import { forbidden, notFound } from '../http/errors';
import { setCosine, stemmedTerms } from '../knowledge/text';
import type { AnswerResult, QuestionInput, SearchFilters } from '../knowledge/types';
import type { LibraryRow } from '../storage/library';
import type { ReplayDetail, ReplayFiguresRecord, ReplayRunRecord } from '../storage/replays';
import type { FileRecord, Principal, QuestionRecord, Store } from '../storage/types';
import { primaryAnswer } from './library';
import { actorName } from './library-actions';

export interface ReplayDeps {
  store: Store;
  knowledge: Pick<Knowledge, 'libraryAnswer'>;
  now?: () => Date;
  /** Lets the service answer requests between questions (and a job stop); resolves false to stop. */
  pause?: () => Promise<boolean>;
}

export interface ReplayResult {
  overall: ReplayFiguresRecord;
  questionnaires: ReplayQuestionnaire[];
  wrong: ReplayWrong[];
  wrong_count: number;
  conflicted: ReplayConflict[];
  gaps: ReplayGapSection[];
  gap_count: number;
}

/** The list values a learned Yes/No/N/A answer is read against: the questionnaire's dropdown is not kept. */
const CHOICES = ['Yes', 'No', 'N/A'];
/** Free text "says the same" when the key terms mostly coincide (as `npm run eval:answers` scores it). */
const SAME_TEXT_COSINE = 0.8;
const PAGE = 500;

/** A learned answer that is a choice (Yes, No, N/A and their spellings), as the choice. */
function choiceOf(content: string): string | null {
  const value = content.trim();
  return value.length <= 20 ? matchAllowed(value, CHOICES) : null;
}

/** The question as a blanked copy of the questionnaire asks it: the entry's slots, empty; a choice slot a list. */
export function blankedQuestion(row: LibraryRow): QuestionInput {
  const answer_slots: AnswerSlot[] = row.slots.map((s) => {
    const slot: AnswerSlot = { role: s.slot_key, header: s.header ?? s.slot_key, coordinate: '', value: null };
    return choiceOf(s.content) !== null ? { ...slot, allowed_values: [...CHOICES] } : slot;
  });
  return { text: row.question, original_id: row.original_id, answer_slots, tab_name: row.tab_name };
}

/** Whether the library's answer is the questionnaire's own. */
export function sameAnswer(expected: string, got: string): boolean {
  const choice = choiceOf(expected);
  if (choice !== null) return choiceOf(got) === choice;
  const norm = (t: string) => t.toLowerCase().replace(/\s+/g, ' ').trim();
  return norm(expected) === norm(got) || setCosine(stemmedTerms(expected), stemmedTerms(got)) >= SAME_TEXT_COSINE;
}

function emptyFigures(): ReplayFiguresRecord {
  return { questions: 0, answered: 0, agreed: 0, agreement: null, coverage: null, conflicts: 0 };
}

function withShares(f: ReplayFiguresRecord): ReplayFiguresRecord {
  const round = (n: number) => Math.round(n * 10_000) / 10_000;
  return { ...f, agreement: f.answered ? round(f.agreed / f.answered) : null, coverage: f.questions ? round(f.answered / f.questions) : null };
}

const conflictOf = (r: AnswerResult | null) => (r?.evaluation as { conflict?: { sides?: string; rule?: string | null } } | undefined)?.conflict ?? null;

/** Completed questionnaires in the library (ready, used as a source, with learned answers), newest first. */
async function replayedFiles(store: Store, orgId: number, max: number): Promise<FileRecord[]> {
  const out: FileRecord[] = [];
  for (let offset = 0; out.length < max; offset += PAGE) {
    const { rows } = await store.files.list(orgId, { purpose: 'repository', status: 'ready', ordering: '-created_at', limit: PAGE, offset });
    out.push(...rows.filter((f) => f.qa_count > 0 && f.use_as_source));
    if (rows.length < PAGE) break;
  }
  return out.slice(0, max);
}

/** Every entry learned from the file (retired ones too: the questionnaire said it), at most the bound. */
async function learnedEntries(store: Store, orgId: number, fileId: number, cutoff: string): Promise<LibraryRow[]> {
  const page = { limit: REPLAY_LIMITS.questionsPerQuestionnaire, offset: 0 };
  const live = await store.library.list(orgId, { file_id: fileId, review_cutoff: cutoff }, page);
  const retired = await store.library.list(orgId, { file_id: fileId, status: 'retired', review_cutoff: cutoff }, page);
  return [...live.rows, ...retired.rows].sort((a, b) => a.id - b.id).slice(0, REPLAY_LIMITS.questionsPerQuestionnaire);
}

/** Replays the newest `maxQuestionnaires` completed questionnaires and finds the gaps; null when stopped. */
export async function replayLibrary(deps: ReplayDeps, orgId: number, maxQuestionnaires: number): Promise<ReplayResult | null> {
  const answer = deps.knowledge.libraryAnswer;
  if (!answer) throw new Error('this service cannot answer from the library alone');
  const pause = deps.pause ?? (() => new Promise<boolean>((resolve) => setImmediate(() => resolve(true))));
  const cutoff = (deps.now?.() ?? new Date()).toISOString();
  const overall = emptyFigures();
  const questionnaires: ReplayQuestionnaire[] = [];
  const wrong: ReplayWrong[] = [];
  const conflicted: ReplayConflict[] = [];
  let wrongCount = 0;
  for (const file of await replayedFiles(deps.store, orgId, maxQuestionnaires)) {
    const figures = emptyFigures();
    // A fill of this questionnaire would be about its offerings; the entries learned from it are left out.
    const filters: SearchFilters = { exclude_file_ids: [file.id], ...(file.offerings.length ? { offering_ids: file.offerings.map((o) => o.id) } : {}) };
    for (const row of await learnedEntries(deps.store, orgId, file.id, cutoff)) {
      const expected = primaryAnswer(row.slots);
      if (!expected) continue;
      figures.questions++;
      const result = await answer.call(deps.knowledge, orgId, blankedQuestion(row), filters);
      const conflict = conflictOf(result);
      if (conflict) {
        figures.conflicts++;
        if (conflicted.length < REPLAY_LIMITS.wrongKept) {
          const { question, original_id, qkey: question_key } = row;
          conflicted.push({
            file_id: file.id,
            file_name: file.original_filename,
            question,
            original_id,
            question_key,
            sides: conflict.sides ?? '',
            rule: conflict.rule ?? null,
          });
        }
      }
      const got = result?.text.trim() ?? '';
      if (got !== '') {
        figures.answered++;
        if (sameAnswer(expected, got)) figures.agreed++;
        else {
          wrongCount++;
          if (wrong.length < REPLAY_LIMITS.wrongKept) {
            wrong.push({
              file_id: file.id,
              file_name: file.original_filename,
              question: row.question,
              original_id: row.original_id,
              expected,
              got,
              reason: result!.evaluation.reason,
            });
          }
        }
      }
      if (!(await pause())) return null;
    }
    for (const k of ['questions', 'answered', 'agreed', 'conflicts'] as const) overall[k] += figures[k];
    questionnaires.push({ ...withShares(figures), file_id: file.id, file_name: file.original_filename });
  }
  const gaps = await findGaps(deps, orgId, pause);
  if (!gaps) return null;
  return { overall: withShares(overall), questionnaires, wrong, wrong_count: wrongCount, conflicted, gaps: gaps.sections, gap_count: gaps.count };
}

/** Where a question sits, as a person names it: its section's titles, else its tab. */
function sectionOf(q: Pick<QuestionRecord, 'section_path' | 'tab_name'>): string {
  const path = (q.section_path ?? []).map((s) => s.trim()).filter(Boolean);
  return path.length ? path.join(' / ') : q.tab_name || '(no section)';
}

/**
 * Questions of the organisation's recent questionnaires (shared with the whole organisation: a team's
 * questionnaire is not shown to everyone) that no past answer in the library matches, by section.
 */
async function findGaps(deps: ReplayDeps, orgId: number, pause: () => Promise<boolean>): Promise<{ sections: ReplayGapSection[]; count: number } | null> {
  const recent = (await deps.store.questionnaires.list(orgId, {}))
    .filter((q) => q.visibility === 'organization')
    .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id)
    .slice(0, REPLAY_LIMITS.gapQuestionnaires);
  const sections = new Map<string, ReplayGapSection>();
  // A question several recent questionnaires ask (the same template twice) is one gap.
  const seen = new Set<string>();
  let count = 0;
  for (const q of recent) {
    const filters: SearchFilters = q.offerings.length ? { offering_ids: q.offerings.map((o) => o.id) } : {};
    const questions = await deps.store.questionnaires.questions(q.id, { withAnswers: false, withEvidence: false });
    for (const question of questions.slice(0, REPLAY_LIMITS.questionsPerQuestionnaire)) {
      const input: QuestionInput = {
        text: question.text,
        original_id: question.original_id,
        answer_slots: question.answer_slots,
        tab_name: question.tab_name,
        section_path: question.section_path,
      };
      const result = await deps.knowledge.libraryAnswer!(orgId, input, filters);
      if (!(await pause())) return null;
      const name = sectionOf(question);
      const key = `${name}|${question.text.trim().toLowerCase()}`;
      if (result || seen.has(key)) continue;
      seen.add(key);
      count++;
      if (count > REPLAY_LIMITS.gapsKept) continue;
      const section = sections.get(name) ?? { section: name, questions: [] };
      sections.set(name, section);
      section.questions.push({ questionnaire_id: q.id, questionnaire: q.file.original_filename, question: question.text, original_id: question.original_id });
    }
  }
  return { sections: [...sections.values()], count };
}

// ---- Runs: started by a request, replayed by a job, kept ------------------------------------------------

/** A kept run as the API lists it (the trend), or whole with what it found. */
export function runSummary(run: ReplayRunRecord): ReplayRunSummary {
  return {
    id: run.id,
    status: run.status,
    started_by: run.started_by,
    created_at: run.created_at,
    finished_at: run.finished_at,
    error: run.error,
    max_questionnaires: run.max_questionnaires,
    overall: run.overall ? { ...run.overall } : null,
    gap_count: run.gap_count,
  };
}

export function runView(run: ReplayRunRecord, detail: ReplayDetail | null): ReplayRun {
  const d = (detail ?? {}) as Partial<Pick<ReplayRun, 'questionnaires' | 'wrong' | 'wrong_count' | 'conflicted' | 'gaps'>>;
  return {
    ...runSummary(run),
    questionnaires: d.questionnaires ?? [],
    wrong: d.wrong ?? [],
    wrong_count: d.wrong_count ?? 0,
    conflicted: d.conflicted ?? [],
    gaps: d.gaps ?? [],
  };
}

/** Starting a run changes nothing in the library but costs a replay of it: the library's editors start one. */
export function requireReplayStarter(p: Principal): void {
  if (p.read_only) throw forbidden('this API key is read-only and cannot start a replay of the answer library');
  if (p.user.role === 'member') throw forbidden('only an admin or repository manager can start a replay of the answer library');
}

export async function startReplay(store: Store, p: Principal, maxQuestionnaires: number | undefined): Promise<ReplayRunRecord> {
  return store.unitOfWork(async (tx) => {
    const run = await tx.replays.create(p.org.id, { started_by: actorName(p), max_questionnaires: maxQuestionnaires ?? REPLAY_LIMITS.questionnairesDefault });
    await tx.jobs.enqueue(JOB_KINDS.libraryReplay, { run_id: run.id });
    return run;
  });
}

export async function replayRun(store: Store, orgId: number, id: number): Promise<ReplayRun> {
  const run = await store.replays.get(orgId, id);
  if (!run) throw notFound(`replay run ${id} not found`);
  return runView(run, run.status === 'done' ? await store.replays.detail(orgId, id) : null);
}
