// @vitest-environment happy-dom
// @vitest-environment-options {"settings": {"fetch": {"disableSameOriginPolicy": true}}}
import { fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors';
import { App } from '../../src/taskpane/app';
import { presentError } from '../../src/taskpane/errors';
import { explainConnectionFailure, isInsecureRemote } from '../../src/taskpane/settings/connection-check';
import { STORAGE_KEYS } from '../../src/taskpane/settings-store';
import { FakeService, repositoryFile } from './fake-service';
import { API_KEY, cleanup, renderApp } from './harness';
import { memoryStorage } from './memory-workbook';

let fake: FakeService;
beforeAll(async () => {
  fake = await FakeService.start();
  fake.files = [repositoryFile(1, 'a.pdf'), repositoryFile(2, 'b.pdf')];
});
afterAll(() => fake.close());
afterEach(cleanup);

function fillSettings(url: string, key: string) {
  fireEvent.input(screen.getByLabelText('Service address (base URL)'), { target: { value: url } });
  fireEvent.input(screen.getByLabelText('API key'), { target: { value: key } });
}

describe('Settings', () => {
  it('shows Settings with an explanation on first run, when no key is stored', () => {
    renderApp({ baseUrl: fake.origin, apiKey: null });
    expect(screen.getByRole('tab', { name: 'Settings' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByText(/Welcome\. To fill questionnaires/)).toBeTruthy();
    // The base URL defaults to the page's own service.
    expect((screen.getByLabelText('Service address (base URL)') as HTMLInputElement).value).toBe(fake.origin);
  });

  it('remembers the key in the partitioned storage, and a reopened pane starts on Fill with it', async () => {
    const storage = memoryStorage();
    renderApp({ baseUrl: fake.origin, apiKey: null, storage });
    fillSettings(fake.origin, '  remembered-key ');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Settings saved.');
    expect(storage.getItem(STORAGE_KEYS.apiKey)).toBe('remembered-key');
    expect(storage.getItem(STORAGE_KEYS.keyPersistence)).toBe('remember');
    cleanup();

    renderApp({ baseUrl: fake.origin, storage });
    expect(screen.getByRole('tab', { name: 'Fill' }).getAttribute('aria-selected')).toBe('true');
    fireEvent.click(screen.getByRole('tab', { name: 'Settings' }));
    expect((screen.getByLabelText('API key') as HTMLInputElement).value).toBe('remembered-key');
  });

  it('keeps a session-only key out of storage, and forgets it when the pane is reopened', async () => {
    const storage = memoryStorage();
    storage.setItem(STORAGE_KEYS.apiKey, 'old-key');
    renderApp({ baseUrl: fake.origin, storage });
    fireEvent.click(screen.getByRole('tab', { name: 'Settings' }));
    fillSettings(fake.origin, 'session-key');
    fireEvent.click(screen.getByLabelText(/For this session only/));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Settings saved.');
    expect(storage.getItem(STORAGE_KEYS.apiKey)).toBeNull();
    expect([...storage.map.values()].join()).not.toContain('session-key');
    // The key is used for this session: a connection test sends it.
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    await screen.findByText(/the key was accepted/);
    expect(fake.requests.at(-1)!.headers['x-api-key']).toBe('session-key');
    cleanup();

    renderApp({ baseUrl: fake.origin, storage });
    expect(screen.getByRole('tab', { name: 'Settings' }).getAttribute('aria-selected')).toBe('true');
    expect((screen.getByLabelText('API key') as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText(/For this session only/) as HTMLInputElement).checked).toBe(true);
  });

  it('says which engine writes the answers when the service tells (extractive, or the model by name)', async () => {
    fake.extensions = [];
    try {
      fake.answering = { engine: 'llm', model: 'gpt-4o-mini' };
      renderApp({ baseUrl: fake.origin, apiKey: null });
      fillSettings(fake.origin, API_KEY);
      fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
      await screen.findByText(/library holds 2 files\. Answers by gpt-4o-mini\./);
      cleanup();
      fake.answering = { engine: 'extractive' };
      renderApp({ baseUrl: fake.origin, apiKey: null });
      fillSettings(fake.origin, API_KEY);
      fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
      await screen.findByText(/Answers by extraction, no language model\./);
    } finally {
      fake.extensions = null;
      fake.answering = undefined;
    }
  });

  it('tests the connection with one cheap call and says what it found', async () => {
    renderApp({ baseUrl: fake.origin, apiKey: null });
    fillSettings(fake.origin, API_KEY);
    const before = fake.requests.length;
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    await screen.findByText(/Connected to .*: the key was accepted; the library holds 2 files\.$/);
    const call = fake.requests.slice(before);
    // The second call asks which engine writes answers; a plain v2 service answers 404 and nothing is said.
    expect(call.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/v2/repository/files/', 'GET /api/v2/extensions/']);
    expect(call[0]!.path).toBe('/api/v2/repository/files/');
    expect(call[0]!.query.get('page_size')).toBe('1');
    expect(call[0]!.headers['x-api-key']).toBe(API_KEY);
  });

  it("explains a refused key (403) in the service's words, as a key or licence problem, details folded away", async () => {
    fake.fail('GET', /repository\/files/, { status: 403, json: { error: 'invalid API key' } });
    renderApp({ baseUrl: fake.origin, apiKey: null });
    fillSettings(fake.origin, 'wrong');
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    const alert = await screen.findByRole('alert');
    // The service's sentence leads; the diagnosis is the one a refused read supports (not "read-only").
    expect(alert.querySelector('.qf-lead')!.textContent).toBe('Invalid API key.');
    expect(alert.textContent).toMatch(/This key is not valid or the organisation's licence is inactive/);
    expect(alert.textContent).not.toMatch(/read-only/i);
    const details = alert.querySelector('details')!;
    expect(details.open).toBe(false);
    expect(details.querySelector('summary')!.textContent).toBe('Details');
    expect(details.textContent).toContain('403 · GET /repository/files/');
    // What was typed stays.
    expect((screen.getByLabelText('API key') as HTMLInputElement).value).toBe('wrong');
  });

  it('explains an unreachable service without blaming CORS', async () => {
    const closed = await FakeService.start();
    const deadUrl = closed.origin;
    await closed.close();
    renderApp({ baseUrl: fake.origin, apiKey: null });
    fillSettings(deadUrl, API_KEY);
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    const alert = await screen.findByRole('alert', {}, { timeout: 10_000 });
    expect(alert.textContent).toMatch(/Could not reach the service/);
    expect(alert.textContent).toMatch(/Nothing answered there/);
    expect(alert.textContent).not.toMatch(/CORS/);
  });

  it('names CORS only when a service on another origin answers a probe but not the call', async () => {
    const closed = await FakeService.start();
    const deadUrl = closed.origin;
    await closed.close();
    const lost = (url: string) =>
      new ApiError({ kind: 'network', message: `Could not reach the service at ${url}: Failed to fetch`, endpoint: 'GET /repository/files/' });
    const page = 'https://localhost:3000';
    // Something answers at the live service's origin (a no-cors request gets through): CORS is the evidence-backed reading.
    const live = presentError(await explainConnectionFailure(lost(fake.origin), fake.origin, page));
    expect(live.hint).toMatch(/answers, but does not allow this pane's origin \(https:\/\/localhost:3000\).*CORS/);
    // Nothing answers at a closed port: unreachable, not CORS.
    const dead = presentError(await explainConnectionFailure(lost(deadUrl), deadUrl, page));
    expect(dead.hint).toMatch(/Nothing answered there/);
    expect(dead.hint).not.toMatch(/CORS/);
    // Same origin as the pane: never CORS.
    const same = presentError(await explainConnectionFailure(lost(fake.origin), fake.origin, fake.origin));
    expect(same.hint).not.toMatch(/CORS/);
  });

  it('explains a base URL that is not an address, before any request', async () => {
    renderApp({ baseUrl: fake.origin, apiKey: null });
    fillSettings('ht!tp://bad url', API_KEY);
    const before = fake.requests.length;
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/must be a full address starting with https:\/\//);
    expect(fake.requests.length).toBe(before);
  });

  it('explains a 404 as an address that is not a v2 service', async () => {
    renderApp({ baseUrl: fake.origin, apiKey: null });
    fillSettings(`${fake.origin}/not-the-service`, API_KEY);
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/not as a v2 questionnaire service/);
    expect(alert.querySelector('details')!.textContent).toContain('404 · GET /repository/files/');
  });

  it('follows the theme it is given (dark) and exposes tabs with arrow-key navigation', () => {
    render(
      <App
        createClient={() => {
          throw new Error('not used');
        }}
        workbook={undefined as never}
        storage={memoryStorage()}
        theme={{ dark: true, colors: { background: '#202020' } }}
        defaultBaseUrl={fake.origin}
      />,
    );
    const root = document.querySelector('.qf-root') as HTMLElement;
    expect(root.dataset.theme).toBe('dark');
    expect(root.style.getPropertyValue('--qf-bg')).toBe('#202020');
    const settingsTab = screen.getByRole('tab', { name: 'Settings' });
    fireEvent.keyDown(settingsTab, { key: 'ArrowRight' });
    expect(screen.getByRole('tab', { name: 'Fill' }).getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Fill' }));
    fireEvent.keyDown(screen.getByRole('tab', { name: 'Fill' }), { key: 'ArrowLeft' });
    expect(screen.getByRole('tab', { name: 'Settings' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tabpanel', { name: 'Settings' })).toBeTruthy();
  });
});

describe('Settings messages are true and current', () => {
  afterEach(() => {
    fake.validKeys = null;
    fake.clearFailures();
  });

  it("a refused key is not stored: the working one stays saved and in use; the right key then clears every old failure, the Fill tab's too", async () => {
    fake.validKeys = new Set(['right-key']);
    const storage = memoryStorage();
    storage.setItem(STORAGE_KEYS.apiKey, 'old-key');
    storage.setItem(STORAGE_KEYS.baseUrl, fake.origin);
    renderApp({ baseUrl: fake.origin, storage, initialTab: 'settings' });
    fillSettings(fake.origin, 'wrong-key');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const settings = screen.getByRole('tabpanel', { name: 'Settings' });
    await within(settings).findByText(/^Not saved: the service did not accept these settings/);
    expect(within(settings).queryByText(/Settings saved/)).toBeNull();
    expect(settings.querySelector('.qf-msg-ok')).toBeNull();
    expect(within(settings).getByRole('alert').textContent).toMatch(/^Invalid API key\. This key is not valid/);
    expect(storage.getItem(STORAGE_KEYS.apiKey)).toBe('old-key');
    expect([...storage.map.values()].join()).not.toContain('wrong-key');

    // The pane still uses the saved key (refused too, here): a fill fails and says why, not "read-only".
    fireEvent.click(screen.getByRole('tab', { name: 'Fill' }));
    const fill = screen.getByRole('tabpanel', { name: 'Fill' });
    const sent = fake.requests.length;
    fireEvent.click(within(fill).getByRole('button', { name: /Fill this workbook/ }));
    await within(fill).findByText(/the service refuses every request with it, Chat included/);
    expect(fake.requests.slice(sent).map((r) => r.headers['x-api-key'])).not.toContain('wrong-key');
    expect(fill.textContent).not.toMatch(/read-only|Asking questions still works/i);

    fireEvent.click(screen.getByRole('tab', { name: 'Settings' }));
    fillSettings(fake.origin, 'right-key');
    // Editing retires the old result: it was about other settings.
    expect(within(settings).queryByRole('alert')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await within(settings).findByText('Settings saved.');
    expect(storage.getItem(STORAGE_KEYS.apiKey)).toBe('right-key');
    expect(within(settings).getByText(/the key was accepted/)).toBeTruthy();
    expect(within(settings).queryByRole('alert')).toBeNull();
    fireEvent.click(screen.getByRole('tab', { name: 'Fill' }));
    await waitFor(() => expect(within(fill).queryByRole('alert')).toBeNull());
    expect(fill.textContent).not.toMatch(/refuses every request|Invalid API key/);
    expect((within(fill).getByRole('button', { name: /Fill this workbook/ }) as HTMLButtonElement).disabled).toBe(false);
  });

  it("names the key's organisation and user where the service tells (keys.current), and says nothing of it where it cannot", async () => {
    fake.keyOwners.set('alice-key', {
      organization: { id: 3, name: 'Acme' },
      user: { id: 9, name: 'Alice Smith', role: 'repository_manager' },
      read_only: false,
    });
    fake.keyOwners.set('reader-key', { organization: { id: 3, name: 'Acme' }, user: { id: 10, name: 'Rita', role: 'member' }, read_only: true });
    fake.extensions = ['keys.current'];
    try {
      renderApp({ baseUrl: fake.origin, apiKey: null });
      const settings = screen.getByRole('tabpanel', { name: 'Settings' });
      fillSettings(fake.origin, 'alice-key');
      fireEvent.click(screen.getByRole('button', { name: 'Save' }));
      await within(settings).findByText('Settings saved.');
      expect(within(settings).getByText(/This key is Alice Smith's \(repository manager\) in Acme\./)).toBeTruthy();
      expect(fake.requests.at(-1)!.path).toBe('/api/v2/keys/current/');

      fillSettings(fake.origin, 'reader-key');
      expect(settings.textContent).not.toContain('Alice Smith');
      fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
      await within(settings).findByText(/This key is Rita's \(member\) in Acme, read-only/);
      cleanup();

      // A plain v2 service (no GET /extensions/): the key is still checked and saved, with no owner named.
      fake.extensions = null;
      renderApp({ baseUrl: fake.origin, apiKey: null });
      fillSettings(fake.origin, 'alice-key');
      const sent = fake.requests.length;
      fireEvent.click(screen.getByRole('button', { name: 'Save' }));
      await screen.findByText('Settings saved.');
      expect(screen.getByRole('tabpanel', { name: 'Settings' }).textContent).not.toMatch(/This key is/);
      expect(fake.requests.slice(sent).map((r) => r.path)).not.toContain('/api/v2/keys/current/');
    } finally {
      fake.extensions = null;
      fake.keyOwners.clear();
    }
  });

  it('a successful test of the saved settings clears an old failure', async () => {
    renderApp({ baseUrl: fake.origin, apiKey: null });
    fillSettings(fake.origin, API_KEY);
    fake.fail('GET', /repository\/files/, { status: 503, json: { error: 'database is starting' } }, 3);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/^Database is starting\./);
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    await screen.findByText(/the key was accepted/);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('asks before sending the key to a plain http address on another machine, and sends nothing until agreed', async () => {
    renderApp({ baseUrl: fake.origin, apiKey: null });
    expect(isInsecureRemote('http://10.0.0.5:3000')).toBe(true);
    expect(isInsecureRemote(fake.origin)).toBe(false); // loopback
    expect(isInsecureRemote('http://localhost:3000')).toBe(false);
    expect(isInsecureRemote('https://qfill.example.com')).toBe(false);
    fillSettings('http://qfill.example.com', API_KEY);
    const before = fake.requests.length;
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    const ask = screen.getByRole('alertdialog', { name: 'Send the key unencrypted?' });
    expect(ask.textContent).toMatch(/http:\/\/qfill\.example\.com is not an https address/);
    fireEvent.click(within(ask).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByRole('alertdialog')).toBeTruthy();
    expect(fake.requests.length).toBe(before);
    expect(screen.queryByText(/Settings saved/)).toBeNull();
    // Agreeing sends it (here to an address that does not resolve: the failure is then said plainly).
    fireEvent.click(screen.getByRole('button', { name: 'Send the key to http://qfill.example.com' }));
    await screen.findByText(/^Not saved: the service did not accept these settings/, {}, { timeout: 10_000 });
  });
});
