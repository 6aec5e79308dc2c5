/**
 * The Library controller's steps on their own: the extension probe, the polled listing and the upload,
 * with the real ApiClient over loopback HTTP to the FakeService.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Offering } from '../../../src/api/schemas';
import { NO_EXTENSIONS, extensionsOf, probeExtensions } from '../../../src/taskpane/library/extensions';
import { createListing, type Listing } from '../../../src/taskpane/library/listing';
import type { Extensions, FilePage } from '../../../src/taskpane/library/state';
import { uploadFields, uploadNoteOf, uploadPicked } from '../../../src/taskpane/library/upload';
import { realClient } from '../client';
import { FakeService, repositoryFile } from '../fake-service';

let fake: FakeService;
beforeAll(async () => (fake = await FakeService.start()));
afterAll(() => fake.close());

let listing: Listing | null = null;
beforeEach(() => {
  fake.requests.length = 0;
  fake.files = [repositoryFile(1, 'security-overview.pdf')];
  fake.extensions = null;
  fake.offerings = [];
  fake.onList = null;
});
afterEach(() => {
  listing?.stop();
  fake.clearFailures();
});

const client = () => realClient({ baseUrl: fake.origin, apiKey: 'k' });
const until = (check: () => boolean) => vi.waitFor(() => expect(check()).toBe(true), { timeout: 5000, interval: 5 });
const pdf = (name: string) => new File([new Uint8Array([37, 80, 68, 70])], name, { type: 'application/pdf' });

describe('extension probe', () => {
  it('names the extensions the pane uses', () => {
    expect(extensionsOf(['repository.delete', 'answers.library', 'something.else'])).toEqual({
      canDelete: true,
      listsOfferings: false,
      orgNames: false,
      answers: true,
      replay: false,
      keysCurrent: false,
    });
    expect(extensionsOf(['answers.replay', 'keys.current'])).toMatchObject({ replay: true, keysCurrent: true, answers: false });
  });

  it('reports the extensions, then the offerings where the service lists them', async () => {
    fake.extensions = ['offerings.list'];
    fake.offerings = [{ id: 7, name: 'Studio', type: 'module' }];
    const said: (Extensions | readonly Offering[])[] = [];
    await probeExtensions(client(), new AbortController().signal, { ext: (e) => said.push(e), offerings: (o) => said.push(o) });
    expect(said).toEqual([{ ...NO_EXTENSIONS, listsOfferings: true }, [{ id: 7, name: 'Studio', type: 'module' }]]);
  });

  it('a service without /extensions/ has none; an aborted probe reports nothing', async () => {
    const said: Extensions[] = [];
    await probeExtensions(client(), new AbortController().signal, { ext: (e) => said.push(e), offerings: () => undefined });
    expect(said).toEqual([NO_EXTENSIONS]);
    const ctl = new AbortController();
    ctl.abort();
    await probeExtensions(client(), ctl.signal, { ext: (e) => said.push(e), offerings: () => undefined });
    expect(said).toHaveLength(1);
  });
});

describe('polled listing', () => {
  it('lists after the delay, polls while a file processes, and stops once all are ready', async () => {
    fake.files = [repositoryFile(1, 'a.pdf', { status: 'processing' })];
    let listings = 0;
    fake.onList = (list) => {
      if (++listings === 3) for (const f of list) Object.assign(f, { status: 'ready' });
    };
    const pages: FilePage[] = [];
    const errors: [unknown, boolean][] = [];
    listing = createListing({ page: (p) => pages.push(p), error: (e, first) => errors.push([e, first]) });
    listing.start(client(), { page: 1, page_size: 20 }, { delayMs: 5, pollMs: 5 });
    await until(() => pages.at(-1)?.results[0]?.status === 'ready');
    const count = fake.requestsTo('GET', /repository\/files/).length;
    await new Promise((r) => setTimeout(r, 40));
    expect(fake.requestsTo('GET', /repository\/files/).length).toBe(count);
    expect(pages[0]).toMatchObject({ count: 1, hasNext: false });
    expect(errors).toEqual([]);
  });

  it('keeps watching through a failed refresh while a file processes', async () => {
    fake.files = [repositoryFile(1, 'a.pdf', { status: 'processing' })];
    const pages: FilePage[] = [];
    const errors: boolean[] = [];
    listing = createListing({
      page: (p) => {
        pages.push(p);
        if (pages.length === 1) fake.fail('GET', /repository\/files/, { status: 500, json: { error: 'busy' } });
        if (pages.length === 2) for (const f of fake.files) Object.assign(f, { status: 'ready' });
      },
      error: (_e, first) => errors.push(first),
    });
    listing.start(client(), { page: 1 }, { delayMs: 0, pollMs: 5 });
    await until(() => pages.length === 3);
    expect(errors.slice(0, 1)).toEqual([false]);
  });

  it('a failed first reading says so; a new start drops the old query and stop drops everything', async () => {
    fake.fail('GET', /repository\/files/, { status: 403, json: { error: 'invalid API key' } }, 5);
    const errors: boolean[] = [];
    const pages: FilePage[] = [];
    listing = createListing({ page: (p) => pages.push(p), error: (_e, first) => errors.push(first) });
    listing.start(client(), { page: 1 }, { delayMs: 0, pollMs: 5 });
    await until(() => errors.length === 1);
    expect(errors).toEqual([true]);
    fake.clearFailures();
    listing.start(client(), { page: 1, search: 'old' }, { delayMs: 30, pollMs: 5 });
    listing.start(client(), { page: 1, search: 'new' }, { delayMs: 0, pollMs: 5 });
    await until(() => pages.length === 1);
    listing.stop();
    await new Promise((r) => setTimeout(r, 50));
    expect(fake.requestsTo('GET', /repository\/files/).map((r) => r.query.get('search'))).not.toContain('old');
    expect(pages).toHaveLength(1);
  });
});

describe('upload', () => {
  it('sends only the fields the analyst chose', () => {
    expect(uploadFields({ tags: [], chosenOfferings: [], companyScope: true })).toEqual({ scope_includes_company: true });
    expect(uploadFields({ tags: ['bcp'], chosenOfferings: [3], companyScope: false })).toEqual({
      scope_includes_company: false,
      tags: ['bcp'],
      relevant_offerings: [3],
    });
  });

  it('words the outcome: replaced, kept and refused files make it a warning', () => {
    expect(uploadNoteOf({ count: 1, file_ids: [5, 'x'] } as never, { replaced: [], notReplaced: [] })).toEqual({ kind: 'ok', count: 1, ids: [5], text: '' });
    const note = uploadNoteOf({ count: 1, failed: ['c.exe: not a document'] }, { replaced: ['a.pdf', 'b.pdf'], notReplaced: ['d.pdf (gone)'] });
    expect(note.kind).toBe('warn');
    expect(note.text).toBe(' Replaced a.pdf, b.pdf: the old copies are removed. The old copy was kept for d.pdf (gone). Not accepted: c.exe: not a document.');
  });

  it('asks first about same-named files, then uploads and removes them, telling which left', async () => {
    fake.extensions = ['repository.delete'];
    fake.files.push(repositoryFile(2, 'Northwind.pdf'), repositoryFile(3, 'northwind.pdf.bak'));
    const api = client();
    const choices = { picked: [pdf('northwind.pdf')], tags: [], chosenOfferings: [], companyScope: true };
    const gone: number[] = [];
    const asked = await uploadPicked(api, choices, null, { canDelete: true, forget: (id) => gone.push(id) });
    expect('ask' in asked && asked.ask.map((f) => f.id)).toEqual([2]);
    expect(fake.requestsTo('POST', /repository\/files/)).toHaveLength(0);

    const done = await uploadPicked(api, choices, 'ask' in asked ? asked.ask : [], { canDelete: true, forget: (id) => gone.push(id) });
    expect('note' in done && done.note.text).toBe(' Replaced Northwind.pdf: the old copy is removed.');
    expect(gone).toEqual([2]);
  });

  it('a service that cannot delete is not asked about same names', async () => {
    fake.files.push(repositoryFile(2, 'a.pdf'));
    const done = await uploadPicked(client(), { picked: [pdf('a.pdf')], tags: [], chosenOfferings: [], companyScope: true }, null, {
      canDelete: false,
      forget: () => undefined,
    });
    expect('note' in done).toBe(true);
    expect(fake.requestsTo('GET', /repository\/files/)).toHaveLength(0);
  });
});
