// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors';
import { bootTaskpane, NOT_IN_EXCEL } from '../../src/taskpane/boot';
import { estimateSecondsLeft, formatBytes, formatDuration } from '../../src/taskpane/eta';
import { explainError, explainRetry } from '../../src/taskpane/errors';
import { readFillLink, writeFillLink } from '../../src/taskpane/fill-link';
import { findQuestionAt, needsReview, targetCell } from '../../src/taskpane/review';
import { createSettingsStore, STORAGE_KEYS } from '../../src/taskpane/settings-store';
import { memoryStorage as paneMemoryStorage, partitionedStorage } from '../../src/taskpane/storage';
import { themeFromOffice } from '../../src/taskpane/theme';
import { sampleQuestions } from './fake-service';
import { MemoryWorkbook, memoryStorage } from './memory-workbook';

afterEach(() => {
  cleanup();
  document.body.replaceChildren();
});

describe('small parts of the task pane', () => {
  it('estimates time left from the observed rate, and only when it can', () => {
    expect(estimateSecondsLeft([], 10)).toBeNull();
    expect(estimateSecondsLeft([{ at: 0, received: 0 }], 10)).toBeNull();
    expect(
      estimateSecondsLeft(
        [
          { at: 0, received: 2 },
          { at: 4000, received: 2 },
        ],
        10,
      ),
    ).toBeNull();
    // 4 answers in 2 s: 6 more take 3 s.
    expect(
      estimateSecondsLeft(
        [
          { at: 1000, received: 0 },
          { at: 2000, received: 1 },
          { at: 3000, received: 4 },
        ],
        10,
      ),
    ).toBe(3);
    expect(formatDuration(0.2)).toBe('1 s');
    expect(formatDuration(125)).toBe('2 min');
    expect(formatDuration(3 * 3600 + 5 * 60)).toBe('3 h 5 min');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(3 * 1024 * 1024)).toBe('3.0 MB');
  });

  it('finds the question of a cell by answer slot or question cell, sheet names case-insensitively', () => {
    const qs = sampleQuestions();
    expect(findQuestionAt(qs, { tab: 'SECURITY', address: '$C$3' })?.id).toBe(2);
    expect(findQuestionAt(qs, { tab: 'Privacy', address: 'b2' })?.id).toBe(3);
    expect(findQuestionAt(qs, { tab: 'Privacy', address: "'Privacy'!C2:C9" })?.id).toBe(3);
    expect(findQuestionAt(qs, { tab: 'Security', address: 'A1' })).toBeNull();
    expect(findQuestionAt(qs, { tab: 'Other', address: 'C3' })).toBeNull();
    // Any other cell of a question's row (its id, a comment column, the whole row) brings up that question.
    expect(findQuestionAt(qs, { tab: 'Security', address: 'A3' })?.id).toBe(2);
    expect(findQuestionAt(qs, { tab: 'security', address: 'F2:G4' })?.id).toBe(1);
    expect(findQuestionAt(qs, { tab: 'Privacy', address: '2:2' })?.id).toBe(3);
    expect(findQuestionAt(qs, { tab: 'Privacy', address: 'A3' })).toBeNull();
    // The service's `row` alone is enough; without it the rows of the question and answer cells count.
    const rowOnly = { ...qs[0]!, row: 12, question_coordinate: undefined, answer_slots: [] };
    expect(findQuestionAt([rowOnly], { tab: 'Security', address: 'E12' })?.id).toBe(1);
    const noRow = { ...qs[0]!, row: undefined, question_coordinate: undefined };
    expect(findQuestionAt([noRow], { tab: 'Security', address: 'H2' })?.id).toBe(1);
    const sheetQualified = { ...qs[0]!, answer_slots: [{ role: 'answer', header: 'A', coordinate: "'My Tab'!D7", is_blocked: false }] };
    expect(findQuestionAt([sheetQualified], { tab: 'my tab', address: 'D7' })?.id).toBe(1);
    expect(targetCell(sheetQualified)).toEqual({ tab: 'My Tab', address: 'D7' });
    // Blocked slots are not where a click takes the analyst.
    const blockedFirst = {
      ...qs[0]!,
      answer_slots: [
        { role: 'a', header: 'A', coordinate: 'C2', is_blocked: true },
        { role: 'b', header: 'B', coordinate: 'D2' },
      ],
    };
    expect(targetCell(blockedFirst)).toEqual({ tab: 'Security', address: 'D2' });
    expect(needsReview(qs[2]!)).toBe(true); // low trust
    expect(needsReview(qs[0]!)).toBe(false);
    expect(needsReview({ ...qs[0]!, answers: [] })).toBe(true);
    expect(needsReview({ ...qs[0]!, flagged_for_review: true })).toBe(true);
  });

  it('says what a 429 means and that short waits are retried; explains a bare fetch TypeError', () => {
    const e = new ApiError({ kind: 'http', status: 429, message: 'The request was refused (429).', retryAfterSeconds: 42 });
    expect(explainError(e)).toMatch(/wait 42 s and try again \(short waits are retried automatically\)/);
    expect(explainError(new TypeError('Failed to fetch'))).toMatch(/Could not reach the service/);
    expect(explainError(new TypeError('Failed to fetch'))).not.toMatch(/CORS/);
    expect(explainError(undefined)).toBe('An unexpected error occurred (no details were given).');
    // While the client waits to repeat a call by itself.
    const notice = (error: ApiError, delayMs: number) => explainRetry({ endpoint: 'GET /x/', error, delayMs, nextAttempt: 2 });
    expect(notice(e, 42_000)).toBe("The service's quota is exhausted for now (429): waiting 42 s, then retrying automatically.");
    const uploads = new ApiError({
      kind: 'http',
      status: 429,
      message: 'refused',
      serverMessage: 'too many uploads in progress: this API key already has 4 uploads in progress (at most 4 at once); retry in a few seconds',
      retryAfterSeconds: 5,
    });
    expect(notice(uploads, 5000)).toBe(
      'Too many uploads in progress: this API key already has 4 uploads in progress (at most 4 at once); retry in a few seconds. Waiting 5 s, then retrying automatically.',
    );
    expect(notice(new ApiError({ kind: 'network', message: 'refused' }), 150)).toBe('The service did not answer: retrying automatically in 1 s.');
    expect(notice(new ApiError({ kind: 'http', status: 503, message: 'down' }), 2400)).toBe('The service failed (503): retrying automatically in 3 s.');
  });

  it('keeps the settings in storage, the key only when asked, and survives a storage that throws', () => {
    const storage = memoryStorage();
    const store = createSettingsStore(storage, 'https://local');
    expect(store.load()).toEqual({ baseUrl: 'https://local', apiKey: '', keyPersistence: 'remember' });
    expect(store.save({ baseUrl: 'https://svc.example ', apiKey: ' k1 ', keyPersistence: 'remember' })).toBe(true);
    expect(storage.getItem(STORAGE_KEYS.apiKey)).toBe('k1');
    expect(store.load()).toEqual({ baseUrl: 'https://svc.example', apiKey: 'k1', keyPersistence: 'remember' });
    store.save({ baseUrl: 'https://local', apiKey: 'k2', keyPersistence: 'session' });
    expect(storage.getItem(STORAGE_KEYS.apiKey)).toBeNull();
    expect(storage.getItem(STORAGE_KEYS.baseUrl)).toBeNull(); // the default is not stored
    expect(store.load().apiKey).toBe('k2'); // this session still has it
    expect(createSettingsStore(storage, 'https://local').load().apiKey).toBe(''); // a new session does not

    const broken = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('quota');
      },
      removeItem: () => {
        throw new Error('denied');
      },
    };
    const fragile = createSettingsStore(broken, 'https://local');
    expect(fragile.save({ baseUrl: 'https://local', apiKey: 'k3', keyPersistence: 'remember' })).toBe(false);
    expect(fragile.load().apiKey).toBe('k3'); // kept in memory instead
  });

  it('prefixes keys with the Office partition key, and falls back to memory when storage is unusable', () => {
    const base = memoryStorage();
    const part = partitionedStorage(base, 'tenant-A');
    part.setItem('qfill.apiKey', 'x');
    expect(base.getItem('tenant-A/qfill.apiKey')).toBe('x');
    expect(partitionedStorage(base, 'tenant-B').getItem('qfill.apiKey')).toBeNull();
    expect(partitionedStorage(base, undefined).getItem('qfill.apiKey')).toBeNull();
    const blocked = {
      ...base,
      setItem: () => {
        throw new Error('SecurityError');
      },
    } as unknown as Storage;
    const fallback = partitionedStorage(blocked, 'p');
    fallback.setItem('k', 'v');
    expect(fallback.getItem('k')).toBe('v');
    expect(paneMemoryStorage().getItem('none')).toBeNull();
  });

  it('reads a damaged fill link as none', () => {
    const storage = memoryStorage();
    storage.setItem(`${STORAGE_KEYS.fillPrefix}d`, '{not json');
    expect(readFillLink(storage, 'd')).toBeNull();
    storage.setItem(`${STORAGE_KEYS.fillPrefix}d`, JSON.stringify({ questionnaireId: '7' }));
    expect(readFillLink(storage, 'd')).toBeNull();
    writeFillLink(storage, 'd', { questionnaireId: 7, startedAt: 'then' });
    expect(readFillLink(storage, 'd')).toEqual({ questionnaireId: 7, startedAt: 'then' });
  });

  it('follows Office theme colours, else the system preference', () => {
    expect(themeFromOffice(undefined, true)).toEqual({ dark: true, kind: 'dark' });
    expect(themeFromOffice({ bodyBackgroundColor: '#1f1f1f', bodyForegroundColor: '#ffffff' }, false).dark).toBe(true);
    expect(themeFromOffice({ bodyBackgroundColor: '#ffffff' }, true).dark).toBe(false);
    expect(themeFromOffice({ bodyBackgroundColor: '#ffffff', isDarkTheme: true }, false).dark).toBe(true);
    expect(themeFromOffice({ bodyBackgroundColor: '#fafafa', controlBackgroundColor: '#eeeeee' }, false).colors).toMatchObject({
      background: '#fafafa',
      controlBackground: '#eeeeee',
    });
  });
});

describe('boot', () => {
  const deps = {
    createWorkbook: () => new MemoryWorkbook(),
    createClient: () => {
      throw new Error('unused');
    },
  };
  const withApp = () => {
    const app = document.createElement('div');
    app.id = 'app';
    document.body.append(app);
    return app;
  };

  it('explains itself when opened in a browser without Office.js', () => {
    withApp();
    bootTaskpane(window, deps);
    expect(screen.getByRole('alert').textContent).toContain(NOT_IN_EXCEL);
    expect(screen.getByRole('alert').textContent).toContain('Office.js did not load');
  });

  it('explains itself when Office is ready in another host, or in no host', () => {
    withApp();
    const office = { HostType: { Excel: 'Excel' }, onReady: (cb: (i: { host: unknown; platform: unknown }) => void) => cb({ host: null, platform: null }) };
    bootTaskpane(Object.assign(Object.create(window), { Office: office, document }) as Window, deps);
    expect(screen.getByRole('alert').textContent).toContain('only works inside Excel');
  });

  it('mounts the pane in Excel, with storage partitioned by the partition key', async () => {
    withApp();
    localStorage.clear();
    const office = {
      HostType: { Excel: 'Excel' },
      context: { partitionKey: 'pk1' },
      onReady: (cb: (i: { host: unknown; platform: unknown }) => void) => cb({ host: 'Excel', platform: 'OfficeOnline' }),
    };
    const win = Object.assign(Object.create(window), { Office: office, document, localStorage, location: window.location, matchMedia: undefined }) as Window;
    // A service that accepts every key (a key is stored only once accepted) and offers no extensions.
    const accepting = new Proxy({} as Record<string, unknown>, {
      get: (_t, name) =>
        name === 'listRepositoryFiles'
          ? async () => ({ count: 0, next: null, previous: null, results: [] })
          : async () => {
              throw new ApiError({ kind: 'http', status: 404, message: 'Not found' });
            },
    });
    bootTaskpane(win, { ...deps, createClient: () => accepting as never });
    await waitFor(() => expect(screen.getByRole('tablist')).toBeTruthy());
    expect(screen.getByText(/Welcome\. To fill questionnaires/)).toBeTruthy();
    fireEvent.input(screen.getByLabelText('API key'), { target: { value: 'partitioned-key' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Settings saved.', {}, { timeout: 10_000 });
    expect(localStorage.getItem('pk1/qfill.apiKey')).toBe('partitioned-key');
    expect(localStorage.getItem('qfill.apiKey')).toBeNull();
  });
});
