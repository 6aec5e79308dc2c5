/**
 * Extension "answers.library" over HTTP: an analyst browses the answer library, settles a conflict once
 * (the next fill takes the canonical answer at high trust with no conflict flag), edits, adds by hand,
 * retires; changes are for admins and repository managers only; another organisation sees nothing.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api';
import { LibraryConflict, LibraryConflictPage, LibraryEntryDetail, LibraryPage } from '../../src/api/library';
import { LibraryClient } from '../../src/api/library-client';
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

const api = (key: string, method: string, path: string, body?: unknown) => call(service.base, key, method, `/api/v2/answers/library/${path}`, body);

/** A completed questionnaire: ID | Question | Answer | Additional Information. */
const answeredSheet = (rows: [id: string, question: string, answer: string, comment: string][]) => answersWorkbook(rows, { comment: 'Additional Information' });

/** A questionnaire to fill: its Answer column a Yes/No list. */
const blankQuestionnaire = (rows: [id: string, question: string][]) => answersWorkbook(rows, { comment: 'Comments', yesNo: true });

async function uploadAnswers(name: string, rows: Parameters<typeof answeredSheet>[0]): Promise<number> {
  const c = client(service, admin);
  const up = await c.post('/api/v2/repository/files/', files([name, answeredSheet(rows)]));
  expect(up.status, JSON.stringify(up.body)).toBe(200);
  const id: number = up.body.file_ids[0];
  expect((await waitForFile(c, id)).body.status).toBe('ready');
  return id;
}

/** Fills a new questionnaire and returns each question's first answer by question id. */
async function fill(rows: [id: string, question: string][]): Promise<Map<string, any>> {
  const c = client(service, admin);
  const up = await c.post('/api/v2/filler/questionnaires/', files([`q-${Date.now()}.xlsx`, blankQuestionnaire(rows)]));
  expect(up.status, JSON.stringify(up.body)).toBe(200);
  const id: number = up.body.questionnaire_ids[0];
  await waitForComplete(c, id);
  const answers = await c.get(`/api/v2/filler/questionnaires/${id}/answers/`);
  expect(answers.status).toBe(200);
  return new Map((answers.body as any[]).map((q) => [q.original_id, { ...q.answers[0], flagged_for_review: q.flagged_for_review }]));
}

const PT: [string, string] = ['PT-01', 'Do you perform annual penetration tests?'];

describe('answer library', () => {
  it('settles a conflict once: the next fill takes the canonical answer, high trust, no conflict flag; undo brings it back', async () => {
    await uploadAnswers('alpha.xlsx', [[...PT, 'No', 'Only scans.']]);
    await uploadAnswers('beta.xlsx', [[...PT, 'Yes', 'Yearly by an outside firm.']]);

    const before = (await fill([PT])).get('PT-01');
    expect(before.evaluation.conflict).toMatchObject({ rule: null });

    const listed = await api(admin, 'GET', '?filter=conflicts');
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    const page = expectShape(LibraryPage, listed.body);
    expect(page.results.map((e) => [e.source?.file_name, e.answer, e.conflict]).sort()).toEqual([
      ['alpha.xlsx', 'No', true],
      ['beta.xlsx', 'Yes', true],
    ]);
    const groups = expectShape(LibraryConflictPage, (await api(admin, 'GET', 'conflicts/')).body);
    expect(groups.count).toBe(1);
    expect(groups.results[0]!.canonical_id).toBeNull();

    const beta = page.results.find((e) => e.answer === 'Yes')!;
    const alpha = page.results.find((e) => e.answer === 'No')!;
    expectError(await api(member, 'POST', 'conflicts/settle/', { entry_id: beta.id }), 403, /admin or repository manager/);
    const settled = await api(admin, 'POST', 'conflicts/settle/', { entry_id: beta.id });
    expect(settled.status, JSON.stringify(settled.body)).toBe(200);
    const group = expectShape(LibraryConflict, settled.body);
    expect(group.canonical_id).toBe(beta.id);
    expect(group.entries.find((e) => e.id === alpha.id)).toMatchObject({
      status: 'retired',
      retired_reason: expect.stringMatching(/^settled: entry \d+ chosen/),
    });
    expect(expectShape(LibraryConflictPage, (await api(admin, 'GET', 'conflicts/')).body).count).toBe(0);
    // Retired, kept, visible in its history.
    const history = expectShape(LibraryEntryDetail, (await api(member, 'GET', `${alpha.id}/`)).body);
    expect(history.history.map((h) => [h.action, h.by])).toEqual([['retired', 'alice']]);

    const after = (await fill([PT])).get('PT-01');
    expect(after.text).toBe('Yes');
    expect(after.evaluation.trust).toBe('high');
    expect(after.evaluation.conflict).toBeUndefined();
    expect(after.flagged_for_review).toBe(false);
    expect(after.evaluation.reason).toMatch(/^Settled in the answer library: chosen for this question by alice/);

    const undone = expectShape(LibraryConflict, (await api(admin, 'POST', 'conflicts/undo/', { entry_id: alpha.id })).body);
    expect(undone.canonical_id).toBeNull();
    expect(undone.entries.map((e) => e.status)).toEqual(['active', 'active']);
    expect((await fill([PT])).get('PT-01').evaluation.conflict).toMatchObject({ rule: null });
    // Settled again for the cases below.
    expect((await api(admin, 'POST', 'conflicts/settle/', { entry_id: beta.id })).status).toBe(200);
  }, 240_000);

  it('an edit answers with its latest version, an entry added by hand is reused, a retired one never', async () => {
    await uploadAnswers('gamma.xlsx', [['BC-01', 'Do you test your business continuity plan every year?', 'No', 'Not yet.']]);
    const found = expectShape(LibraryPage, (await api(admin, 'GET', '?q=business%20continuity%20plan')).body);
    const bc = found.results.find((e) => e.original_id === 'BC-01')!;
    expect(bc).toBeDefined();

    const edited = await api(admin, 'PUT', `${bc.id}/`, {
      slots: [
        { slot_key: 'answer', content: 'Yes' },
        { slot_key: 'comment', content: 'Tested each March.' },
      ],
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const detail = expectShape(LibraryEntryDetail, edited.body);
    expect(detail).toMatchObject({ version: 2, answer: 'Yes', updated_by: 'alice' });
    expect(detail.versions.map((v) => [v.version, v.slots[0]!.content])).toEqual([
      [1, 'No'],
      [2, 'Yes'],
    ]);

    const added = await api(admin, 'POST', '', {
      question: 'Do you carry cyber liability insurance?',
      slots: [
        { slot_key: 'answer', content: 'Yes' },
        { slot_key: 'comment', content: 'A 5M policy renewed yearly.' },
      ],
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const hand = expectShape(LibraryEntryDetail, added.body);
    expect(hand).toMatchObject({ source: null, status: 'active', version: 1 });
    expect(hand.history.map((h) => h.action)).toEqual(['added']);
    expect(expectShape(LibraryPage, (await api(member, 'GET', '?filter=by_hand')).body).results.map((e) => e.id)).toEqual([hand.id]);

    const INS: [string, string] = ['IN-01', 'Do you carry cyber liability insurance?'];
    const BC: [string, string] = ['BC-01', 'Do you test your business continuity plan every year?'];
    const filled = await fill([BC, INS]);
    expect(filled.get('BC-01')).toMatchObject({ text: 'Yes', method: 'library' });
    expect(filled.get('IN-01')).toMatchObject({ text: 'Yes', method: 'library' });

    expect((await api(admin, 'POST', `${hand.id}/retire/`, { reason: 'policy lapsed' })).body).toMatchObject({
      status: 'retired',
      retired_reason: 'policy lapsed',
    });
    const refilled = await fill([INS]);
    expect(refilled.get('IN-01')?.method).not.toBe('library');
    expect(expectShape(LibraryPage, (await api(admin, 'GET', '?status=retired')).body).results.map((e) => e.id)).toContain(hand.id);
    expect((await api(admin, 'POST', `${hand.id}/restore/`, {})).body).toMatchObject({ status: 'active' });
    expect((await api(admin, 'POST', `${hand.id}/approve/`, {})).body).toMatchObject({ approved_by: 'alice' });
  }, 240_000);

  it('members read, a read-only key never changes, another organisation gets 404, bad input a 400 naming the field', async () => {
    const page = expectShape(LibraryPage, (await api(member, 'GET', '?page_size=1')).body);
    const id = page.results[0]!.id;
    expect(page.next).toMatch(/page=2/);
    expectError(await api(member, 'PUT', `${id}/`, { slots: [{ slot_key: 'answer', content: 'No' }] }), 403, /admin or repository manager/);
    expectError(await api(reader, 'POST', `${id}/approve/`, {}), 403, /read-only/);
    expectError(await api(reader, 'POST', '', { question: 'Q?', slots: [{ slot_key: 'answer', content: 'Yes' }] }), 403, /read-only/);

    expect(expectShape(LibraryPage, (await api(other, 'GET', '')).body).count).toBe(0);
    expectError(await api(other, 'GET', `${id}/`), 404, /library entry/);
    expectError(await api(other, 'POST', `${id}/retire/`, {}), 404, /library entry/);
    expectError(await api(other, 'POST', 'conflicts/settle/', { entry_id: id }), 404, /library entry/);

    expectError(await api(admin, 'GET', '?filter=nonsense'), 400, /^filter:/);
    expectError(await api(admin, 'POST', '', { question: '', slots: [{ slot_key: 'answer', content: 'Yes' }] }), 400, /^question:/);
    expectError(await api(admin, 'POST', '', { question: 'Q?', slots: [] }), 400, /^slots:/);
    expectError(await api(admin, 'PUT', `${id}/`, { slots: [{ slot_key: 'answer', content: 'x' }], colour: 'red' }), 400, /colour: unknown field/);
    expectError(await api(admin, 'POST', 'conflicts/settle/', { entry_id: 'x' }), 400, /^entry_id:/);
    expectError(await api(admin, 'PUT', 'settings/', { review_age_months: 0 }), 400, /^review_age_months:/);
  });

  it('ages entries: past the review age they are review due, and a fill says so at medium trust', async () => {
    const set = await api(admin, 'PUT', 'settings/', { review_age_months: 1 });
    expect(set.body).toEqual({ review_age_months: 1 });
    // Nothing here is a month old: nothing is due.
    expect(expectShape(LibraryPage, (await api(admin, 'GET', '?filter=review_due')).body).count).toBe(0);
    expect(expectShape(LibraryPage, (await api(admin, 'GET', '?filter=unapproved')).body).count).toBeGreaterThan(0);
    expect((await api(admin, 'PUT', 'settings/', { review_age_months: 12 })).body).toEqual({ review_age_months: 12 });
  });

  it('counts what it lists, for every filter and status (counted from the decisions, not by joining every entry)', async () => {
    const all = expectShape(LibraryPage, (await api(admin, 'GET', '?page_size=200')).body);
    const retired = expectShape(LibraryPage, (await api(admin, 'GET', '?status=retired&page_size=200')).body);
    expect(all.results.some((e) => e.approved_by) && retired.count > 0).toBe(true);
    const expected: Record<string, number> = {
      '': all.results.length,
      'status=retired': retired.results.length,
      'filter=retired': retired.results.length,
      'status=canonical': all.results.filter((e) => e.status === 'canonical').length,
      'status=active': all.results.filter((e) => e.status === 'active').length,
      'filter=approved': all.results.filter((e) => e.approved_at !== null).length,
      'filter=unapproved': all.results.filter((e) => e.approved_at === null).length,
      'filter=by_hand': all.results.filter((e) => e.source === null).length,
      'filter=review_due': 0,
      'filter=conflicts': all.results.filter((e) => e.conflict).length,
    };
    for (const [query, n] of Object.entries(expected)) {
      const page = expectShape(LibraryPage, (await api(member, 'GET', `?${query}&page_size=200`)).body);
      expect([query, page.count, page.results.length]).toEqual([query, n, n]);
    }
  });

  it('LibraryClient speaks the contract: add, get, list, settings, export, and input checked before sending', async () => {
    const lib = new LibraryClient(new ApiClient({ baseUrl: service.base, apiKey: admin }).extensionTransport);
    const added = await lib.add({ question: 'Do you publish a status page?', slots: [{ slot_key: 'answer', content: 'Yes' }] });
    expect((await lib.get(added.id)).question).toBe('Do you publish a status page?');
    expect((await lib.list({ filter: 'by_hand', page_size: 200 })).results.map((e) => e.id)).toContain(added.id);
    expect((await lib.retire(added.id, 'no longer')).retired_reason).toBe('no longer');
    expect((await lib.restore(added.id)).status).toBe('active');
    expect(await lib.settings()).toEqual({ review_age_months: 12 });
    const bytes = await lib.export();
    expect([bytes[0], bytes[1]]).toEqual([0x50, 0x4b]);
    await expect(lib.add({ question: ' ', slots: [{ slot_key: 'answer', content: 'Yes' }] })).rejects.toThrow(/question/);
    await expect(lib.list({ filter: 'nope' as never })).rejects.toThrow(/filter/);
  });

  it('exports the library as .xlsx, one row an entry', async () => {
    const res = await fetch(`${service.base}/api/v2/answers/library/export/`, { headers: { 'X-API-Key': member } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/spreadsheetml/);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([bytes[0], bytes[1]]).toEqual([0x50, 0x4b]);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.from(bytes) as never);
    const sheet = book.getWorksheet('Answer library')!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header.slice(0, 5)).toEqual(['Entry ID', 'Question ID', 'Question', 'Answer', 'Comment']);
    const count =
      expectShape(LibraryPage, (await api(member, 'GET', '')).body).count + expectShape(LibraryPage, (await api(member, 'GET', '?status=retired')).body).count;
    expect(sheet.actualRowCount - 1).toBe(count);
    const rows = (sheet.getSheetValues() as unknown[][]).slice(2).map((r) => r.slice(1));
    expect(
      rows.some((r) => r[2] === 'Do you perform annual penetration tests?' && r[3] === 'No' && String(r[header.indexOf('Status')]).startsWith('retired')),
    ).toBe(true);
  });
});
