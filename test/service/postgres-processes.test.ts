/**
 * Three `qfill serve --database` processes on one PostgreSQL database, as behind a load balancer:
 * upload through one, read and chat through another; every process works the job queue, and when the
 * one holding a generation job is killed, another takes the job over once its lease runs out and
 * finishes it, each question answered once.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { createKey } from '../../src/service/admin';
import { call, files, KB_TEXT, questionnaireXlsx, waitFor } from './helpers';
import { createTestDatabase, type TestDatabase } from './postgres';
import { spawnServe } from './serve-process';

const shared = mkdtempSync(join(tmpdir(), 'qfill-pg-files-'));
const children: ChildProcess[] = [];
let db: TestDatabase | undefined;

afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await db?.drop();
  rmSync(shared, { recursive: true, force: true });
});

function serve(url: string) {
  const dataDir = mkdtempSync(join(tmpdir(), 'qfill-pg-local-'));
  return spawnServe(['--data', dataDir, '--files', shared, '--database', url, '--pool-size', '4'], { QFILL_JOB_LEASE_SECONDS: '3' }).then((p) => {
    children.push(p.child);
    return p;
  });
}

async function query<T>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

it('three processes share one database: any request to any of them, and a killed job holder is taken over', async () => {
  db = await createTestDatabase();
  // Started together on an empty database: one migrates, the others wait for it.
  const [a, b, c] = await Promise.all([serve(db.url), serve(db.url), serve(db.url)]);
  const key = await createKey({ dataDir: shared, databaseUrl: db.url }, { org: 'acme', user: 'alice', role: 'admin' });

  const uploads = await Promise.all(
    Array.from({ length: 6 }, (_, i) =>
      call([a, b, c][i % 3]!.url, key, 'POST', '/api/v2/repository/files/', files([`doc-${i}.txt`, `${KB_TEXT}\n\nDocument number ${i}.`])),
    ),
  );
  expect(uploads.map((u) => u.status)).toEqual(Array(6).fill(200));
  await waitFor(
    'every upload processed',
    () => call(b.url, key, 'GET', '/api/v2/repository/files/?status=ready&page_size=100'),
    (r) => r.body.count === 6,
  );
  const ask = await call(c.url, key, 'POST', '/api/v2/chat/ask/', { question: 'Is customer data encrypted at rest?' });
  expect(ask.status).toBe(200);
  expect(ask.body.answer).toMatch(/AES-256/);

  const COUNT = 800;
  const questions = Array.from({ length: COUNT }, (_, i) => [`Q-${i + 1}`, `Question ${i + 1}: is customer data of system ${i + 1} encrypted at rest?`]) as [
    string,
    string,
  ][];
  const up = await call(
    a.url,
    key,
    'POST',
    '/api/v2/filler/questionnaires/',
    files(['big.xlsx', await questionnaireXlsx([{ name: 'Big', sections: [{ questions }] }])]),
  );
  expect(up.status, JSON.stringify(up.body)).toBe(200);
  const id = up.body.questionnaire_ids[0];
  await waitFor(
    'answering to start',
    () => call(b.url, key, 'GET', `/api/v2/filler/questionnaires/${id}/answer-progress/`),
    (r) => r.body.answers_received > 0,
  );
  const [job] = await query<{ lease_owner: string }>(db.url, "SELECT lease_owner FROM jobs WHERE kind = 'generate_answers'");
  const holder = [a, b, c].find((p) => job!.lease_owner.includes(`:${p.pid}:`))!;
  expect(holder).toBeDefined();
  holder.child.kill('SIGKILL');
  const survivor = [a, b, c].find((p) => p !== holder)!;

  const done = await waitFor(
    'another process to take the job over and finish it',
    () => call(survivor.url, key, 'GET', `/api/v2/filler/questionnaires/${id}/answer-progress/`),
    (r) => r.body.status === 'complete',
    120_000,
  );
  expect(done.body).toEqual({ status: 'complete', answers_expected: COUNT, answers_received: COUNT, percent: 100 });
  const [after] = await query<{ lease_owner: string; state: string; attempts: number }>(
    db.url,
    "SELECT lease_owner, state, attempts FROM jobs WHERE kind = 'generate_answers'",
  );
  expect(after).toMatchObject({ state: 'done', attempts: 2 });
  expect(after!.lease_owner).not.toContain(`:${holder.pid}:`);
  const perQuestion = await query<{ n: number }>(db.url, 'SELECT COUNT(*)::int AS n FROM answers GROUP BY question_id');
  expect(perQuestion).toHaveLength(COUNT);
  expect(perQuestion.every((r) => r.n === 1)).toBe(true);
}, 240_000);

it('a process killed while answering and started again on its folder resumes its own questionnaire at once, not after the lease', async () => {
  const database = await createTestDatabase();
  const local = mkdtempSync(join(tmpdir(), 'qfill-pg-restart-'));
  // A lease far longer than the test: only recognising the job as its own lets the restarted process resume it.
  const env = { QFILL_JOB_LEASE_SECONDS: '3600' };
  const start = () =>
    spawnServe(['--data', local, '--files', shared, '--database', database.url, '--pool-size', '4'], env).then((p) => {
      children.push(p.child);
      return p;
    });
  try {
    const first = await start();
    const key = await createKey({ dataDir: shared, databaseUrl: database.url }, { org: 'acme', user: 'alice', role: 'admin' });
    const up0 = await call(first.url, key, 'POST', '/api/v2/repository/files/', files(['doc.txt', KB_TEXT]));
    expect(up0.status).toBe(200);
    const COUNT = 800;
    const questions = Array.from({ length: COUNT }, (_, i) => [`Q-${i + 1}`, `Question ${i + 1}: is customer data of system ${i + 1} encrypted at rest?`]) as [
      string,
      string,
    ][];
    const up = await call(
      first.url,
      key,
      'POST',
      '/api/v2/filler/questionnaires/',
      files(['big.xlsx', await questionnaireXlsx([{ name: 'Big', sections: [{ questions }] }])]),
    );
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    const id = up.body.questionnaire_ids[0];
    await waitFor(
      'answering to start',
      () => call(first.url, key, 'GET', `/api/v2/filler/questionnaires/${id}/answer-progress/`),
      (r) => r.body.answers_received > 0,
    );
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));
    const [interrupted] = await query<{ state: string }>(database.url, "SELECT state FROM jobs WHERE kind = 'generate_answers'");
    expect(interrupted!.state).toBe('running');

    const again = await start();
    const done = await waitFor(
      'the restarted process to finish its questionnaire',
      () => call(again.url, key, 'GET', `/api/v2/filler/questionnaires/${id}/answer-progress/`),
      (r) => r.body.status === 'complete',
      90_000,
    );
    expect(done.body).toEqual({ status: 'complete', answers_expected: COUNT, answers_received: COUNT, percent: 100 });
    const perQuestion = await query<{ n: number }>(database.url, 'SELECT COUNT(*)::int AS n FROM answers GROUP BY question_id');
    expect(perQuestion).toHaveLength(COUNT);
    expect(perQuestion.every((r) => r.n === 1)).toBe(true);
    await again.stop();
  } finally {
    await database.drop();
    rmSync(local, { recursive: true, force: true });
  }
}, 240_000);
