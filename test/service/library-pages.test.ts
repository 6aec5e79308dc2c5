/**
 * The answer library at the edges of its lists, over HTTP: which entries answer one question (the
 * workbook's definition: the same words under another section are another question), pages followed by
 * their `next` links (a cursor) against pages asked by number, and the library's own export uploaded back
 * as a Q&A sheet (the same entries; the same bytes again add nothing; an edited export supersedes), with
 * the decisions it states applied for an admin (approved rows approved, canonical rows settled) and not for
 * a member, whose file note says so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LibraryConflictPage, LibraryEntryDetail, LibraryPage, type LibraryEntry } from '../../src/api/library';

type LibraryPage = ReturnType<typeof LibraryPage.parse>;
type LibraryConflictPage = ReturnType<typeof LibraryConflictPage.parse>;
import { createOffering } from '../../src/service/admin';
import { createWorkbook, type NewCell } from '../../src/xlsx/create';
import { answersWorkbook, call, client, expectError, expectShape, files, startService, waitForComplete, waitForFile, type Service } from './helpers';

let service: Service;
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => service.destroy());

const library = (key: string, path: string) => call(service.base, key, 'GET', `/api/v2/answers/library/${path}`);

/** A completed questionnaire without ids: section rows (bold) over Question | Answer | Comments. */
function sectionedSheet(sections: [title: string, rows: [question: string, answer: string][]][]): Uint8Array {
  const cells: Record<string, NewCell | string> = {
    A1: { value: 'Question', bold: true },
    B1: { value: 'Answer', bold: true },
    C1: { value: 'Comments', bold: true },
  };
  let r = 2;
  for (const [title, rows] of sections) {
    cells[`A${r++}`] = { value: title, bold: true };
    for (const [q, a] of rows) Object.assign(cells, { [`A${r}`]: q, [`B${r}`]: a, [`C${r++}`]: `${title}: ${a}.` });
  }
  return createWorkbook({ sheets: [{ name: 'Answers', cells }] });
}

/** A plain Q&A sheet: ID | Question | Answer | Comment. */
const qaSheet = (rows: [id: string, question: string, answer: string, comment: string][]) => answersWorkbook(rows, { comment: 'Comment' });

async function upload(key: string, name: string, bytes: Uint8Array): Promise<{ id: number; duplicate: boolean }> {
  const c = client(service, key);
  const up = await c.post('/api/v2/repository/files/', files([name, bytes]));
  expect(up.status, JSON.stringify(up.body)).toBe(200);
  const id: number = up.body.file_ids[0];
  expect((await waitForFile(c, id)).body.status).toBe('ready');
  return { id, duplicate: (up.body.duplicates ?? []).some((d: { file_id: number }) => d.file_id === id) };
}

async function all(key: string, query = ''): Promise<LibraryEntry[]> {
  return expectShape(LibraryPage, (await library(key, `?page_size=200${query}`)).body).results;
}

const REVIEWED = 'Are the policies reviewed and updated at least annually?';

describe('answer library: one question', () => {
  it('the same words under another section are another question, never a conflict; under the same section they conflict', async () => {
    const key = await service.key({ org: 'identity', user: 'ida', role: 'admin' });
    const bc = 'Are business continuity policies established and documented?';
    const cc = 'Are change control policies established and documented?';
    // One workbook answers "reviewed annually" both ways, each under its own section: two questions.
    await upload(
      key,
      'policies-2024.xlsx',
      sectionedSheet([
        [
          'Business Continuity',
          [
            [bc, 'Yes'],
            [REVIEWED, 'Yes'],
          ],
        ],
        [
          'Change Control',
          [
            [cc, 'Yes'],
            [REVIEWED, 'No'],
          ],
        ],
      ]),
    );
    const entries = await all(key);
    const reviewed = entries.filter((e) => e.question === REVIEWED);
    expect(reviewed).toHaveLength(2);
    expect(reviewed[0]!.question_key).not.toBe(reviewed[1]!.question_key);
    expect(entries.some((e) => e.conflict)).toBe(false);
    expect(expectShape(LibraryConflictPage, (await library(key, 'conflicts/')).body).count).toBe(0);

    // Another questionnaire answers the business continuity one differently: that one question conflicts.
    await upload(
      key,
      'policies-2025.xlsx',
      sectionedSheet([
        [
          'Business Continuity',
          [
            [bc, 'Yes'],
            [REVIEWED, 'No'],
          ],
        ],
      ]),
    );
    const groups = expectShape(LibraryConflictPage, (await library(key, 'conflicts/')).body);
    expect(groups.count).toBe(1);
    const group = groups.results[0]!;
    expect(group.question).toBe(REVIEWED);
    expect(group.entries.map((e) => [e.source?.file_name, e.answer]).sort()).toEqual([
      ['policies-2024.xlsx', 'Yes'],
      ['policies-2025.xlsx', 'No'],
    ]);
    const inConflict = await all(key, '&filter=conflicts');
    expect(inConflict.map((e) => e.id).sort()).toEqual(group.entries.map((e) => e.id).sort());
    // The change control entry, the same words, is not part of it.
    const changeControl = (await all(key)).find((e) => e.question === REVIEWED && e.source?.file_name === 'policies-2024.xlsx' && e.answer === 'No')!;
    expect(changeControl.conflict).toBe(false);
  }, 120_000);
});

describe('answer library: pages', () => {
  it('following next (a cursor) reads the same entries in the same order as pages by number, and a cursor not given is a 400', async () => {
    const key = await service.key({ org: 'pages', user: 'pat', role: 'admin' });
    const rows = (n: number, answer: (i: number) => string) =>
      Array.from({ length: n }, (_, i): [string, string, string, string] => [
        `C-${i + 1}`,
        `Is control number ${i + 1} in place?`,
        answer(i),
        `Control ${i + 1}.`,
      ]);
    await upload(key, 'controls-a.xlsx', qaSheet(rows(23, () => 'Yes')));
    // Three of its questions answered otherwise by another questionnaire: three conflict groups.
    await upload(key, 'controls-b.xlsx', qaSheet(rows(23, (i) => (i < 3 ? 'No' : 'Yes'))));

    const byNumber: number[] = [];
    for (let page = 1; page <= 5; page++)
      byNumber.push(...expectShape(LibraryPage, (await library(key, `?page_size=10&page=${page}`)).body).results.map((e) => e.id));
    expect(byNumber).toHaveLength(46);
    expect(new Set(byNumber).size).toBe(46);

    const followed: number[] = [];
    let url: string | null = `${service.base}/api/v2/answers/library/?page_size=10`;
    let previous: string | null = null;
    while (url) {
      const asked: string = new URL(url).pathname + new URL(url).search;
      const page: LibraryPage = expectShape(LibraryPage, (await call(service.base, key, 'GET', asked)).body);
      expect(page.count).toBe(46);
      followed.push(...page.results.map((e) => e.id));
      if (page.next) expect(new URL(page.next).searchParams.get('cursor')).toBeTruthy();
      if (page.previous) expect(new URL(page.previous).searchParams.has('cursor')).toBe(false);
      previous = page.previous;
      url = page.next;
    }
    expect(followed).toEqual(byNumber);
    expect(new URL(previous!).searchParams.get('page')).toBe('4');

    const groups: string[] = [];
    let next: string | null = '/api/v2/answers/library/conflicts/?page_size=1';
    while (next) {
      const page: LibraryConflictPage = expectShape(LibraryConflictPage, (await call(service.base, key, 'GET', next)).body);
      expect(page.count).toBe(3);
      groups.push(...page.results.map((g) => g.question_key));
      next = page.next && new URL(page.next).pathname + new URL(page.next).search;
    }
    const allGroups = expectShape(LibraryConflictPage, (await library(key, 'conflicts/')).body).results.map((g) => g.question_key);
    expect(groups).toEqual(allGroups);
    expect(allGroups).toEqual(['id:answers|c-1', 'id:answers|c-2', 'id:answers|c-3']);

    // One offering's disagreements page the same way: C-2 settled for it is not among them (it stays open for the others).
    const cloud = await createOffering(service.storage, { org: 'pages', name: 'Cloud', type: 'service' });
    const c2 = (await all(key, '&filter=conflicts')).find((e) => e.original_id === 'C-2' && e.answer === 'No')!;
    const settled = await call(service.base, key, 'POST', '/api/v2/answers/library/conflicts/settle/', { entry_id: c2.id, offering_id: cloud });
    expect(settled.status, JSON.stringify(settled.body)).toBe(200);
    const forCloud: string[] = [];
    let link: string | null = `/api/v2/answers/library/conflicts/?offering_id=${cloud}&page_size=1`;
    while (link) {
      const page: LibraryConflictPage = expectShape(LibraryConflictPage, (await call(service.base, key, 'GET', link)).body);
      expect(page.count).toBe(2);
      expect(page.results.every((g) => g.offering_id === cloud)).toBe(true);
      forCloud.push(...page.results.map((g) => g.question_key));
      link = page.next && new URL(page.next).pathname + new URL(page.next).search;
      if (link) expect(new URL(page.next!).searchParams.get('cursor')).toBeTruthy();
    }
    expect(forCloud).toEqual(['id:answers|c-1', 'id:answers|c-3']);
    const second = expectShape(LibraryConflictPage, (await library(key, `conflicts/?offering_id=${cloud}&page_size=1&page=2`)).body);
    expect(second.results.map((g) => g.question_key)).toEqual(['id:answers|c-3']);
    expect(expectShape(LibraryConflictPage, (await library(key, 'conflicts/')).body).count).toBe(3);

    expectError(await library(key, '?cursor=bm90LW91cnM'), 400, /^cursor:/);
    expectError(await library(key, 'conflicts/?cursor=%21%21'), 400, /^cursor:/);
  }, 120_000);
});

describe('answer library: its export uploaded back', () => {
  it('comes back as the same entries with their approvals and settlements; the same file again adds nothing; an edited export supersedes the one before', async () => {
    const source = await service.key({ org: 'exporter', user: 'eve', role: 'admin' });
    await upload(
      source,
      'vendor.xlsx',
      qaSheet([
        ['PT-01', 'Do you perform annual penetration tests?', 'Yes', 'By an outside firm.'],
        ['EN-01', 'Is customer data encrypted at rest?', 'Yes', 'AES-256.'],
        ['', 'Describe your incident response process.', 'We follow a documented plan.', 'Tested yearly.'],
      ]),
    );
    await upload(source, 'sections.xlsx', sectionedSheet([['Business Continuity', [[REVIEWED, 'Yes']]]]));
    const original = await all(source);
    expect(original).toHaveLength(4);
    // Decided before the export: one entry approved, the incident response question settled.
    const en = original.find((e) => e.original_id === 'EN-01')!;
    const ir = original.find((e) => e.question === 'Describe your incident response process.')!;
    expect((await call(service.base, source, 'POST', `/api/v2/answers/library/${en.id}/approve/`, {})).status).toBe(200);
    expect((await call(service.base, source, 'POST', '/api/v2/answers/library/conflicts/settle/', { entry_id: ir.id })).status).toBe(200);
    const exported = async (key: string) => {
      const res = await fetch(`${service.base}/api/v2/answers/library/export/`, { headers: { 'X-API-Key': key } });
      expect(res.status).toBe(200);
      return new Uint8Array(await res.arrayBuffer());
    };
    const bytes = await exported(source);

    // Into an empty library: every entry back with its question, id, slots and question.
    const key = await service.key({ org: 'importer', user: 'ian', role: 'admin' });
    expect((await upload(key, 'answer-library.xlsx', bytes)).duplicate).toBe(false);
    const shape = (e: LibraryEntry) => [e.question, e.original_id, e.question_key, e.slots.map((s) => [s.slot_key, s.content])];
    const sorted = (entries: LibraryEntry[]) => entries.map(shape).sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    const imported = await all(key);
    expect(sorted(imported)).toEqual(sorted(original));
    // Its decisions came back: approved by the importing user now, the export's approver named in the history.
    const decided = (entries: LibraryEntry[]) => Object.fromEntries(entries.map((e) => [e.original_id ?? e.question, [e.status, e.approved_by]]));
    expect(decided(imported)).toEqual({
      'PT-01': ['active', null],
      'EN-01': ['active', 'ian'],
      'Describe your incident response process.': ['canonical', 'ian'],
      [REVIEWED]: ['active', null],
    });
    const enBack = expectShape(LibraryEntryDetail, (await library(key, `${imported.find((e) => e.original_id === 'EN-01')!.id}/`)).body);
    expect(enBack.history.map((h) => [h.action, h.by, h.detail])).toEqual([['approved', 'ian', 'imported from "answer-library.xlsx", where eve approved it']]);
    const irBack = expectShape(LibraryEntryDetail, (await library(key, `${imported.find((e) => e.status === 'canonical')!.id}/`)).body);
    expect(irBack.history.map((h) => [h.action, h.by])).toEqual([['settled', 'ian']]);
    expect(irBack.history[0]!.detail).toMatch(/imported from "answer-library\.xlsx", where eve approved it$/);
    const importedFile = (await call(service.base, key, 'GET', '/api/v2/repository/files/?page_size=10')).body.results[0];
    expect(importedFile.note).toBe('library export: 1 approval and 1 settlement applied');
    expect(importedFile.processing_stage).toBe('done');

    // A member's upload of the same export learns the entries, unapproved, and says why.
    const member = await service.key({ org: 'member-importer', user: 'meg', role: 'member' });
    await upload(member, 'answer-library.xlsx', bytes);
    const unapproved = await all(member);
    expect(sorted(unapproved)).toEqual(sorted(original));
    expect(unapproved.map((e) => [e.status, e.approved_by])).toEqual(unapproved.map(() => ['active', null]));
    const memberFile = (await call(service.base, member, 'GET', '/api/v2/repository/files/?page_size=10')).body.results[0];
    expect(memberFile.note).toBe(
      "library export: its 2 approvals and settlements not applied (only an admin or repository manager's upload applies them); its entries are unapproved",
    );

    // The same bytes again: a duplicate, nothing added.
    expect((await upload(key, 'answer-library.xlsx', bytes)).duplicate).toBe(true);
    expect(await all(key)).toHaveLength(4);

    // Edited offline and uploaded again under its name: the newer upload speaks for it, no conflict, and a fill uses it.
    const source2 = await service.key({ org: 'exporter', user: 'eve2', role: 'admin' });
    const pt = original.find((e) => e.original_id === 'PT-01')!;
    expect(
      (
        await call(service.base, source2, 'PUT', `/api/v2/answers/library/${pt.id}/`, {
          slots: [
            { slot_key: 'answer', content: 'No' },
            { slot_key: 'comment', content: 'Stopped in 2025.' },
          ],
        })
      ).status,
    ).toBe(200);
    await upload(key, 'answer-library.xlsx', await exported(source2));
    const after = await all(key);
    expect(
      after
        .filter((e) => e.original_id === 'PT-01')
        .map((e) => e.answer)
        .sort(),
    ).toEqual(['No', 'Yes']);
    expect(after.some((e) => e.conflict)).toBe(false);
    expect(expectShape(LibraryConflictPage, (await library(key, 'conflicts/')).body).count).toBe(0);

    const c = client(service, key);
    const blank = answersWorkbook([['PT-01', 'Do you perform annual penetration tests?']], { comment: 'Comment', yesNo: true });
    const up = await c.post('/api/v2/filler/questionnaires/', files(['to-fill.xlsx', blank]));
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    const qid: number = up.body.questionnaire_ids[0];
    await waitForComplete(c, qid);
    const answer = ((await c.get(`/api/v2/filler/questionnaires/${qid}/answers/`)).body as any[])[0].answers[0];
    expect(answer.text).toBe('No');
    expect(answer.evaluation.conflict).toBeUndefined();
  }, 180_000);
});
