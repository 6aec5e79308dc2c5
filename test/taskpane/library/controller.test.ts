/**
 * The Library controller without any DOM: the real ApiClient over loopback HTTP to the FakeService,
 * the state read straight from the controller.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../src/api/errors';
import { createLibraryController, type LibraryController } from '../../../src/taskpane/library/controller';
import { listQuery, mergeOfferings, uploadNoteText } from '../../../src/taskpane/library/state';
import { FakeService, repositoryFile } from '../fake-service';
import { realClient } from '../client';

let fake: FakeService;
beforeAll(async () => (fake = await FakeService.start()));
afterAll(() => fake.close());

let ctl: LibraryController;
beforeEach(() => {
  fake.requests.length = 0;
  fake.files = [repositoryFile(1, 'security-overview.pdf')];
  fake.extensions = null;
  fake.offerings = [];
  fake.onList = null;
});
afterEach(() => {
  ctl?.dispose();
  fake.clearFailures();
});

const client = () => realClient({ baseUrl: fake.origin, apiKey: 'k' });
const until = (check: () => boolean) => vi.waitFor(() => expect(check()).toBe(true), { timeout: 5000, interval: 5 });
const pdf = (name: string) => new File([new Uint8Array([37, 80, 68, 70])], name, { type: 'application/pdf' });

function start(opts: { active?: boolean; onUploadRefused?: (e: ApiError) => void } = {}) {
  ctl = createLibraryController({ searchDelayMs: 10, ...(opts.onUploadRefused ? { onUploadRefused: opts.onUploadRefused } : {}) });
  ctl.setInputs({ client: client(), active: opts.active ?? true, pollMs: 10 });
  return ctl;
}

describe('Library controller', () => {
  it('lists only while the pane is shown, and asks again only when the request changes', async () => {
    start({ active: false });
    await new Promise((r) => setTimeout(r, 30));
    expect(fake.requestsTo('GET', /repository\/files/)).toHaveLength(0);
    expect(ctl.state.ext).toBeNull();

    const c = ctl;
    c.setInputs({ client: client(), active: true, pollMs: 10 });
    await until(() => c.state.list?.count === 1);
    c.setPage(2);
    c.setStatus('failed');
    expect(c.state.page).toBe(1); // a new filter starts at the first page
    await until(() => c.state.list?.count === 0);
    const q = fake.requestsTo('GET', /repository\/files/).at(-1)!.query;
    expect([q.get('status'), q.get('page')]).toEqual(['failed', '1']);

    const before = fake.requestsTo('GET', /repository\/files/).length;
    c.setSearch('');
    c.setSearch(' '); // the same request: nothing is sent
    await new Promise((r) => setTimeout(r, 40));
    expect(fake.requestsTo('GET', /repository\/files/).length).toBe(before);
    expect(listQuery({ page: 3, ordering: 'status', search: ' soc2 ', status: '', docType: 'qna' })).toEqual({
      page: 3,
      page_size: 20,
      ordering: 'status',
      search: 'soc2',
      document_type: 'qna',
    });
  });

  it('polls while a file processes and stops once all are ready', async () => {
    fake.files = [repositoryFile(1, 'a.pdf', { status: 'processing', processing_percent: 50 })];
    let listings = 0;
    fake.onList = (list) => {
      if (++listings === 3) for (const f of list) Object.assign(f, { status: 'ready', processing_percent: 100 });
    };
    const c = start();
    await until(() => c.state.list?.results[0]?.status === 'ready');
    const count = fake.requestsTo('GET', /repository\/files/).length;
    await new Promise((r) => setTimeout(r, 60));
    expect(fake.requestsTo('GET', /repository\/files/).length).toBe(count);
  });

  it('a list it could not read is an error, not an empty library', async () => {
    fake.fail('GET', /repository\/files/, { status: 403, json: { error: 'invalid API key' } }, 5);
    const c = start();
    await until(() => c.state.listError !== null);
    expect(c.state.list).toBeNull();
    expect((c.state.listError as ApiError).serverMessage).toBe('invalid API key');
  });

  it('feature-detects the extensions, the answer library among them, and learns the offerings by name', async () => {
    fake.extensions = ['repository.delete', 'offerings.list', 'answers.library'];
    fake.offerings = [{ id: 7, name: 'Studio', type: 'module' }];
    fake.files = [repositoryFile(1, 'a.pdf', { relevant_offerings: [{ id: 3, name: 'Canvas LMS', type: 'product' }] })];
    const c = start();
    await until(() => c.state.ext !== null && c.state.offerings.length === 2);
    expect(c.state.ext).toEqual({ canDelete: true, listsOfferings: true, orgNames: false, answers: true, replay: false, keysCurrent: false });
    expect(c.state.offerings.map((o) => o.name)).toEqual(['Canvas LMS', 'Studio']);
    expect(mergeOfferings(c.state.offerings, [{ id: 7, name: 'Studio', type: 'module' }])).toBe(c.state.offerings);
  });

  it('keeps what the same client said while the pane is hidden, and forgets it for another client', async () => {
    fake.extensions = ['answers.library'];
    const c = start();
    await until(() => c.state.ext?.answers === true);
    const api = client();
    c.setInputs({ client: api, active: false, pollMs: 10 });
    expect(c.state.ext).toBeNull(); // another client: nothing known of it yet
    c.setInputs({ client: api, active: true, pollMs: 10 });
    await until(() => c.state.ext?.answers === true);
    const probes = fake.requestsTo('GET', /\/extensions\//).length;
    c.setInputs({ client: api, active: false, pollMs: 10 });
    expect(c.state.ext?.answers).toBe(true);
    c.setInputs({ client: api, active: true, pollMs: 10 });
    expect(c.state.ext?.answers).toBe(true);
    await until(() => fake.requestsTo('GET', /\/extensions\//).length === probes + 1); // asked again on return
  });

  it('a plain v2 service (no /extensions/) has none of them', async () => {
    const c = start();
    await until(() => c.state.ext !== null);
    expect(c.state.ext).toEqual({ canDelete: false, listsOfferings: false, orgNames: false, answers: false, replay: false, keysCurrent: false });
  });

  it('uploads the picked files with their fields, then empties the picked list and lists page 1 again', async () => {
    const c = start();
    await until(() => c.state.list !== null);
    c.addFiles([pdf('bcp.pdf'), pdf('bcp.pdf'), pdf('dr.pdf')]);
    expect(c.state.picked.map((f) => f.name)).toEqual(['bcp.pdf', 'dr.pdf']);
    c.setTagsText('bcp, policy');
    c.toggleOffering(3, true);
    c.toggleOffering(7, true);
    c.toggleOffering(7, false);
    c.setCompanyScope(false);
    await c.upload(null);
    const body = fake.requestsTo('POST', /repository\/files/)[0]!.body;
    expect([...body.matchAll(/name="(\w+)"\r\n\r\n([^\r]*)/g)].map((m) => `${m[1]}=${m[2]}`)).toEqual([
      'tags=bcp',
      'tags=policy',
      'relevant_offerings=3',
      'scope_includes_company=false',
    ]);
    expect(c.state.picked).toHaveLength(0);
    expect(c.state.uploading).toBe(false);
    expect(uploadNoteText(c.state.uploadNote!, c.state.list?.results ?? [])).toBe('Uploaded 2 files; processing has started.');
    await until(() => c.state.list?.count === 3);
  });

  it('refuses a tag that is too long before sending anything', async () => {
    const c = start();
    c.addFiles([pdf('a.pdf')]);
    c.setTagsText(`ok, ${'x'.repeat(51)}`);
    await c.upload(null);
    expect(String(c.state.uploadError)).toMatch(/longer than 50 characters/);
    expect(fake.requestsTo('POST', /repository\/files/)).toHaveLength(0);
  });

  it('asks before replacing a file of the same name, and replaces only once the new copy is in', async () => {
    fake.extensions = ['repository.delete'];
    fake.files.push(repositoryFile(2, 'Northwind.pdf'));
    const c = start();
    await until(() => c.state.ext?.canDelete === true);
    c.addFiles([pdf('northwind.pdf')]);
    await c.upload(null);
    expect(c.state.replaceAsk?.map((f) => f.id)).toEqual([2]);
    expect(fake.requestsTo('POST', /repository\/files/)).toHaveLength(0);
    await c.upload(c.state.replaceAsk);
    expect(fake.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /api/v2/repository/files/',
      'DELETE /api/v2/repository/files/2/',
    ]);
    expect(c.state.uploadNote?.text).toBe(' Replaced Northwind.pdf: the old copy is removed.');
    expect(c.state.list?.results.some((f) => f.id === 2)).toBe(false);
  });

  it('tells the app of a refused upload and keeps what was picked', async () => {
    fake.fail('POST', /repository\/files/, { status: 403, json: { error: 'read-only key' } });
    const refused: ApiError[] = [];
    const c = start({ onUploadRefused: (e) => refused.push(e) });
    c.addFiles([pdf('a.pdf')]);
    await c.upload(null);
    expect(refused).toHaveLength(1);
    expect(c.state.picked).toHaveLength(1);
    expect(c.state.uploadError).toBeInstanceOf(ApiError);
    // The settings were shown to work since: the old failure is no longer true.
    c.setInputs({ client: client(), active: true, pollMs: 10, connectionEpoch: 1 });
    expect(c.state.uploadError).toBeNull();
  });

  it('deletes a file: it leaves the list at once; a refusal keeps it, in the service words', async () => {
    fake.extensions = ['repository.delete'];
    fake.files.push(repositoryFile(2, 'b.pdf'));
    const c = start();
    await until(() => c.state.list?.count === 2);
    c.askDelete(2);
    expect(c.state.confirmDelete).toBe(2);
    await c.remove(c.state.list!.results.find((f) => f.id === 2)!);
    expect(c.state.list!.results.map((f) => f.id)).toEqual([1]);
    expect([c.state.deleteNote, c.state.confirmDelete]).toEqual(['Deleted b.pdf.', null]);

    fake.fail('DELETE', /repository\/files\/1\//, { status: 403, json: { error: 'this API key is read-only' } });
    await c.remove(c.state.list!.results[0]!);
    expect((c.state.deleteError as ApiError).serverMessage).toBe('this API key is read-only');
    expect(c.state.list!.results.map((f) => f.id)).toEqual([1]);
  });
});
