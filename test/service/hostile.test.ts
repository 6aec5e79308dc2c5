/**
 * Hostile and odd-but-legal requests found by auditing the service as a demanding user: each must get
 * a 4xx with exactly `{"error"}` naming the problem (or the documented success), never a 500 or a hang.
 */
import Database from 'better-sqlite3';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/service/app';
import { createOffering } from '../../src/service/admin';
import { ErrorBody } from '../../src/api/schemas';
import { MAX_EXPANDED_BYTES, zipExpandedSize } from '../../src/service/domain/content-sniff';
import { unzipSync } from 'fflate';
import {
  call,
  client,
  expectError,
  expectShape,
  files,
  questionnaireXlsx,
  SECURITY_SHEET,
  simpleDocx,
  simplePdf,
  startService,
  waitForComplete,
  waitForFile,
  uploadKnowledge,
  type Service,
} from './helpers';
import { TEST_BACKEND } from './postgres';

let service: Service;
let api: ReturnType<typeof client>;
let key: string;

beforeAll(async () => {
  service = await startService();
  key = await service.key({ org: 'acme', user: 'alice', role: 'admin' });
  api = client(service, key);
  await uploadKnowledge(api);
});

afterAll(async () => {
  await service?.destroy();
});

/** Sends bytes as they are, bypassing fetch's URL and header normalisation. */
function rawRequest(base: string, request: string): Promise<{ status: number; body: unknown }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(Buffer.from(request, 'utf8')));
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => (data += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0);
      const text = data.slice(data.indexOf('\r\n\r\n') + 4);
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON: the assertion below says so
      }
      resolve({ status, body });
    });
  });
}

describe('requests the HTTP parser rejects', () => {
  it('answers a raw non-ASCII URL with {"error"} telling to percent-encode', async () => {
    const res = await rawRequest(service.base, `GET /api/v2/filler/questionnaires/1/answers/?tab=Général HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\n\r\n`);
    expect(res.status).toBe(400);
    expectShape(ErrorBody, res.body);
    expect((res.body as { error: string }).error).toMatch(/percent-encode/);
  });

  it('answers oversized headers with 400 {"error"}', async () => {
    const res = await rawRequest(service.base, `GET /api/v2/chat/sessions/ HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\nX-Big: ${'a'.repeat(40_000)}\r\n\r\n`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'headers: the request headers are too large' });
  });

  it('answers a garbage request line with 400 {"error"}', async () => {
    const res = await rawRequest(service.base, 'NOT HTTP AT ALL\r\n\r\n');
    expect(res.status).toBe(400);
    expectShape(ErrorBody, res.body);
  });
});

describe('deeply nested JSON', () => {
  it('answers 400, not a stack overflow, for a JSON body or advanced_options nested 100,000 levels', async () => {
    const deep = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    const body = await call(service.base, key, 'POST', '/api/v2/chat/sessions/', `{"title":"x","extra":${deep}}`, { 'Content-Type': 'application/json' });
    expectError(body, 400, /^body: JSON nested deeper than 32 levels$/);
    const form = files(['q.xlsx', await questionnaireXlsx([SECURITY_SHEET])]);
    form.append('advanced_options', deep);
    expectError(await api.post('/api/v2/filler/questionnaires/', form), 400, /^advanced_options: nested deeper than 32 levels$/);
    // Ordinary nesting is fine.
    const ok = files(['q.xlsx', await questionnaireXlsx([SECURITY_SHEET])]);
    ok.append('advanced_options', JSON.stringify({ language: 'en', notes: { a: { b: [1, 2] } } }));
    expect((await api.post('/api/v2/filler/questionnaires/', ok)).status).toBe(200);
  });
});

describe('query strings', () => {
  it('names a parameter given twice instead of "expected number, received NaN"', async () => {
    expectError(await api.get('/api/v2/repository/files/?page=1&page=2'), 400, /^page: given 2 times; give it once$/);
    expectError(await api.get('/api/v2/chat/sessions/?search=a&search=b'), 400, /^search: given 2 times/);
    expectError(await api.get('/api/v2/filler/questionnaires/?visibility=team&visibility=organization'), 400, /^visibility: given 2 times/);
  });

  it('treats % and _ in search as literal characters, not LIKE wildcards', async () => {
    const up = await api.post(
      '/api/v2/repository/files/',
      files(['100%_done.txt', 'The migration plan is one hundred percent done.'], ['plain.txt', 'Another plain document with enough words.']),
    );
    expect(up.body.count).toBe(2);
    const names = async (search: string) =>
      ((await api.get(`/api/v2/repository/files/?search=${encodeURIComponent(search)}`)).body.results as { original_filename: string }[]).map(
        (f) => f.original_filename,
      );
    expect(await names('%')).toEqual(['100%_done.txt']);
    expect(await names('_')).toEqual(['100%_done.txt']);
    expect(await names('0%_d')).toEqual(['100%_done.txt']);

    await api.post('/api/v2/chat/sessions/', { title: 'Rates: 50% off_peak' });
    await api.post('/api/v2/chat/sessions/', { title: 'Something else' });
    const titles = async (search: string) =>
      ((await api.get(`/api/v2/chat/sessions/?search=${encodeURIComponent(search)}`)).body.results as { title: string }[]).map((s) => s.title);
    expect(await titles('%')).toEqual(['Rates: 50% off_peak']);
    expect(await titles('_')).toEqual(['Rates: 50% off_peak']);
  });
});

describe('file content that contradicts its name', () => {
  const ole = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 1, 2, 3, 4]);
  const binary = new Uint8Array(Array.from({ length: 600 }, (_, i) => (i * 37) % 256));

  it('refuses each mismatch in `failed` with the reason, and keeps the honest files', async () => {
    const book = await questionnaireXlsx([SECURITY_SHEET]);
    const pdf = simplePdf(['A real PDF page about incident response procedures and escalation.']);
    const docx = simpleDocx(['A real Word document about vendor risk management and reviews.']);
    const res = await api.post(
      '/api/v2/repository/files/',
      files(
        ['report.txt', pdf],
        ['answers.pdf', book],
        ['answers.docx', book],
        ['policy.xlsx', docx],
        ['protected.xlsx', ole],
        ['noise.txt', binary],
        ['notes.csv', binary],
        ['real.pdf', pdf],
        ['real.docx', docx],
      ),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.failed).toEqual([
      'report.txt: the content is a PDF document, not text; upload it with its own extension',
      'answers.pdf: the content is an Excel workbook, not a PDF',
      'answers.docx: the content is an Excel workbook, not a Word document; rename it to .xlsx',
      'policy.xlsx: the content is a Word document, not a workbook; rename it to .docx',
      'protected.xlsx: the content is a legacy (.doc/.xls) or password-protected Office file; save it as an unprotected .xlsx',
      'noise.txt: the content is binary data, not text',
      'notes.csv: the content is binary data, not text',
    ]);
    expect(res.body.count).toBe(2);
    for (const id of res.body.file_ids) expect((await waitForFile(api, id)).body.status).toBe('ready');
  });

  it('refuses a questionnaire whose content is not a workbook, naming the file', async () => {
    const pdf = simplePdf(['Not a questionnaire']);
    expectError(
      await api.post('/api/v2/filler/questionnaires/', files(['questions.xlsx', pdf])),
      400,
      /^files: questions\.xlsx: the content is a PDF document, not an Excel \.xlsx workbook$/,
    );
  });

  it('refuses a workbook that would expand beyond the unzip limit (a zip bomb), reading only its directory', async () => {
    const book = await questionnaireXlsx([SECURITY_SHEET]);
    const declared = Object.values(unzipSync(book)).reduce((n, entry) => n + entry.byteLength, 0);
    expect(zipExpandedSize(book)).toBe(declared);
    // Declare one entry as 2 GB uncompressed in the central directory.
    const bomb = book.slice();
    const view = new DataView(bomb.buffer);
    let at = -1;
    for (let i = 0; i < bomb.length - 4; i++) if (view.getUint32(i, true) === 0x02014b50) (at = i), (i = bomb.length);
    view.setUint32(at + 24, 0x7fffffff, true);
    expect(zipExpandedSize(bomb)).toBeGreaterThan(MAX_EXPANDED_BYTES);
    expectError(
      await api.post('/api/v2/filler/questionnaires/', files(['bomb.xlsx', bomb])),
      400,
      /^files: bomb\.xlsx: the file expands to \d+ MB when unzipped; the limit is 400 MB$/,
    );
    const repo = await api.post('/api/v2/repository/files/', files(['bomb.xlsx', bomb], ['ok.txt', 'A perfectly ordinary text document about backups.']));
    expect(repo.body.failed).toEqual([expect.stringMatching(/^bomb\.xlsx: the file expands to/)]);
  });

  it('still accepts UTF-16 text with a byte order mark', async () => {
    const text = 'Our incident response team is on call around the clock.';
    const utf16 = new Uint8Array([0xff, 0xfe, ...Buffer.from(text, 'utf16le')]);
    const res = await api.post('/api/v2/repository/files/', files(['utf16.txt', utf16]));
    expect(res.body.failed).toEqual([]);
    expect((await waitForFile(api, res.body.file_ids[0])).body.status).toBe('ready');
  });
});

describe('file names', () => {
  it('keeps only the base name of a path, composes accents (NFC) and drops control characters', async () => {
    const decomposed = 'Se\u0301curite\u0301 日本語 🚀.txt';
    const res = await api.post(
      '/api/v2/repository/files/',
      files(
        ['../../etc/passwd.txt', 'The password file is not what this document is about at all.'],
        [decomposed, 'Sécurité: all laptops use full disk encryption.'],
        ['line\u0007break.txt', 'A name with a control character in it, nothing more.'],
      ),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const names = await Promise.all(
      (res.body.file_ids as number[]).map(async (id) => (await api.get(`/api/v2/repository/files/${id}/`)).body.original_filename),
    );
    expect(names).toEqual(['passwd.txt', 'Sécurité 日本語 🚀.txt', 'linebreak.txt']);
    const found = await api.get(`/api/v2/repository/files/?search=${encodeURIComponent('Sécurité')}`);
    expect(found.body.results.map((f: { original_filename: string }) => f.original_filename)).toEqual(['Sécurité 日本語 🚀.txt']);
  });
});

describe('files that would end "ready" but can never be found', () => {
  it('ends a file with too little text as failed, with the reason', async () => {
    const res = await api.post('/api/v2/repository/files/', files(['tiny.txt', 'We use AWS.']));
    const done = (await waitForFile(api, res.body.file_ids[0])).body;
    expect(done.status).toBe('failed');
    expect(done.error).toMatch(/too little text to index/);
    expect(done.status_display).toBe(`Failed: ${done.error}`);
  });
});

describe('multipart and form bodies', () => {
  it('says a "files" part without a filename is a text field, not a file', async () => {
    const form = new FormData();
    form.append('files', 'just some text');
    expectError(await api.post('/api/v2/repository/files/', form), 400, /^files: expected a file but got a text field/);
  });

  it('reads form-encoded asks like HTML forms send them: empty ids omitted, indexed arrays', async () => {
    const offering = await createOffering(service.storage, { org: 'acme', name: 'Payments', type: 'product' });
    const form = new URLSearchParams([
      ['question', 'How is customer data encrypted at rest?'],
      ['session_id', ''],
      ['file_id', ''],
      ['offering_ids[0]', String(offering)],
    ]);
    const res = await api.post('/api/v2/chat/ask/', form);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.session_id).toBeNull();
    expectError(
      await api.post(
        '/api/v2/chat/ask/',
        new URLSearchParams([
          ['question', 'x'],
          ['offering_ids[0]', '999'],
        ]),
      ),
      400,
      /^offering_ids: unknown offering 999$/,
    );
    expectError(
      await api.post(
        '/api/v2/chat/ask/',
        new URLSearchParams([
          ['question', 'x'],
          ['question[]', 'y'],
        ]),
      ),
      400,
      /^question\[\]: unknown field$/,
    );
  });

  it('accepts form-encoded session creation and messages with typed fields', async () => {
    const created = await api.post(
      '/api/v2/chat/sessions/',
      new URLSearchParams([
        ['title', 'Form chat'],
        ['is_archived', 'true'],
      ]),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body).toMatchObject({ title: 'Form chat', is_archived: true });
    const sent = await api.post(
      `/api/v2/chat/sessions/${created.body.id}/messages/`,
      new URLSearchParams([
        ['message', 'Is data encrypted at rest?'],
        ['file_id', ''],
      ]),
    );
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.message_count).toBe(2);
  });
});

describe('fields are never null where the spec does not allow it', () => {
  it('a new session has an object last_message; answers omit unknown ids instead of null', async () => {
    const session = await api.post('/api/v2/chat/sessions/', {});
    expect(session.body.last_message).toEqual({});
    const listed = (await api.get('/api/v2/chat/sessions/')).body.results.find((s: { id: number }) => s.id === session.body.id);
    expect(listed.last_message).toEqual({});

    const book = await questionnaireXlsx([
      {
        name: 'Plain',
        sections: [
          {
            questions: [
              ['', 'Is customer data encrypted at rest?'],
              ['', 'What is the airspeed of an unladen swallow?'],
            ],
          },
        ],
      },
    ]);
    const up = await api.post('/api/v2/filler/questionnaires/', files(['plain.xlsx', book]));
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    const id = up.body.questionnaire_ids[0];
    await waitForComplete(api, id);
    const answers = (await api.get(`/api/v2/filler/questionnaires/${id}/answers/`)).body as Record<string, unknown>[];
    expect(answers.length).toBeGreaterThan(0);
    for (const q of answers) {
      for (const field of ['original_id', 'selected_answer_id', 'security_control', 'category']) {
        expect(q[field], `${field} of question ${q.id}`).not.toBeNull();
      }
      for (const a of q.answers as { source_evidence: Record<string, unknown>[] }[]) {
        for (const e of a.source_evidence) {
          for (const field of ['passage_id', 'qna_id', 'data_id', 'question_id']) expect(e[field], field).not.toBeNull();
          expect(Number.isInteger(e.passage_id ?? e.qna_id)).toBe(true);
        }
      }
    }
  });
});

// SQLite's own failure mode (one writer per file); PostgreSQL's (the server gone) is test/service/postgres-faults.test.ts.
describe.runIf(TEST_BACKEND === 'sqlite')('a SQLite database locked by another process', () => {
  it('answers 429 with Retry-After instead of 500, and recovers once the lock is gone', async () => {
    const local = await buildApp({ dataDir: service.dataDir, staticDir: null, startWorkers: false, busyTimeoutMs: 50 });
    const base = await local.app.listen({ port: 0, host: '127.0.0.1' });
    const other = new Database(`${service.dataDir}/qfill.sqlite`);
    try {
      other.exec('BEGIN IMMEDIATE');
      const res = await fetch(`${base}/api/v2/chat/sessions/`, { method: 'POST', headers: { 'X-API-Key': key } });
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe('1');
      expect((await res.json()).error).toMatch(/busy/);
      other.exec('COMMIT');
      const again = await fetch(`${base}/api/v2/chat/sessions/`, { method: 'POST', headers: { 'X-API-Key': key } });
      expect(again.status).toBe(200);
    } finally {
      if (other.inTransaction) other.exec('ROLLBACK');
      other.close();
      await local.close();
    }
  });
});
