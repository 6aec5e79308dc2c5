/**
 * Extension "answers.replay" over HTTP: the library replayed on the organisation's own past questionnaires
 * (each filled from the others: its own entries left out), agreement, coverage and the questions answered
 * otherwise with both answers; the gaps of a recent questionnaire by section; runs kept, newest first;
 * only the library's editors start a run; another organisation sees none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReplayRun, ReplayRunPage } from '../../src/api/replay';
import { answersWorkbook, call, client, expectError, expectShape, files, startService, waitForComplete, waitForFile, type Service } from './helpers';

let service: Service;
let admin: string;
let member: string;
let reader: string;
let other: string;
beforeAll(async () => {
  service = await startService();
  admin = await service.key({ org: 'acme', user: 'alice', role: 'admin' });
  member = await service.key({ org: 'acme', user: 'mo', role: 'member' });
  reader = await service.key({ org: 'acme', user: 'ro', role: 'admin', readOnly: true });
  other = await service.key({ org: 'globex', user: 'gus', role: 'admin' });
});
afterAll(async () => service.destroy());

const api = (key: string, method: string, path: string, body?: unknown) => call(service.base, key, method, `/api/v2/answers/library/replay/${path}`, body);

async function upload(name: string, rows: [id: string, question: string, answer: string][]): Promise<void> {
  const c = client(service, admin);
  const up = await c.post('/api/v2/repository/files/', files([name, answersWorkbook(rows, { comment: 'Additional Information' })]));
  expect(up.status, JSON.stringify(up.body)).toBe(200);
  expect((await waitForFile(c, up.body.file_ids[0])).body.status).toBe('ready');
}

async function waitForRun(id: number): Promise<ReplayRun> {
  for (let i = 0; i < 600; i++) {
    const res = await api(member, 'GET', `${id}/`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const run = expectShape(ReplayRun, res.body);
    if (run.status === 'done' || run.status === 'failed') return run;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`replay run ${id} did not finish`);
}

const ENCRYPT: [string, string] = ['DS-01', 'Do you encrypt customer data at rest?'];
const SSO: [string, string] = ['IA-01', 'Do you support single sign-on with SAML?'];
const BOUNTY: [string, string] = ['VM-01', 'Do you run a public bug bounty programme?'];
const MFA: [string, string] = ['IA-02', 'Is multi-factor authentication enforced for administrators?'];

describe('answer library replay', () => {
  it('fills each past questionnaire from the others: agreement, coverage, wrong answers with both sides, gaps by section; runs kept', async () => {
    await upload('alpha-2024.xlsx', [
      [...ENCRYPT, 'Yes'],
      [...SSO, 'Yes'],
      [...BOUNTY, 'Yes'],
    ]);
    await upload('beta-2025.xlsx', [
      [...ENCRYPT, 'Yes'],
      [...SSO, 'No'],
      [...MFA, 'Yes'],
    ]);
    // A recent questionnaire: one question the library answers, one nothing answers.
    const blank = answersWorkbook([ENCRYPT, ['PT-09', 'Do you rotate the keys of your hardware security modules every quarter?']], {
      yesNo: true,
      sheet: 'Security',
    });
    const c = client(service, admin);
    const up = await c.post('/api/v2/filler/questionnaires/', files(['vendor-review.xlsx', blank]));
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    await waitForComplete(c, up.body.questionnaire_ids[0]);

    const started = await api(admin, 'POST', '', {});
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const queued = expectShape(ReplayRun, started.body);
    expect(queued).toMatchObject({ status: 'queued', started_by: 'alice', max_questionnaires: 10, overall: null });
    const run = await waitForRun(queued.id);
    expect(run.status, run.error ?? '').toBe('done');

    // Each is answered from the other only: its own bug bounty / MFA answer is not there to find.
    const byName = new Map(run.questionnaires.map((q) => [q.file_name, q]));
    expect(run.questionnaires.map((q) => q.file_name)).toEqual(['beta-2025.xlsx', 'alpha-2024.xlsx']);
    for (const name of ['alpha-2024.xlsx', 'beta-2025.xlsx']) {
      expect(byName.get(name)).toMatchObject({ questions: 3, answered: 2, agreed: 1, agreement: 0.5, coverage: 0.6667 });
    }
    expect(run.overall).toMatchObject({ questions: 6, answered: 4, agreed: 2, agreement: 0.5, coverage: 0.6667 });
    expect(run.wrong_count).toBe(2);
    expect(run.wrong.map((w) => [w.file_name, w.original_id, w.expected, w.got]).sort()).toEqual([
      ['alpha-2024.xlsx', 'IA-01', 'Yes', 'No'],
      ['beta-2025.xlsx', 'IA-01', 'No', 'Yes'],
    ]);
    expect(run.wrong[0]!.reason).toMatch(/Reused/);

    expect(run.gap_count).toBe(1);
    expect(run.gaps).toEqual([
      {
        section: 'Security',
        questions: [
          expect.objectContaining({ questionnaire: 'vendor-review.xlsx', original_id: 'PT-09', question: expect.stringMatching(/hardware security modules/) }),
        ],
      },
    ]);

    // Kept: a second run is listed first; members read the trend.
    const second = expectShape(ReplayRun, (await api(admin, 'POST', '', { max_questionnaires: 1 })).body);
    const done = await waitForRun(second.id);
    expect(done.questionnaires.map((q) => q.file_name)).toEqual(['beta-2025.xlsx']);
    const listed = await api(member, 'GET', '');
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    const page = expectShape(ReplayRunPage, listed.body);
    expect(page.results.map((r) => r.id)).toEqual([second.id, queued.id]);
    expect(page.results[1]).toMatchObject({ status: 'done', overall: { agreement: 0.5 }, gap_count: 1 });
    expect(page.results[1]).not.toHaveProperty('wrong');

    const extensions = await call(service.base, member, 'GET', '/api/v2/extensions/');
    expect(extensions.body.extensions).toContain('answers.replay');
  }, 240_000);

  it("says what is wrong: members and read-only keys may not start a run, unknown and other organisations' runs are 404, bad bounds 400", async () => {
    expectError(await api(member, 'POST', '', {}), 403, /admin or repository manager/);
    expectError(await api(reader, 'POST', '', {}), 403, /read-only/);
    expectError(await api(admin, 'POST', '', { max_questionnaires: 0 }), 400, /max_questionnaires/);
    expectError(await api(admin, 'POST', '', { max_questionnaires: 51 }), 400, /max_questionnaires/);
    expectError(await api(admin, 'POST', '', { everything: true }), 400, /everything/);
    expectError(await api(member, 'GET', '999999/'), 404, /replay run 999999 not found/);
    expectError(await api(member, 'GET', 'abc/'), 400);

    const mine = expectShape(ReplayRun, (await api(admin, 'POST', '', {})).body);
    expectError(await api(other, 'GET', `${mine.id}/`), 404, /not found/);
    expect(expectShape(ReplayRunPage, (await api(other, 'GET', '')).body).count).toBe(0);
    await waitForRun(mine.id);
  }, 120_000);
});
