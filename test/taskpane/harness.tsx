/** Renders the whole task pane against a FakeService (real HTTP, real ApiClient) and a MemoryWorkbook. */
import { cleanup, configure, render } from '@testing-library/preact';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { App } from '../../src/taskpane/app';
import { loadLater } from '../../src/taskpane/later';
import { STORAGE_KEYS } from '../../src/taskpane/settings-store';
import type { AppProps } from '../../src/taskpane/types';
import { realClient } from './client';
import { FakeService } from './fake-service';
import { MemoryWorkbook, memoryStorage } from './memory-workbook';

export const API_KEY = 'qf_test_key_123';

// The pane loads its later views (review, Chat, Library) after its first paint; here they are there before the first test.
beforeAll(() => loadLater());

// findBy* waits 1 s by default; a busy two-core machine (CI) can take longer to run a whole fill.
configure({ asyncUtilTimeout: 8000 });

/**
 * happy-dom's FormData drops the file name of a Blob appended with one (it names it "blob"); browsers
 * keep it. The client appends Blobs with names, so give the test window a FormData that behaves like
 * a browser's.
 */
const HappyFormData = globalThis.FormData;
class BrowserLikeFormData extends HappyFormData {
  override append(name: string, value: string | Blob, filename?: string): void {
    if (filename !== undefined && value instanceof Blob && !(value instanceof File)) {
      super.append(name, new File([value], filename, { type: value.type }));
      return;
    }
    if (filename !== undefined && typeof value !== 'string') super.append(name, value, filename);
    else super.append(name, value as string);
  }
}
globalThis.FormData = BrowserLikeFormData as typeof FormData;

export { realClient };

export interface Rendered {
  workbook: MemoryWorkbook;
  storage: ReturnType<typeof memoryStorage>;
  props: AppProps;
  container: HTMLElement;
}

export function renderApp(opts: {
  baseUrl: string;
  apiKey?: string | null;
  /** A MemoryWorkbook by default; any WorkbookAdapter (the real src/excel one) is accepted. */
  workbook?: MemoryWorkbook;
  storage?: ReturnType<typeof memoryStorage>;
  initialTab?: AppProps['initialTab'];
  stallMs?: number;
}): Rendered {
  const storage = opts.storage ?? memoryStorage();
  if (opts.apiKey !== null && !opts.storage) {
    storage.setItem(STORAGE_KEYS.apiKey, opts.apiKey ?? API_KEY);
    storage.setItem(STORAGE_KEYS.baseUrl, opts.baseUrl);
  }
  const workbook = opts.workbook ?? new MemoryWorkbook();
  const props: AppProps = {
    createClient: realClient,
    workbook,
    storage,
    theme: { dark: false },
    defaultBaseUrl: opts.baseUrl,
    libraryPollMs: 20,
    ...(opts.initialTab ? { initialTab: opts.initialTab } : {}),
    ...(opts.stallMs !== undefined ? { stallMs: opts.stallMs } : {}),
  };
  const { container } = render(<App {...props} />);
  return { workbook, storage, props, container: container as HTMLElement };
}

export { cleanup };

/** One FakeService for the file's tests (handed to `bind`); each test ends unmounted, with no scripted failures left. */
export function withFakeService(bind: (fake: FakeService) => void): void {
  let fake: FakeService | undefined;
  beforeAll(async () => {
    fake = await FakeService.start();
    bind(fake);
  });
  afterAll(() => fake?.close());
  afterEach(() => {
    cleanup();
    fake?.clearFailures();
  });
}
