/** `qfill migrate`: a SQLite data folder copied into PostgreSQL, everything, ids kept, idempotent. */
import { afterAll, expect, it } from 'vitest';
import { reindexMigrated } from '../../../src/service/admin';
import { hashKey } from '../../../src/service/keys';
import { migrateDataFolder } from '../../../src/service/storage/migrate';
import { openStorage } from '../../../src/service/storage/open';
import { buildApp } from '../../../src/service/app';
import { call, client, files, questionnaireXlsx, SECURITY_SHEET, startService, uploadKnowledge, waitForComplete, type Service } from '../helpers';
import { createTestDatabase, type TestDatabase } from '../postgres';

let service: Service | undefined;
let db: TestDatabase | undefined;

afterAll(async () => {
  await service?.destroy();
  await db?.drop();
});

it('copies every table with ids kept, prints counts, and copies nothing twice', async () => {
  db = await createTestDatabase();
  service = await startService({ backend: 'sqlite' });
  const key = await service.key({ org: 'acme', user: 'alice', role: 'admin' });
  const api = client(service, key);
  await uploadKnowledge(api);
  const up = await api.post('/api/v2/filler/questionnaires/', files(['q.xlsx', await questionnaireXlsx([SECURITY_SHEET])]));
  const qid = up.body.questionnaire_ids[0] as number;
  await waitForComplete(api, qid);
  const session = (await api.post('/api/v2/chat/sessions/', {})).body.id as number;
  expect((await api.post('/api/v2/chat/ask/', { question: 'Is data encrypted at rest?', session_id: session })).status).toBe(200);
  const before = await (await api.get(`/api/v2/filler/questionnaires/${qid}/answers/`)).body;
  // An answer-library entry added by hand, approved: its decisions and its index row move too.
  const added = await api.post('/api/v2/answers/library/', {
    question: 'Do you carry cyber liability insurance?',
    slots: [{ slot_key: 'answer', content: 'Yes' }],
  });
  expect(added.status, JSON.stringify(added.body)).toBe(200);
  expect((await api.post(`/api/v2/answers/library/${added.body.id}/approve/`, {})).status).toBe(200);
  await service.stop();

  const lines: string[] = [];
  const first = await migrateDataFolder({ fromData: service.dataDir, databaseUrl: db.url, log: (l) => lines.push(l) });
  const copied = Object.fromEntries(first.map((c) => [c.table, c.copied]));
  expect(copied).toMatchObject({
    orgs: 1,
    users: 1,
    api_keys: 1,
    files: 2,
    questionnaires: 1,
    questions: 4,
    answers: 4,
    chat_sessions: 1,
    chat_messages: 2,
    library_manual: 1,
    library_state: 1,
    library_events: 2,
  });
  expect(first.every((c) => c.copied === c.source)).toBe(true);
  expect(lines.find((l) => l.startsWith('questions:'))).toBe('questions: 4 in the data folder, 4 copied');

  const again = await migrateDataFolder({ fromData: service.dataDir, databaseUrl: db.url });
  expect(again.every((c) => c.copied === 0)).toBe(true);

  expect(await reindexMigrated({ fromData: service.dataDir, target: { dataDir: service.dataDir, databaseUrl: db.url }, log: (l) => lines.push(l) })).toBe(1);
  expect(lines.at(-1)).toBe('knowledge index: 1 ready repository files indexed again');

  // The same key works on a service on PostgreSQL, with the same knowledge and answers.
  const pgService = await buildApp({ dataDir: service.dataDir, databaseUrl: db.url, staticDir: null, startWorkers: false });
  try {
    const base = await pgService.app.listen({ port: 0, host: '127.0.0.1' });
    const ask = await call(base, key, 'POST', '/api/v2/chat/ask/', { question: 'Is customer data encrypted at rest?' });
    expect(ask.status).toBe(200);
    expect(ask.body.answer).toMatch(/AES-256/);
    const answers = await call(base, key, 'GET', `/api/v2/filler/questionnaires/${qid}/answers/`);
    expect(answers.body).toEqual(before);
    const byHand = await call(base, key, 'GET', '/api/v2/answers/library/?filter=by_hand');
    expect(byHand.body.results.map((e: { question: string; approved_by: string }) => [e.question, e.approved_by])).toEqual([
      ['Do you carry cyber liability insurance?', 'alice'],
    ]);
    const found = await call(base, key, 'GET', '/api/v2/answers/library/?q=cyber%20insurance');
    expect(found.body.results.map((e: { question: string }) => e.question)).toContain('Do you carry cyber liability insurance?');
  } finally {
    await pgService.close();
  }

  const { store } = await openStorage({ dataDir: service.dataDir, databaseUrl: db.url });
  try {
    const principal = await store.keys.resolve(hashKey(key));
    expect(principal?.org.name).toBe('acme');
    const questions = await store.questionnaires.questions(qid);
    expect(questions.map((q) => q.answers[0]?.text)).toEqual(before.map((q: { answers: { text: string }[] }) => q.answers[0]?.text));
    // New rows continue after the copied ids.
    const org = await store.orgs.upsert('newcomer', {});
    expect(org.id).toBeGreaterThan(principal!.org.id);
  } finally {
    await store.close();
  }
});
