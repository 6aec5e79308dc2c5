/**
 * The real questionnaires in ../shared/fixtures against the hand-checked answer keys in
 * test/data/detect-key. Fails (does not skip) when the fixtures are missing.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AnswerSlot } from '../../../src/api/schemas';
import { compareWithKey, meetsTargets, type AnswerKey } from '../../../src/service/detect/answer-key';
import { detectQuestionnaire, type DetectedQuestionnaire } from '../../../src/service/detect';
import { requireFixtures } from './helpers';

const KEY_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'data', 'detect-key');
const FIXTURES = [
  'caiq-v4.0.3-blank.xlsx',
  'hecvat-lite-3.04-canvas-catalog-completed.xlsx',
  'hecvat-lite-3.04-canvas-studio-completed.xlsx',
  'k12cvat-lite-4.1-canvas-lms-completed.xlsx',
  'hecvat-full-2.11-portfolium-completed.xlsx',
  'owasp-asvs-3.0.1-checklist.xlsx',
  'owasp-masvs-1.2-checklist.xlsx',
  'owasp-samm-2.0-toolbox.xlsx',
];

const results = new Map<string, Promise<{ key: AnswerKey; detected: DetectedQuestionnaire }>>();

/** Detects a fixture once; throws (failing the test, never skipping it) when the fixtures folder is missing. */
function get(file: string): Promise<{ key: AnswerKey; detected: DetectedQuestionnaire }> {
  const dir = requireFixtures();
  let r = results.get(file);
  if (!r) {
    r = (async () => {
      const key = JSON.parse(readFileSync(join(KEY_DIR, file.replace(/\.xlsx$/, '.json')), 'utf8')) as AnswerKey;
      const detected = await detectQuestionnaire(new Uint8Array(readFileSync(join(dir, file))), file);
      return { key, detected };
    })();
    results.set(file, r);
  }
  return r;
}

it('has the real questionnaire fixtures beside the project', () => {
  expect(() => requireFixtures()).not.toThrow();
});

describe.each(FIXTURES)('%s against its answer key', (file) => {
  it('finds every question, no false one, with the right ids and slot coordinates', async () => {
    const { key, detected } = await get(file);
    const c = compareWithKey(key, detected);
    expect(detected.tabs).toEqual(key.tabs ?? [key.tab]);
    if (key.targets) {
      expect(c.questionCellsRight / c.expected).toBeGreaterThanOrEqual(key.targets.found);
      expect(c.answerCellsRight / c.expected).toBeGreaterThanOrEqual(key.targets.answer_cells);
      expect(c.falsePositives.length / detected.questions.length).toBeLessThan(key.targets.false_below);
      expect(meetsTargets(key, c)).toBe(true);
      // Whatever the key does not name is never writable.
      expect(c.extraSlots.filter((x) => !isBlockedExtra(detected, x))).toEqual([]);
      return;
    }
    expect(c.missed).toEqual([]);
    expect(c.falsePositives).toEqual([]);
    expect(c.expected).toBe(key.expected_questions);
    expect(c.idsRight).toBe(c.expected);
    expect(c.questionCellsRight).toBe(c.expected);
    for (const [role, stat] of Object.entries(c.roles)) expect({ role, wrong: stat.wrong }).toEqual({ role, wrong: [] });
    expect(c.extraSlots).toEqual([]);
  });

  it('numbers questions in reading order and gives every question text', async () => {
    const { detected } = await get(file);
    expect(detected.questions.map((q) => q.order)).toEqual(detected.questions.map((_, i) => i + 1));
    for (const tab of detected.tabs) {
      const rows = detected.questions.filter((q) => q.tab_name === tab).map((q) => q.row);
      expect(rows).toEqual([...rows].sort((a, b) => a - b));
    }
    for (const q of detected.questions) {
      expect(q.original_question_text.trim().length).toBeGreaterThan(0);
      expect(q.original_question_text.startsWith('=')).toBe(false);
      const roles = q.answer_slots.map((s) => s.role);
      expect(new Set(roles).size).toBe(roles.length);
      for (const s of q.answer_slots) expect(AnswerSlot.safeParse(s).success).toBe(true);
    }
  });
});

/** An extra slot (`id: role@coordinate`) that the detection reports as blocked. */
function isBlockedExtra(detected: DetectedQuestionnaire, extra: string): boolean {
  const coordinate = extra.slice(extra.lastIndexOf('@') + 1);
  return detected.questions.some((q) => q.answer_slots.some((s) => s.coordinate === coordinate && s.is_blocked));
}

describe('fixture traits', () => {
  it('CAIQ: inline lists on a protected sheet with unlocked, empty answer cells', async () => {
    const { detected } = await get('caiq-v4.0.3-blank.xlsx');
    for (const q of detected.questions) {
      const answer = q.answer_slots.find((s) => s.role === 'answer');
      expect(answer).toMatchObject({ type: 'list', allowed_values: ['Yes', 'No', 'NA'], is_blocked: false, value: null });
      const owner = q.answer_slots.find((s) => s.role === 'owner');
      expect(owner?.allowed_values).toHaveLength(5);
      expect(q.answer_slots.every((s) => !s.is_blocked)).toBe(true);
    }
  });

  it('HECVAT Lite: named-range lists into a hidden sheet, cached formula questions, blocked formula columns, existing answers', async () => {
    const { detected } = await get('hecvat-lite-3.04-canvas-catalog-completed.xlsx');
    const lists = detected.questions.flatMap((q) => q.answer_slots.filter((s) => s.type === 'list'));
    expect(lists.length).toBeGreaterThan(70);
    for (const s of lists) expect(s.allowed_values).toEqual(['Yes', 'No']);
    const answered = detected.questions.filter((q) => q.answer_slots.some((s) => s.role === 'answer' && s.value));
    expect(answered.length).toBeGreaterThan(85);
    const comments = detected.questions.filter((q) => q.answer_slots.some((s) => s.role === 'comment' && s.value && !s.is_blocked));
    expect(comments.length).toBeGreaterThan(50);
    for (const q of detected.questions) {
      for (const s of q.answer_slots) if (s.role === 'guidance' || s.role === 'analyst_notes') expect(s.is_blocked).toBe(true);
    }
    expect(detected.warnings.join(' ')).toMatch(/Hidden sheets/);
    expect(new Set(detected.questions.map((q) => q.section_path[0])).size).toBeGreaterThanOrEqual(13);
  });

  it('HECVAT Full: x14 extension-list and named-range lists resolve to values on the hidden sheet', async () => {
    const { detected } = await get('hecvat-full-2.11-portfolium-completed.xlsx');
    const listSlots = detected.questions.flatMap((q) => q.answer_slots.filter((s) => s.type === 'list'));
    const distinctLists = new Set(listSlots.map((s) => JSON.stringify(s.allowed_values)));
    expect(distinctLists.size).toBeGreaterThanOrEqual(3);
    for (const s of listSlots) expect(s.allowed_values?.length ?? 0).toBeGreaterThanOrEqual(2);
  });

  it('section paths: the title block above the first question is no section; sections are one level here', async () => {
    for (const file of ['hecvat-full-2.11-portfolium-completed.xlsx', 'hecvat-lite-3.04-canvas-catalog-completed.xlsx']) {
      const { detected } = await get(file);
      const path = (id: string) => detected.questions.find((q) => q.original_id === id)?.section_path;
      expect(path('DATE-01')).toEqual([]);
      expect(path('GNRL-01')).toEqual(['General Information']);
      expect(path('COMP-01')).toEqual(['Company Overview']);
      for (const q of detected.questions) expect(q.section_path.length).toBeLessThanOrEqual(1);
    }
  });

  it('ASVS: chapter rows are sections, the change-log sheet is skipped and said so', async () => {
    const { detected } = await get('owasp-asvs-3.0.1-checklist.xlsx');
    expect(detected.questions.find((q) => q.original_id === '1.1')?.section_path).toEqual(['Architecture, design and threat modelling']);
    expect(detected.questions.find((q) => q.original_id === '2.2')?.original_question_text).toMatch(/^Verify that forms containing credentials/);
    expect(detected.warnings.join(' ')).toMatch(/"What ever happened to \.\.\." was skipped: .*change log/);
  });

  it('MASVS: the four requirement sheets; the pre-filled N/A statuses are template content', async () => {
    const { detected } = await get('owasp-masvs-1.2-checklist.xlsx');
    const answers = detected.questions.map((q) => q.answer_slots.find((s) => s.role === 'answer')!);
    expect(answers.every((s) => s.value === null)).toBe(true);
    expect(answers.filter((s) => s.template_default === 'N/A').length).toBeGreaterThan(60);
    expect(detected.warnings.filter((w) => /holds "N\/A"/.test(w))).toHaveLength(4);
    const comment = detected.questions[0]!.answer_slots.find((s) => s.role === 'comment');
    expect(comment).toMatchObject({ header: 'Comment', is_blocked: false });
  });

  it('SAMM: interview and profile questions; scorecard and roadmap are reports, named in the warnings', async () => {
    const { detected } = await get('owasp-samm-2.0-toolbox.xlsx');
    const warnings = detected.warnings.join(' ');
    expect(warnings).toMatch(/Sheet "Scorecard" was skipped/);
    expect(warnings).toMatch(/Sheet "Roadmap" was skipped/);
    const interview = detected.questions.filter((q) => q.tab_name === 'Interview');
    expect(interview).toHaveLength(90);
    expect(interview.filter((q) => q.original_question_text.trim().endsWith('?')).length).toBeGreaterThan(85);
    for (const q of interview) expect(q.answer_slots.find((s) => s.role === 'rating')?.is_blocked).toBe(true);
  });
});
