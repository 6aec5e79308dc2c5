/**
 * Compares a detection with a hand-checked answer key (ids, rows and slot coordinates of the expected
 * questions). Shared by the detection benchmark and the fixture tests.
 */
import type { DetectedQuestionnaire } from './types';

export interface AnswerKey {
  fixture: string;
  /** The tab of questions that name none. */
  tab: string;
  /** Every tab that holds questions, in workbook order (just `tab` when absent). */
  tabs?: string[];
  expected_questions: number;
  /**
   * Shares a detection must reach on this fixture; without them every question, id and slot must be
   * exactly as in the key (no miss, no false question, no extra slot).
   */
  targets?: { found: number; answer_cells: number; false_below: number };
  questions: { tab?: string; id: string | null; row: number; question: string; slots: Record<string, string> }[];
}

export interface KeyComparison {
  fixture: string;
  found: number;
  expected: number;
  missed: { tab: string; row: number; id: string | null }[];
  falsePositives: { tab: string; row: number; id: string | null }[];
  idsRight: number;
  questionCellsRight: number;
  /** Key questions found whose question cell and answer cell (role `answer`) are both right. */
  answerCellsRight: number;
  /** Key questions found at a wrong question cell: `tab!row: want B3, got C3`. */
  wrongQuestionCells: string[];
  /** Per slot role in the key: how many expected coordinates the detection got right, of how many. */
  roles: Record<string, { right: number; total: number; wrong: string[] }>;
  /** Key questions whose every slot coordinate is right (and no slot is missing). */
  fullyRight: number;
  /** Slots the detection reports that the key does not have (on questions it found). */
  extraSlots: string[];
}

/** Whether a comparison meets the key's targets (or, without targets, matches the key exactly). */
export function meetsTargets(key: AnswerKey, c: KeyComparison): boolean {
  if (key.targets) {
    const t = key.targets;
    const detected = c.found + c.falsePositives.length;
    return (
      c.questionCellsRight / c.expected >= t.found &&
      c.answerCellsRight / c.expected >= t.answer_cells &&
      c.falsePositives.length / Math.max(1, detected) < t.false_below
    );
  }
  const allRight = Object.values(c.roles).every((s) => s.right === s.total);
  return c.missed.length === 0 && c.falsePositives.length === 0 && allRight && c.idsRight === c.expected && c.extraSlots.length === 0;
}

export function compareWithKey(key: AnswerKey, detected: DetectedQuestionnaire): KeyComparison {
  const at = (tab: string, row: number) => `${tab}\u0000${row}`;
  const found = new Map(detected.questions.map((q) => [at(q.tab_name, q.row), q]));
  const expected = new Set(key.questions.map((q) => at(q.tab ?? key.tab, q.row)));
  const roles: KeyComparison['roles'] = {};
  const missed: KeyComparison['missed'] = [];
  let idsRight = 0;
  let questionCellsRight = 0;
  let answerCellsRight = 0;
  const wrongQuestionCells: string[] = [];
  let fullyRight = 0;
  const extraSlots: string[] = [];
  for (const want of key.questions) {
    const tab = want.tab ?? key.tab;
    const got = found.get(at(tab, want.row));
    if (!got) missed.push({ tab, row: want.row, id: want.id });
    if (got && got.original_id === want.id) idsRight++;
    if (got && got.question_coordinate === want.question) questionCellsRight++;
    else if (got) wrongQuestionCells.push(`${tab}!${want.row}: want ${want.question}, got ${got.question_coordinate}`);
    const answer = got?.answer_slots.find((s) => s.role === 'answer');
    if (got && got.question_coordinate === want.question && answer?.coordinate === want.slots.answer) answerCellsRight++;
    let allRight = got !== undefined;
    for (const [role, coordinate] of Object.entries(want.slots)) {
      const stat = (roles[role] ??= { right: 0, total: 0, wrong: [] });
      stat.total++;
      const slot = got?.answer_slots.find((s) => s.role === role);
      if (slot?.coordinate === coordinate) stat.right++;
      else {
        allRight = false;
        if (stat.wrong.length < 5) stat.wrong.push(`${want.id ?? want.row}: want ${coordinate}, got ${slot?.coordinate ?? 'none'}`);
      }
    }
    for (const s of got?.answer_slots ?? []) {
      if (!(s.role in want.slots)) extraSlots.push(`${want.id ?? want.row}: ${s.role}@${s.coordinate}`);
    }
    if (allRight) fullyRight++;
  }
  const falsePositives = detected.questions
    .filter((q) => !expected.has(at(q.tab_name, q.row)))
    .map((q) => ({ tab: q.tab_name, row: q.row, id: q.original_id }));
  return {
    fixture: key.fixture,
    found: key.questions.length - missed.length,
    expected: key.questions.length,
    missed,
    falsePositives,
    idsRight,
    questionCellsRight,
    answerCellsRight,
    wrongQuestionCells,
    roles,
    fullyRight,
    extraSlots,
  };
}
