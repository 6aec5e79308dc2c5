import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paginated, RepositoryFile, RepositoryUploadResult } from '../../src/api/schemas';
import { createOffering } from '../../src/service/admin';
import {
  client,
  expectError,
  expectShape,
  files,
  KB_TEXT,
  qaXlsx,
  simpleDocx,
  simplePdf,
  startWithTwoOrgs,
  waitFor,
  waitForFile,
  type Service,
} from './helpers';

let service: Service;
let api: ReturnType<typeof client>;
let other: ReturnType<typeof client>;

beforeAll(async () => {
  ({ service, api, other } = await startWithTwoOrgs('bob'));
});

afterAll(async () => {
  await service.destroy();
});

describe('POST /repository/files/', () => {
  it('ingests every supported format to ready, with true counts', async () => {
    const form = files(
      ['overview.txt', KB_TEXT, 'text/plain'],
      ['policy.md', '# Password policy\n\nPasswords must have at least 14 characters.\n\n## Rotation\n\nKeys rotate yearly.', 'text/markdown'],
      ['page.html', '<html><body><h1>Incident response</h1><p>Incidents are reported within 24 hours.</p></body></html>', 'text/html'],
      ['report.pdf', simplePdf(['Page one talks about firewalls.', 'Page two talks about intrusion detection.']), 'application/pdf'],
      ['memo.docx', simpleDocx(['Vendor risk memo', 'Suppliers are assessed annually.']), 'application/octet-stream'],
      [
        'answers.xlsx',
        await qaXlsx([
          ['Do you have a firewall?', 'Yes, at every network edge.'],
          ['Do you run penetration tests?', 'Yes, twice a year.'],
        ]),
      ],
      ['answers.csv', 'Question,Answer\nDo you log admin access?,Yes; logs are kept for one year.\n', 'text/csv'],
    );
    form.append('tags', 'security');
    form.append('tags', 'public');
    form.append('scope_includes_company', 'true');
    form.append('analysis_type', 'standard');
    const res = await api.post('/api/v2/repository/files/', form);
    expect(res.status).toBe(200);
    const result = expectShape(RepositoryUploadResult, res.body);
    expect(result.count).toBe(7);
    expect(result.failed).toEqual([]);
    const ids: number[] = res.body.file_ids;

    const STATUS_ORDER = ['submitted', 'processing', 'ready'];
    for (const id of ids) {
      // Whatever states we happen to observe must move forward only, with a percent that never falls.
      const seen: { status: string; percent: number }[] = [];
      const done = await waitFor(
        `file ${id}`,
        () => api.get(`/api/v2/repository/files/${id}/`),
        (r) => {
          seen.push({ status: r.body.status, percent: r.body.processing_percent });
          return r.body.status === 'ready' || r.body.status === 'failed';
        },
      );
      for (let i = 1; i < seen.length; i++) {
        expect(STATUS_ORDER.indexOf(seen[i]!.status)).toBeGreaterThanOrEqual(STATUS_ORDER.indexOf(seen[i - 1]!.status));
        expect(seen[i]!.percent).toBeGreaterThanOrEqual(seen[i - 1]!.percent);
      }
      const file = expectShape(RepositoryFile, done.body);
      expect(file.status, `${file.original_filename}: ${file.error}`).toBe('ready');
      expect(file.processing_percent).toBe(100);
      expect(file.tags!.map((t) => t.name).sort()).toEqual(['public', 'security']);
      expect(file.user).toBe('alice');
      expect(file.passage_count! + file.qa_count!).toBeGreaterThan(0);
      expect(file.processing_stage!.length).toBeLessThanOrEqual(20);
    }
    const byName = new Map<string, any>();
    for (const id of ids) {
      const r = await api.get(`/api/v2/repository/files/${id}/`);
      byName.set(r.body.original_filename, r.body);
    }
    expect(byName.get('report.pdf').file_format).toBe('pdf');
    expect(byName.get('memo.docx').file_format).toBe('docx');
    expect(byName.get('page.html').file_format).toBe('html');
    expect(byName.get('answers.xlsx').qa_count).toBe(2);
    expect(byName.get('answers.csv').qa_count).toBe(1);

    // The PDF's pages are kept: a question about page two is answered from page 2.
    const ask = await api.post('/api/v2/chat/ask/', { question: 'intrusion detection', file_id: byName.get('report.pdf').id });
    expect(ask.body.sources[0]).toMatchObject({ filename: 'report.pdf', page_number: 2 });
  });

  it('reports unsupported and empty files in failed while the rest succeeds', async () => {
    const res = await api.post(
      '/api/v2/repository/files/',
      files(['good.txt', 'Our data centers are in Frankfurt.'], ['virus.exe', 'MZ...'], ['empty.txt', ''], ['noext', 'abc']),
    );
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(1);
    expect(res.body.failed).toHaveLength(3);
    expect(res.body.failed[0]).toMatch(/^virus\.exe: unsupported file type \.exe/);
    expect(res.body.failed[1]).toMatch(/^empty\.txt: empty file/);
    expect(res.body.failed[2]).toMatch(/^noext: unsupported file type/);
  });

  it('answers 400 when every file fails', async () => {
    expectError(await api.post('/api/v2/repository/files/', files(['a.exe', 'x'], ['b.txt', ''])), 400, /files: no file was accepted/);
  });

  it('ends an unreadable file as failed with a reason, and the rest of the batch succeeds', async () => {
    const res = await api.post(
      '/api/v2/repository/files/',
      files(
        ['broken.pdf', '%PDF-1.7\nthe header is right but nothing after it is a PDF', 'application/pdf'],
        ['fine.txt', 'Fine text about our yearly external audits.'],
        ['broken.docx', 'PK\x03\x04 a zip signature and then nothing of a zip'],
      ),
    );
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(3);
    const [broken, fine, brokenDocx] = res.body.file_ids as number[];
    const b = (await waitForFile(api, broken!)).body;
    expect(b.status).toBe('failed');
    expect(b.error).toBeTruthy();
    expect(b.status_display).toBe(`Failed: ${b.error}`);
    expect((await waitForFile(api, brokenDocx!)).body.status).toBe('failed');
    expect((await waitForFile(api, fine!)).body.status).toBe('ready');
  });

  it('labels a file with template text and keeps those passages out of the library; a file of nothing else is ready, labelled', async () => {
    const res = await api.post(
      '/api/v2/repository/files/',
      files(
        [
          'monitoring.md',
          '# Monitoring\n\nWe monitor production: [FILL IN: what is actually monitored?]\n\n# Access\n\nAccess to production is reviewed every quarter by the security team.',
        ],
        ['starter.md', "# Owner\n\nThe owner is [securityOfficerName]. Say 'not yet' if true."],
      ),
    );
    const [partial, only] = res.body.file_ids as number[];
    const p = (await waitForFile(api, partial!)).body;
    expect(p).toMatchObject({
      status: 'ready',
      processing_stage: 'done',
      passage_count: 1,
      template: 'template: 1 placeholder; 1 of 2 passages kept out of answers',
    });
    const o = (await waitForFile(api, only!)).body;
    expect(o).toMatchObject({
      status: 'ready',
      passage_count: 0,
      template: 'template only: 1 placeholder, 1 guidance sentence; nothing in it is used for answers',
    });
    expectShape(RepositoryFile, o);
  });

  it('links known offerings and rejects unknown ones', async () => {
    const offering = await createOffering(service.storage, { org: 'acme', name: 'Payments', type: 'product' });
    const ok = files(['pay.txt', 'Card data is tokenized.']);
    ok.append('relevant_offerings', String(offering));
    ok.append('scope_includes_company', 'false');
    const res = await api.post('/api/v2/repository/files/', ok);
    expect(res.status).toBe(200);
    const file = (await api.get(`/api/v2/repository/files/${res.body.file_ids[0]}/`)).body;
    expect(file.relevant_offerings).toEqual([{ id: offering, name: 'Payments', type: 'product' }]);
    expect(file.scope_includes_company).toBe(false);

    const bad = files(['pay.txt', 'x']);
    bad.append('relevant_offerings', '424242');
    expectError(await api.post('/api/v2/repository/files/', bad), 400, /relevant_offerings: unknown offering 424242/);
    // Another organization's offering is unknown here.
    const theirs = await createOffering(service.storage, { org: 'globex', name: 'Theirs' });
    const cross = files(['pay.txt', 'x']);
    cross.append('relevant_offerings', String(theirs));
    expectError(await api.post('/api/v2/repository/files/', cross), 400, /unknown offering/);
  });

  it('validates the other fields', async () => {
    const longTag = files(['t.txt', 'x']);
    longTag.append('tags', 'x'.repeat(51));
    expectError(await api.post('/api/v2/repository/files/', longTag), 400, /^tags\.0:/);
    const unknown = files(['t.txt', 'x']);
    unknown.append('colour', 'blue');
    expectError(await api.post('/api/v2/repository/files/', unknown), 400, /^colour: unknown field$/);
    const badBool = files(['t.txt', 'x']);
    badBool.append('scope_includes_company', 'maybe');
    expectError(await api.post('/api/v2/repository/files/', badBool), 400, /^scope_includes_company:/);
    const noFiles = new FormData();
    noFiles.append('tags', 'a');
    expectError(await api.post('/api/v2/repository/files/', noFiles), 400, /^files:/);
    expectError(await api.post('/api/v2/repository/files/', { files: [] }), 400, /multipart/);
    const longName = files([`${'n'.repeat(300)}.txt`, 'x'], ['ok.txt', 'fine']);
    const r = await api.post('/api/v2/repository/files/', longName);
    expect(r.body.count).toBe(1);
    expect(r.body.failed[0]).toMatch(/longer than 256/);
  });
});

describe('GET /repository/files/', () => {
  let listApi: ReturnType<typeof client>;
  beforeAll(async () => {
    listApi = client(service, await service.key({ org: 'lister', user: 'lee' }));
    const tagged = files(
      ['Bravo.txt', 'bravo text about the bravo programme'],
      ['alpha.md', '# alpha\n\nThe alpha release notes and its scope.'],
      ['charlie.html', '<p>charlie is the name of our third data centre</p>'],
    );
    tagged.append('tags', 'finance');
    const a = await listApi.post('/api/v2/repository/files/', tagged);
    const b = await listApi.post('/api/v2/repository/files/', files(['delta.pdf', '%PDF-1.4 broken pdf']));
    for (const id of [...a.body.file_ids, ...b.body.file_ids]) await waitForFile(listApi, id);
  });

  it('pages with absolute links and default ordering newest first', async () => {
    const res = await listApi.get('/api/v2/repository/files/?page_size=3');
    const page = expectShape(paginated(RepositoryFile), res.body);
    expect(page.count).toBe(4);
    expect(page.results.map((f) => f.original_filename)).toEqual(['delta.pdf', 'charlie.html', 'alpha.md']);
    expect(page.next).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v2\/repository\/files\/\?page_size=3&page=2$/);
    const second = await listApi.get('/api/v2/repository/files/?page_size=3&page=2');
    expect(second.body.results.map((f: any) => f.original_filename)).toEqual(['Bravo.txt']);
    expect(second.body.next).toBeNull();
    expect(second.body.previous).toMatch(/page=1/);
  });

  it('orders by each documented field, both directions', async () => {
    const names = async (ordering: string) =>
      (await listApi.get(`/api/v2/repository/files/?ordering=${ordering}`)).body.results.map((f: any) => f.original_filename);
    expect(await names('original_filename')).toEqual(['alpha.md', 'Bravo.txt', 'charlie.html', 'delta.pdf']);
    expect(await names('-original_filename')).toEqual(['delta.pdf', 'charlie.html', 'Bravo.txt', 'alpha.md']);
    expect(await names('created_at')).toEqual(['Bravo.txt', 'alpha.md', 'charlie.html', 'delta.pdf']);
    expect((await names('status'))[0]).toBe('delta.pdf'); // failed < ready
    expect((await names('-status'))[3]).toBe('delta.pdf');
    expect(await names('file_format')).toHaveLength(4);
    expect(await names('-file_format')).toHaveLength(4);
  });

  it('filters by status, document_type and search on filename or tag', async () => {
    const get = async (q: string) => (await listApi.get(`/api/v2/repository/files/?${q}`)).body;
    expect((await get('status=failed')).results.map((f: any) => f.original_filename)).toEqual(['delta.pdf']);
    expect((await get('status=ready')).count).toBe(3);
    expect((await get('document_type=documentation')).count).toBeGreaterThan(0);
    expect((await get('document_type=security_certificate')).count).toBe(0);
    expect((await get('search=brav')).results.map((f: any) => f.original_filename)).toEqual(['Bravo.txt']);
    expect((await get('search=finance')).count).toBe(3);
    expect((await get('search=finance&status=ready&ordering=original_filename')).results.map((f: any) => f.original_filename)).toEqual([
      'alpha.md',
      'Bravo.txt',
      'charlie.html',
    ]);
    expect((await get('search=%25')).count).toBe(0);
  });

  it('caps page_size at 200 with a 400 above it', async () => {
    expect((await listApi.get('/api/v2/repository/files/?page_size=200')).status).toBe(200);
    expectError(await listApi.get('/api/v2/repository/files/?page_size=201'), 400, /^page_size:/);
    expectError(await listApi.get('/api/v2/repository/files/?page_size=0'), 400, /^page_size:/);
    expectError(await listApi.get('/api/v2/repository/files/?ordering=size'), 400, /^ordering:/);
    expectError(await listApi.get('/api/v2/repository/files/?status=done'), 400, /^status:/);
  });

  it("never lists or returns another organization's files", async () => {
    const mine = (await listApi.get('/api/v2/repository/files/')).body.results[0];
    expectError(await other.get(`/api/v2/repository/files/${mine.id}/`), 404);
    const theirs = (await other.get('/api/v2/repository/files/?page_size=200')).body.results;
    expect(theirs.some((f: any) => f.id === mine.id)).toBe(false);
  });
});
