// Uploading each real questionnaire THROUGH THE API yields the expected questions and answer slots (ids,
// rows, coordinates per role), against the hand-checked keys in test/data/detect-key: exactly, or at the
// shares a key's `targets` set.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuestionWithAnswers } from '../../src/api/schemas';
import { compareWithKey, meetsTargets, type AnswerKey } from '../../src/service/detect/answer-key';
import type { DetectedQuestionnaire } from '../../src/service/detect/types';
import { client, expectShape, fixture, startService, waitFor, type Service } from './helpers';

const KEY_DIR = path.resolve('test/data/detect-key');
const keys = readdirSync(KEY_DIR)
  .filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(readFileSync(path.join(KEY_DIR, f), 'utf8')) as AnswerKey);

let service: Service;
let api: ReturnType<typeof client>;

beforeAll(async () => {
  service = await startService();
  api = client(service, await service.key({ org: 'fixtures', role: 'admin' }));
});

afterAll(() => service?.destroy());

describe('real questionnaires uploaded through the API', () => {
  it('has a key for each of the eight fixtures', () => {
    expect(keys.map((k) => k.fixture).sort()).toEqual([
      'caiq-v4.0.3-blank.xlsx',
      'hecvat-full-2.11-portfolium-completed.xlsx',
      'hecvat-lite-3.04-canvas-catalog-completed.xlsx',
      'hecvat-lite-3.04-canvas-studio-completed.xlsx',
      'k12cvat-lite-4.1-canvas-lms-completed.xlsx',
      'owasp-asvs-3.0.1-checklist.xlsx',
      'owasp-masvs-1.2-checklist.xlsx',
      'owasp-samm-2.0-toolbox.xlsx',
    ]);
  });

  for (const key of keys) {
    it(`${key.fixture}: every question found, none false, every slot coordinate right`, async () => {
      const bytes = new Uint8Array(readFileSync(fixture('questionnaires', key.fixture)));
      const upload = await api.post('/api/v2/filler/questionnaires/', formWith(key.fixture, bytes));
      expect(upload.status).toBe(200);
      const id = upload.body.questionnaire_ids[0] as number;
      await waitFor(
        'generation',
        () => api.get(`/api/v2/filler/questionnaires/${id}/answer-progress/`),
        (r) => r.body.status === 'complete',
        120_000,
      );
      const res = await api.get(`/api/v2/filler/questionnaires/${id}/answers/`);
      expect(res.status).toBe(200);
      const questions = (res.body as unknown[]).map(
        (q) => expectShape(QuestionWithAnswers, q) as QuestionWithAnswers & { row: number; question_coordinate: string },
      );
      const asDetected: DetectedQuestionnaire = {
        questions: questions.map((q) => ({
          original_id: q.original_id ?? null,
          original_question_text: q.original_question_text,
          tab_name: q.tab_name,
          section_path: q.section_path ?? [],
          order: q.order ?? 0,
          row: q.row,
          question_coordinate: q.question_coordinate,
          block: 0,
          answer_slots: q.answer_slots ?? [],
        })),
        tabs: [...new Set(questions.map((q) => q.tab_name))],
        language_sample: '',
        warnings: [],
      };
      const c = compareWithKey(key, asDetected);
      if (key.targets) {
        expect(meetsTargets(key, c), JSON.stringify({ missed: c.missed.slice(0, 5), false: c.falsePositives.slice(0, 5) })).toBe(true);
        return;
      }
      expect(c.missed).toEqual([]);
      expect(c.falsePositives).toEqual([]);
      expect(c.found).toBe(key.expected_questions);
      expect(c.idsRight).toBe(key.expected_questions);
      expect(c.fullyRight).toBe(key.expected_questions);
      expect(c.extraSlots).toEqual([]);
    }, 180_000);
  }
});

function formWith(name: string, bytes: Uint8Array): FormData {
  const form = new FormData();
  form.append('files', new Blob([bytes as BlobPart]), name);
  return form;
}
