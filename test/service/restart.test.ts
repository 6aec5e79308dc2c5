import Database from 'better-sqlite3';
import { afterAll, expect, it } from 'vitest';
import { client, files, KB_TEXT, questionnaireXlsx, startService, waitFor, waitForComplete, waitForFile, type Service } from './helpers';

let service: Service;

afterAll(async () => {
  await service?.destroy();
});

const TOPICS = ['encryption at rest', 'multi-factor authentication', 'backup retention', 'access reviews', 'TLS versions'];

it('resumes answer generation after a shutdown and after a crash, without duplicate answers', async () => {
  service = await startService();
  const key = service.key({ org: 'acme', user: 'alice' });
  let api = client(service, key);
  const kb = await api.post('/api/v2/repository/files/', files(['security.txt', KB_TEXT]));
  await waitForFile(api, kb.body.file_ids[0]);

  // Big enough that generation is still running when we stop the service.
  const COUNT = 2000;
  const questions = Array.from({ length: COUNT }, (_, i) => [
    `Q-${i + 1}`,
    `Question ${i + 1}: describe your ${TOPICS[i % TOPICS.length]} controls for system ${i + 1}?`,
  ]) as [string, string][];
  const book = await questionnaireXlsx([{ name: 'Big', sections: [{ questions }] }]);
  const up = await api.post('/api/v2/filler/questionnaires/', files(['big.xlsx', book]));
  expect(up.status, JSON.stringify(up.body)).toBe(200);
  const id = up.body.questionnaire_ids[0];

  await waitFor(
    'the first answers',
    () => api.get(`/api/v2/filler/questionnaires/${id}/answer-progress/`),
    (r) => r.body.answers_received > 0,
  );
  await service.stop();

  // Read the state without workers: stopped part-way, job back in the queue.
  await service.restart({ startWorkers: false });
  api = client(service, key);
  const stopped = (await api.get(`/api/v2/filler/questionnaires/${id}/answer-progress/`)).body;
  expect(stopped.status).toBe('generating');
  expect(stopped.answers_received).toBeGreaterThan(0);
  expect(stopped.answers_received).toBeLessThan(COUNT);
  await service.stop();

  // Simulate a crash: the job is left `running`, as if the process had died mid-job.
  const db = new Database(`${service.dataDir}/qfill.sqlite`);
  const changed = db.prepare("UPDATE jobs SET state = 'running' WHERE kind = 'generate_answers' AND state = 'queued'").run().changes;
  db.close();
  expect(changed).toBe(1);

  await service.restart();
  api = client(service, key);
  const done = await waitForComplete(api, id);
  expect(done.body).toEqual({ status: 'complete', answers_expected: COUNT, answers_received: COUNT, percent: 100 });
  const answers = (await api.get(`/api/v2/filler/questionnaires/${id}/answers/`)).body as { answers: unknown[] }[];
  expect(answers).toHaveLength(COUNT);
  expect(answers.every((q) => q.answers.length === 1)).toBe(true);

  const check = new Database(`${service.dataDir}/qfill.sqlite`, { readonly: true });
  const jobs = check.prepare("SELECT state FROM jobs WHERE kind = 'generate_answers'").all() as { state: string }[];
  check.close();
  expect(jobs).toEqual([{ state: 'done' }]);
}, 180_000);
