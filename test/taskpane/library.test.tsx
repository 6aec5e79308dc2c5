// @vitest-environment happy-dom
// @vitest-environment-options {"settings": {"fetch": {"disableSameOriginPolicy": true}}}
import { fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RepositoryFile } from '../../src/api/schemas';
import { parseTags } from '../../src/taskpane/panes/LibraryPane';
import { STORAGE_KEYS } from '../../src/taskpane/settings-store';
import { type FakeService, repositoryFile } from './fake-service';
import { cleanup, renderApp, withFakeService } from './harness';

let fake: FakeService;
withFakeService((f) => (fake = f));
beforeEach(() => {
  fake.requests.length = 0;
  fake.files = [repositoryFile(1, 'security-overview.pdf', { tags: [{ id: 1, name: 'soc2' }] })];
  fake.onList = null;
  fake.extensions = null;
  fake.offerings = [];
  fake.orgNames = [];
});

const files = () => screen.getByRole('list', { name: 'Files' });
const pdf = (name: string) => new File([new Uint8Array([37, 80, 68, 70, 45, 49])], name, { type: 'application/pdf' });

/** Moves each processing file one stage per listing: submitted -> processing 50% -> ready. */
function advanceProcessing(list: RepositoryFile[]) {
  for (const f of list) {
    if (f.status === 'processing') Object.assign(f, { status: 'ready', status_display: 'Ready', processing_stage: 'done', processing_percent: 100 });
    else if (f.status === 'submitted')
      Object.assign(f, { status: 'processing', status_display: 'Processing', processing_stage: 'indexing', processing_percent: 50 });
  }
}

describe('Library', () => {
  it('uploads picked files with tags and offerings, then follows their processing until ready', async () => {
    // A service that lists its offerings: the analyst picks them by name.
    fake.extensions = ['offerings.list'];
    fake.offerings = [
      { id: 7, name: 'Studio', type: 'module' },
      { id: 3, name: 'Canvas LMS', type: 'product' },
    ];
    renderApp({ baseUrl: fake.origin, initialTab: 'library' });
    await within(files()).findByText('security-overview.pdf');
    fireEvent.change(screen.getByLabelText('Choose files to upload'), { target: { files: [pdf('bcp.pdf'), pdf('dr-plan.pdf')] } });
    expect(screen.getByRole('list', { name: 'Files to upload' }).textContent).toContain('bcp.pdf (6 B)');
    fireEvent.input(screen.getByLabelText('Tags (comma-separated)'), { target: { value: 'bcp, policy, bcp' } });
    const group = await screen.findByRole('group', { name: 'Offerings' });
    await within(group).findByLabelText(/Canvas LMS/);
    expect(screen.queryByLabelText(/Offering ids/)).toBeNull();
    fireEvent.click(within(group).getByLabelText(/Canvas LMS/));
    fireEvent.click(within(group).getByLabelText(/Studio/));
    fireEvent.click(screen.getByLabelText('Applies to the company as a whole'));

    let listings = 0;
    fake.onList = (list) => {
      // The first listing after the upload shows them submitted; each later one moves them on.
      if (listings++ > 0) advanceProcessing(list);
    };
    fireEvent.click(screen.getByRole('button', { name: 'Upload 2 files' }));
    await screen.findByText('Uploaded 2 files; processing has started.');
    const upload = fake.requestsTo('POST', /repository\/files/)[0]!;
    expect(upload.headers['content-type']).toMatch(/^multipart\/form-data/);
    const fields = [...upload.body.matchAll(/name="([^"]+)"(?:; filename="([^"]+)")?\r\n(?:Content-Type: [^\r]+\r\n)?\r\n([^\r]*)/g)].map((m) =>
      m[2] ? `file:${m[2]}` : `${m[1]}=${m[3]}`,
    );
    expect(fields).toEqual([
      'tags=bcp',
      'tags=policy',
      'relevant_offerings=3',
      'relevant_offerings=7',
      'scope_includes_company=false',
      'file:bcp.pdf',
      'file:dr-plan.pdf',
    ]);

    // Submitted, then processing with a bar that moves, then ready: the list polls by itself.
    const bar = await screen.findByRole('progressbar', { name: /Processing bcp\.pdf/ }, { timeout: 5000 });
    await waitFor(() => expect(bar.getAttribute('aria-valuenow')).toBe('50'));
    await waitFor(() => expect(within(files()).queryAllByRole('progressbar')).toHaveLength(0), { timeout: 5000 });
    const row = within(files()).getByText('bcp.pdf').closest('li')!;
    expect(row.textContent).toContain('Ready');
    // Polling stops once nothing is processing.
    const count = fake.requestsTo('GET', /repository\/files/).length;
    await new Promise((r) => setTimeout(r, 150));
    expect(fake.requestsTo('GET', /repository\/files/).length).toBe(count);
    // Inputs are cleared after a successful upload; the picked list is gone.
    expect(screen.queryByRole('list', { name: 'Files to upload' })).toBeNull();
  });

  it('offers the offerings seen in the library by name, so nobody needs to know their ids', async () => {
    fake.files = [
      repositoryFile(1, 'canvas.pdf', {
        relevant_offerings: [
          { id: 7, name: 'Studio', type: 'module' },
          { id: 3, name: 'Canvas LMS', type: 'product' },
        ],
      }),
      repositoryFile(2, 'studio.pdf', { relevant_offerings: [{ id: 7, name: 'Studio', type: 'module' }] }),
    ];
    renderApp({ baseUrl: fake.origin, initialTab: 'library' });
    const group = await screen.findByRole('group', { name: 'Offerings' });
    await waitFor(() =>
      expect(
        within(group)
          .getAllByRole('checkbox')
          .map((c) => c.closest('label')!.textContent),
      ).toEqual(['Canvas LMS (product)', 'Studio (module)']),
    );
    expect(group.textContent).not.toMatch(/id \d/);
    fireEvent.click(within(group).getByLabelText(/Studio/));
    fireEvent.click(within(group).getByLabelText(/Canvas LMS/));
    fireEvent.click(within(group).getByLabelText(/Studio/));
    expect((within(group).getByLabelText(/Canvas LMS/) as HTMLInputElement).checked).toBe(true);
    expect((within(group).getByLabelText(/Studio/) as HTMLInputElement).checked).toBe(false);

    fireEvent.change(screen.getByLabelText('Choose files to upload'), { target: { files: [pdf('new.pdf')] } });
    fireEvent.click(screen.getByRole('button', { name: 'Upload 1 file' }));
    await screen.findByText(/Uploaded 1 file/);
    const upload = fake.requestsTo('POST', /repository\/files/).at(-1)!;
    expect([...upload.body.matchAll(/name="relevant_offerings"\r\n\r\n(\d+)/g)].map((m) => m[1])).toEqual(['3']);
  });

  it("keeps the file list region to the files alone, so 'Ready' counts there are the files' own", async () => {
    renderApp({ baseUrl: fake.origin, initialTab: 'library' });
    const region = screen.getByRole('region', { name: 'Library files' });
    await within(region).findByText('security-overview.pdf');
    expect(within(region).queryByRole('combobox')).toBeNull();
    expect(within(region).getAllByText(/^Ready$/i)).toHaveLength(1);
    expect(within(screen.getByRole('search', { name: 'Find files' })).getAllByRole('combobox')).toHaveLength(3);
    // The optional fields sit folded away until used.
    expect(screen.getByText('Tags, offerings and scope (optional)').closest('details')!.open).toBe(false);
  });

  it('accepts files dropped on the drop zone', async () => {
    renderApp({ baseUrl: fake.origin, initialTab: 'library' });
    const zone = screen.getByText('Drop documents here, or').closest('.qf-drop')!;
    // happy-dom has no DragEvent (testing-library's dragOver never arrives): dispatch plain events.
    const dragOver = new Event('dragover', { bubbles: true, cancelable: true });
    zone.dispatchEvent(dragOver);
    expect(dragOver.defaultPrevented).toBe(true); // what makes the zone accept a drop
    await waitFor(() => expect(zone.getAttribute('data-over')).toBe('true'));
    const drop = new Event('drop', { bubbles: true, cancelable: true });
    Object.defineProperty(drop, 'dataTransfer', { value: { files: [pdf('dropped.pdf')] } });
    zone.dispatchEvent(drop);
    await waitFor(() => expect(zone.getAttribute('data-over')).toBe('false'));
    expect(screen.getByRole('list', { name: 'Files to upload' }).textContent).toContain('dropped.pdf');
    fireEvent.click(screen.getByRole('button', { name: 'Upload 1 file' }));
    await screen.findByText('Uploaded 1 file; processing has started.');
    expect(fake.requestsTo('POST', /repository\/files/)[0]!.body).toContain('filename="dropped.pdf"');
  });

  it('shows why processing failed', async () => {
    fake.files.push(
      repositoryFile(2, 'scan.pdf', { status: 'failed', status_display: 'Failed', error: 'The PDF is encrypted; upload a copy without a password.' }),
    );
    renderApp({ baseUrl: fake.origin, initialTab: 'library' });
    const row = (await within(files()).findByText('scan.pdf')).closest('li')!;
    expect(row.textContent).toContain('Processing failed: The PDF is encrypted; upload a copy without a password.');
  });

  it('searches, filters by status and type, sorts and pages', async () => {
    fake.files = Array.from({ length: 25 }, (_, i) =>
      repositoryFile(i + 1, `doc-${String(i + 1).padStart(2, '0')}.pdf`, {
        document_type: i % 5 === 0 ? 'security_certificate' : 'documentation',
        created_at: `2025-01-${String(i + 1).padStart(2, '0')}T00:00:00Z`,
      }),
    );
    renderApp({ baseUrl: fake.origin, initialTab: 'library' });
    await screen.findByText('25 files');
    expect(screen.getByText('Page 1 of 2')).toBeTruthy();
    expect(within(files()).getAllByRole('listitem')).toHaveLength(20);
    expect(within(files()).getAllByRole('listitem')[0]!.textContent).toContain('doc-25.pdf'); // newest first
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(within(files()).getAllByRole('listitem')).toHaveLength(5));
    expect(
      fake
        .requestsTo('GET', /repository\/files/)
        .at(-1)!
        .query.get('page'),
    ).toBe('2');

    fireEvent.change(screen.getByLabelText('Sort'), { target: { value: 'original_filename' } });
    await waitFor(() => expect(within(files()).getAllByRole('listitem')[0]!.textContent).toContain('doc-21.pdf'));
    fireEvent.change(screen.getByLabelText('Filter by type'), { target: { value: 'security_certificate' } });
    await screen.findByText('5 files');
    const q = fake.requestsTo('GET', /repository\/files/).at(-1)!.query;
    expect(q.get('document_type')).toBe('security_certificate');
    expect(q.get('ordering')).toBe('original_filename');
    expect(q.get('page')).toBe('1'); // a new filter starts at the first page
    fireEvent.change(screen.getByLabelText('Filter by status'), { target: { value: 'failed' } });
    await screen.findByText('No files match these filters.');
    fireEvent.change(screen.getByLabelText('Filter by status'), { target: { value: '' } });
    fireEvent.input(screen.getByLabelText('Search files'), { target: { value: 'doc-06' } });
    await screen.findByText('1 file');
    expect(
      fake
        .requestsTo('GET', /repository\/files/)
        .at(-1)!
        .query.get('search'),
    ).toBe('doc-06');
  });

  it('a 403 on upload disables uploading with the reason and keeps what was typed', async () => {
    fake.fail('POST', /repository\/files/, { status: 403, json: { error: 'read-only key' } });
    const { storage } = renderApp({ baseUrl: fake.origin, initialTab: 'library' });
    fireEvent.change(screen.getByLabelText('Choose files to upload'), { target: { files: [pdf('a.pdf')] } });
    fireEvent.input(screen.getByLabelText('Tags (comma-separated)'), { target: { value: 'keep' } });
    fireEvent.click(screen.getByRole('button', { name: 'Upload 1 file' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/^Read-only key\. This key is read-only: it can ask questions in Chat but cannot upload/);
    const button = screen.getByRole('button', { name: 'Upload 1 file' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    const library = screen.getByRole('tabpanel', { name: 'Library' });
    expect(within(library).getByText(/Uploads are disabled: this API key is read-only\./)).toBeTruthy();
    expect((screen.getByLabelText('Tags (comma-separated)') as HTMLInputElement).value).toBe('keep');
    expect(screen.getByRole('list', { name: 'Files to upload' }).textContent).toContain('a.pdf');
    expect(storage.getItem(STORAGE_KEYS.uploadBlocked)).toBeTruthy();
  });

  it('rejects a tag that is too long before sending anything', async () => {
    renderApp({ baseUrl: fake.origin, initialTab: 'library' });
    fireEvent.change(screen.getByLabelText('Choose files to upload'), { target: { files: [pdf('a.pdf')] } });
    fireEvent.input(screen.getByLabelText('Tags (comma-separated)'), { target: { value: `ok, ${'x'.repeat(51)}` } });
    fireEvent.click(screen.getByRole('button', { name: 'Upload 1 file' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/longer than 50 characters/);
    expect(fake.requestsTo('POST', /repository\/files/)).toHaveLength(0);
    expect(parseTags('a, , b ,a')).toEqual({ tags: ['a', 'b'], error: null });
  });

  it.each([
    [400, {}, /^Scripted 400\.Details400 · GET \/repository\/files\//],
    [404, {}, /^Scripted 404\. It does not exist, or this key cannot see it\./],
    [429, { 'Retry-After': '300' }, /wait 300 s/],
  ])('shows a %i on listing as a sentence', async (status, headers, message) => {
    fake.fail('GET', /repository\/files/, { status, headers }, 5);
    renderApp({ baseUrl: fake.origin, initialTab: 'library' });
    expect((await screen.findByRole('alert')).textContent).toMatch(message);
  });

  it('shows an unreachable service as a sentence', async () => {
    fake.fail('GET', /repository\/files/, 'reset', 10);
    renderApp({ baseUrl: fake.origin, initialTab: 'library' });
    expect((await screen.findByRole('alert', {}, { timeout: 10_000 })).textContent).toMatch(/Could not reach the service|connection/i);
  });
});

describe('Library management (extension to v2, feature-detected)', () => {
  const row = (name: string) => within(files()).getByText(name).closest('li')!;

  it('on a plain v2 service (no /extensions/), offers no Delete and never sends one', async () => {
    fake.files.push(repositoryFile(2, 'northwind.pdf'));
    renderApp({ baseUrl: fake.origin, initialTab: 'library' });
    await within(files()).findByText('northwind.pdf');
    await waitFor(() => expect(fake.requestsTo('GET', /\/extensions\//)).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 50));
    expect(within(files()).queryAllByRole('button', { name: /^Delete/ })).toHaveLength(0);
    // Same name uploaded: no replace question (nothing could remove the old copy); both are kept.
    fireEvent.change(screen.getByLabelText('Choose files to upload'), { target: { files: [pdf('northwind.pdf')] } });
    fireEvent.click(screen.getByRole('button', { name: 'Upload 1 file' }));
    await screen.findByText('Uploaded 1 file; processing has started.');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(fake.requests.some((r) => r.method === 'DELETE')).toBe(false);
  });

  it('deletes a file after the analyst confirms, and refreshes the list', async () => {
    fake.extensions = ['repository.delete'];
    fake.files.push(repositoryFile(2, 'northwind.pdf', { qa_count: 12 }));
    renderApp({ baseUrl: fake.origin, initialTab: 'library' });
    const button = await within(files()).findByRole('button', { name: 'Delete northwind.pdf' });
    fireEvent.click(button);
    const ask = within(row('northwind.pdf')).getByRole('alertdialog', { name: 'Delete northwind.pdf?' });
    expect(ask.textContent).toMatch(/Its passages and 12 reusable answers leave the knowledge base; answers already written stay/);
    fireEvent.click(within(ask).getByRole('button', { name: 'Cancel' }));
    expect(fake.requests.some((r) => r.method === 'DELETE')).toBe(false);
    fireEvent.click(within(files()).getByRole('button', { name: 'Delete northwind.pdf' }));
    fireEvent.click(within(row('northwind.pdf')).getByRole('button', { name: 'Delete' }));
    await screen.findByText('Deleted northwind.pdf.');
    expect(fake.requestsTo('DELETE', /repository\/files\/2\/$/)).toHaveLength(1);
    await waitFor(() => expect(within(files()).queryByText('northwind.pdf')).toBeNull());
    expect(within(files()).getByText('security-overview.pdf')).toBeTruthy();
  });

  it("shows a refused delete in the service's words and keeps the file", async () => {
    fake.extensions = ['repository.delete'];
    fake.fail('DELETE', /repository\/files\/1\//, { status: 403, json: { error: 'this API key is read-only and cannot delete files' } });
    renderApp({ baseUrl: fake.origin, initialTab: 'library' });
    fireEvent.click(await within(files()).findByRole('button', { name: 'Delete security-overview.pdf' }));
    fireEvent.click(within(row('security-overview.pdf')).getByRole('button', { name: 'Delete' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/^This API key is read-only and cannot delete files\. This key is read-only/);
    expect(within(files()).getByText('security-overview.pdf')).toBeTruthy();
  });

  it('replaces a file uploaded again under the same name once the analyst confirms: new in first, then the old one out', async () => {
    fake.extensions = ['repository.delete'];
    fake.files.push(repositoryFile(2, 'Northwind.pdf'));
    renderApp({ baseUrl: fake.origin, initialTab: 'library' });
    await within(files()).findByText('Northwind.pdf');
    fireEvent.change(screen.getByLabelText('Choose files to upload'), { target: { files: [pdf('northwind.pdf')] } });
    fireEvent.click(screen.getByRole('button', { name: 'Upload 1 file' }));
    const ask = await screen.findByRole('alertdialog', { name: 'Replace files with the same name?' });
    expect(ask.textContent).toMatch(/Already in the library: Northwind\.pdf\. Replace removes the old copies/);
    expect(fake.requestsTo('POST', /repository\/files/)).toHaveLength(0);
    fireEvent.click(within(ask).getByRole('button', { name: 'Replace' }));
    await screen.findByText(/Uploaded 1 file; processing has started\. Replaced Northwind\.pdf: the old copy is removed\./);
    const order = fake.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);
    expect(order).toEqual(['POST /api/v2/repository/files/', 'DELETE /api/v2/repository/files/2/']);
  });

  it('keeps both when the analyst says so', async () => {
    fake.extensions = ['repository.delete'];
    renderApp({ baseUrl: fake.origin, initialTab: 'library' });
    await within(files()).findByText('security-overview.pdf');
    fireEvent.change(screen.getByLabelText('Choose files to upload'), { target: { files: [pdf('security-overview.pdf')] } });
    fireEvent.click(screen.getByRole('button', { name: 'Upload 1 file' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Keep both' }));
    await screen.findByText('Uploaded 1 file; processing has started.');
    expect(fake.requests.some((r) => r.method === 'DELETE')).toBe(false);
  });

  it('labels types in words and counts the reusable answers an imported questionnaire gave', async () => {
    fake.files = [
      repositoryFile(1, 'soc2.pdf', { document_type: 'security_certificate' }),
      repositoryFile(2, 'hecvat-completed.xlsx', { document_type: 'qna', file_format: 'excel', qa_count: 261, passage_count: 0 }),
      repositoryFile(3, 'old.xlsx', { document_type: 'q_a', file_format: 'excel', qa_count: 1, passage_count: 0 }),
      repositoryFile(4, 'soc2-2022.pdf', {
        document_type: 'security_certificate',
        as_of: '2022-12-31',
        valid_until: '2022-12-31',
        valid_said: 'for the period January 1, 2022 to December 31, 2022',
        expired: true,
      }),
      repositoryFile(5, 'iso-cert.pdf', { document_type: 'security_certificate', as_of: '2024-05-02', valid_until: '2027-05-01', expired: false }),
    ];
    renderApp({ baseUrl: fake.origin, initialTab: 'library' });
    await within(files()).findByText('soc2.pdf');
    // A document past the validity it states says so, with the words it was read from.
    const expired = within(row('soc2-2022.pdf')).getByText('Expired 2022-12-31');
    expect(expired.getAttribute('title')).toBe('for the period January 1, 2022 to December 31, 2022');
    expect(row('soc2-2022.pdf').textContent).toMatch(/12 passages · as of 2022-12-31$/);
    expect(row('iso-cert.pdf').textContent).toMatch(/as of 2024-05-02 · valid until 2027-05-01$/);
    expect(within(row('iso-cert.pdf')).queryByText(/Expired/)).toBeNull();
    expect(row('soc2.pdf').textContent).toMatch(/Certificate or audit report · PDF · 12 passages/);
    expect(row('hecvat-completed.xlsx').textContent).toMatch(/Q&A · Excel · 261 reusable answers/);
    expect(row('old.xlsx').textContent).toMatch(/Q&A · Excel · 1 reusable answer$/);
    const types = [...(screen.getByLabelText('Filter by type') as HTMLSelectElement).options].map((o) => o.textContent);
    expect(types.filter((t) => t === 'Q&A')).toHaveLength(1);
    expect(types.join('|')).not.toMatch(/Qna|Q a|_/);
    expect(types).toContain('Certificate or audit report');
  });
});

describe("the organisation's names (extension)", () => {
  it('shows and saves them where the service has them, and not elsewhere', async () => {
    fake.extensions = ['organisation.names'];
    fake.orgNames = ['Northwind'];
    renderApp({ baseUrl: fake.origin, initialTab: 'library' });
    const field = (await screen.findByLabelText('Organisation names (comma-separated)')) as HTMLInputElement;
    await waitFor(() => expect(field.value).toBe('Northwind'));
    fireEvent.input(field, { target: { value: 'Northwind,  Northwind Cloud , ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save names' }));
    await screen.findByText('Saved: Northwind, Northwind Cloud.');
    const put = fake.requestsTo('PUT', /organisation\/names/)[0]!;
    expect(JSON.parse(put.body)).toEqual({ names: ['Northwind', 'Northwind Cloud'] });
    cleanup();

    fake.extensions = null;
    renderApp({ baseUrl: fake.origin, initialTab: 'library' });
    await within(files()).findByText('security-overview.pdf');
    await waitFor(() => expect(fake.requestsTo('GET', /\/extensions\//).length).toBeGreaterThan(0));
    expect(screen.queryByLabelText('Organisation names (comma-separated)')).toBeNull();
  });

  it('a list the key cannot read is an error, not an empty library', async () => {
    fake.files = [];
    fake.fail('GET', /repository\/files/, { status: 401, json: { error: 'Invalid API key' } }, 10);
    renderApp({ baseUrl: fake.origin, initialTab: 'library' });
    await screen.findByText(/Invalid API key|API key/);
    expect(screen.queryByText(/^No documents yet/)).toBeNull();
  });
});
