/**
 * The answer library's review cycles and settlements per offering, over HTTP: an entry's owner and its
 * own review interval (recorded in its history with who and when; unknown owners refused, read-only
 * keys and members refused), "mine" and owner= lists; a disagreement settled for offering A leaves
 * offering B's open, and a fill about A takes A's choice while a fill about B still sees the conflict.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LibraryConflict, LibraryConflictPage, LibraryEntryDetail, LibraryPage } from '../../src/api/library';
import { createOffering } from '../../src/service/admin';
import { createWorkbook } from '../../src/xlsx/create';
import { answersWorkbook, call, client, expectError, expectShape, files, startService, waitForComplete, waitForFile, type Service } from './helpers';

let service: Service;
let admin: string;
let manager: string;
let member: string;
let reader: string;
let cloud: number;
let edge: number;
beforeAll(async () => {
  service = await startService();
  admin = await service.key({ org: 'acme', user: 'alice', role: 'admin' });
  manager = await service.key({ org: 'acme', user: 'bob', role: 'repository_manager' });
  member = await service.key({ org: 'acme', user: 'mo', role: 'member' });
  reader = await service.key({ org: 'acme', user: 'ro', role: 'admin', readOnly: true });
  await service.key({ org: 'globex', user: 'gus', role: 'admin' });
  cloud = await createOffering(service.storage, { org: 'acme', name: 'Cloud', type: 'service' });
  edge = await createOffering(service.storage, { org: 'acme', name: 'Edge', type: 'product' });
});
afterAll(async () => service.destroy());

const api = (key: string, method: string, path: string, body?: unknown) => call(service.base, key, method, `/api/v2/answers/library/${path}`, body);

async function upload(name: string, rows: [string, string, string][], offering?: number): Promise<number> {
  const c = client(service, admin);
  const form = files([name, answersWorkbook(rows)]);
  if (offering !== undefined) {
    form.append('relevant_offerings', String(offering));
    form.append('scope_includes_company', 'false');
  }
  const up = await c.post('/api/v2/repository/files/', form);
  expect(up.status, JSON.stringify(up.body)).toBe(200);
  const id: number = up.body.file_ids[0];
  expect((await waitForFile(c, id)).body.status).toBe('ready');
  return id;
}

async function fill(rows: [string, string][], offering?: number): Promise<any> {
  const c = client(service, admin);
  const form = files([`q-${Date.now()}.xlsx`, answersWorkbook(rows, { yesNo: true })]);
  if (offering !== undefined) form.append('advanced_options', JSON.stringify({ offering_ids: [offering] }));
  const up = await c.post('/api/v2/filler/questionnaires/', form);
  expect(up.status, JSON.stringify(up.body)).toBe(200);
  const id: number = up.body.questionnaire_ids[0];
  await waitForComplete(c, id);
  const answers = await c.get(`/api/v2/filler/questionnaires/${id}/answers/`);
  return (answers.body as any[])[0].answers[0];
}

describe('answer library: owners and review cycles', () => {
  it('sets an owner and a review interval, recorded with who and when; lists by owner and "mine"; bad input named', async () => {
    await upload('owned.xlsx', [['AC-01', 'Do you enforce multi-factor authentication for administrators?', 'Yes']]);
    const entry = expectShape(LibraryPage, (await api(admin, 'GET', '?q=multi-factor%20authentication')).body).results.find((e) => e.original_id === 'AC-01')!;
    expect(entry).toMatchObject({ owner: null, review_months: null });

    const set = await api(admin, 'PUT', `${entry.id}/review/`, { owner: 'bob', review_months: 6 });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const detail = expectShape(LibraryEntryDetail, set.body);
    expect(detail).toMatchObject({ owner: 'bob', review_months: 6, updated_by: 'alice' });
    const event = detail.history.at(-1)!;
    expect(event).toMatchObject({
      action: 'review_changed',
      by: 'alice',
      detail: "owner: nobody → bob; review: the organisation's review age → every 6 months",
    });
    expect(Date.parse(event.at)).not.toBeNaN();

    // The owner lists what they keep; "mine" is the caller's.
    const bobs = expectShape(LibraryPage, (await api(member, 'GET', '?owner=bob')).body);
    expect(bobs.results.map((e) => e.id)).toEqual([entry.id]);
    expect(bobs.count).toBe(1);
    expect(expectShape(LibraryPage, (await api(manager, 'GET', '?mine=true')).body).results.map((e) => e.id)).toEqual([entry.id]);
    expect(expectShape(LibraryPage, (await api(admin, 'GET', '?mine=true')).body).count).toBe(0);
    // Review due, narrowed to an owner: the entry's own interval counts (just uploaded: not due yet).
    const due = expectShape(LibraryPage, (await api(admin, 'GET', '?filter=review_due&owner=bob')).body);
    expect(due.count).toBe(0);
    expect(expectShape(LibraryPage, (await api(admin, 'GET', '?filter=review_due')).body).count).toBe(0);

    // Approving records who and when, beside the owner.
    const approved = expectShape(LibraryEntryDetail, (await api(manager, 'POST', `${entry.id}/approve/`, {})).body);
    expect(approved).toMatchObject({ approved_by: 'bob', owner: 'bob' });
    expect(Date.parse(approved.approved_at!)).not.toBeNaN();

    // The manager hands it back to nobody and the organisation's review age.
    const cleared = expectShape(LibraryEntryDetail, (await api(manager, 'PUT', `${entry.id}/review/`, { owner: null, review_months: null })).body);
    expect(cleared).toMatchObject({ owner: null, review_months: null });
    expect(cleared.history.at(-1)).toMatchObject({
      action: 'review_changed',
      by: 'bob',
      detail: "owner: bob → nobody; review: every 6 months → the organisation's review age",
    });

    expectError(await api(admin, 'PUT', `${entry.id}/review/`, { owner: 'gus' }), 400, /owner: no user "gus" in this organisation/);
    expectError(await api(admin, 'PUT', `${entry.id}/review/`, { review_months: 0 }), 400, /review_months/);
    expectError(await api(admin, 'PUT', `${entry.id}/review/`, {}), 400, /give owner or review_months/);
    expectError(await api(admin, 'PUT', `${entry.id}/review/`, { owner: 'bob', color: 'red' }), 400);
    expectError(await api(member, 'PUT', `${entry.id}/review/`, { owner: 'mo' }), 403, /admin or repository manager/);
    expectError(await api(reader, 'PUT', `${entry.id}/review/`, { owner: 'mo' }), 403, /read-only/);
    expectError(await api(admin, 'PUT', '999999/review/', { owner: 'bob' }), 404);
    expectError(await api(admin, 'GET', '?owner=nobody-here'), 400, /owner: no user "nobody-here"/);
    expectError(await api(admin, 'GET', '?owner=bob&mine=true'), 400, /not both/);
    expectError(await api(admin, 'GET', '?mine=yes'), 400, /mine/);
  }, 120_000);
});

describe('answer library: settlement per offering', () => {
  const Q: [string, string] = ['DR-01', 'Do you test disaster recovery at least once a year?'];

  it('a conflict settled for offering A leaves offering B open; fills follow each offering', async () => {
    // A second row each, so no two files are the same bytes (a duplicate adds no evidence).
    await upload(
      'cloud-old.xlsx',
      [
        [...Q, 'No'],
        ['X-1', 'Which region hosts the cloud service?', 'EU'],
      ],
      cloud,
    );
    await upload(
      'cloud-new.xlsx',
      [
        [...Q, 'Yes'],
        ['X-2', 'Which region hosts the cloud service now?', 'US'],
      ],
      cloud,
    );
    await upload(
      'edge-a.xlsx',
      [
        [...Q, 'Yes'],
        ['X-3', 'Which devices run the edge product?', 'Routers'],
      ],
      edge,
    );
    await upload(
      'edge-b.xlsx',
      [
        [...Q, 'No'],
        ['X-4', 'Which devices ran the edge product?', 'Gateways'],
      ],
      edge,
    );

    const forCloud = expectShape(LibraryConflictPage, (await api(member, 'GET', `conflicts/?offering_id=${cloud}`)).body);
    expect(forCloud.count).toBe(1);
    const group = forCloud.results[0]!;
    expect(group.offering_id).toBe(cloud);
    expect(group.entries.map((e) => e.source?.file_name).sort()).toEqual(['cloud-new.xlsx', 'cloud-old.xlsx']);
    const yes = group.entries.find((e) => e.answer === 'Yes')!;
    const edgeYes = expectShape(LibraryConflictPage, (await api(member, 'GET', `conflicts/?offering_id=${edge}`)).body).results[0]!.entries.find(
      (e) => e.answer === 'Yes',
    )!;

    expectError(await api(member, 'POST', 'conflicts/settle/', { entry_id: yes.id, offering_id: cloud }), 403);
    expectError(await api(reader, 'POST', 'conflicts/settle/', { entry_id: yes.id, offering_id: cloud }), 403, /read-only/);
    expectError(await api(admin, 'POST', 'conflicts/settle/', { entry_id: yes.id, offering_id: 999 }), 400, /offering_id: unknown offering 999/);
    expectError(await api(admin, 'POST', 'conflicts/settle/', { entry_id: edgeYes.id, offering_id: cloud }), 400, /not about offering "Cloud"/);

    const settled = await api(admin, 'POST', 'conflicts/settle/', { entry_id: yes.id, offering_id: cloud });
    expect(settled.status, JSON.stringify(settled.body)).toBe(200);
    const after = expectShape(LibraryConflict, settled.body);
    expect(after.settlements).toEqual([{ offering_id: cloud, entry_id: yes.id, by: 'alice', at: expect.any(String) }]);
    // Nothing retired: the losing entries may be right for another offering.
    expect(after.entries.map((e) => e.status)).toEqual(['active', 'active']);
    expect(expectShape(LibraryConflictPage, (await api(member, 'GET', `conflicts/?offering_id=${cloud}`)).body).count).toBe(0);
    expect(expectShape(LibraryConflictPage, (await api(member, 'GET', `conflicts/?offering_id=${edge}`)).body).count).toBe(1);
    // The question as a whole is still in disagreement (Edge's is open).
    expect(expectShape(LibraryConflictPage, (await api(member, 'GET', 'conflicts/')).body).count).toBe(1);
    const history = expectShape(LibraryEntryDetail, (await api(member, 'GET', `${yes.id}/`)).body).history;
    expect(history.at(-1)).toMatchObject({ action: 'settled', by: 'alice', detail: 'chosen for this question for offering "Cloud"' });

    const cloudFill = await fill([Q], cloud);
    expect(cloudFill.text).toBe('Yes');
    expect(cloudFill.evaluation.trust).toBe('high');
    expect(cloudFill.evaluation.reason).toMatch(/^Settled in the answer library for this questionnaire's offering: chosen for this question by alice/);
    const edgeFill = await fill([Q], edge);
    expect(edgeFill.evaluation.reason).not.toMatch(/Settled/);
    expect(edgeFill.evaluation.conflict).toMatchObject({ rule: null });

    expectError(await api(admin, 'POST', 'conflicts/undo/', { entry_id: edgeYes.id, offering_id: edge }), 400, /not settled for offering "Edge"/);
    const undone = expectShape(LibraryConflict, (await api(admin, 'POST', 'conflicts/undo/', { entry_id: yes.id, offering_id: cloud })).body);
    expect(undone.settlements).toEqual([]);
    expect(expectShape(LibraryConflictPage, (await api(member, 'GET', `conflicts/?offering_id=${cloud}`)).body).count).toBe(1);
    expect(expectShape(LibraryEntryDetail, (await api(member, 'GET', `${yes.id}/`)).body).history.at(-1)).toMatchObject({ action: 'unsettled', by: 'alice' });
  }, 240_000);

  it("pages one offering's disagreements by number and by following next (a cursor) alike", async () => {
    const core = await createOffering(service.storage, { org: 'acme', name: 'Core', type: 'product' });
    await upload(
      'core-a.xlsx',
      [
        ['CO-1', 'Is the core product hardened?', 'Yes'],
        ['CO-2', 'Does the core product log access?', 'Yes'],
      ],
      core,
    );
    await upload(
      'core-b.xlsx',
      [
        ['CO-1', 'Is the core product hardened?', 'No'],
        ['CO-2', 'Does the core product log access?', 'No'],
      ],
      core,
    );
    const byNumber: string[] = [];
    for (const n of [1, 2]) {
      const page = expectShape(LibraryConflictPage, (await api(member, 'GET', `conflicts/?offering_id=${core}&page_size=1&page=${n}`)).body);
      expect(page.count).toBe(2);
      byNumber.push(...page.results.map((g) => g.question_key));
    }
    expect(new Set(byNumber).size).toBe(2);
    const followed: string[] = [];
    let next: string | null = `/api/v2/answers/library/conflicts/?offering_id=${core}&page_size=1`;
    while (next) {
      const body: unknown = (await call(service.base, member, 'GET', next)).body;
      const page = expectShape(LibraryConflictPage, body);
      expect(page.results.every((g) => g.offering_id === core)).toBe(true);
      followed.push(...page.results.map((g) => g.question_key));
      next = page.next && new URL(page.next).pathname + new URL(page.next).search;
      if (next) expect(new URLSearchParams(next.split('?')[1]).get('cursor')).toBeTruthy();
    }
    expect(followed).toEqual(byNumber);
  }, 240_000);
});

describe('answer library: dates stated within files, and expired documents', () => {
  it("a questionnaire's own date is its entries' as-of date: review due from it, unless the entry's own interval is longer", async () => {
    const cells: Record<string, string> = {
      A1: 'Vendor security questionnaire',
      A2: 'Date: 2020-03-01',
      A4: 'ID',
      B4: 'Question',
      C4: 'Answer',
      A5: 'LG-01',
      B5: 'Do you keep audit logs of administrator actions?',
      C5: 'Yes',
      A6: 'LG-02',
      B6: 'Do you review audit logs every week?',
      C6: 'Yes',
    };
    const c = client(service, admin);
    const up = await c.post('/api/v2/repository/files/', files(['dated-2020.xlsx', createWorkbook({ sheets: [{ name: 'Answers', cells }] })]));
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    const fileId: number = up.body.file_ids[0];
    const ready = (await waitForFile(c, fileId)).body;
    expect(ready).toMatchObject({ status: 'ready', as_of: '2020-03-01', valid_until: null, expired: false });

    const page = expectShape(LibraryPage, (await api(admin, 'GET', `?file_id=${fileId}`)).body);
    expect(page.results.map((e) => [e.original_id, e.as_of, e.review_due])).toEqual([
      ['LG-02', '2020-03-01', true],
      ['LG-01', '2020-03-01', true],
    ]);
    expect(page.results[0]!.review_reason).toBe('as of 2020-03-01, review due since 2021-03-01');
    const lg1 = page.results.find((e) => e.original_id === 'LG-01')!;
    // Ten years for this one: no longer due, and out of the review-due list (the other stays).
    await api(admin, 'PUT', `${lg1.id}/review/`, { review_months: 120, owner: 'bob' });
    const due = expectShape(LibraryPage, (await api(admin, 'GET', `?filter=review_due&file_id=${fileId}`)).body);
    expect(due.results.map((e) => e.original_id)).toEqual(['LG-02']);
    expect(due.count).toBe(1);
    expect(expectShape(LibraryPage, (await api(admin, 'GET', '?filter=review_due&owner=bob')).body).count).toBe(0);
    await api(admin, 'PUT', `${lg1.id}/review/`, { review_months: 6 });
    expect(expectShape(LibraryPage, (await api(manager, 'GET', '?filter=review_due&mine=true')).body).results.map((e) => e.original_id)).toEqual(['LG-01']);

    // A section at once: every live entry of the sheet, each change in its own history (LG-01 is bob's already).
    const section = await api(admin, 'PUT', 'sections/review/', { file_id: fileId, tab_name: 'Answers', owner: 'bob' });
    expect(section.status, JSON.stringify(section.body)).toBe(200);
    expect(section.body).toEqual({ updated: 1, entries: 2 });
    const lg2 = page.results.find((e) => e.original_id === 'LG-02')!;
    expect(expectShape(LibraryEntryDetail, (await api(member, 'GET', `${lg2.id}/`)).body).history.at(-1)).toMatchObject({
      action: 'review_changed',
      by: 'alice',
      detail: 'owner: nobody → bob',
    });
    expect(
      expectShape(LibraryPage, (await api(manager, 'GET', '?mine=true')).body)
        .results.map((e) => e.original_id)
        .sort(),
    ).toEqual(['LG-01', 'LG-02']);
    expectError(await api(admin, 'PUT', 'sections/review/', { file_id: fileId, tab_name: 'Nope', owner: 'bob' }), 404, /no live entry of sheet "Nope"/);
    expectError(await api(admin, 'PUT', 'sections/review/', { file_id: fileId, tab_name: 'Answers', owner: 'gus' }), 400, /owner: no user "gus"/);
    expectError(await api(member, 'PUT', 'sections/review/', { file_id: fileId, tab_name: 'Answers', owner: 'bob' }), 403);
    expectError(await api(reader, 'PUT', 'sections/review/', { file_id: fileId, tab_name: 'Answers', owner: 'bob' }), 403, /read-only/);
  }, 120_000);

  it('a SOC report past its period shows as expired, and an answer resting on it has lower trust naming it', async () => {
    const c = client(service, admin);
    const report = [
      'Report on Acme Systems Relevant to Security for the period January 1, 2022 to December 31, 2022',
      '',
      'Acme encrypts all customer data at rest with AES-256 and rotates the keys every year.',
    ].join('\n');
    const up = await c.post('/api/v2/repository/files/', files(['acme-soc-2022.txt', report, 'text/plain']));
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    const fileId: number = up.body.file_ids[0];
    const ready = (await waitForFile(c, fileId)).body;
    expect(ready).toMatchObject({
      status: 'ready',
      as_of: '2022-12-31',
      valid_until: '2022-12-31',
      valid_said: 'for the period January 1, 2022 to December 31, 2022',
      expired: true,
    });
    const listed = (await c.get('/api/v2/repository/files/')).body.results.find((f: any) => f.id === fileId);
    expect(listed).toMatchObject({ expired: true, valid_until: '2022-12-31' });

    const answer = await fill([['EN-01', 'Do you encrypt customer data at rest?']]);
    expect(answer.evaluation.trust).not.toBe('high');
    expect(answer.evaluation.reason).toMatch(
      /it rests on "acme-soc-2022\.txt", expired since 2022-12-31 \(for the period January 1, 2022 to December 31, 2022\)/,
    );
  }, 120_000);
});
