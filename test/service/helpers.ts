/** Test harness: a real service on loopback with a temporary data folder, and small request helpers. */
import ExcelJS from 'exceljs';
import { zipSync } from 'fflate';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { z } from 'zod/mini';
import { ErrorBody } from '../../src/api/schemas';
import { createKey, type CreateKeyOptions } from '../../src/service/admin';
import { buildApp, type BuiltApp } from '../../src/service/app';
import type { StorageOptions } from '../../src/service/storage/open';
import { createWorkbook } from '../../src/xlsx/create';
import { pdfFromObjects } from './hostile-inputs';
import { createTestDatabase, TEST_BACKEND, type TestDatabase } from './postgres';
import { spawnServe, type ServeProcess } from './serve-process';

export const FIXTURES = join(__dirname, '..', '..', '..', 'shared', 'fixtures');

/** Real-world fixtures are required: fail loudly, never skip, when they are missing. */
export function fixture(...parts: string[]): string {
  const path = join(FIXTURES, ...parts);
  if (!existsSync(path)) {
    throw new Error(`Missing fixture ${path}: the shared fixtures folder (../shared/fixtures, see its README) must be present to run this test`);
  }
  return path;
}

/**
 * Where a test's service keeps its state on the test project's backend: a fresh data folder, and in the
 * `postgres` project a throwaway database; `destroy` removes both. For suites that build the app themselves.
 */
export async function testStorage(opts: { dataDir?: string; backend?: 'sqlite' | 'postgres' } = {}): Promise<StorageOptions & { destroy(): Promise<void> }> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'qfill-test-'));
  const database = (opts.backend ?? TEST_BACKEND) === 'postgres' ? await createTestDatabase() : null;
  return {
    dataDir,
    databaseUrl: database?.url ?? null,
    destroy: async () => {
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Service {
  dataDir: string;
  /** Where its state is, for the admin functions (createOffering(service.storage, …)). */
  storage: StorageOptions;
  base: string;
  built: BuiltApp;
  key(opts: Partial<CreateKeyOptions> & { org: string; user?: string }): Promise<string>;
  restart(opts?: { startWorkers?: boolean }): Promise<void>;
  stop(): Promise<void>;
  destroy(): Promise<void>;
}

/**
 * QFILL_TEST_SERVE=processes (the `serve` vitest project): `startService` runs two `qfill serve --database`
 * child processes on one PostgreSQL database instead of in-process instances, requests alternating
 * between them. A suite that reaches into the in-process service (`built`, workers off, restart) cannot
 * run that way and says so.
 */
export const SERVE_PROCESSES = process.env.QFILL_TEST_SERVE === 'processes';

/**
 * A service on loopback. Its backend is the test project's (SQLite, or PostgreSQL in the `postgres`
 * project: a throwaway database, dropped by `destroy`), unless `backend` says otherwise. On PostgreSQL
 * it is two service instances on the one database, as behind a load balancer: `base` alternates between
 * them, so consecutive requests of a test (upload, then read; ask, then list) go to different instances,
 * and both work the job queue. With QFILL_TEST_SERVE=processes they are `qfill serve` processes.
 */
export async function startService(opts: { dataDir?: string; startWorkers?: boolean; backend?: 'sqlite' | 'postgres' } = {}): Promise<Service> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'qfill-test-'));
  let database: TestDatabase | null = null;
  if ((opts.backend ?? TEST_BACKEND) === 'postgres') database = await createTestDatabase();
  const storage: StorageOptions = { dataDir, databaseUrl: database?.url ?? null };
  const processes = SERVE_PROCESSES && database !== null;
  if (SERVE_PROCESSES && !processes) throw new Error('QFILL_TEST_SERVE=processes needs PostgreSQL (QFILL_TEST_BACKEND=postgres)');
  const instances = database ? 2 : 1;
  let apps: BuiltApp[] = [];
  let children: ServeProcess[] = [];
  const localDirs: string[] = [];
  let bases: string[] = [];
  let turn = 0;
  const inProcessOnly = (what: string) =>
    new Error(`${what}: this test reaches into the in-process service, so it cannot run against qfill serve processes (QFILL_TEST_SERVE=processes)`);
  const start = async (startWorkers?: boolean) => {
    apps = [];
    children = [];
    bases = [];
    if (processes) {
      if (startWorkers === false) throw inProcessOnly('startWorkers: false');
      // Each process its own local folder (logs); uploaded bytes in the shared one, as on several machines.
      // Started together, as behind a load balancer: one migrates the empty database, the other waits.
      const started = await Promise.allSettled(
        Array.from({ length: instances }, () => {
          const local = mkdtempSync(join(tmpdir(), 'qfill-test-local-'));
          localDirs.push(local);
          return spawnServe(['--data', local, '--files', dataDir, '--database', database!.url, '--pool-size', '4']);
        }),
      );
      children = started.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
      const failed = started.find((r) => r.status === 'rejected');
      if (failed) {
        await Promise.all(children.map((c) => c.stop()));
        throw failed.reason;
      }
      bases = children.map((c) => c.url);
      return;
    }
    for (let i = 0; i < instances; i++) {
      const app = await buildApp({ ...storage, staticDir: null, startWorkers, poolSize: database ? 4 : undefined });
      apps.push(app);
      bases.push(await app.app.listen({ port: 0, host: '127.0.0.1' }));
    }
  };
  const closeAll = async () => {
    for (const app of apps) await app.close();
    await Promise.all(children.map((c) => c.stop()));
  };
  await start(opts.startWorkers);
  let running = true;
  const service: Service = {
    dataDir,
    storage,
    get base() {
      return bases[turn++ % bases.length]!;
    },
    get built() {
      if (processes) throw inProcessOnly('service.built');
      return apps[0]!;
    },
    key: (k) => createKey(storage, { user: 'user', ...k }),
    async restart(o = {}) {
      if (running) await closeAll();
      await start(o.startWorkers);
      running = true;
    },
    async stop() {
      if (running) await closeAll();
      running = false;
    },
    async destroy() {
      await service.stop();
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
      for (const d of localDirs) rmSync(d, { recursive: true, force: true });
    },
  };
  return service;
}

export interface Res<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export async function call<T = any>(
  base: string,
  key: string | null,
  method: string,
  path: string,
  body?: unknown,
  extraHeaders: Record<string, string> = {},
): Promise<Res<T>> {
  const headers: Record<string, string> = { ...extraHeaders };
  if (key !== null) headers['X-API-Key'] = key;
  let payload: BodyInit | undefined;
  if (body instanceof FormData || typeof body === 'string' || body instanceof URLSearchParams) payload = body as BodyInit;
  else if (body !== undefined) {
    payload = JSON.stringify(body);
    headers['Content-Type'] ??= 'application/json';
  }
  const res = await fetch(base + path, { method, headers, body: payload });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // leave as text
  }
  return { status: res.status, body: parsed as T, headers: res.headers };
}

/** An API client bound to one service and key. */
export function client(service: Service, key: string | null) {
  return {
    get: <T = any>(path: string, headers?: Record<string, string>) => call<T>(service.base, key, 'GET', path, undefined, headers),
    post: <T = any>(path: string, body?: unknown, headers?: Record<string, string>) => call<T>(service.base, key, 'POST', path, body, headers),
  };
}

/** A fresh service with `api` for alice at acme and `other` for `otherUser` at globex, to check isolation. */
export async function startWithTwoOrgs(otherUser: string) {
  const service = await startService();
  const api = client(service, await service.key({ org: 'acme', user: 'alice' }));
  const other = client(service, await service.key({ org: 'globex', user: otherUser }));
  return { service, api, other };
}

export function expectShape<T extends z.ZodMiniType>(schema: T, value: unknown): z.infer<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw new Error(`response does not match the schema: ${result.error.message}\n${JSON.stringify(value).slice(0, 800)}`);
  return result.data;
}

export function expectError(res: Res, status: number, contains?: string | RegExp): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expectShape(ErrorBody, res.body);
  if (contains !== undefined) expect(res.body.error).toMatch(contains);
}

export function files(...entries: [name: string, content: string | Uint8Array, type?: string][]): FormData {
  const form = new FormData();
  for (const [name, content, type] of entries) {
    form.append('files', new Blob([content as BlobPart], { type: type ?? 'application/octet-stream' }), name);
  }
  return form;
}

export async function waitFor<T>(what: string, probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  while (Date.now() < deadline) {
    last = await probe();
    if (done(last)) return last;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}; last value: ${JSON.stringify(last).slice(0, 500)}`);
}

export async function waitForFile(c: ReturnType<typeof client>, id: number) {
  return waitFor(
    `repository file ${id} to finish`,
    () => c.get(`/api/v2/repository/files/${id}/`),
    (r) => r.status !== 200 || r.body.status === 'ready' || r.body.status === 'failed',
  );
}

/** Uploads KB_TEXT to the library as `security.txt` and waits until it is ingested; returns its file id. */
export async function uploadKnowledge(c: ReturnType<typeof client>): Promise<number> {
  const up = await c.post('/api/v2/repository/files/', files(['security.txt', KB_TEXT, 'text/plain']));
  expect(up.status, JSON.stringify(up.body)).toBe(200);
  const id: number = up.body.file_ids[0];
  const done = await waitForFile(c, id);
  expect(done.body.status, JSON.stringify(done.body)).toBe('ready');
  return id;
}

export async function waitForComplete(c: ReturnType<typeof client>, id: number, timeoutMs?: number) {
  return waitFor(
    `questionnaire ${id} to complete`,
    () => c.get(`/api/v2/filler/questionnaires/${id}/answer-progress/`),
    (r) => r.status !== 200 || r.body.status === 'complete',
    timeoutMs,
  );
}

export interface SheetSpec {
  name: string;
  sections: { title?: string; questions: [id: string, text: string, answer?: string, comment?: string][] }[];
}

/**
 * An "ID | Question | Answer" sheet ("Answers" unless named), with a fourth column when `comment` names
 * its header: a completed questionnaire (each row's answer and comment, where given) or, with `yesNo`, one
 * to fill, its Answer column a Yes/No list. The answer library suites' one workbook.
 */
export function answersWorkbook(
  rows: [id: string, question: string, answer?: string, comment?: string][],
  options: { comment?: string; yesNo?: boolean; sheet?: string } = {},
): Uint8Array {
  const cells: Record<string, string> = { A1: 'ID', B1: 'Question', C1: 'Answer' };
  if (options.comment !== undefined) cells.D1 = options.comment;
  rows.forEach(([id, question, answer, comment], i) => {
    Object.assign(cells, { [`A${i + 2}`]: id, [`B${i + 2}`]: question });
    if (answer !== undefined) cells[`C${i + 2}`] = answer;
    if (comment !== undefined && options.comment !== undefined) cells[`D${i + 2}`] = comment;
  });
  const lists = options.yesNo ? [{ sqref: `C2:C${rows.length + 1}`, source: '"Yes,No"' }] : undefined;
  return createWorkbook({ sheets: [{ name: options.sheet ?? 'Answers', cells, ...(lists ? { lists } : {}) }] });
}

/** A small questionnaire workbook: ID | Question | Answer | Comments, with optional section rows. */
export async function questionnaireXlsx(sheets: SheetSpec[]): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  for (const sheet of sheets) {
    const ws = wb.addWorksheet(sheet.name);
    ws.addRow(['ID', 'Question', 'Answer', 'Comments']);
    for (const section of sheet.sections) {
      if (section.title) ws.addRow([section.title]);
      for (const [id, text, answer, comment] of section.questions) ws.addRow([id, text, answer ?? '', comment ?? '']);
    }
  }
  return new Uint8Array((await wb.xlsx.writeBuffer()) as ArrayBuffer);
}

export const SECURITY_SHEET: SheetSpec = {
  name: 'Security',
  sections: [
    {
      title: 'Access Control',
      questions: [
        ['AC-1', 'Do you enforce multi-factor authentication for administrators?'],
        ['AC-2', 'Do you review user access rights quarterly?'],
      ],
    },
    {
      title: 'Encryption',
      questions: [
        ['EN-1', 'Is customer data encrypted at rest?'],
        ['EN-2', 'Which TLS versions do you support for data in transit?'],
      ],
    },
  ],
};

export const KB_TEXT = `Security Overview

Encryption. All customer data is encrypted at rest using AES-256. Data in transit is protected with TLS 1.2 or TLS 1.3.

Access control. Multi-factor authentication is enforced for all administrators. User access rights are reviewed quarterly by the security team.

Backups. Backups are taken daily and retained for 30 days in a separate region.`;

/** A minimal text PDF with one page per string (standard Helvetica, no compression). */
export function simplePdf(pages: string[]): Uint8Array {
  const objects: string[] = [];
  const pageIds = pages.map((_, i) => 4 + i * 2);
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
  pages.forEach((text, i) => {
    const pageId = pageIds[i]!;
    const escaped = text.replace(/[\\()]/g, (c) => `\\${c}`);
    const stream = `BT /F1 11 Tf 50 750 Td (${escaped}) Tj ET`;
    objects[pageId] = `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${pageId + 1} 0 R >>`;
    objects[pageId + 1] = `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`;
  });
  return pdfFromObjects(objects);
}

/** A minimal .docx with one paragraph per string. */
export function simpleDocx(paragraphs: string[]): Uint8Array {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const body = paragraphs.map((p) => `<w:p><w:r><w:t xml:space="preserve">${esc(p)}</w:t></w:r></w:p>`).join('');
  const enc = (s: string) => new TextEncoder().encode(s);
  return zipSync({
    '[Content_Types].xml': enc(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ),
    '_rels/.rels': enc(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    ),
    'word/document.xml': enc(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`,
    ),
  });
}

/** A Q&A workbook: Question | Answer rows (an answer library). */
export async function qaXlsx(rows: [question: string, answer: string][]): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Answers');
  ws.addRow(['Question', 'Answer']);
  for (const r of rows) ws.addRow(r);
  return new Uint8Array((await wb.xlsx.writeBuffer()) as ArrayBuffer);
}

/** Enough distinct subjects for a questionnaire's questions that the prior learns which passage or word matches all of them (PassagePrior, QuestionnaireTerms). */
export const QUESTIONNAIRE_TOPICS = [
  'backup',
  'logging',
  'firewall',
  'password',
  'vendor',
  'training',
  'incident',
  'change',
  'asset',
  'retention',
  'physical',
  'network',
  'patch',
  'monitoring',
  'privacy',
  'wireless',
  'cloud',
  'audit',
  'mobile',
  'email',
  'malware',
  'access',
];
