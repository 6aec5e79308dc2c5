/**
 * Runs one call in a worker thread with a time budget, for the tests of hostile inputs: the call's
 * work (what the old super-linear parsers took seconds or minutes for) is judged there, never by
 * timing the main test runner, and a call that overruns is stopped instead of hanging the suite.
 *
 *   await expectWithinBudget('src/xlsx/xml.ts', '(m, xml) => m.elements(xml, "x").length', [xml], 2000)
 */
import { Worker } from 'node:worker_threads';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '..');

// The worker imports the TypeScript module with tsx, then reports "ready" before the call so that
// module loading is not counted against the budget.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  const { tsImport } = await import(workerData.tsxApi);
  const mods = [];
  for (const m of workerData.modules) mods.push(await tsImport(m, workerData.parentURL));
  const mod = workerData.many ? mods : mods[0];
  const call = (0, eval)(workerData.call);
  parentPort.postMessage({ ready: true });
  const result = await call(mod, ...workerData.args);
  parentPort.postMessage({ result });
})().catch((e) => parentPort.postMessage({ error: String((e && e.stack) || e) }));
`;

/**
 * `call` (the source of `(module, ...args) => result`) applied to the module at `modulePath` (relative to
 * the project; with several paths, to the array of their modules) and `args`; resolves with its result, or rejects when it did not return within `budgetMs`
 * of starting. The result must be structured-cloneable (a count, a small object).
 */
export function withinBudget<T>(modulePath: string | string[], call: string, args: unknown[], budgetMs: number): Promise<T> {
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: {
      tsxApi: pathToFileURL(resolve(root, 'node_modules/tsx/dist/esm/api/index.mjs')).href,
      modules: [modulePath].flat().map((p) => pathToFileURL(resolve(root, p)).href),
      many: Array.isArray(modulePath),
      parentURL: pathToFileURL(`${root}/`).href,
      call,
      args,
    },
  });
  return new Promise<T>((done, fail) => {
    let timer: NodeJS.Timeout | undefined;
    const finish = (f: () => void) => {
      clearTimeout(timer);
      void worker.terminate();
      f();
    };
    worker.on('message', (m: { ready?: boolean; result?: T; error?: string }) => {
      if (m.ready) {
        timer = setTimeout(() => finish(() => fail(new Error(`${call} did not finish within ${budgetMs} ms`))), budgetMs);
      } else if (m.error !== undefined) finish(() => fail(new Error(m.error)));
      else finish(() => done(m.result as T));
    });
    worker.on('error', (e) => finish(() => fail(e)));
  });
}
