/**
 * Two service processes on one data folder: a real `qfill serve` child and an in-process service.
 * Only one runs the background jobs (the lease holder); both serve requests; when the holder is
 * killed mid-generation, the other takes over and finishes without answering any question twice.
 */
import Database from 'better-sqlite3';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createKey } from '../../src/service/admin';
import { buildApp, type BuiltApp } from '../../src/service/app';
import { call, files, KB_TEXT, questionnaireXlsx, waitFor } from './helpers';

const ROOT = join(__dirname, '..', '..');
const dataDir = mkdtempSync(join(tmpdir(), 'qfill-two-'));
let child: ChildProcess | null = null;
let local: BuiltApp | null = null;

afterAll(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  await local?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function startChild(): Promise<{ url: string; pid: number }> {
  child = spawn(process.execPath, ['bin/qfill.js', 'serve', '--http', '--port', '0', '--no-static', '--data', dataDir], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    child!.stdout!.on('data', (d) => {
      stdout += d;
      const m = /Listening on (http:\/\/[^\s]+)/.exec(stdout);
      if (m) resolve({ url: m[1]!, pid: child!.pid! });
    });
    child!.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
}

function lease(): { pid: number } | undefined {
  const db = new Database(join(dataDir, 'qfill.sqlite'), { readonly: true });
  try {
    return db.prepare('SELECT pid FROM worker_lease WHERE id = 1').get() as { pid: number } | undefined;
  } finally {
    db.close();
  }
}

it('shares one data folder: one runs the jobs, both serve, and the other takes over after a crash', async () => {
  const key = await createKey(dataDir, { org: 'acme', user: 'alice', role: 'admin' });
  const first = await startChild();
  expect(lease()?.pid).toBe(first.pid);

  local = await buildApp({ dataDir, staticDir: null, leaseCheckMs: 100 });
  const second = await local.app.listen({ port: 0, host: '127.0.0.1' });
  // The second process stands by: the lease stays with the first.
  expect(lease()?.pid).toBe(first.pid);

  // Uploads through both at once: every write waits for the lock instead of failing.
  const uploads = await Promise.all(
    Array.from({ length: 12 }, (_, i) =>
      call(i % 2 === 0 ? first.url : second, key, 'POST', '/api/v2/repository/files/', files([`doc-${i}.txt`, `${KB_TEXT}\n\nDocument number ${i}.`])),
    ),
  );
  expect(uploads.map((u) => u.status)).toEqual(Array(12).fill(200));
  const ids = uploads.flatMap((u) => u.body.file_ids as number[]);
  // Processed by the first process, whichever process took the upload.
  await waitFor(
    'every upload processed',
    () => call(second, key, 'GET', '/api/v2/repository/files/?status=ready&page_size=200'),
    (r) => r.body.count === ids.length,
  );

  const COUNT = 3000;
  const questions = Array.from({ length: COUNT }, (_, i) => [`Q-${i + 1}`, `Question ${i + 1}: is customer data of system ${i + 1} encrypted at rest?`]) as [
    string,
    string,
  ][];
  const book = await questionnaireXlsx([{ name: 'Big', sections: [{ questions }] }]);
  const up = await call(second, key, 'POST', '/api/v2/filler/questionnaires/', files(['big.xlsx', book]));
  expect(up.status, JSON.stringify(up.body)).toBe(200);
  const id = up.body.questionnaire_ids[0];
  await waitFor(
    'the first process to start answering',
    () => call(second, key, 'GET', `/api/v2/filler/questionnaires/${id}/answer-progress/`),
    (r) => r.body.answers_received > 0,
  );

  child!.kill('SIGKILL');
  const done = await waitFor(
    'the second process to take over and finish',
    () => call(second, key, 'GET', `/api/v2/filler/questionnaires/${id}/answer-progress/`),
    (r) => r.body.status === 'complete',
  );
  expect(done.body).toEqual({ status: 'complete', answers_expected: COUNT, answers_received: COUNT, percent: 100 });
  expect(lease()?.pid).toBe(process.pid);

  const db = new Database(join(dataDir, 'qfill.sqlite'), { readonly: true });
  const perQuestion = db.prepare('SELECT COUNT(*) AS n FROM answers GROUP BY question_id').all() as { n: number }[];
  db.close();
  expect(perQuestion).toHaveLength(COUNT);
  expect(perQuestion.every((r) => r.n === 1)).toBe(true);
}, 120_000);
