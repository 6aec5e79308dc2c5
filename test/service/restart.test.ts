import { afterAll, expect, it } from 'vitest';
import type { ServiceContext } from '../../src/service/context';
import { ingestFileHandler } from '../../src/service/jobs/ingest';
import { extractDocument, KnowledgeBase } from '../../src/service/knowledge';
import { openStorage } from '../../src/service/storage/open';
import { queryDatabase } from './database';
import { client, files, KB_TEXT, questionnaireXlsx, startService, waitFor, waitForComplete, uploadKnowledge, type Service } from './helpers';

let service: Service;

afterAll(async () => {
  await service?.destroy();
});

const TOPICS = ['encryption at rest', 'multi-factor authentication', 'backup retention', 'access reviews', 'TLS versions'];

it('resumes answer generation after a shutdown and after a crash, without duplicate answers', async () => {
  service = await startService();
  const key = await service.key({ org: 'acme', user: 'alice' });
  let api = client(service, key);
  await uploadKnowledge(api);

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
  // (Its lease long expired: on PostgreSQL any process takes it over at once.)
  const changed = await queryDatabase(
    service.storage,
    "UPDATE jobs SET state = 'running', lease_until = 0 WHERE kind = 'generate_answers' AND state = 'queued' RETURNING id",
  );
  expect(changed).toHaveLength(1);

  await service.restart();
  api = client(service, key);
  // 2,000 questions: on a loaded machine (and on PostgreSQL, a round trip per write) well over a minute.
  const done = await waitForComplete(api, id, 150_000);
  expect(done.body).toEqual({ status: 'complete', answers_expected: COUNT, answers_received: COUNT, percent: 100 });
  const answers = (await api.get(`/api/v2/filler/questionnaires/${id}/answers/`)).body as { answers: unknown[] }[];
  expect(answers).toHaveLength(COUNT);
  expect(answers.every((q) => q.answers.length === 1)).toBe(true);

  const jobs = await queryDatabase(service.storage, "SELECT state FROM jobs WHERE kind = 'generate_answers'");
  expect(jobs).toEqual([{ state: 'done' }]);
}, 180_000);

it('resumes a repository file cut short by a crash: it ends ready, and its progress never goes back', async () => {
  const svc = await startService({ startWorkers: false });
  try {
    const api = client(svc, await svc.key({ org: 'acme', user: 'alice' }));
    const up = await api.post('/api/v2/repository/files/', files(['policy.txt', KB_TEXT]));
    const id = up.body.file_ids[0] as number;
    // The bytes are on disk and the file is waiting before the 200 is sent.
    expect((await api.get(`/api/v2/repository/files/${id}/`)).body).toMatchObject({ status: 'submitted', processing_percent: 0 });
    await svc.stop();

    // As if the process had died while indexing at 60%.
    await queryDatabase(svc.storage, "UPDATE jobs SET state = 'running', attempts = 1, lease_until = 0 WHERE kind = 'ingest_file' RETURNING id");
    await queryDatabase(
      svc.storage,
      "UPDATE files SET status = 'processing', processing_stage = 'indexing', processing_percent = 60 WHERE id = ? RETURNING id",
      [id],
    );

    // Resume by hand, watching every progress update the job writes.
    const storage = await openStorage(svc.storage);
    const store = storage.store;
    const percents: number[] = [];
    const update = store.files.update.bind(store.files);
    store.files.update = (fileId, change) => {
      if (change.processing_percent !== undefined) percents.push(change.processing_percent);
      return update(fileId, change);
    };
    const queue = store.jobs;
    const ctx = {
      store,
      blobs: storage.blobs,
      knowledge: new KnowledgeBase(storage.knowledgeIndex!),
      extract: extractDocument,
      detect: () => Promise.reject(new Error('not used')),
      wake: () => undefined,
    } as unknown as ServiceContext;
    await queue.requeueRunning();
    const job = (await queue.claim('ingest_file'))!;
    expect(await ingestFileHandler(ctx)(job, { shouldStop: () => false })).toBe('done');
    expect(percents.length).toBeGreaterThan(1);
    expect(percents.every((p) => p >= 60)).toBe(true);
    expect(percents.at(-1)).toBe(100);
    expect(await store.files.getAny(id)).toMatchObject({ status: 'ready', processing_percent: 100 });
    expect((await store.files.getAny(id))!.passage_count).toBeGreaterThan(0);
    await store.close();
  } finally {
    await svc.destroy();
  }
});
