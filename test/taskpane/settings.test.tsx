// @vitest-environment happy-dom
// @vitest-environment-options {"settings": {"fetch": {"disableSameOriginPolicy": true}}}
import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { App } from '../../src/taskpane/app';
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
    await screen.findByText(/The key was accepted/);
    expect(fake.requests.at(-1)!.headers['x-api-key']).toBe('session-key');
    cleanup();

    renderApp({ baseUrl: fake.origin, storage });
    expect(screen.getByRole('tab', { name: 'Settings' }).getAttribute('aria-selected')).toBe('true');
    expect((screen.getByLabelText('API key') as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText(/For this session only/) as HTMLInputElement).checked).toBe(true);
  });

  it('tests the connection with one cheap call and says what it found', async () => {
    renderApp({ baseUrl: fake.origin, apiKey: null });
    fillSettings(fake.origin, API_KEY);
    const before = fake.requests.length;
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    await screen.findByText(/Connected to .*The key was accepted; the library holds 2 files\./);
    const call = fake.requests.slice(before);
    expect(call.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/v2/repository/files/']);
    expect(call[0]!.path).toBe('/api/v2/repository/files/');
    expect(call[0]!.query.get('page_size')).toBe('1');
    expect(call[0]!.headers['x-api-key']).toBe(API_KEY);
  });

  it('explains a refused key (403) as a key or licence problem', async () => {
    fake.fail('GET', /repository\/files/, { status: 403, json: { error: 'invalid API key' } });
    renderApp({ baseUrl: fake.origin, apiKey: null });
    fillSettings(fake.origin, 'wrong');
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/Access denied \(403/);
    expect(alert.textContent).toMatch(/licence/);
    expect(alert.textContent).toContain('invalid API key');
    // What was typed stays.
    expect((screen.getByLabelText('API key') as HTMLInputElement).value).toBe('wrong');
  });

  it('explains an unreachable service, naming CORS when the service is on another origin', async () => {
    const closed = await FakeService.start();
    const deadUrl = closed.origin;
    await closed.close();
    renderApp({ baseUrl: fake.origin, apiKey: null });
    fillSettings(deadUrl, API_KEY);
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    const alert = await screen.findByRole('alert', {}, { timeout: 10_000 });
    expect(alert.textContent).toMatch(/Could not reach the service/);
    expect(alert.textContent).toMatch(/CORS/);
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
    expect(alert.textContent).toMatch(/Not found \(404/);
    expect(alert.textContent).toMatch(/not as a v2 questionnaire service/);
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
