/**
 * The Office entry of the task pane (webpack entry `taskpane`): the real Excel adapter and API client,
 * handed to the boot sequence. Opened outside Excel, the page says so instead of showing a dead pane.
 */
import { ApiClient } from '../api/client';
import { createExcelWorkbook } from '../excel';
import { bootTaskpane } from './boot';

bootTaskpane(window, {
  createWorkbook: (storage) => createExcelWorkbook({ storage }),
  createClient: (settings, hooks) => new ApiClient({ baseUrl: settings.baseUrl, apiKey: settings.apiKey, ...hooks }),
});
