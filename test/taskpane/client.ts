/** The real ApiClient as the pane tests use it, with waits cut short so retries and polls do not slow the tests. */
import { ApiClient } from '../../src/api/client';
import { sleep } from '../../src/api/retry';
import type { ClientHooks, ConnectionSettings, TaskpaneApi } from '../../src/taskpane/types';

export function realClient(settings: ConnectionSettings, hooks: ClientHooks = {}): TaskpaneApi {
  return new ApiClient({
    ...settings,
    ...hooks,
    retry: { retries: 2, baseDelayMs: 5, maxDelayMs: 10 },
    sleep: (ms, signal) => sleep(Math.min(ms, 15), signal),
  });
}
