/** The real knowledge base of ../shared/fixtures: real PDFs, text and markdown through the real service. */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AskResponse, RepositoryFile } from '../../src/api/schemas';
import { client, expectShape, fixture, startService, waitForComplete, waitForFile, type Service } from './helpers';

let service: Service;
let api: ReturnType<typeof client>;

const INSTRUCTURE = [
  'Instructure Security Overview.pdf',
  'Instructure Business Continuity & Disaster Recovery.pdf',
  'Canvas LMS TX-RAMP Level 2 Certification.txt',
  'Canvas Studio Architecture.txt',
  '2024_Instructure_PCI_DSS_Summary.txt',
  'Canvas LMS Architecture.pdf',
];

beforeAll(async () => {
  // Resolve every path first: a missing fixtures folder fails here with a clear message.
  const instructure = INSTRUCTURE.map((name) => fixture('kb', 'instructure', name));
  const policiesDir = fixture('kb', 'policies', 'jupiterone', 'policies');
  const policies = readdirSync(policiesDir)
    .filter((n) => n.endsWith('.md'))
    .sort()
    .slice(0, 6)
    .map((n) => join(policiesDir, n));
  service = await startService();
  api = client(service, await service.key({ org: 'instructure', user: 'ian' }));

  const form = new FormData();
  for (const path of [...instructure, ...policies]) {
    form.append('files', new Blob([readFileSync(path)]), path.split('/').pop()!);
  }
  form.append('tags', 'fixtures');
  const res = await api.post('/api/v2/repository/files/', form);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.failed).toEqual([]);
  expect(res.body.count).toBe(instructure.length + policies.length);
  for (const id of res.body.file_ids) {
    const done = await waitForFile(api, id);
    const file = expectShape(RepositoryFile, done.body);
    expect(file.status, `${file.original_filename}: ${file.error}`).toBe('ready');
    expect(file.passage_count, file.original_filename!).toBeGreaterThan(0);
  }
}, 240_000);

afterAll(async () => {
  await service?.destroy();
});

it('indexes the real PDFs with their page numbers', async () => {
  const list = (await api.get('/api/v2/repository/files/?search=Security%20Overview')).body;
  expect(list.count).toBe(1);
  expect(list.results[0]).toMatchObject({ file_format: 'pdf', status: 'ready' });
  const ask = await api.post('/api/v2/chat/ask/', { question: 'How is customer data encrypted?', file_id: list.results[0].id });
  const body = expectShape(AskResponse, ask.body);
  expect(body.sources.length).toBeGreaterThan(0);
  expect(body.sources[0]!.filename).toBe('Instructure Security Overview.pdf');
  expect(body.sources[0]!.page_number).toBeGreaterThanOrEqual(1);
  expect(body.answer.length).toBeGreaterThan(0);
});

it('answers from the whole knowledge base with sources', async () => {
  const ask = await api.post('/api/v2/chat/ask/', { question: 'What is the recovery time objective for disaster recovery?' });
  const body = expectShape(AskResponse, ask.body);
  expect(body.sources.length).toBeGreaterThan(0);
  const names = new Set(body.sources.map((s) => s.filename));
  expect([...names].some((n) => /Continuity|bcdr|Security Overview/i.test(n))).toBe(true);
});

describe('chat earns its trust on the real documents', () => {
  const ask = async (question: string) => expectShape(AskResponse, (await api.post('/api/v2/chat/ask/', { question })).body);

  it("answers the hosting provider from the security overview's sentence, not the PCI form's labels", async () => {
    const body = await ask('Who is your hosting provider?');
    expect(body.answer).not.toMatch(/Applications \/ software|Hosting Provider:/);
    expect(body.answer).toMatch(/hosted (?:on|by) .*Amazon Web Services/);
    expect(body.trust).toBe('high');
    expect(body.sources[0]!.filename).not.toMatch(/PCI/);
  });

  it("labels the hosting provider's reports quoted in our architecture document as the provider's", async () => {
    const body = await ask('Do you have SOC 1 Type II reports?');
    expect(body.answer).toMatch(
      /^Amazon Web Services', not your organisation's \(Canvas LMS Architecture\.pdf quotes them as the provider's\): .*SOC 1 Type II \(ISAE 3402\)/,
    );
    expect(body.trust).toBe('low');
  });

  it('quotes "Which cipher?" as whole sentences, the example in brackets kept with its sentence', async () => {
    const body = await ask('Which cipher?');
    expect(body.answer).toContain('forward-secrecy-compliant ciphers whenever possible (e.g. ECDHE-ECDSA-AES128-GCM-SHA256).');
    // Every quoted piece is a sentence: it ends as one (no "(e.g." or a word cut at a page break).
    for (const line of body.answer.split('\n')) expect(line).toMatch(/[.!?)]$/);
    expect(body.answer).not.toMatch(/\(e\.g\.\s*$|\(e\.g\. The /m);
  });

  it("says which parts of a two-part question it answered, and its trust is the weaker part's", async () => {
    const body = await ask('Who is your hosting provider? What is your parental leave policy?');
    const lines = body.answer.split('\n');
    expect(lines[0]).toMatch(/^Answered 1 of 2 parts of the question\.$/);
    expect(lines[1]).toMatch(/^Who is your hosting provider\? — .*Amazon Web Services/);
    expect(lines[2]).toBe('What is your parental leave policy? — not found in your documents.');
    expect(body.trust).toBe('low');
  });
});

it('fills a real questionnaire (CAIQ) to complete, with evidence from the real documents', async () => {
  const path = fixture('questionnaires', 'caiq-v4.0.3-blank.xlsx');
  const form = new FormData();
  form.append('files', new Blob([readFileSync(path)]), 'caiq-v4.0.3-blank.xlsx');
  const up = await api.post('/api/v2/filler/questionnaires/', form);
  expect(up.status, JSON.stringify(up.body)).toBe(200);
  const id = up.body.questionnaire_ids[0];
  const done = await waitForComplete(api, id);
  expect(done.body).toMatchObject({ status: 'complete', answers_expected: 261, answers_received: 261 });
  const answers = (await api.get(`/api/v2/filler/questionnaires/${id}/answers/`)).body as any[];
  const withEvidence = answers.filter((q) => q.answers[0].source_evidence.length > 0);
  expect(withEvidence.length).toBeGreaterThan(20);
  const structure = (await api.get(`/api/v2/filler/questionnaires/${id}/structure/`)).body;
  expect(structure.total_question_count).toBe(261);
  expect(structure.tabs).toEqual([{ tab_name: 'CAIQv4.0.3', question_count: 261, needs_filling_count: 261 }]);
}, 180_000);
