/**
 * One hostile file must not stop the service for everyone: reading runs in worker threads
 * within time, memory and size budgets; a file over one ends `failed` with the reason and leaves no
 * bytes on disk; other requests are answered meanwhile; SIGTERM stops the service whatever a reader is
 * doing; a job that keeps dying is not run again after a restart.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../src/service/admin';
import { buildApp, type BuiltApp } from '../../src/service/app';
import { ReaderSandbox } from '../../src/service/sandbox';
import { queryDatabase } from './database';
import { call, files, KB_TEXT, testStorage, waitFor } from './helpers';
import { expandingDocx, largeCsvQuestionnaire, nestedGraphicsPdf, repeatedPagePdf } from './hostile-inputs';

const ROOT = join(__dirname, '..', '..');
const MB = 1024 * 1024;
/** Small budgets so a hostile file is stopped in seconds (the service's default is 60 s). */
const READING = { timeoutMs: 4000, maxOoxmlPartBytes: 1 * MB, maxOoxmlTotalBytes: 2 * MB, maxTextFileBytes: 1 * MB };
/** Reading this in one thread takes minutes (20,000 nested q/Q took 10 s; it grows quadratically). */
const SLOW_PDF_DEPTH = 40_000;

interface Running {
  storage: TestStorage;
  base: string;
  built: BuiltApp;
  key: string;
}

/** Small request limits: 2 MB per upload request, one upload received at a time, none waiting. */
const UPLOADS = { maxRequestMb: 2, perKey: 1, perOrg: 1, total: 1, maxWaitMs: 0 };

type TestStorage = Awaited<ReturnType<typeof testStorage>>;

async function start(storage: TestStorage, opts: { startWorkers?: boolean } = {}): Promise<Running> {
  const built = await buildApp({ ...storage, staticDir: null, reading: READING, uploads: UPLOADS, startWorkers: opts.startWorkers });
  const base = await built.app.listen({ port: 0, host: '127.0.0.1' });
  return { storage, base, built, key: await createKey(storage, { org: 'acme', user: 'alice', role: 'admin' }) };
}

const get = (s: Running, path: string) => call(s.base, s.key, 'GET', path);

async function uploadOne(s: Running, name: string, bytes: string | Uint8Array): Promise<number> {
  const res = await call(s.base, s.key, 'POST', '/api/v2/repository/files/', files([name, bytes]));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.file_ids[0] as number;
}

function waitUntilDone(s: Running, id: number, timeoutMs = 60_000) {
  return waitFor(
    `file ${id} processed`,
    () => get(s, `/api/v2/repository/files/${id}/`),
    (r) => r.body.status === 'ready' || r.body.status === 'failed',
    timeoutMs,
  ).then((r) => r.body as { status: string; error?: string | null });
}

async function storedPath(storage: TestStorage, id: number): Promise<string> {
  const [row] = await queryDatabase<{ stored_name: string }>(storage, 'SELECT stored_name FROM files WHERE id = ?', [id]);
  return join(storage.dataDir, 'files', row!.stored_name);
}

describe('hostile uploads', () => {
  let s: Running;

  beforeAll(async () => {
    s = await start(await testStorage());
  });

  afterAll(async () => {
    await s?.built.close();
    await s?.storage.destroy();
  });

  it('stops reading a PDF at its time budget: failed with the reason, bytes removed, other requests answered meanwhile', async () => {
    const id = await uploadOne(s, 'generated.pdf', nestedGraphicsPdf(SLOW_PDF_DEPTH));
    const path = await storedPath(s.storage, id);
    expect(existsSync(path)).toBe(true);
    await waitFor(
      'the PDF being read',
      () => get(s, `/api/v2/repository/files/${id}/`),
      (r) => r.body.status === 'processing' && r.body.processing_stage === 'extracting text',
    );

    const sessions = await get(s, '/api/v2/chat/sessions/');
    expect(sessions.status).toBe(200);
    // Answered while the reader was still busy with the PDF, not after it.
    expect((await get(s, `/api/v2/repository/files/${id}/`)).body.status).toBe('processing');

    const done = await waitUntilDone(s, id);
    expect(done.status).toBe('failed');
    expect(done.error).toBe('generated.pdf took longer than 4 s to read; is it a scanned or generated PDF? Print it to a new PDF or save it as text');
    expect(existsSync(path)).toBe(false);
  });

  it('fails a PDF listing one page thousands of times the same way, and reads the next file normally', async () => {
    const bad = await uploadOne(s, 'pages.pdf', repeatedPagePdf(8000));
    const good = await uploadOne(s, 'policy.txt', KB_TEXT);
    expect(await waitUntilDone(s, bad)).toMatchObject({ status: 'failed', error: expect.stringMatching(/^pages\.pdf took longer than 4 s to read/) });
    expect(await waitUntilDone(s, good)).toMatchObject({ status: 'ready' });
  });

  it('refuses a .docx whose document.xml would inflate past the part limit, naming the limit', async () => {
    const id = await uploadOne(s, 'huge.docx', expandingDocx(3 * MB));
    const path = await storedPath(s.storage, id);
    const done = await waitUntilDone(s, id);
    expect(done.status).toBe('failed');
    expect(done.error).toMatch(/^"huge\.docx" was refused as a possible zip bomb: part word\/document\.xml would inflate to 3\.0 MiB \(limit 1\.0 MiB\)/);
    expect(existsSync(path)).toBe(false);
  });

  it('fails a text file over the text limit before decoding it, naming the limit', async () => {
    const id = await uploadOne(s, 'dump.txt', 'Backups are taken daily. '.repeat(Math.ceil((1.5 * MB) / 25)));
    const done = await waitUntilDone(s, id);
    expect(done).toMatchObject({ status: 'failed', error: 'dump.txt is 1.5 MB of text; the limit is 1 MB per text file (split it into smaller files)' });
  });

  it('refuses a CSV questionnaire over the limit at upload with 400 naming the limit', async () => {
    const res = await call(s.base, s.key, 'POST', '/api/v2/filler/questionnaires/', files(['big.csv', largeCsvQuestionnaire(1.5 * MB)]));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^files: big\.csv: big\.csv is 1\.5 MB of text; the limit is 1 MB per CSV questionnaire/);
  });
});

/** A multipart body sent chunk by chunk (no Content-Length), ending when `finish` is called. */
function streamedUpload(name: string, chunk: Uint8Array, chunks: number) {
  const boundary = 'qfill-test-boundary';
  const enc = new TextEncoder();
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(enc.encode(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\nContent-Type: text/plain\r\n\r\n`));
    },
    async pull(controller) {
      if (sent < chunks) {
        sent++;
        controller.enqueue(chunk);
        return;
      }
      await finished;
      controller.enqueue(enc.encode(`\r\n--${boundary}--\r\n`));
      controller.close();
    },
  });
  return { body, finish, contentType: `multipart/form-data; boundary=${boundary}` };
}

function postStream(s: Running, upload: ReturnType<typeof streamedUpload>): Promise<Response> {
  return fetch(`${s.base}/api/v2/repository/files/`, {
    method: 'POST',
    headers: { 'X-API-Key': s.key, 'Content-Type': upload.contentType },
    body: upload.body,
    duplex: 'half',
  } as RequestInit);
}

/** The uploads being received (or received and not yet stored or removed). */
function incomingFiles(dataDir: string): string[] {
  return readdirSync(join(dataDir, 'files', 'incoming'));
}

/** Received files a request did not store are removed once its response is sent (just after the client reads it). */
async function expectNothingWaiting(dataDir: string): Promise<void> {
  const left = await waitFor(
    'received files removed',
    async () => incomingFiles(dataDir),
    (names) => names.length === 0,
    5000,
  ).catch(() => incomingFiles(dataDir));
  expect(left).toEqual([]);
}

describe('upload limits', () => {
  let s: Running;

  beforeAll(async () => {
    s = await start(await testStorage());
  });

  afterAll(async () => {
    await s?.built.close();
    await s?.storage.destroy();
  });

  it('refuses a request declaring more than the limit with 400 {error} before reading it', async () => {
    const res = await call(s.base, s.key, 'POST', '/api/v2/repository/files/', files(['a.txt', 'x'.repeat(1.5 * MB)], ['b.txt', 'y'.repeat(1.5 * MB)]));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'body: the upload is larger than 2 MB; send fewer or smaller files per request' });
    await expectNothingWaiting(s.storage.dataDir);
  });

  it('stops receiving a streamed request at the limit, with 400 {error}, and keeps nothing of it on disk', async () => {
    const upload = streamedUpload('big.txt', new Uint8Array(256 * 1024).fill(0x61), 12);
    upload.finish();
    const res = await postStream(s, upload);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'body: the upload is larger than 2 MB; send fewer or smaller files per request' });
    await expectNothingWaiting(s.storage.dataDir);
  });

  it('answers 429 with Retry-After while the uploads in flight are at their cap, then takes uploads again', async () => {
    const slow = streamedUpload('slow.txt', new TextEncoder().encode(KB_TEXT), 1);
    const first = postStream(s, slow);
    // The first upload holds the only slot until its body ends. Its part being received proves it has the
    // slot: asked sooner, the second upload could take the slot first and the slow one get the 429.
    await waitFor(
      'the slow upload to be received',
      async () => incomingFiles(s.storage.dataDir),
      (names) => names.length > 0,
      10_000,
    );
    const busy = await call(s.base, s.key, 'POST', '/api/v2/repository/files/', files(['other.txt', KB_TEXT]));
    expect(busy.status).toBe(429);
    expect(busy.body).toEqual({
      error: 'too many uploads in progress: this API key already has 1 upload in progress (at most 1 at once); retry in a few seconds',
    });
    expect(busy.headers.get('retry-after')).toBe('5');
    // The chat is not an upload: answered meanwhile.
    expect((await get(s, '/api/v2/chat/sessions/')).status).toBe(200);
    slow.finish();
    expect((await first).status).toBe(200);
    const again = await call(s.base, s.key, 'POST', '/api/v2/repository/files/', files(['other.txt', KB_TEXT]));
    expect(again.status).toBe(200);
  });

  it('removes the received bytes of files refused at upload', async () => {
    const res = await call(s.base, s.key, 'POST', '/api/v2/repository/files/', files(['fake.pdf', 'not a pdf'], ['ok.txt', KB_TEXT]));
    expect(res.status).toBe(200);
    expect(res.body.failed).toEqual(['fake.pdf: the content is text, not a PDF']);
    await expectNothingWaiting(s.storage.dataDir);
    const bad = await call(s.base, s.key, 'POST', '/api/v2/filler/questionnaires/', files(['notes.csv', 'just,a,table\n1,2,3\n']));
    expect(bad.status).toBe(400);
    await expectNothingWaiting(s.storage.dataDir);
  });
});

describe('a reader over its memory budget', () => {
  it('is ended and the file fails saying how much memory it needed', async () => {
    const sandbox = new ReaderSandbox({ memoryMb: 48, workers: 1 });
    try {
      await expect(sandbox.extract(expandingDocx(12 * MB), 'bloated.docx')).rejects.toThrow(
        /^bloated\.docx needed more than 48 MB of memory to read; is it unusually large or generated by a program\?/,
      );
      // The pool replaced the worker: the next file is read.
      const doc = await sandbox.extract(new TextEncoder().encode(KB_TEXT), 'policy.txt');
      expect(doc.prepared_index.passages.map((p) => p.content).join(' ')).toContain('Multi-factor authentication');
    } finally {
      await sandbox.close();
    }
  });
});

describe('a poison job', () => {
  it('is failed on restart, not run again, once its attempts are used up by processes that died', async () => {
    const storage = await testStorage();
    let s = await start(storage, { startWorkers: false });
    try {
      const id = await uploadOne(s, 'policy.txt', KB_TEXT);
      const path = await storedPath(storage, id);
      await s.built.close();

      // As if two processes in a row had died (kill -9) while reading this file (its lease long gone).
      expect(
        await queryDatabase(storage, "UPDATE jobs SET state = 'running', attempts = 2, lease_until = 0 WHERE kind = 'ingest_file' RETURNING id"),
      ).toHaveLength(1);
      await queryDatabase(storage, "UPDATE files SET status = 'processing', processing_stage = 'extracting text' WHERE id = ? RETURNING id", [id]);

      s = await start(storage);
      const done = await waitUntilDone(s, id);
      // A readable file: had it been run again, it would be ready.
      expect(done.status).toBe('failed');
      expect(done.error).toMatch(/^processing was interrupted 2 times/);
      expect(existsSync(path)).toBe(false);
    } finally {
      await s.built.close();
      await storage.destroy();
    }
  });
});

describe('SIGTERM', () => {
  it('stops `qfill serve` while a reader is busy with a file that would take minutes', async () => {
    const storage = await testStorage();
    const key = await createKey(storage, { org: 'acme', user: 'alice', role: 'admin' });
    const where = ['--data', storage.dataDir, ...(storage.databaseUrl ? ['--database', storage.databaseUrl] : [])];
    const child = spawn(process.execPath, ['bin/qfill.js', 'serve', '--http', '--port', '0', '--no-static', ...where], {
      cwd: ROOT,
      env: { ...process.env, QFILL_READ_TIMEOUT_SECONDS: '600' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let stdout = '';
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      const base = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (d) => {
          stdout += d;
          const m = /Listening on (http:\/\/\S+)/.exec(stdout);
          if (m) resolve(m[1]!);
        });
        void exited.then((code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
      });

      const up = await call(base, key, 'POST', '/api/v2/repository/files/', files(['generated.pdf', nestedGraphicsPdf(SLOW_PDF_DEPTH)]));
      expect(up.status).toBe(200);
      const id = up.body.file_ids[0] as number;
      await waitFor(
        'the PDF being read',
        () => call(base, key, 'GET', `/api/v2/repository/files/${id}/`),
        (r) => r.body.processing_stage === 'extracting text',
      );

      child.kill('SIGTERM');
      // Within the test's timeout, far below the 600 s the reader was allowed.
      expect(await exited).toBe(0);
      expect(stderr).toContain('SIGTERM received, stopping');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await storage.destroy();
    }
  }, 60_000);
});
