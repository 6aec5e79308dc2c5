/**
 * Sections within a sheet in the answer library, over HTTP: a HECVAT-like workbook (two section rows in
 * one sheet) gives each entry its section; listings return it and filter by it; an owner named for one
 * section (`PUT sections/review/` with `section`) gets that section's entries alone in `mine=true`, while
 * a sheet without `section` still takes every entry of the sheet; a section the sheet lacks is a 404; the
 * library's export keeps the sections, and its entries read back have them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LibraryPage } from '../../src/api/library';
import { createWorkbook } from '../../src/xlsx/create';
import { call, client, expectError, expectShape, files, startService, waitForFile, type Service } from './helpers';

let service: Service;
let admin: string;
let manager: string;
beforeAll(async () => {
  service = await startService();
  admin = await service.key({ org: 'acme', user: 'alice', role: 'admin' });
  manager = await service.key({ org: 'acme', user: 'bob', role: 'repository_manager' });
});
afterAll(async () => service.destroy());

const api = (key: string, method: string, path: string, body?: unknown) => call(service.base, key, method, `/api/v2/answers/library/${path}`, body);

/** One sheet, two section rows (as HECVAT's headings within a sheet), two answered questions under each. */
function sectionedWorkbook(): Uint8Array {
  const cells: Record<string, string> = {
    A1: 'ID',
    B1: 'Question',
    C1: 'Answer',
    B2: 'Application Security',
    A3: 'APPL-01',
    B3: 'Do you perform code reviews before release?',
    C3: 'Yes',
    A4: 'APPL-02',
    B4: 'Do you scan dependencies for known vulnerabilities?',
    C4: 'Yes',
    B5: 'Data Protection',
    A6: 'DATA-01',
    B6: 'Do you encrypt customer data at rest?',
    C6: 'Yes',
    A7: 'DATA-02',
    B7: 'Do you back up customer data daily?',
    C7: 'No',
  };
  return createWorkbook({ sheets: [{ name: 'Questions', cells }] });
}

describe('answer library: sections within a sheet', () => {
  it('keeps each entry’s section; an owner of one section gets that section alone in mine=true', async () => {
    const c = client(service, admin);
    const up = await c.post('/api/v2/repository/files/', files(['hecvat-like.xlsx', sectionedWorkbook()]));
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    const fileId: number = up.body.file_ids[0];
    expect((await waitForFile(c, fileId)).body.status).toBe('ready');

    const all = expectShape(LibraryPage, (await api(admin, 'GET', `?file_id=${fileId}`)).body);
    const sections = Object.fromEntries(all.results.map((e) => [e.original_id, [e.source?.tab_name, e.section]]));
    expect(sections).toEqual({
      'APPL-01': ['Questions', 'Application Security'],
      'APPL-02': ['Questions', 'Application Security'],
      'DATA-01': ['Questions', 'Data Protection'],
      'DATA-02': ['Questions', 'Data Protection'],
    });
    const ids = (page: unknown) =>
      expectShape(LibraryPage, page)
        .results.map((e) => e.original_id)
        .sort();
    expect(ids((await api(admin, 'GET', `?section=${encodeURIComponent('Data Protection')}`)).body)).toEqual(['DATA-01', 'DATA-02']);

    // An owner for one section of the sheet: only its entries change, each in its own history.
    const set = await api(admin, 'PUT', 'sections/review/', {
      file_id: fileId,
      tab_name: 'Questions',
      section: 'Data Protection',
      owner: 'bob',
      review_months: 6,
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toEqual({ updated: 2, entries: 2 });
    expect(ids((await api(manager, 'GET', '?mine=true')).body)).toEqual(['DATA-01', 'DATA-02']);
    const owned = expectShape(LibraryPage, (await api(manager, 'GET', '?mine=true')).body).results;
    expect(owned.every((e) => e.owner === 'bob' && e.review_months === 6 && e.section === 'Data Protection')).toBe(true);
    expect(ids((await api(admin, 'GET', '?owner=bob')).body)).toEqual(['DATA-01', 'DATA-02']);

    // The other section's owner apart; the whole sheet (no section) still reaches every entry of it.
    await api(admin, 'PUT', 'sections/review/', { file_id: fileId, tab_name: 'Questions', section: 'Application Security', owner: 'alice' });
    expect(ids((await api(admin, 'GET', '?mine=true')).body)).toEqual(['APPL-01', 'APPL-02']);
    expect(ids((await api(manager, 'GET', '?mine=true')).body)).toEqual(['DATA-01', 'DATA-02']);
    const sheet = await api(admin, 'PUT', 'sections/review/', { file_id: fileId, tab_name: 'Questions', section: null, review_months: 3 });
    expect(sheet.body).toEqual({ updated: 4, entries: 4 });

    expectError(
      await api(admin, 'PUT', 'sections/review/', { file_id: fileId, tab_name: 'Questions', section: 'Physical Security', owner: 'bob' }),
      404,
      /no live entry of section "Physical Security" of sheet "Questions"/,
    );

    // The library's export keeps each entry's section, and its entries come back with it.
    const exported = await fetch(`${service.base}/api/v2/answers/library/export/`, { headers: { 'X-API-Key': admin } });
    expect(exported.status).toBe(200);
    const back = await c.post('/api/v2/repository/files/', files(['answer-library.xlsx', new Uint8Array(await exported.arrayBuffer())]));
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    const backId: number = back.body.file_ids[0];
    expect((await waitForFile(c, backId)).body.status).toBe('ready');
    const again = expectShape(LibraryPage, (await api(admin, 'GET', `?file_id=${backId}`)).body).results;
    expect(Object.fromEntries(again.map((e) => [e.original_id, e.section]))).toEqual({
      'APPL-01': 'Application Security',
      'APPL-02': 'Application Security',
      'DATA-01': 'Data Protection',
      'DATA-02': 'Data Protection',
    });
  }, 120_000);
});
