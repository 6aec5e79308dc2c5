/**
 * Compares a detection with a hand-checked answer key (ids, rows and slot coordinates of the expected
 * questions). Shared by the detection benchmark and the fixture tests.
 */
import type { DetectedQuestionnaire } from './types';

export interface AnswerKey {
  fixture: string;
  tab: string;
  expected_questions: number;
  questions: { id: string | null; row: number; question: string; slots: Record<string, string> }[];
}

export interface KeyComparison {
  fixture: string;
  found: number;
  expected: number;
  missed: { row: number; id: string | null }[];
  falsePositives: { tab: string; row: number; id: string | null }[];
  idsRight: number;
  questionCellsRight: number;
  /** Per slot role in the key: how many expected coordinates the detection got right, of how many. */
  roles: Record<string, { right: number; total: number; wrong: string[] }>;
  /** Key questions whose every slot coordinate is right (and no slot is missing). */
  fullyRight: number;
  /** Slots the detection reports that the key does not have (on questions it found). */
  extraSlots: string[];
}

export function compareWithKey(key: AnswerKey, detected: DetectedQuestionnaire): KeyComparison {
  const onTab = new Map(detected.questions.filter((q) => q.tab_name === key.tab).map((q) => [q.row, q]));
  const expectedRows = new Set(key.questions.map((q) => q.row));
  const roles: KeyComparison['roles'] = {};
  const missed: KeyComparison['missed'] = [];
  let idsRight = 0;
  let questionCellsRight = 0;
  let fullyRight = 0;
  const extraSlots: string[] = [];
  for (const want of key.questions) {
    const got = onTab.get(want.row);
    if (!got) missed.push({ row: want.row, id: want.id });
    if (got && got.original_id === want.id) idsRight++;
    if (got && got.question_coordinate === want.question) questionCellsRight++;
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
    .filter((q) => q.tab_name !== key.tab || !expectedRows.has(q.row))
    .map((q) => ({ tab: q.tab_name, row: q.row, id: q.original_id }));
  return {
    fixture: key.fixture,
    found: key.questions.length - missed.length,
    expected: key.questions.length,
    missed,
    falsePositives,
    idsRight,
    questionCellsRight,
    roles,
    fullyRight,
    extraSlots,
  };
}
